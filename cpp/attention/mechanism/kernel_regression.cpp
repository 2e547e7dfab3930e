#include "attention/mechanism/kernel_regression.hpp"

namespace attn {

static void check_pairs(const VecRef& keys, const VecRef& values) {
    require(keys.size() >= 1, "keys must have at least one entry");
    require(values.size() == keys.size(), "values has " + std::to_string(values.size()) +
                                              " entries but keys has " + std::to_string(keys.size()) +
                                              "; each key needs one value");
}

KernelRegressionResult kernel_regression(const VecRef& keys, const VecRef& values, const VecRef& queries,
                                         const AttentionOptions& options) {
    check_pairs(keys, values);
    require(queries.size() >= 1, "queries must have at least one entry");
    require_finite(keys, "keys");
    require_finite(values, "values");
    require_finite(queries, "queries");
    AttentionOptions o = options;
    if (!o.scale) o.scale = Scalar(1);
    // scalars as one-column matrices: Q (m, 1), K (n, 1), V (n, 1)
    const AttentionResult a = attention(Mat(queries), Mat(keys), Mat(values), o);
    KernelRegressionResult r;
    r.queries = queries;
    r.scores = a.scores;
    r.scaled = a.scaled;
    r.weights = a.weights;
    r.contributions = a.weights * values.asDiagonal();
    r.estimates = a.output.col(0);
    return r;
}

Vec linspace(Scalar from, Scalar to, Index m) {
    require(m >= 2, "a curve needs at least 2 queries, got " + std::to_string(m));
    require(m <= 100000, "a curve takes at most 100000 queries, got " + std::to_string(m));
    require_finite(from, "from");
    require_finite(to, "to");
    require(from < to, "from must be less than to");
    return Vec::LinSpaced(m, from, to);
}

KernelRegressionResult kernel_regression_weights(const VecRef& keys, const VecRef& values, const VecRef& weights) {
    check_pairs(keys, values);
    require(weights.size() == values.size(), "weights has " + std::to_string(weights.size()) +
                                                 " entries but values has " + std::to_string(values.size()));
    require_finite(keys, "keys");
    require_finite(values, "values");
    require_finite(weights, "weights");
    KernelRegressionResult r;
    r.weights = weights.transpose();
    r.contributions = r.weights * values.asDiagonal();
    // in double: 0.1*55 + 0.15*60 + 0.45*65 + 0.3*70 then rounds to 64.75 exactly
    double sum = 0;
    for (Index i = 0; i < weights.size(); ++i) sum += double(weights(i)) * double(values(i));
    r.estimates = Vec::Constant(1, Scalar(sum));
    require_finite_result(r.contributions, "weights * values");
    require_finite_result(r.estimates, "the estimate");
    return r;
}

}  // namespace attn
