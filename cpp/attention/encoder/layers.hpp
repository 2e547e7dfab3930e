// The pieces of a transformer layer around attention: layer normalisation,
// dense (affine) layers, ReLU. Every function works row by row: one row per
// token.
#pragma once

#include "attention/types.hpp"

namespace attn {

// Each row rescaled to mean 0 and variance 1, then scaled and shifted:
//   y = (x - mean) / sqrt(var + eps) * scale + bias     var: mean of (x - mean)^2
//   X: (n, d)  scale, bias: (d)  -> (n, d)
Mat layer_norm(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps);
// The same into Y, of X's shape already (Y may be X).
void layer_norm_into(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps, Eigen::Ref<Mat> Y);

//   X W + b     X: (n, d_in)  W: (d_in, d_out)  b: (d_out)  -> (n, d_out)
Mat dense(const MatRef& X, const MatRef& W, const VecRef& b);

// max(x, 0) entry by entry
Mat relu(const MatRef& X);

// The position-wise feed-forward block: relu(X W1 + b1) W2 + b2.
//   X: (n, d)  W1: (d, d_ff)  W2: (d_ff, d)  -> (n, d)
Mat feed_forward(const MatRef& X, const MatRef& W1, const VecRef& b1, const MatRef& W2, const VecRef& b2);

// Plain-loop versions, accumulating in double, to check the ones above.
Mat layer_norm_reference(const MatRef& X, const VecRef& scale, const VecRef& bias, Scalar eps);
Mat dense_reference(const MatRef& X, const MatRef& W, const VecRef& b);

}  // namespace attn
