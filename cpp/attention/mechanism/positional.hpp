// Sinusoidal positional encoding. Self-attention treats its input as a set:
// permuting the tokens only permutes the map. Adding PE to X gives each
// position its own signature, so order matters.
#pragma once

#include "attention/types.hpp"

namespace attn {

// PE(p, 2i) = sin(p / base^(2i/d)),  PE(p, 2i+1) = cos(p / base^(2i/d))
//   n: positions >= 1   d: width >= 1   -> (n, d)
Mat positional_encoding(Index n, Index d, Scalar base = 10000);
// Row p of it, any p >= 0 (the same numbers, bit for bit): out (d)
void positional_encoding_row(Index p, Index d, Scalar base, float* out);
Mat positional_encoding_reference(Index n, Index d, Scalar base = 10000);

}  // namespace attn
