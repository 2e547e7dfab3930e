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

TEST_CASE("self_map_stats: hand-made maps with known answers") {
    const Mat weights = (Mat(2, 2) << 0.7f, 0.3f, 0.4f, 0.6f).finished();
    // symmetric scores: asymmetry 0; both rows look most at themselves
    SelfMapStats s = self_map_stats((Mat(2, 2) << 1, 2, 2, 1).finished(), weights);
    CHECK(s.asymmetry == 0.0);
    CHECK(s.diagonal_share == doctest::Approx(0.65));
    CHECK(s.rows_on_diagonal == 2);
    // antisymmetric scores: 1
    CHECK(self_map_stats((Mat(2, 2) << 0, 1, -1, 0).finished(), weights).asymmetry == doctest::Approx(1.0));
    // one entry above the diagonal: |S − Sᵀ| = √2, |S| = 1 -> √2 / 2
    CHECK(self_map_stats((Mat(2, 2) << 0, 1, 0, 0).finished(), weights).asymmetry == doctest::Approx(std::sqrt(0.5)));
    // all zero: 0, not NaN
    CHECK(self_map_stats(Mat::Zero(2, 2), weights).asymmetry == 0.0);
    // a row that looks elsewhere; a tie goes to the first column
    s = self_map_stats(Mat::Zero(3, 3), (Mat(3, 3) << 0.2f, 0.5f, 0.3f, 0.5f, 0.5f, 0, 0, 0, 1).finished());
    CHECK(s.rows_on_diagonal == 1);
    CHECK(s.diagonal_share == doctest::Approx((0.2 + 0.5 + 1.0) / 3));
}

TEST_CASE("self_map_stats: W^K = W^Q gives a symmetric map whose rows favour their own word; separate ones do not") {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const Mat X = random_matrix(6, 8, seed);
        const Projections W = projections_complete({}, 8, 8, 4, 4, seed);
        const ProjectedAttention untied = self_attention(X, W);
        const ProjectedAttention tied = self_attention(X, Projections{W.Wq, W.Wq, W.Wv});
        const SelfMapStats u = self_map_stats(untied.attention.scores, untied.attention.weights);
        const SelfMapStats t = self_map_stats(tied.attention.scores, tied.attention.weights);
        CHECK(t.asymmetry < 1e-6);
        CHECK(u.asymmetry > 0.05);
        // each row's own score |q_i|² beats q_i·q_j unless q_j is longer: at least the longest query's row
        CHECK(t.rows_on_diagonal >= 1);
        CHECK(t.diagonal_share > 1.0 / 6);
    }
}

TEST_CASE("self_map_stats: rejects maps that are not square or of one size, and NaN") {
    CHECK_THROWS_WITH(self_map_stats(Mat::Zero(2, 3), Mat::Zero(2, 3)), doctest::Contains("square"));
    CHECK_THROWS_WITH(self_map_stats(Mat::Zero(2, 2), Mat::Zero(3, 3)), doctest::Contains("of one size"));
    Mat bad = Mat::Zero(2, 2);
    bad(0, 1) = std::nanf("");
    CHECK_THROWS(self_map_stats(bad, Mat::Zero(2, 2)));
}
