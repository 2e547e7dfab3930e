#include "attention/mechanism/softmax.hpp"

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
    return masked_softmax_steps(x, mask, temperature).weights;
}

SoftmaxSteps masked_softmax_steps(const MatRef& x, const Mask& mask, Scalar temperature) {
    check(x, mask, temperature);
    return masked_softmax_steps_unchecked(x, mask, temperature);
}

SoftmaxSteps masked_softmax_steps_unchecked(const MatRef& x, const Mask& mask, Scalar temperature) {
    SoftmaxSteps s{Vec::Zero(x.rows()), Mat::Zero(x.rows(), x.cols()), Vec::Zero(x.rows()),
                   Mat::Zero(x.rows(), x.cols())};
    for (Index i = 0; i < x.rows(); ++i) {
        // pass 1: the largest allowed score, for stability
        Scalar top = -std::numeric_limits<Scalar>::infinity();
        for (Index j = 0; j < x.cols(); ++j)
            if (mask(i, j) && x(i, j) > top) top = x(i, j);
        if (top == -std::numeric_limits<Scalar>::infinity()) continue;  // fully masked row: all 0
        s.row_max(i) = top;
        // pass 2: exponentials and their sum. Divided before the shift:
        // (x - top) / T would overflow for x near ±float32 max even when
        // (x - top) / T itself is small (found by fuzzing)
        const Scalar shift = top / temperature;
        Scalar sum = 0;
        for (Index j = 0; j < x.cols(); ++j)
            if (mask(i, j)) {
                const Scalar scaled = x(i, j) / temperature;
                if (!std::isfinite(scaled))
                    fail("x / temperature overflows float32 at row " + std::to_string(i) + ", column " +
                         std::to_string(j) + "; use a larger temperature");
                sum += s.exps(i, j) = std::exp(scaled - shift);
            }
        s.row_sums(i) = sum;
        // pass 3: normalise (sum >= 1: the maximum contributes exp(0))
        s.weights.row(i) = s.exps.row(i) / sum;
    }
    return s;
}

Vec entropy_rows(const MatRef& weights) {
    require_finite(weights, "weights");
    Vec h = Vec::Zero(weights.rows());
    for (Index i = 0; i < weights.rows(); ++i)
        for (Index j = 0; j < weights.cols(); ++j) {
            const Scalar w = weights(i, j);
            require(w >= 0, "weights must not be negative, got " + number(w) + " at row " + std::to_string(i) +
                                ", column " + std::to_string(j));
            if (w > 0) h(i) -= w * std::log(w);  // 0 log 0 = 0
        }
    return h;
}

Mat sigmoid(const MatRef& x) {
    require_finite(x, "x");
    // exp(-|x|) never overflows; the two branches are the same function
    return x.unaryExpr([](Scalar v) {
        const Scalar e = std::exp(-std::abs(v));
        return v >= 0 ? 1 / (1 + e) : e / (1 + e);
    });
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
