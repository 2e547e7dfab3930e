// The rows of Table 1 of Vaswani et al. 2017, "Attention Is All You Need"
// (complexity per layer, sequential operations, maximum path length), counted.
#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("cost model: the table's rows and counts") {
    const auto rows = cost_model(100, 64, 3);
    REQUIRE(rows.size() == 5);
    CHECK(rows[0].layer == "self-attention");
    CHECK(rows[0].complexity == "O(n^2 d)");
    CHECK(rows[0].multiply_adds == 2.0 * 100 * 100 * 64);
    CHECK(rows[0].max_path_length == 1);
    CHECK(rows[1].layer == "recurrent");
    CHECK(rows[1].multiply_adds == 2.0 * 100 * 64 * 64);
    CHECK(rows[1].sequential_ops == 100);
    CHECK(rows[1].max_path_length == 99);
    CHECK(rows[2].multiply_adds == 3.0 * 100 * 64 * 64);
    CHECK(rows[2].max_path_length == 50);  // ceil(99 / 2)
    CHECK(rows[3].max_path_length == 5);   // 3^5 = 243 >= 100 > 81
    CHECK(rows[4].parameters == 100.0 * 100 * 64 * 64);
}

TEST_CASE("cost model: self-attention is cheaper than recurrent exactly when n < d") {
    for (Index n : {8, 32, 63, 64, 65, 200}) {
        const auto rows = cost_model(n, 64, 3);
        CHECK((rows[0].multiply_adds < rows[1].multiply_adds) == (n < 64));
    }
    // quadratic, not exponential: doubling n multiplies the cost by 4
    CHECK(cost_model(2000, 64, 3)[0].multiply_adds == 4 * cost_model(1000, 64, 3)[0].multiply_adds);
}

TEST_CASE("cost model: errors") {
    CHECK(error_of([] { cost_model(0, 4, 3); }) == "n must be at least 1, got 0");
    CHECK(error_of([] { cost_model(4, 4, 1); }) == "k (kernel width) must be at least 2, got 1");
}

TEST_CASE("cost_model: doubling n multiplies self-attention by 4 (exponent 2), recurrent by 2 (exponent 1)") {
    const auto rows = cost_model(1000, 64, 3);
    CHECK(rows[0].doubling == 4);
    CHECK(rows[0].doubling_exponent == 2);
    CHECK(rows[1].doubling == 2);
    CHECK(rows[1].doubling_exponent == 1);
    CHECK(rows[4].doubling == 4);
    for (const LayerCost& r : rows)
        CHECK(r.doubling == doctest::Approx(cost_model(2000, 64, 3)[size_t(&r - rows.data())].multiply_adds /
                                            r.multiply_adds));
}

TEST_CASE("generation cost: one row with the cache, the whole map without; the sums over the text") {
    const GenerationCost c = generation_cost(10, 64);
    CHECK(c.token_cached == 2 * 10 * 64);
    CHECK(c.token_uncached == cost_model(10, 64, 3)[0].multiply_adds);  // the table's 2 n^2 d: the whole map
    double cached = 0, uncached = 0;
    for (Index m = 1; m <= 10; ++m) {
        cached += generation_cost(m, 64).token_cached;
        uncached += generation_cost(m, 64).token_uncached;
    }
    CHECK(c.total_cached == cached);      // 10 * 11 * 64 = 7040
    CHECK(c.total_uncached == uncached);  // 10 * 11 * 21 * 64 / 3 = 49280
    CHECK(c.total_cached == 7040);
    CHECK(c.total_uncached == 49280);
    CHECK(c.cache_numbers == 1280);
    CHECK(contains(error_of([] { generation_cost(0, 8); }), "n must be at least 1"));
}
