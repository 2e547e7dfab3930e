#include "helpers.hpp"

#include <cstdio>

using namespace attn;
using namespace attn::test;

TEST_CASE("init: the same seed gives the same matrix; another seed or stream another one") {
    CHECK(init_xavier(3, 4, 7, stream::Wq) == init_xavier(3, 4, 7, stream::Wq));
    CHECK(init_xavier(3, 4, 7, stream::Wq) != init_xavier(3, 4, 8, stream::Wq));
    CHECK(init_xavier(3, 4, 7, stream::Wq) != init_xavier(3, 4, 7, stream::Wk));
}

TEST_CASE("init: Xavier bounds and a mean near zero") {
    const Mat W = init_xavier(64, 64, 1, stream::W);
    const Scalar limit = std::sqrt(6.0f / 128);
    CHECK(W.maxCoeff() <= limit);
    CHECK(W.minCoeff() >= -limit);
    CHECK(std::abs(W.mean()) < 0.01f);
    // uniform on [-a, a] has variance a^2 / 3
    const double var = (W.array() - W.mean()).square().mean();
    CHECK(var == doctest::Approx(limit * limit / 3).epsilon(0.05));
}

TEST_CASE("init: golden values, bit-identical natively and in WASM") {
    // The Node tests check the same numbers through the JS API.
    const Mat W = init_xavier(2, 3, 42, stream::Wq);
    const float expected[6] = {-0.767329991f, 0.556887031f, 0.888659716f, -0.442492902f, 0.28819859f, 0.267334014f};
    for (Index i = 0; i < 6; ++i) CHECK(W.data()[i] == expected[i]);
}

TEST_CASE("init_uniform: entries within [-limit, limit], the same draws as Xavier scaled") {
    const Mat U = init_uniform(16, 8, 3, stream::input, std::sqrt(3.0f));
    CHECK(U.cwiseAbs().maxCoeff() <= std::sqrt(3.0f));
    CHECK(U.cwiseAbs().maxCoeff() > 1.5f);
    const Mat X = init_xavier(16, 8, 3, stream::input);
    const Scalar ratio = std::sqrt(3.0f) / std::sqrt(Scalar(6.0 / 24.0));
    for (Index i = 0; i < U.size(); ++i) CHECK(U.data()[i] == doctest::Approx(X.data()[i] * ratio).epsilon(1e-6));
    CHECK(init_uniform(2, 2, 1, 0, 0) == Mat::Zero(2, 2));
    CHECK_THROWS_WITH(init_uniform(2, 2, 1, 0, -1), doctest::Contains("limit must be a finite number >= 0, got -1"));
}
