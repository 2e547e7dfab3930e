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

TEST_CASE("decode attention cost: one row of the causal map with the cache, every row up to it without") {
    // by hand, m = 4 keys, d = 8: the row 2 * 4 * 8; the rows 1..4 again 2 (1 + 2 + 3 + 4) 8 = 4 * 5 * 8
    const DecodeAttentionCost a = decode_attention_cost(4, 8);
    CHECK(a.cached == 64);
    CHECK(a.uncached == 160);
    // against the plain sum over the rows of a causal map, each row i meeting i keys (Q K^T and A V)
    for (Index m = 1; m <= 40; ++m) {
        double rows = 0;
        for (Index i = 1; i <= m; ++i) rows += 2.0 * double(i) * 24;
        CHECK(decode_attention_cost(m, 24).uncached == rows);
        CHECK(decode_attention_cost(m, 24).cached == 2.0 * double(m) * 24);
    }
    // no more than the table's full map, 2 m^2 d, which also counts the masked pairs; equal at m = 1 only
    CHECK(decode_attention_cost(1, 8).uncached == cost_model(1, 8, 3)[0].multiply_adds);
    CHECK(decode_attention_cost(10, 8).uncached < cost_model(10, 8, 3)[0].multiply_adds);
    CHECK(contains(error_of([] { decode_attention_cost(0, 8); }), "n must be at least 1, got 0"));
    CHECK(contains(error_of([] { decode_attention_cost(4, 0); }), "d must be at least 1, got 0"));
}

TEST_CASE("generation cost: the last token's decode_attention_cost; the sums over the text") {
    const GenerationCost c = generation_cost(10, 64);
    CHECK(c.token_cached == decode_attention_cost(10, 64).cached);
    CHECK(c.token_uncached == decode_attention_cost(10, 64).uncached);
    CHECK(c.token_cached == 2 * 10 * 64);
    CHECK(c.token_uncached == 10 * 11 * 64);
    double cached = 0, uncached = 0;
    for (Index m = 1; m <= 10; ++m) {
        cached += generation_cost(m, 64).token_cached;
        uncached += generation_cost(m, 64).token_uncached;
    }
    CHECK(c.total_cached == cached);      // 10 * 11 * 64 = 7040
    CHECK(c.total_uncached == uncached);  // 10 * 11 * 12 * 64 / 3 = 28160
    CHECK(c.total_cached == 7040);
    CHECK(c.total_uncached == 28160);
    // with the cache the text costs what one causal pass over it does: its last token's uncached count
    CHECK(c.total_cached == c.token_uncached);
    CHECK(c.cache_numbers == 1280);
    CHECK(contains(error_of([] { generation_cost(0, 8); }), "n must be at least 1"));
}
