#include "attention/mechanism/positional.hpp"

#include <cmath>

namespace attn {

static void check(Index n, Index d, Scalar base) {
    require(n >= 1, "n (positions) must be at least 1, got " + std::to_string(n));
    require(d >= 1, "d (width) must be at least 1, got " + std::to_string(d));
    require(double(n) * double(d) <= 1e8, "positional encoding of " + shape(n, d) + " is too large");
    require(std::isfinite(base) && base > 1, "base must be a finite number greater than 1");
}

Mat positional_encoding(Index n, Index d, Scalar base) {
    check(n, d, base);
    Mat pe(n, d);
    for (Index p = 0; p < n; ++p) positional_encoding_row(p, d, base, pe.row(p).data());
    return pe;
}

void positional_encoding_row(Index p, Index d, Scalar base, float* out) {
    for (Index c = 0; c < d; ++c) {
        // the pair's inverse frequency and the angle in double, for accuracy at large p
        const double angle = double(p) * std::pow(double(base), -2.0 * double(c / 2) / double(d));
        out[c] = Scalar(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
}

Mat positional_encoding_reference(Index n, Index d, Scalar base) {
    check(n, d, base);
    Mat pe(n, d);
    for (Index p = 0; p < n; ++p)
        for (Index i = 0; 2 * i < d; ++i) {
            const double angle = double(p) / std::pow(double(base), double(2 * i) / double(d));
            pe(p, 2 * i) = Scalar(std::sin(angle));
            if (2 * i + 1 < d) pe(p, 2 * i + 1) = Scalar(std::cos(angle));
        }
    return pe;
}

}  // namespace attn
