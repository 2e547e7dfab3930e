// Nadaraya-Watson kernel regression as attention pooling: Dive into Deep
// Learning, section "Attention Pooling by Similarity"
// (https://d2l.ai/chapter_attention-mechanisms-and-transformers/attention-pooling.html).
// The golden 64.75 is the height -> weight example of the Chinese introduction
// to attention the page follows: 0.1*55 + 0.15*60 + 0.45*65 + 0.3*70.
#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("kernel regression: golden 64.75 from the article's weights") {
    const KernelRegressionResult r =
        kernel_regression_weights(vec({160, 165, 170, 175}), vec({55, 60, 65, 70}), vec({0.1f, 0.15f, 0.45f, 0.3f}));
    CHECK(r.estimates(0) == 64.75f);
    const double terms[4] = {5.5, 9, 29.25, 21};
    for (int j = 0; j < 4; ++j) CHECK(r.contributions(0, j) == doctest::Approx(terms[j]));
    CHECK(r.queries.size() == 0);
}

TEST_CASE("kernel regression: the Gaussian kernel weighs the nearest heights most") {
    AttentionOptions o;
    o.score = Score::gaussian;
    o.params.sigma = 2;
    const KernelRegressionResult r = kernel_regression(vec({160, 165, 170, 175}), vec({55, 60, 65, 70}), vec({172}), o);
    // scores -(172-k)^2/8: -18, -6.125, -0.5, -1.125
    double s[4] = {-18, -6.125, -0.5, -1.125}, e[4], sum = 0;
    for (int j = 0; j < 4; ++j) sum += e[j] = std::exp(s[j]);
    double estimate = 0;
    for (int j = 0; j < 4; ++j) {
        CHECK(r.scores(0, j) == doctest::Approx(s[j]));
        CHECK(r.weights(0, j) == doctest::Approx(e[j] / sum).epsilon(1e-5));
        CHECK(r.contributions(0, j) == doctest::Approx(e[j] / sum * (55 + 5 * j)).epsilon(1e-5));
        estimate += e[j] / sum * (55 + 5 * j);
    }
    CHECK(r.estimates(0) == doctest::Approx(estimate).epsilon(1e-6));
    CHECK(r.weights(0, 2) > r.weights(0, 3));
    CHECK(r.weights(0, 3) > r.weights(0, 1));
}

TEST_CASE("kernel regression: a raw dot product gives all the weight to the largest key") {
    AttentionOptions o;
    o.score = Score::dot;
    const Vec keys = vec({160, 165, 170, 175}), values = vec({55, 60, 65, 70});
    for (Scalar q : {150.0f, 160.0f, 172.0f}) {
        const KernelRegressionResult r = kernel_regression(keys, values, vec({q}), o);
        CHECK(r.weights(0, 3) == doctest::Approx(1));
        CHECK(r.estimates(0) == doctest::Approx(70));
    }
}

TEST_CASE("kernel regression: the curve over many queries matches one query at a time") {
    AttentionOptions o;
    o.score = Score::gaussian;
    o.params.sigma = 3;
    const Vec keys = vec({160, 165, 170, 175}), values = vec({55, 60, 65, 70});
    const Vec qs = linspace(150, 185, 36);
    const KernelRegressionResult curve = kernel_regression(keys, values, qs, o);
    CHECK(curve.estimates.size() == 36);
    for (Index i = 0; i < 36; i += 7) {
        const KernelRegressionResult one = kernel_regression(keys, values, vec({qs(i)}), o);
        CHECK(curve.estimates(i) == doctest::Approx(one.estimates(0)));
    }
    // monotone data, monotone estimate
    for (Index i = 1; i < 36; ++i) CHECK(curve.estimates(i) >= curve.estimates(i - 1) - 1e-4f);
    check_rows_sum_to_one_or_zero(curve.weights);
}

TEST_CASE("kernel regression: errors") {
    AttentionOptions o;
    o.score = Score::gaussian;
    CHECK(error_of([&] { kernel_regression(vec({1, 2}), vec({1}), vec({1}), o); }) ==
          "values has 1 entries but keys has 2; each key needs one value");
    CHECK(contains(error_of([] { kernel_regression_weights(vec({1, 2}), vec({1, 2}), vec({0.5f})); }),
                   "weights has 1 entries but values has 2"));
    CHECK(contains(error_of([] { linspace(3, 1, 10); }), "from must be less than to"));
    o.params.sigma = -1;
    CHECK(contains(error_of([&] { kernel_regression(vec({1}), vec({1}), vec({1}), o); }), "params.sigma"));
}
