// Attention: a soft lookup. Compare each query with every key (scores), turn
// the scores of each query into weights with softmax, and return for each
// query the weighted sum of the values.
//
//   S = F(Q, K) (n_q, n_k)  ->  S * scale  ->  mask (-inf)  ->  A = softmax rows  ->  Z = A V (n_q, d_v)
#pragma once

#include "attention/mechanism/masks.hpp"
#include "attention/mechanism/scores.hpp"
#include "attention/types.hpp"

#include <cstdint>
#include <optional>

namespace attn {

struct AttentionOptions {
    Score score = Score::dot;
    // Multiplies the scores before softmax. Default: 1/sqrt(d_k) for dot and
    // general (keeps the variance of q.k near 1 whatever d_k), 1 otherwise.
    std::optional<Scalar> scale;
    ScoreParams params;      // missing parameters are drawn from seed
    std::uint64_t seed = 1;  // for missing score parameters
    Index hidden = 0;        // additive hidden width (0 = d_k)
    Mask mask;               // (n_q, n_k) or empty; true = may attend
    bool causal = false;     // query i sees keys 0..i only
    std::optional<Index> valid_length;  // keys at index >= valid_length are padding
    // A sliding window (needs causal): query i sees keys i - window + 1 .. i,
    // and, with sinks, keys 0 .. sinks - 1 as well (those at or before i)
    std::optional<Index> window;
    Index sinks = 0;
    Mat bias;  // (n_q, n_k) added to the scaled scores before the mask (ALiBi's distances), or empty
};

// Every intermediate, so a page can show each step of the chain.
struct AttentionResult {
    Mat scores;          // (n_q, n_k) F(q_i, k_j)
    Scalar scale = 1;    // the scale used
    Mat scaled;          // (n_q, n_k) scores * scale
    Mask mask;           // (n_q, n_k) combined mask, true = may attend
    Mat masked;          // (n_q, n_k) scaled (+ bias when given), -inf where the mask is false
    Vec row_max;         // (n_q) largest allowed scaled score of each row (0 if fully masked)
    Mat exps;            // (n_q, n_k) exp(masked - row_max), 0 where masked
    Vec row_sums;        // (n_q) sum of each row of exps; weights = exps / row_sums
    Mat weights;         // (n_q, n_k) softmax of each row; rows sum to 1, or are 0 if fully masked
    Mat output;          // (n_q, d_v) weights * V
    ScoreParams params;  // the score parameters used (given or drawn)
};

// The combined mask of options (explicit mask AND causal AND padding AND window).
//   -> (n_queries, n_keys)
Mask mask_combined(const AttentionOptions& options, Index n_queries, Index n_keys);

// Whether query i may see key j under options' causal, padding, window and
// sinks (not the explicit mask): the one statement of the rule, which the
// masks, the references, the online softmax and the kernel's tiles all follow.
inline bool visible(const AttentionOptions& o, Index i, Index j) {
    if (o.causal && j > i) return false;
    if (o.valid_length && j >= *o.valid_length) return false;
    return !o.window || i - j < *o.window || j < o.sinks;
}

// The checks of the masking options against n_queries queries and n_keys keys
// (mask and bias shapes, valid_length, window, sinks): every entry point runs them.
void check_mask_options(const AttentionOptions& options, Index n_queries, Index n_keys);

//   Q: (n_q, d_q)   K: (n_k, d_k)   V: (n_k, d_v)
AttentionResult attention(const MatRef& Q, const MatRef& K, const MatRef& V,
                          const AttentionOptions& options = {});

// The output alone, for callers that do not show the steps. The dot score
// with causal and padding masks runs the fused kernel (kernels/fused_attention.hpp): no
// (n_q, n_k) matrix is formed, so the 4096 x 4096 map limit does not apply
// (the work limit does, to each product), and in WASM it is 3x faster than
// attention() at n = 1024. Other scores and explicit masks take attention()
// and its limits.   -> (n_q, d_v)
// With log_sum_exp, also each row's log of its softmax denominator,
// log sum_j e^(scaled score + bias), -inf for a row that sees no key.
Mat attention_output(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& options = {},
                     Vec* log_sum_exp = nullptr);
// The same into out, of shape (n_q, d_v) already (the lean path of the JS API
// writes straight into the heap block it returns from).
void attention_output_into(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& options,
                           Eigen::Ref<Mat> out, Vec* log_sum_exp = nullptr);

// Whether the fused kernel can compute this attention: the dot score, no explicit mask, no bias.
bool kernel_applies(const AttentionOptions& options);

// Every check of the public entries (attention, attention_output, the
// references, flash_attention), made once; what runs after it is unchecked.
// Sets scale (given, or the score's default) and returns the completed score
// parameters. whole_map: the (n_q, n_k) map will be formed (its limit applies).
ScoreParams prepare_attention(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& options,
                              Scalar& scale, bool whole_map = true);

// The same computation with plain loops in double precision, for the tests.
AttentionResult attention_reference(const MatRef& Q, const MatRef& K, const MatRef& V,
                                    const AttentionOptions& options = {});

}  // namespace attn
