// Self- and cross-attention: queries, keys and values are learned linear
// projections of input sequences (one row per token).
//
//   self:  Q = X W^Q, K = X W^K, V = X W^V           (Q, K, V from the same X)
//   cross: Q = X W^Q, K = M W^K, V = M W^V           (K and V from another sequence M)
#pragma once

#include "attention/mechanism/attention.hpp"

#include <cstdint>

namespace attn {

struct Projections {
    Mat Wq;  // (d_in_q, d_k)
    Mat Wk;  // (d_in_kv, d_k)
    Mat Wv;  // (d_in_kv, d_v)
};

// Throws unless a projection width (dK, dV, dModel) is positive.
void require_width(Index width, const char* name);

// Draws the projections that are empty in given from the seeded initialiser.
Projections projections_complete(Projections given, Index d_in_q, Index d_in_kv, Index d_k, Index d_v,
                                 std::uint64_t seed);

struct ProjectedAttention {
    Projections W;  // the projections used
    Mat Q;          // (n_q, d_k)
    Mat K;          // (n_kv, d_k)
    Mat V;          // (n_kv, d_v)
    AttentionResult attention;
};

// Q = X Wq, K = M Wk, V = M Wv, after checking that the shapes fit; the
// attention member is left empty.
ProjectedAttention project(const MatRef& X, const MatRef& M, const Projections& W);

// Its two halves, for a caller whose projections fit otherwise (multi-head
// attention's grouped keys): the inputs non-empty and finite; then the three
// products, each checked finite, for projections whose shapes the caller checked.
void require_projection_inputs(const MatRef& X, const MatRef& M);
void project_unchecked(const MatRef& X, const MatRef& M, const Projections& W, Mat& Q, Mat& K, Mat& V);

//   X: (n_q, d_in_q)   M: (n_kv, d_in_kv); options.score applies to Q and K.
ProjectedAttention cross_attention(const MatRef& X, const MatRef& M, const Projections& W,
                                   const AttentionOptions& options = {});
//   X: (n, d_in)
ProjectedAttention self_attention(const MatRef& X, const Projections& W, const AttentionOptions& options = {});

// What separate W^Q and W^K buy: how a self-attention map relates to its
// transpose and to its diagonal.
//   asymmetry = |S − Sᵀ|_F / (2 |S|_F), in [0, 1]: 0 when s_ij = s_ji for every
//     pair, as when W^K = W^Q (s_ij = x_i W^Q · x_j W^Q = s_ji); 1 when S = −Sᵀ;
//     0 for S = 0.
//   diagonal_share = trace(A) / n: the mean weight a word gives its own key.
//     With W^K = W^Q, s_ii = |q_i|² and s_ij ≤ |q_i| |q_j| (Cauchy–Schwarz):
//     a word matches itself best unless another query is longer.
//   rows_on_diagonal: the rows whose largest weight is their own key (ties
//     go to the first column, as top_rows).
//   scores: (n, n) finite (before any mask); weights: (n, n) finite
struct SelfMapStats {
    double asymmetry;
    double diagonal_share;
    double rows_on_diagonal;
};
SelfMapStats self_map_stats(const MatRef& scores, const MatRef& weights);

}  // namespace attn
