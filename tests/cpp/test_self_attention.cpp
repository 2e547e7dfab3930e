#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

// Q = X Wq etc. with plain loops, then the attention reference.
static AttentionResult projected_reference(const Mat& X, const Mat& M, const Projections& W,
                                           const AttentionOptions& o) {
    auto matmul = [](const Mat& A, const Mat& B) {
        Mat C(A.rows(), B.cols());
        for (Index i = 0; i < A.rows(); ++i)
            for (Index j = 0; j < B.cols(); ++j) {
                double s = 0;
                for (Index k = 0; k < A.cols(); ++k) s += double(A(i, k)) * B(k, j);
                C(i, j) = Scalar(s);
            }
        return C;
    };
    return attention_reference(matmul(X, W.Wq), matmul(M, W.Wk), matmul(M, W.Wv), o);
}

TEST_CASE("self-attention: Q, K, V from one input match the reference") {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const Index n = 1 + Index(seed % 5), d = 2 + Index(seed % 7);
        const Mat X = random_matrix(n, d, seed);
        const Projections W = projections_complete({}, d, d, 4, 3, seed);
        AttentionOptions o;
        o.causal = seed % 2 == 1;
        const ProjectedAttention r = self_attention(X, W, o);
        CHECK(r.Q.rows() == n);
        CHECK(r.Q.cols() == 4);
        CHECK(r.V.cols() == 3);
        const AttentionResult ref = projected_reference(X, X, W, o);
        CHECK(max_rel_error(r.attention.weights, ref.weights) < 1e-5);
        CHECK(max_rel_error(r.attention.output, ref.output) < 1e-5);
        check_rows_sum_to_one_or_zero(r.attention.weights);
    }
}

TEST_CASE("cross-attention: Q from one sequence, K and V from another") {
    const Mat X = random_matrix(3, 5, 1), M = random_matrix(6, 4, 2);
    const Projections W = projections_complete({}, 5, 4, 8, 2, 3);
    const ProjectedAttention r = cross_attention(X, M, W);
    CHECK(r.attention.weights.rows() == 3);
    CHECK(r.attention.weights.cols() == 6);
    CHECK(r.attention.output.rows() == 3);
    CHECK(r.attention.output.cols() == 2);
    CHECK(max_rel_error(r.attention.output, projected_reference(X, M, W, {}).output) < 1e-5);
}

TEST_CASE("self-attention: without positional encoding a permuted sentence gives a permuted map") {
    const Mat X = random_matrix(4, 6, 1);
    const Projections W = projections_complete({}, 6, 6, 6, 6, 1);
    const int perm[4] = {2, 0, 3, 1};
    Mat Xp(4, 6);
    for (int i = 0; i < 4; ++i) Xp.row(i) = X.row(perm[i]);
    const Mat A = self_attention(X, W).attention.weights, Ap = self_attention(Xp, W).attention.weights;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) CHECK(Ap(i, j) == doctest::Approx(A(perm[i], perm[j])).epsilon(1e-5));
    // with the encoding added, it is no longer a permutation
    const Mat P = positional_encoding(4, 6);
    const Mat B = self_attention(X + P, W).attention.weights;
    Mat Xpp = Xp + P;
    const Mat Bp = self_attention(Xpp, W).attention.weights;
    double diff = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) diff = std::max(diff, double(std::abs(Bp(i, j) - B(perm[i], perm[j]))));
    CHECK(diff > 1e-3);
}

TEST_CASE("self-attention: projections that do not fit are rejected") {
    const Mat X = random_matrix(3, 5, 1);
    Projections W = projections_complete({}, 5, 5, 4, 4, 1);
    W.Wq = random_matrix(4, 4, 1);
    CHECK(contains(error_of([&] { self_attention(X, W); }), "projections do not fit the inputs"));
    CHECK(contains(error_of([&] { projections_complete({}, 5, 5, 0, 4, 1); }), "d_k must be positive"));
    Projections given;
    given.Wk = random_matrix(2, 2, 1);
    CHECK(error_of([&] { projections_complete(given, 5, 5, 4, 4, 1); }) == "projections.Wk must have shape (5, 4), got (2, 2)");
}
