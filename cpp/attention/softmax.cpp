#include "attention/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace attn {

static void check(const MatRef& x, const Mask& mask, Scalar temperature) {
    require_finite(x, "x");
    require_finite(temperature, "temperature");
    require(temperature > 0, "temperature must be greater than 0, got " + number(temperature));
    require(mask.rows() == x.rows() && mask.cols() == x.cols(),
            "mask has shape " + shape(mask.rows(), mask.cols()) + " but x has shape " + shape(x));
}

Mat softmax_rows(const MatRef& x, Scalar temperature) {
    return masked_softmax_rows(x, Mask::Constant(x.rows(), x.cols(), true), temperature);
}

Mat masked_softmax_rows(const MatRef& x, const Mask& mask, Scalar temperature) {
    check(x, mask, temperature);
    Mat w = Mat::Zero(x.rows(), x.cols());
    for (Index i = 0; i < x.rows(); ++i) {
        // pass 1: the largest allowed score, for stability
        Scalar top = -std::numeric_limits<Scalar>::infinity();
        for (Index j = 0; j < x.cols(); ++j)
            if (mask(i, j) && x(i, j) > top) top = x(i, j);
        if (top == -std::numeric_limits<Scalar>::infinity()) continue;  // fully masked row
        // pass 2: exponentials and their sum
        Scalar sum = 0;
        for (Index j = 0; j < x.cols(); ++j)
            if (mask(i, j)) sum += w(i, j) = std::exp((x(i, j) - top) / temperature);
        // pass 3: normalise (sum >= 1: the maximum contributes exp(0))
        w.row(i) /= sum;
    }
    return w;
}

Mat masked_softmax_rows_reference(const MatRef& x, const Mask& mask, Scalar temperature) {
    check(x, mask, temperature);
    Mat w = Mat::Zero(x.rows(), x.cols());
    for (Index i = 0; i < x.rows(); ++i) {
        double top = -INFINITY;
        for (Index j = 0; j < x.cols(); ++j)
            if (mask(i, j)) top = std::max(top, double(x(i, j)));
        if (std::isinf(top)) continue;
        std::vector<double> e(size_t(x.cols()), 0.0);
        double sum = 0;
        for (Index j = 0; j < x.cols(); ++j)
            if (mask(i, j)) sum += e[size_t(j)] = std::exp((double(x(i, j)) - top) / temperature);
        for (Index j = 0; j < x.cols(); ++j) w(i, j) = Scalar(e[size_t(j)] / sum);
    }
    return w;
}

}  // namespace attn
