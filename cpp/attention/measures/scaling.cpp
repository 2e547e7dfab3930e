#include "attention/measures/scaling.hpp"

#include "attention/init.hpp"

#include <cmath>

namespace attn {

// mean and (population) variance, in double
static void moments(const Vec& x, double& mean, double& variance) {
    mean = x.cast<double>().mean();
    variance = (x.cast<double>().array() - mean).square().mean();
}

DotProductSamples dot_product_samples(Index d, Index count, std::uint64_t seed) {
    require(d >= 1 && d <= 4096, "d must be between 1 and 4096, got " + std::to_string(d));
    require(count >= 1 && count <= 100000, "count must be between 1 and 100000, got " + std::to_string(count));
    const Scalar limit = std::sqrt(Scalar(3));
    const Mat Q = init_uniform(count, d, seed, stream::input, limit);
    const Mat K = init_uniform(count, d, seed, stream::input + 1, limit);
    DotProductSamples s;
    s.dots = Q.cwiseProduct(K).rowwise().sum();  // q_i . k_i
    s.scaled = s.dots / std::sqrt(Scalar(d));
    moments(s.dots, s.mean, s.variance);
    moments(s.scaled, s.scaled_mean, s.scaled_variance);
    return s;
}

}  // namespace attn
