// What a layer costs, as functions of the sequence length n, the width d and
// the convolution kernel width k: the table that compares self-attention with
// recurrent, convolutional and fully-connected layers.
//
// Counts are exact for the conventions below; the big-O column is what they
// grow like. Self-attention grows quadratically with n, not exponentially.
#pragma once

#include "attention/types.hpp"

#include <string>
#include <vector>

namespace attn {

struct LayerCost {
    std::string layer;        // "self-attention", "recurrent", ...
    std::string complexity;   // big-O of multiply-adds per layer, e.g. "O(n^2 d)"
    std::string sequential;   // big-O of operations that must run one after another
    std::string path;         // big-O of the longest path between two positions
    double multiply_adds;     // per layer, for these n, d, k
    double sequential_ops;    // steps that cannot run in parallel
    double max_path_length;   // layers/steps a signal crosses between the farthest positions
    double parameters;        // learned weights (biases left out)
    // What doubling n does: multiply_adds at 2n over multiply_adds at n, and
    // its base-2 logarithm, the exponent of the growth (2 for O(n^2 d), 1 for O(n d^2))
    double doubling = 0;
    double doubling_exponent = 0;
};

// Rows, in order: self-attention, recurrent, convolutional (contiguous),
// convolutional (dilated), fully connected.
//   self-attention: 2 n^2 d (Q K^T and A V; projections excluded), path 1
//   recurrent:      2 n d^2 (W_h h + W_x x per step), n sequential steps, path n - 1
//   convolutional:  k n d^2, path ceil((n - 1) / (k - 1)) stacked layers
//   dilated conv:   k n d^2, path ceil(log_k n) layers
//   fully connected on the flattened sequence: (n d)^2, path 1, but its
//   parameters grow with n and it cannot take another length
//   n >= 1, d >= 1, k >= 2
std::vector<LayerCost> cost_model(Index n, Index d, Index k);

// The attention of one layer in one step of a decoder: the token whose query
// is row m of the causal map (it meets m keys, its own and the m - 1 before
// it), width d, counted as the table counts (Q K^T and A V; the projections
// left out):
//   with the key-value cache, only its row:              2 m d
//   without, every row i = 1..m of the causal map again: sum 2 i d = m (m + 1) d
// The one count of both: generation_cost() below sums it over a text, and the
// language model (language_model/inference.cpp) adds its other terms (projections, MLP,
// unembedding) around it. m >= 1, d >= 1.
struct DecodeAttentionCost {
    double cached, uncached;
};
DecodeAttentionCost decode_attention_cost(Index m, Index d);

// A decoder writing n tokens one at a time, one self-attention layer: the token
// at position n is decode_attention_cost(n, d); all n tokens, summed over m = 1..n:
//   with the cache:  sum 2 m d        = n (n + 1) d            (a causal training pass over the text:
//                                                               row i meets its i keys; the table's
//                                                               2 n^2 d counts every pair, masked ones too)
//   without:         sum m (m + 1) d  = n (n + 1)(n + 2) d / 3 (grows like n^3)
// and the cache: n keys and n values of width d, 2 n d numbers.
//
// As attention is run today, two options change these counts:
//   kv_heads of heads (grouped keys and values, multi_head.hpp): the heads
//     split d into heads of width d / heads, and only kv_heads of them keep
//     keys and values: the cache shrinks to 2 n d kv_heads / heads numbers.
//     The multiply-adds do not change: every query head still meets every key.
//   window w (sliding-window attention): token m meets its last min(m, w)
//     keys, and the cache keeps only the last min(n, w) tokens. With
//     k = min(n, w), for n > w:
//       token, cached:    2 w d
//       token, uncached:  w (w + 1) d + 2 (n - w) w d          (rows 1..w grow, later rows meet w keys)
//       total, cached:    w (w + 1) d + 2 (n - w) w d
//       total, uncached:  w (w + 1)(w + 2) d / 3 + (n - w) w (w + 1) d + (n - w)(n - w + 1) w d
//     (for n <= w the counts without a window); the cache 2 k d kv_heads / heads.
// The defaults (one head, its own keys and values, no window) give the counts above.
struct GenerationOptions {
    Index heads = 1;     // >= 1, dividing d
    Index kv_heads = 0;  // >= 1, dividing heads; 0: as many as heads (one key/value head per head)
    Index window = 0;    // the keys a token meets at most; 0: no window (every earlier key)
};
struct GenerationCost {
    double token_cached, token_uncached, total_cached, total_uncached, cache_numbers;
    double cache_tokens;  // the tokens the cache keeps: min(n, window)
    double cache_width;   // numbers a cached token keeps for its key, and again for its value: d kv_heads / heads
    double cache_share;   // cache_numbers over the full cache 2 n d of one head per head and no window
};
GenerationCost generation_cost(Index n, Index d, const GenerationOptions& options = {});
// The windowed cost of the token meeting min(m, window) keys (window 0: m), as decode_attention_cost.
DecodeAttentionCost decode_attention_cost(Index m, Index d, Index window);

// The bytes of a decoder's key-value cache: every layer keeps a key and a
// value of head_dim numbers for each of its kv_heads heads and each token,
//   2 layers kv_heads head_dim tokens bytes_per_number
// (bytes_per_number: 2 for float16 or bfloat16, 4 for float32, 1 for 8-bit).
// Every argument an integer >= 1; exact: the result must stay below 2^53.
double kv_cache_bytes(Index layers, Index kv_heads, Index head_dim, Index tokens, Index bytes_per_number = 2);

// The learned weights of a decoder's attention projections when its heads
// query heads read kv_heads key/value heads of head_dim numbers each:
//   W^Q (d_model, heads head_dim)      W^K, W^V (d_model, kv_heads head_dim) each
//   W^O (heads head_dim, d_model)
// one layer's four, their sum, and that sum over the layers. Biases are not
// counted (Llama's, Mistral's and most open models' projections have none).
// d_model 0: heads head_dim, as in the models the page names. Every other
// argument an integer >= 1, kv_heads dividing heads; exact: the total must stay below 2^53.
struct ProjectionParameters {
    double wq, wk, wv, wo;  // one layer's
    double per_layer;       // wq + wk + wv + wo
    double total;           // layers per_layer
};
ProjectionParameters attention_projection_parameters(Index layers, Index heads, Index kv_heads, Index head_dim,
                                                     Index d_model = 0);

}  // namespace attn
