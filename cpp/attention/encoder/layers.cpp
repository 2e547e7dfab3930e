#include "attention/encoder/layers.hpp"

#include <cmath>

namespace attn {

namespace {

void require_affine(const MatRef& X, const MatRef& W, const VecRef& b) {
    require_nonempty(X, "input");
    require(W.rows() == X.cols(), "weights must have " + std::to_string(X.cols()) + " rows (the input width), got " +
                                      shape(W));
    require(b.size() == W.cols(), "bias must have " + std::to_string(W.cols()) + " entries (the output width), got " +
                                      std::to_string(b.size()));
}

void require_norm(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps) {
    require_nonempty(X, "input");
    if (scale.size() != X.cols() || bias.size() != X.cols())
        fail("layer norm scale and bias must have " + std::to_string(X.cols()) + " entries (the input width)");
    if (!(eps > 0 && std::isfinite(eps))) fail("layer norm eps must be positive, got " + number(eps));
}

}  // namespace

void layer_norm_into(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps, Eigen::Ref<Mat> Y) {
    require_norm(X, scale, bias, eps);
    if (Y.rows() != X.rows() || Y.cols() != X.cols())
        fail("layer norm: the output has shape " + shape(Y) + ", expected " + shape(X));
    const Scalar d = Scalar(X.cols());
    for (Index i = 0; i < X.rows(); ++i) {
        auto y = Y.row(i).array();
        y = X.row(i).array() - X.row(i).sum() / d;  // centred
        const Scalar variance = y.square().sum() / d;
        const Scalar inv = Scalar(1) / std::sqrt(variance + eps);
        y = y * (scale.transpose().array() * inv) + bias.transpose().array();
    }
}

Mat layer_norm(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps) {
    Mat Y(X.rows(), X.cols());
    layer_norm_into(X, scale, bias, eps, Y);
    return Y;
}

Mat dense(const MatRef& X, const MatRef& W, const VecRef& b) {
    require_affine(X, W, b);
    Mat Y = X * W;
    Y.rowwise() += b.transpose();
    return Y;
}

Mat relu(const MatRef& X) { return X.cwiseMax(Scalar(0)); }

Mat feed_forward(const MatRef& X, const MatRef& W1, const VecRef& b1, const MatRef& W2, const VecRef& b2) {
    return dense(relu(dense(X, W1, b1)), W2, b2);
}

Mat layer_norm_reference(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps) {
    require_norm(X, scale, bias, eps);
    Mat Y(X.rows(), X.cols());
    for (Index i = 0; i < X.rows(); ++i) {
        double mean = 0, variance = 0;
        for (Index j = 0; j < X.cols(); ++j) mean += X(i, j);
        mean /= double(X.cols());
        for (Index j = 0; j < X.cols(); ++j) variance += (X(i, j) - mean) * (X(i, j) - mean);
        variance /= double(X.cols());
        for (Index j = 0; j < X.cols(); ++j)
            Y(i, j) = Scalar((X(i, j) - mean) / std::sqrt(variance + eps) * scale(j) + bias(j));
    }
    return Y;
}

Mat dense_reference(const MatRef& X, const MatRef& W, const VecRef& b) {
    require_affine(X, W, b);
    Mat Y(X.rows(), W.cols());
    for (Index i = 0; i < X.rows(); ++i)
        for (Index j = 0; j < W.cols(); ++j) {
            double sum = b(j);
            for (Index k = 0; k < X.cols(); ++k) sum += double(X(i, k)) * W(k, j);
            Y(i, j) = Scalar(sum);
        }
    return Y;
}

}  // namespace attn
