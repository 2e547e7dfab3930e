#include "attention/init.hpp"

#include <cmath>

namespace attn {

Rng::Rng(std::uint64_t seed, std::uint64_t stream)
    : state_(seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull) {}

std::uint64_t Rng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double Rng::uniform() { return double(next() >> 40) * (1.0 / 16777216.0); }

Mat init_uniform(Index rows, Index cols, std::uint64_t seed, std::uint64_t stream, Scalar limit) {
    require(rows > 0 && cols > 0, "parameter shape must be positive, got " + shape(rows, cols));
    if (!(std::isfinite(limit) && limit >= 0)) fail("limit must be a finite number >= 0, got " + number(limit));
    Rng rng(seed, stream);
    Mat m(rows, cols);
    // 2u - 1 has 25 significant bits and limit 24, so the product is exact in
    // double and rounds to float32 identically on every platform.
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j)
            m(i, j) = Scalar((2.0 * rng.uniform() - 1.0) * double(limit));
    return m;
}

Mat init_xavier(Index rows, Index cols, std::uint64_t seed, std::uint64_t stream) {
    require(rows > 0 && cols > 0, "parameter shape must be positive, got " + shape(rows, cols));
    const Scalar limit = std::sqrt(Scalar(6.0 / (double(rows) + double(cols))));
    return init_uniform(rows, cols, seed, stream, limit);
}

}  // namespace attn
