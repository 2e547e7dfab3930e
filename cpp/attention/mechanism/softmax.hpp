// Row-wise softmax: turns each row of scores into weights in [0, 1] that sum to 1.
#pragma once

#include "attention/types.hpp"

namespace attn {

// weights(i, j) = exp(x(i, j) / T) / sum_j' exp(x(i, j') / T), computed after
// subtracting the row maximum so that large scores (1000 vs 10000) never
// overflow. A higher temperature T flattens the weights, a lower one sharpens.
//   x: (rows, cols), finite   temperature: > 0   -> (rows, cols)
Mat softmax_rows(const MatRef& x, Scalar temperature = 1);

// As softmax_rows, but entries whose mask is false get weight 0 and take no
// part in the normalisation. A row with no allowed entry gives all zeros: an
// output of zero, never NaN.
//   x: (rows, cols)   mask: (rows, cols), true = keep   -> (rows, cols)
Mat masked_softmax_rows(const MatRef& x, const Mask& mask, Scalar temperature = 1);

// The same, keeping its steps for a page that explains one weight:
// weight(i, j) = exps(i, j) / row_sums(i), exps(i, j) = exp((x(i, j) - row_max(i)) / T).
struct SoftmaxSteps {
    Vec row_max;   // (rows) largest allowed entry of each row (0 for a fully masked row)
    Mat exps;      // (rows, cols) exp((x - row_max) / T), 0 where masked
    Vec row_sums;  // (rows) sum of each row of exps (0 for a fully masked row)
    Mat weights;   // (rows, cols) exps / row_sums
};
SoftmaxSteps masked_softmax_steps(const MatRef& x, const Mask& mask, Scalar temperature = 1);
// The same without the argument checks, for callers that made them at their
// own entry (attention()). Expects: x finite, mask of x's shape, temperature
// finite and > 0. Still throws when x / temperature overflows.
SoftmaxSteps masked_softmax_steps_unchecked(const MatRef& x, const Mask& mask, Scalar temperature = 1);

// Entropy -sum w log w (nats) of each row of weights: 0 when one key takes all
// the weight, log(n) when all n keys share it.   -> (rows)
Vec entropy_rows(const MatRef& weights);

// 1 / (1 + exp(-x)), element-wise: each entry squashed alone, so rows need not sum to 1.
Mat sigmoid(const MatRef& x);

// Plain-loop reference in double precision, for the tests.
Mat masked_softmax_rows_reference(const MatRef& x, const Mask& mask, Scalar temperature = 1);

}  // namespace attn
