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
};

// Every intermediate, so a page can show each step of the chain.
struct AttentionResult {
    Mat scores;          // (n_q, n_k) F(q_i, k_j)
    Scalar scale = 1;    // the scale used
    Mat scaled;          // (n_q, n_k) scores * scale
    Mask mask;           // (n_q, n_k) combined mask, true = may attend
    Mat masked;          // (n_q, n_k) scaled, -inf where the mask is false
    Vec row_max;         // (n_q) largest allowed scaled score of each row (0 if fully masked)
    Mat exps;            // (n_q, n_k) exp(masked - row_max), 0 where masked
    Vec row_sums;        // (n_q) sum of each row of exps; weights = exps / row_sums
    Mat weights;         // (n_q, n_k) softmax of each row; rows sum to 1, or are 0 if fully masked
    Mat output;          // (n_q, d_v) weights * V
    ScoreParams params;  // the score parameters used (given or drawn)
};

// The combined mask of options (explicit mask AND causal AND padding).
//   -> (n_queries, n_keys)
Mask mask_combined(const AttentionOptions& options, Index n_queries, Index n_keys);

//   Q: (n_q, d_q)   K: (n_k, d_k)   V: (n_k, d_v)
AttentionResult attention(const MatRef& Q, const MatRef& K, const MatRef& V,
                          const AttentionOptions& options = {});

// The output alone, for callers that do not show the steps. The dot score
// with causal and padding masks runs the fused kernel (kernels/fused_attention.hpp): no
// (n_q, n_k) matrix is formed, so the 4096 x 4096 map limit does not apply
// (the work limit does, to each product), and in WASM it is 3x faster than
// attention() at n = 1024. Other scores and explicit masks take attention()
// and its limits.   -> (n_q, d_v)
Mat attention_output(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& options = {});
// The same into out, of shape (n_q, d_v) already (the lean path of the JS API
// writes straight into the heap block it returns from).
void attention_output_into(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& options,
                           Eigen::Ref<Mat> out);

// Whether the fused kernel can compute this attention: the dot score, no explicit mask.
bool kernel_applies(const AttentionOptions& options);

// The same computation with plain loops in double precision, for the tests.
AttentionResult attention_reference(const MatRef& Q, const MatRef& K, const MatRef& V,
                                    const AttentionOptions& options = {});

}  // namespace attn
