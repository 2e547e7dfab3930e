// Multi-head attention: h heads, each attending on its own d_model/h-wide
// slice of the projected Q, K and V; the head outputs are concatenated and
// mixed by W^O. Each head can learn a different notion of relevance.
#pragma once

#include "attention/mechanism/self_attention.hpp"

#include <vector>

namespace attn {

struct MultiHeadParams {
    Projections W;  // Wq: (d_in_q, d_model), Wk: (d_in_kv, d_model), Wv: (d_in_kv, d_model)
    Mat Wo;         // (d_model, d_model)
};

struct MultiHeadResult {
    MultiHeadParams params;              // the parameters used
    Mat Q, K, V;                         // (n_q, d_model), (n_kv, d_model), (n_kv, d_model)
    std::vector<AttentionResult> heads;  // h results; head i uses columns [i*d_h, (i+1)*d_h)
    Mat concat;                          // (n_q, d_model): head outputs side by side
    Mat output;                          // (n_q, d_model): concat * Wo
};

// Draws the parameters that are empty in given; checks the rest.
MultiHeadParams multi_head_params_complete(MultiHeadParams given, Index d_in_q, Index d_in_kv,
                                           Index d_model, std::uint64_t seed);

//   X: (n_q, d_in_q)   M: (n_kv, d_in_kv) (pass X again for self-attention)
//   heads: h >= 1 dividing d_model. options: mask, causal, valid_length, scale
//   (default 1/sqrt(d_model/h)); the score is dot.
MultiHeadResult multi_head_attention(const MatRef& X, const MatRef& M, Index heads, const MultiHeadParams& params,
                                     const AttentionOptions& options = {});

}  // namespace attn
