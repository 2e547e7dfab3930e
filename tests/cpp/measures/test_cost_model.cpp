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

TEST_CASE("generation cost: grouped heads shrink the cache, a window bounds it and the work") {
    // the defaults are the counts without options
    const GenerationCost plain = generation_cost(10, 64), same = generation_cost(10, 64, {8, 0, 0});
    CHECK(same.total_uncached == plain.total_uncached);
    CHECK(same.cache_numbers == plain.cache_numbers);  // 8 heads, each its own keys and values
    CHECK(plain.cache_tokens == 10);
    CHECK(plain.cache_width == 64);
    CHECK(plain.cache_share == 1);
    // GQA: 8 query heads sharing 2 key/value heads keep a quarter of the cache; the work is unchanged
    const GenerationCost gqa = generation_cost(10, 64, {8, 2, 0});
    CHECK(gqa.cache_numbers == 2 * 10 * 64 * 2 / 8);
    CHECK(gqa.cache_width == 16);
    CHECK(gqa.cache_share == 0.25);
    CHECK(gqa.total_cached == plain.total_cached);
    // a window of w: every count against the plain sum over tokens m, token m meeting min(m, w) keys
    for (Index n : {1, 2, 5, 6, 7, 30})
        for (Index w : {1, 3, 6, 50}) {
            INFO("n ", n, ", window ", w);
            double cached = 0, uncached = 0, last_uncached = 0;
            for (Index m = 1; m <= n; ++m) {
                last_uncached = 0;
                for (Index i = 1; i <= m; ++i) last_uncached += 2.0 * double(std::min(i, w)) * 8;
                cached += 2.0 * double(std::min(m, w)) * 8;
                uncached += last_uncached;
            }
            const GenerationCost c = generation_cost(n, 8, {4, 1, w});
            CHECK(c.token_cached == 2.0 * double(std::min(n, w)) * 8);
            CHECK(c.token_uncached == last_uncached);
            CHECK(c.total_cached == cached);
            CHECK(c.total_uncached == uncached);
            CHECK(c.cache_tokens == double(std::min(n, w)));
            CHECK(c.cache_numbers == 2.0 * double(std::min(n, w)) * 8 / 4);
        }
    CHECK(generation_cost(1000, 64, {1, 1, 100}).cache_numbers == generation_cost(5000, 64, {1, 1, 100}).cache_numbers);
}

TEST_CASE("generation cost and the key-value cache's bytes: errors and counts") {
    CHECK(error_of([] { generation_cost(4, 8, {3, 1, 0}); }) == "heads (3) must be at least 1 and divide d (8)");
    CHECK(error_of([] { generation_cost(4, 8, {4, 3, 0}); }) == "kv_heads (3) must be at least 1 and divide heads (4)");
    CHECK(error_of([] { generation_cost(4, 8, {4, -1, 0}); }) == "kv_heads (-1) must be at least 1 and divide heads (4)");
    CHECK(error_of([] { generation_cost(4, 8, {1, 1, -1}); }) == "window must be at least 0 (0: no window), got -1");
    // a model of 32 layers, 8 key/value heads of 128 numbers, 8192 tokens in float16: 1 GiB
    CHECK(kv_cache_bytes(32, 8, 128, 8192) == 1073741824.0);
    CHECK(kv_cache_bytes(1, 1, 1, 1, 1) == 2);
    CHECK(kv_cache_bytes(80, 8, 128, 131072, 4) == 2.0 * 80 * 8 * 128 * 131072 * 4);
    CHECK(error_of([] { kv_cache_bytes(0, 8, 128, 8192); }) == "layers must be at least 1, got 0");
    CHECK(error_of([] { kv_cache_bytes(1, 8, 128, 8192, 0); }) == "bytes_per_number must be at least 1, got 0");
    CHECK(contains(error_of([] { kv_cache_bytes(1000000, 1000000, 1000000, 1000000, 8); }), "beyond 2^53"));
}

TEST_CASE("attention projections' parameters: Llama 3 8B's, a plain count, the matrices multi-head attention draws") {
    // Llama 3 8B: 32 layers, d_model 4096, 32 query heads and 8 key/value heads of 128
    const ProjectionParameters llama = attention_projection_parameters(32, 32, 8, 128);
    CHECK(llama.wq == 16777216.0);  // 4096 x 4096
    CHECK(llama.wk == 4194304.0);   // 4096 x 1024
    CHECK(llama.wv == 4194304.0);
    CHECK(llama.wo == 16777216.0);
    CHECK(llama.per_layer == 41943040.0);
    CHECK(llama.total == 1342177280.0);
    CHECK(attention_projection_parameters(32, 32, 32, 128).total == 2147483648.0);  // one key/value head per head
    // a plain count of every size, d_model given or not
    for (Index heads : {1, 4, 12})
        for (Index kv : {1, 2, 3, 4, 12})
            for (Index d_model : {0, 100}) {
                if (heads % kv != 0) continue;
                const ProjectionParameters p = attention_projection_parameters(3, heads, kv, 16, d_model);
                const double d = d_model == 0 ? double(heads * 16) : double(d_model);
                CHECK(p.wq == d * double(heads * 16));
                CHECK(p.wk == d * double(kv * 16));
                CHECK(p.wv == p.wk);
                CHECK(p.wo == p.wq);
                CHECK(p.total == 3 * (2 * d * double(heads * 16) + 2 * d * double(kv * 16)));
            }
    // the entries of the projections multi_head_attention draws (d_model 32, 8 heads of 4)
    for (Index kv : {8, 4, 2, 1}) {
        const MultiHeadParams w = multi_head_params_complete({}, 32, 32, 32, 8, kv, 1);
        const ProjectionParameters p = attention_projection_parameters(1, 8, kv, 4);
        CHECK(p.wq == double(w.W.Wq.size()));
        CHECK(p.wk == double(w.W.Wk.size()));
        CHECK(p.wv == double(w.W.Wv.size()));
        CHECK(p.wo == double(w.Wo.size()));
    }
    CHECK(attention_projection_parameters(1, 8, 2, 4).per_layer == 2560);
    CHECK(error_of([] { attention_projection_parameters(0, 8, 8, 128); }) == "layers must be at least 1, got 0");
    CHECK(error_of([] { attention_projection_parameters(1, 8, 3, 128); }) == "kv_heads (3) must divide heads (8)");
    CHECK(error_of([] { attention_projection_parameters(1, 8, 8, 128, -1); }) ==
          "d_model must be at least 0 (0: heads times the head width), got -1");
    CHECK(contains(error_of([] { attention_projection_parameters(1000000, 1000000, 1, 1000000); }), "beyond 2^53"));
}
