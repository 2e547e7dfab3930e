// Score functions F(q, k): how well query q matches key k.
//
// Each takes the queries as rows of Q (n_q, d_q) and the keys as rows of
// K (n_k, d_k) and returns the score matrix S (n_q, n_k), S(i, j) = F(q_i, k_j).
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <string>

namespace attn {

enum class Score { dot, general, concat, additive, gaussian };

// "dot" -> Score::dot; throws on an unknown name, listing the known ones.
Score score_from_name(const std::string& name);
const char* score_name(Score score);

// The learned parameters of the scores that have them.
struct ScoreParams {
    Mat W;             // general: (d_q, d_k); additive: (hidden, d_q)
    Mat U;             // additive: (hidden, d_k)
    Vec v;             // concat: (d_q + d_k); additive: (hidden)
    Scalar sigma = 1;  // gaussian: kernel width, > 0
};

// q^T k: no parameters; needs d_q == d_k.
Mat score_dot(const MatRef& Q, const MatRef& K);
// q^T W k: a learned bilinear form; d_q and d_k may differ.   W: (d_q, d_k)
Mat score_general(const MatRef& Q, const MatRef& K, const MatRef& W);
// w^T [q; k] = w_q^T q + w_k^T k.   w: (d_q + d_k)
// The query term is the same for every key, so softmax cancels it: this score
// ranks keys by w_k^T k alone.
Mat score_concat(const MatRef& Q, const MatRef& K, const VecRef& w);
// v^T tanh(W q + U k): a one-hidden-layer perceptron; d_q and d_k may differ.
//   W: (hidden, d_q)   U: (hidden, d_k)   v: (hidden)
Mat score_additive(const MatRef& Q, const MatRef& K, const MatRef& W, const MatRef& U, const VecRef& v);
// -|q - k|^2 / (2 sigma^2): the Gaussian (distance) kernel of Nadaraya-Watson
// regression; close keys score high. Needs d_q == d_k (1 for scalar keys).
Mat score_gaussian(const MatRef& Q, const MatRef& K, Scalar sigma);

// Checks the shapes of Q, K and the parameters for this score, and that the
// map and the work stay within the module's limits. Both paths call it;
// whole_map = false for the fused kernel, which never forms the map.
void check_score(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& params, bool whole_map = true);

// Dispatch on the score; params must already hold what the score needs.
// Checks like check_score().
Mat scores(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& params);
// Plain-loop reference in double precision, for the tests.
Mat scores_reference(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& params);
// The same two without the checks, for callers that ran check_score() at
// their own entry (attention()): the arguments must have passed it.
Mat scores_unchecked(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& params);
Mat scores_reference_unchecked(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& params);

// Fills the parameters the score needs but params lacks (empty matrices) from
// the seeded initialiser; keeps those given; rejects those the score does not
// use. hidden: width of the additive layer (0 = the rows of a given W, U or v,
// else d_k).
ScoreParams score_params_complete(Score score, Index d_q, Index d_k, ScoreParams params,
                                  std::uint64_t seed, Index hidden = 0);

}  // namespace attn
