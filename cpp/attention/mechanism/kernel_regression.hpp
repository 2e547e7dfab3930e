// Nadaraya-Watson kernel regression: attention with scalar queries, keys and
// values. The estimate at query x is sum_i alpha(x, x_i) y_i, with weights
// alpha = softmax of the scores of x against every key x_i.
//
// With the Gaussian score -(x - x_i)^2 / (2 sigma^2) close keys weigh most.
// With a raw dot product x * x_i the score only grows with the key, so the
// largest key takes all the weight whatever the query: a poor similarity for
// scalars, which is why the example uses a distance kernel.
#pragma once

#include "attention/mechanism/attention.hpp"

namespace attn {

struct KernelRegressionResult {
    Vec queries;        // (m)
    Mat scores;         // (m, n) F(query_i, key_j)
    Mat scaled;         // (m, n) scores * scale: the input of softmax
    Mat weights;        // (m, n) each row sums to 1
    Mat contributions;  // (m, n) weights(i, j) * values(j): the terms of each estimate
    Vec estimates;      // (m) weights * values
};

// keys, values: (n), finite, n >= 1   queries: (m), finite
// score: gaussian (uses sigma) or dot (uses scale) or any other score of
// attention(); options.scale defaults to 1 here.
KernelRegressionResult kernel_regression(const VecRef& keys, const VecRef& values, const VecRef& queries,
                                         const AttentionOptions& options);

// m queries evenly spaced on [from, to], m >= 2.
Vec linspace(Scalar from, Scalar to, Index m);

// The estimate from weights chosen by hand (the article's 0.1, 0.15, 0.45, 0.3
// give 64.75): sum_i weights_i values_i, as a result with one row and no
// queries or scores.   keys, values, weights: (n)
KernelRegressionResult kernel_regression_weights(const VecRef& keys, const VecRef& values, const VecRef& weights);

}  // namespace attn
