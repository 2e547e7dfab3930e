// Seeded, deterministic parameter initialiser.
//
// The same (seed, stream) gives bit-identical matrices natively, in Node and
// in the browser: the generator uses integer arithmetic only, and each value
// is rounded to float32 once from an exact double product.
#pragma once

#include "attention/types.hpp"

#include <cstdint>

namespace attn {

// SplitMix64: a tiny counter-based generator with good statistical quality.
class Rng {
public:
    Rng(std::uint64_t seed, std::uint64_t stream);
    std::uint64_t next();
    // uniform on [0, 1) with 24 random bits (exact in float32)
    double uniform();
    // where the stream is: a generator set to it draws what this one draws next
    std::uint64_t state() const { return state_; }
    void set_state(std::uint64_t state) { state_ = state; }

private:
    std::uint64_t state_;
};

// Glorot/Xavier uniform: entries uniform on [-a, a] with a = sqrt(6 / (rows + cols)),
// which keeps the variance of activations about constant through a layer.
//   -> (rows, cols)
Mat init_xavier(Index rows, Index cols, std::uint64_t seed, std::uint64_t stream);

// Entries uniform on [-limit, limit].   -> (rows, cols)
Mat init_uniform(Index rows, Index cols, std::uint64_t seed, std::uint64_t stream, Scalar limit);

// Streams: one per kind of parameter, so that changing one size does not
// change the others.
namespace stream {
constexpr std::uint64_t W = 1, U = 2, v = 3, Wq = 11, Wk = 12, Wv = 13, Wo = 14, condition = 21,
                        fusion = 22, fusion_bias = 23, input = 31;
}

}  // namespace attn
