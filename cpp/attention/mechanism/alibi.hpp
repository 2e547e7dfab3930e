// ALiBi (Press, Smith and Lewis 2022, "Train Short, Test Long: Attention with
// Linear Biases"): no position vectors at all. Head h adds -m_h (i - j) to the
// score of query i and key j, a penalty growing with the distance, and each
// head has its own slope m_h: steep heads look near, gentle heads look far.
//
// The slopes are a geometric sequence. For h heads, h a power of two:
//   m_k = 2^(-8 (k + 1) / h),  k = 0 .. h - 1     (8 heads: 1/2, 1/4, ..., 1/256)
// For other h, with p = 2^floor(log2 h) the power of two below it, the
// paper's code takes the p slopes of p heads, then the slopes of 2p heads at
// even indices 0, 2, 4, ... (the ones that fall between the first ones) until
// there are h:   slopes(p) + slopes(2p)[0::2][: h - p]
#pragma once

#include "attention/types.hpp"

#include <vector>

namespace attn {

// The slopes of the power of two p: 2^(-8 (k + 1) / p), k = 0 .. p - 1, in double.   -> (p)
std::vector<double> alibi_power_slopes(Index p);

//   heads >= 1  ->  (heads): m_0 > m_1 > ... for a power of two; the
//   interleaved sequence above otherwise
Vec alibi_slopes(Index heads);

}  // namespace attn
