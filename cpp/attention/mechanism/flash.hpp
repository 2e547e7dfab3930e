// The online softmax, opened: attention computed tile by tile, as
// FlashAttention runs it, never holding more than one (block_rows x
// block_cols) tile of scores. Each query row keeps a running maximum m, a
// running sum l of e^(s - m) and an unnormalised output o; a tile whose
// scores raise the maximum from m to m' first rescales l and o by
// e^(m - m'), then adds its own terms:
//
//   m' = max(m, max_j s_j)   l' = e^(m - m') l + sum_j e^(s_j - m')   o' = e^(m - m') o + sum_j e^(s_j - m') v_j
//
// and at the end output = o / l, and log l + m is the log of the row's softmax
// denominator (its log-sum-exp). That one number per row is all a backward
// pass, or weights_from_log_sum_exp() below, needs to give any row of the
// weights back. The kernel (kernels/fused_attention.hpp) runs the same
// algorithm in SIMD; this one is written to be read and traced.
//
// The score is dot; scale, causal, valid_length, window, sinks, bias and an
// explicit mask are attention()'s (mechanism/attention.hpp), with the same meaning.
#pragma once

#include "attention/mechanism/attention.hpp"

#include <vector>

namespace attn {

// Traced runs only on small inputs: each tile visit keeps its scores and the
// rows' running state, so a trace holds about n_q n_k + tiles * block_rows * d_v numbers.
constexpr Index kFlashTraceMax = 128;  // queries and keys, each

struct FlashOptions {
    Index block_rows = 16;  // queries per tile, >= 1
    Index block_cols = 16;  // keys per tile, >= 1
    bool trace = false;     // keep every tile visit (n_q, n_k <= kFlashTraceMax)
};

// One tile visit: queries [row0, row0 + rows) against keys [col0, col0 + cols).
struct FlashTile {
    Index row0 = 0, rows = 0, col0 = 0, cols = 0;
    Mat scores;       // (rows, cols) scaled scores (+ bias), -inf where hidden
    Vec max_before;   // (rows) running maximum m before the tile (-inf: no key seen yet)
    Vec max_after;    // (rows) m' after it
    Vec rescale;      // (rows) e^(m - m'): what l and o were multiplied by (1 while no key is seen)
    Vec sum_before;   // (rows) running sum l before the tile
    Vec sum_after;    // (rows) l' after it
    Mat output_after; // (rows, d_v) running unnormalised output o' after it
};

struct FlashResult {
    Mat output;                    // (n_q, d_v) = attention()'s output
    Vec log_sum_exp;               // (n_q) m + log l, natural log; -inf for a row that sees no key
    Index tiles_visited = 0;       // tiles with at least one visible key
    Index tiles_skipped = 0;       // tiles the masks hide entirely: never computed
    std::vector<FlashTile> trace;  // every visit in order, when options.trace
};

//   Q: (n_q, d)   K: (n_k, d)   V: (n_k, d_v)   -> output (n_q, d_v), log_sum_exp (n_q)
FlashResult flash_attention(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& options,
                            const FlashOptions& flash = {});

// The rows of the weights asked for, from each row's log-sum-exp alone:
// weight(i, j) = e^(s_ij - lse_i) where key j is visible to query i, else 0
// (a row whose lse is -inf, which sees no key, is 0). No (n_q, n_k) matrix is
// formed: the memory is rows.size() x n_k. As exact as float32 holds lse: a
// weight's relative error is about |lse| 2^-24 (6e-6 at |lse| = 100; scaled
// scores of a model are tens at most).
//   Q: (n_q, d)   K: (n_k, d)   log_sum_exp: (n_q)   rows: indices of queries   -> (rows.size(), n_k)
Mat weights_from_log_sum_exp(const MatRef& Q, const MatRef& K, const VecRef& log_sum_exp,
                             const std::vector<Index>& rows, const AttentionOptions& options);

}  // namespace attn
