#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("multi-head: each head is attention on its slice; output = concat * Wo") {
    const Mat X = random_matrix(5, 8, 1);
    for (Index h : {1, 2, 4, 8}) {
        CAPTURE(h);
        const MultiHeadParams p = multi_head_params_complete({}, 8, 8, 8, 3);
        AttentionOptions o;
        o.causal = h == 2;
        const MultiHeadResult r = multi_head_attention(X, X, h, p, o);
        REQUIRE(r.heads.size() == size_t(h));
        const Index dh = 8 / h;
        for (Index i = 0; i < h; ++i) {
            const AttentionResult ref = attention_reference(r.Q.middleCols(i * dh, dh), r.K.middleCols(i * dh, dh),
                                                            r.V.middleCols(i * dh, dh), o);
            CHECK(r.heads[size_t(i)].scale == doctest::Approx(1 / std::sqrt(double(dh))));
            CHECK(max_rel_error(r.heads[size_t(i)].weights, ref.weights) < 1e-5);
            CHECK(max_rel_error(r.concat.middleCols(i * dh, dh), ref.output) < 1e-5);
            check_rows_sum_to_one_or_zero(r.heads[size_t(i)].weights);
        }
        Mat expected(5, 8);
        for (Index a = 0; a < 5; ++a)
            for (Index b = 0; b < 8; ++b) {
                double s = 0;
                for (Index c = 0; c < 8; ++c) s += double(r.concat(a, c)) * p.Wo(c, b);
                expected(a, b) = Scalar(s);
            }
        CHECK(max_rel_error(r.output, expected) < 1e-5);
    }
}

TEST_CASE("multi-head: one head equals single-head attention then Wo") {
    const Mat X = random_matrix(4, 6, 2);
    const MultiHeadParams p = multi_head_params_complete({}, 6, 6, 6, 1);
    const MultiHeadResult r = multi_head_attention(X, X, 1, p);
    const ProjectedAttention s = self_attention(X, p.W);
    CHECK(max_rel_error(r.heads[0].weights, s.attention.weights) < 1e-6);
}

TEST_CASE("multi-head: cross-attention and errors") {
    const Mat X = random_matrix(3, 4, 1), M = random_matrix(7, 5, 2);
    const MultiHeadParams p = multi_head_params_complete({}, 4, 5, 6, 1);
    const MultiHeadResult r = multi_head_attention(X, M, 3, p);
    CHECK(r.heads[2].weights.rows() == 3);
    CHECK(r.heads[2].weights.cols() == 7);
    CHECK(r.output.cols() == 6);
    CHECK(error_of([&] { multi_head_attention(X, M, 4, p); }) == "d_model (6) must be divisible by heads (4)");
    CHECK(contains(error_of([&] { multi_head_attention(X, M, 0, p); }), "heads must be at least 1"));
    MultiHeadParams huge = p;
    huge.Wo.setConstant(3e38f);
    huge.W.Wv = Mat::Constant(5, 6, 1);
    CHECK(contains(error_of([&] { multi_head_attention(X, M, 3, huge); }), "output = concat Wo overflows float32"));
}
