// Multi-head attention: h heads, each attending on its own d_model/h-wide
// slice of the projected Q, K and V; the head outputs are concatenated and
// mixed by W^O. Each head can learn a different notion of relevance.
//
// Grouped keys and values (GQA; Ainslie et al. 2023): kv_heads key/value heads
// serve the h query heads in equal groups, query head i reading key/value head
// floor(i kv_heads / h). W^K and W^V shrink to kv_heads d_h columns (d_h =
// d_model / h), and so does the key-value cache a decoder keeps:
//   kv_heads = h   standard multi-head attention (MHA), every head its own K, V
//   1 < kv_heads   grouped-query attention (GQA)
//   kv_heads = 1   multi-query attention (MQA, Shazeer 2019): one K, V for all heads
#pragma once

#include "attention/mechanism/self_attention.hpp"

#include <vector>

namespace attn {

// d_kv = kv_heads * d_model / heads, the width of K and V
struct MultiHeadParams {
    Projections W;  // Wq: (d_in_q, d_model), Wk: (d_in_kv, d_kv), Wv: (d_in_kv, d_kv)
    Mat Wo;         // (d_model, d_model)
};

struct MultiHeadResult {
    MultiHeadParams params;              // the parameters used
    Mat Q, K, V;                         // (n_q, d_model), (n_kv, d_kv), (n_kv, d_kv)
    std::vector<AttentionResult> heads;  // h results; head i uses Q's columns [i*d_h, (i+1)*d_h)
    std::vector<Index> kv_head;          // (h) the key/value head of each query head: floor(i kv_heads / h)
    std::vector<Mat> keys, values;       // h matrices (n_kv, d_h): the K and V head i used, K's and V's
                                         // columns [g*d_h, (g+1)*d_h) for g = kv_head[i]; a group shares them
    Mat concat;                          // (n_q, d_model): head outputs side by side
    Mat output;                          // (n_q, d_model): concat * Wo
};

// Throws unless heads >= 1 divides d_model and kv_heads >= 1 divides heads.
void require_heads(Index d_model, Index heads, Index kv_heads);

// Draws the parameters that are empty in given; checks the rest (and the head counts).
MultiHeadParams multi_head_params_complete(MultiHeadParams given, Index d_in_q, Index d_in_kv, Index d_model,
                                           Index heads, Index kv_heads, std::uint64_t seed);

//   X: (n_q, d_in_q)   M: (n_kv, d_in_kv) (pass X again for self-attention)
//   heads: h >= 1 dividing d_model; kv_heads >= 1 dividing h (h for standard
//   multi-head attention). options: mask, causal, valid_length, scale
//   (default 1/sqrt(d_model/h)); the score is dot.
MultiHeadResult multi_head_attention(const MatRef& X, const MatRef& M, Index heads, Index kv_heads,
                                     const MultiHeadParams& params, const AttentionOptions& options = {});

}  // namespace attn
