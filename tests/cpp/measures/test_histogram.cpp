#include "helpers.hpp"

#include <numeric>

using namespace attn;
using namespace attn::test;

TEST_CASE("histogram: counts per bin, edges evenly spaced, values outside counted apart") {
    const Histogram h = histogram(vec({-5, -4, -3.5f, -0.01f, 0, 0.5f, 1, 3.99f, 4, 4.5f}), 8, -4, 4);
    REQUIRE(h.counts.size() == 8);
    REQUIRE(h.edges.size() == 9);
    for (Index b = 0; b <= 8; ++b) CHECK(h.edges(b) == Scalar(-4 + b));
    // [-4,-3): -4, -3.5   [-1,0): -0.01   [0,1): 0, 0.5   [1,2): 1   [3,4]: 3.99, 4 (to is in the last bin)
    const std::vector<std::int32_t> expected{2, 0, 0, 1, 2, 1, 0, 2};
    CHECK(h.counts == expected);
    CHECK(h.below == 1);
    CHECK(h.above == 1);
}

TEST_CASE("histogram: every value is counted once, matching a plain count per bin") {
    const DotProductSamples s = dot_product_samples(64, 5000, 3);
    const Scalar from = -20, to = 20;
    const Index bins = 37;
    const Histogram h = histogram(s.dots, bins, from, to);
    const std::int64_t total = std::accumulate(h.counts.begin(), h.counts.end(), std::int64_t(0)) + h.below + h.above;
    CHECK(total == 5000);
    for (Index b = 0; b < bins; ++b) {
        const double lo = h.edges(b), hi = h.edges(b + 1);
        std::int32_t n = 0;
        for (Index i = 0; i < s.dots.size(); ++i) {
            const double x = s.dots(i);
            if (x >= lo && (x < hi || (b == bins - 1 && x <= hi))) ++n;
        }
        CHECK(h.counts[size_t(b)] == n);
    }
}

TEST_CASE("histogram: one bin holds everything in range") {
    const Histogram h = histogram(vec({1, 2, 3}), 1, 1, 3);
    CHECK(h.counts == std::vector<std::int32_t>{3});
    CHECK(h.below == 0);
    CHECK(h.above == 0);
}

TEST_CASE("histogram: bad arguments name the problem") {
    const Vec x = vec({1, 2});
    CHECK(contains(error_of([&] { histogram(x, 0, 0, 1); }), "bins must be between 1 and 10000, got 0"));
    CHECK(contains(error_of([&] { histogram(x, 10001, 0, 1); }), "bins must be between 1 and 10000"));
    CHECK(contains(error_of([&] { histogram(x, 4, 1, 1); }), "from must be less than to, got from = 1, to = 1"));
    CHECK(contains(error_of([&] { histogram(x, 4, 2, 1); }), "from must be less than to"));
    CHECK(contains(error_of([&] { histogram(x, 4, -INFINITY, 1); }), "from must be a finite number"));
    CHECK(contains(error_of([&] { histogram(vec({1, NAN}), 4, 0, 1); }), "values has NaN at index 1"));
    CHECK(contains(error_of([&] { histogram(Vec(0), 4, 0, 1); }), "values is empty"));
}
