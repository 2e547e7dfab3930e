#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("conditional: each fusion feeds Q and K, not V, and matches the reference") {
    const Mat X = random_matrix(4, 5, 1);
    Vec c(3);
    c << 1, 0, 0;
    for (Fusion f : {Fusion::concat, Fusion::add, Fusion::fc}) {
        CAPTURE(fusion_name(f));
        const ConditionalResult r = conditional_attention(X, c, f, 4, 5, 7);
        CHECK(r.fused.rows() == 4);
        CHECK(r.fused.cols() == (f == Fusion::concat ? 8 : 5));
        const AttentionResult ref = attention_reference(r.fused * r.attn.W.Wq, r.fused * r.attn.W.Wk, X * r.attn.W.Wv);
        CHECK(max_rel_error(r.attn.attention.weights, ref.weights) < 1e-5);
        CHECK(max_rel_error(r.attn.attention.output, ref.output) < 1e-5);
        check_rows_sum_to_one_or_zero(r.attn.attention.weights);
    }
}

TEST_CASE("conditional: the fused input is what each mode says") {
    const Mat X = random_matrix(2, 3, 2);
    Vec c(2);
    c << 0.5f, -1;
    const ConditionalResult cat = conditional_attention(X, c, Fusion::concat, 2, 2, 1);
    CHECK(cat.fused(1, 3) == 0.5f);
    CHECK(cat.fused(1, 4) == -1);
    CHECK(cat.fused(1, 0) == X(1, 0));
    const ConditionalResult add = conditional_attention(X, c, Fusion::add, 2, 2, 1);
    const Mat expected = X.rowwise() + c.transpose() * add.P;
    CHECK(max_rel_error(add.fused, expected) < 1e-6);
    const ConditionalResult fc = conditional_attention(X, c, Fusion::fc, 2, 2, 1);
    // tanh([X | c] Wf + bf), with plain loops
    REQUIRE(fc.Wf.rows() == 5);
    REQUIRE(fc.Wf.cols() == 3);
    for (Index i = 0; i < 2; ++i)
        for (Index j = 0; j < 3; ++j) {
            double z = fc.bf(j);
            for (Index k = 0; k < 3; ++k) z += double(X(i, k)) * fc.Wf(k, j);
            for (Index k = 0; k < 2; ++k) z += double(c(k)) * fc.Wf(3 + k, j);
            CHECK(fc.fused(i, j) == doctest::Approx(std::tanh(z)).epsilon(1e-5));
        }
}

TEST_CASE("conditional: another condition changes the map") {
    const Mat X = random_matrix(5, 4, 3);
    Vec a(2), b(2);
    a << 1, 0;
    b << 0, 1;
    for (Fusion f : {Fusion::concat, Fusion::add, Fusion::fc}) {
        const Mat wa = conditional_attention(X, a * 3, f, 4, 4, 2).attn.attention.weights;
        const Mat wb = conditional_attention(X, b * 3, f, 4, 4, 2).attn.attention.weights;
        CHECK((wa - wb).cwiseAbs().maxCoeff() > 1e-3f);
    }
}

TEST_CASE("conditional: errors") {
    const Mat X = random_matrix(2, 3, 2);
    CHECK(error_of([] { fusion_from_name("multiply"); }) == "unknown fusion 'multiply' (expected concat, add or fc)");
    CHECK(contains(error_of([&] { conditional_attention(X, Vec(0), Fusion::add, 2, 2, 1); }), "condition must have at least one entry"));
    Vec c(1);
    c << NAN;
    CHECK(contains(error_of([&] { conditional_attention(X, c, Fusion::add, 2, 2, 1); }), "condition has NaN at index 0"));
}
