#include "attention/mechanism/rotary.hpp"

#include <cmath>
#include <vector>

namespace attn {

// the checks both versions make
static void require_rotary(Index n, Index d, const RotaryOptions& o) {
    require_argument(d % 2 == 0, "matrix",
                     "matrix has " + std::to_string(d) + " columns; rotary turns pairs of columns, so its width must be even");
    require_argument(std::isfinite(o.base) && o.base > 1, "base",
                     "base must be a finite number above 1, got " + number(o.base));
    require_argument(o.offset >= 0, "offset", "offset must be at least 0, got " + std::to_string(o.offset));
    require(double(n) * double(d) <= kMaxMapEntries, "matrix is too large: " + shape(n, d));
}

// base^(-2i/d) for each pair i: the turn of one position
static std::vector<double> rotary_frequencies(Index d, double base) {
    std::vector<double> f(size_t(d / 2));
    for (Index i = 0; i < d / 2; ++i) f[size_t(i)] = std::pow(base, -2.0 * double(i) / double(d));
    return f;
}

Mat rotary_angles(Index n, Index d, const RotaryOptions& o) {
    require(n >= 1 && d >= 2, "rotary angles need n >= 1 and d >= 2, got " + shape(n, d));
    require_rotary(n, d, o);
    const std::vector<double> f = rotary_frequencies(d, o.base);
    Mat angles(n, d / 2);  // (n, d/2)
    for (Index r = 0; r < n; ++r)
        for (Index i = 0; i < d / 2; ++i) angles(r, i) = Scalar(double(r + o.offset) * f[size_t(i)]);
    return angles;
}

// The frequencies once, and each angle's cosine and sine in double (an angle
// of 10^5 radians keeps its float32 turn exact), once per row and pair; the
// turn itself in float32.
Mat rotary(const MatRef& X, const RotaryOptions& o) {
    require_nonempty(X, "matrix");
    require_rotary(X.rows(), X.cols(), o);
    require_finite(X, "matrix");
    const Index n = X.rows(), half = X.cols() / 2;
    const std::vector<double> f = rotary_frequencies(X.cols(), o.base);
    Mat Y(n, X.cols());  // (n, d)
    for (Index r = 0; r < n; ++r) {
        const Scalar* x = X.data() + r * X.outerStride();
        Scalar* y = Y.data() + r * Y.cols();
        for (Index i = 0; i < half; ++i) {
            const double theta = double(r + o.offset) * f[size_t(i)];
            const Scalar c = Scalar(std::cos(theta)), s = Scalar(std::sin(theta));
            y[2 * i] = x[2 * i] * c - x[2 * i + 1] * s;
            y[2 * i + 1] = x[2 * i] * s + x[2 * i + 1] * c;
        }
    }
    return Y;
}

Mat rotary_reference(const MatRef& X, const RotaryOptions& o) {
    require_nonempty(X, "matrix");
    require_rotary(X.rows(), X.cols(), o);
    const Index d = X.cols();
    Mat Y(X.rows(), d);
    for (Index r = 0; r < X.rows(); ++r)
        for (Index i = 0; i < d / 2; ++i) {
            const double theta = double(r + o.offset) * std::pow(o.base, -2.0 * double(i) / double(d));
            const double x0 = X(r, 2 * i), x1 = X(r, 2 * i + 1);
            Y(r, 2 * i) = Scalar(x0 * std::cos(theta) - x1 * std::sin(theta));
            Y(r, 2 * i + 1) = Scalar(x0 * std::sin(theta) + x1 * std::cos(theta));
        }
    return Y;
}

}  // namespace attn
