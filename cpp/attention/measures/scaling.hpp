// Why scores are scaled by 1/sqrt(d): for q and k with independent entries of
// zero mean and unit variance, q.k is a sum of d such products, so its
// variance is d. Large dot products saturate softmax (one weight takes all,
// gradients vanish); dividing by sqrt(d) brings the variance back to 1.
#pragma once

#include "attention/types.hpp"

#include <cstdint>

namespace attn {

struct DotProductSamples {
    Vec dots;                // (count) q.k for random q, k
    Vec scaled;              // (count) q.k / sqrt(d)
    double mean = 0, variance = 0;                // of dots: about 0 and d
    double scaled_mean = 0, scaled_variance = 0;  // of scaled: about 0 and 1
};

// count pairs of random d-vectors with entries uniform on [-sqrt(3), sqrt(3)]
// (zero mean, unit variance).   d: 1..4096   count: 1..100000
DotProductSamples dot_product_samples(Index d, Index count, std::uint64_t seed);

}  // namespace attn
