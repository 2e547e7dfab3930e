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

// Plain-loop reference in double precision, for the tests.
Mat masked_softmax_rows_reference(const MatRef& x, const Mask& mask, Scalar temperature = 1);

}  // namespace attn
