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
struct GenerationCost {
    double token_cached, token_uncached, total_cached, total_uncached, cache_numbers;
};
GenerationCost generation_cost(Index n, Index d);

}  // namespace attn
