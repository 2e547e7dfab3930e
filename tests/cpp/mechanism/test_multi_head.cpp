#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("multi-head: each head is attention on its slice; output = concat * Wo") {
    const Mat X = random_matrix(5, 8, 1);
    for (Index h : {1, 2, 4, 8}) {
        CAPTURE(h);
        const MultiHeadParams p = multi_head_params_complete({}, 8, 8, 8, h, h, 3);
        AttentionOptions o;
        o.causal = h == 2;
        const MultiHeadResult r = multi_head_attention(X, X, h, h, p, o);
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
    const MultiHeadParams p = multi_head_params_complete({}, 6, 6, 6, 1, 1, 1);
    const MultiHeadResult r = multi_head_attention(X, X, 1, 1, p);
    const ProjectedAttention s = self_attention(X, p.W);
    CHECK(max_rel_error(r.heads[0].weights, s.attention.weights) < 1e-6);
}

TEST_CASE("multi-head: cross-attention and errors") {
    const Mat X = random_matrix(3, 4, 1), M = random_matrix(7, 5, 2);
    const MultiHeadParams p = multi_head_params_complete({}, 4, 5, 6, 3, 3, 1);
    const MultiHeadResult r = multi_head_attention(X, M, 3, 3, p);
    CHECK(r.heads[2].weights.rows() == 3);
    CHECK(r.heads[2].weights.cols() == 7);
    CHECK(r.output.cols() == 6);
    CHECK(error_of([&] { multi_head_attention(X, M, 4, 4, p); }) == "d_model (6) must be divisible by heads (4)");
    CHECK(contains(error_of([&] { multi_head_attention(X, M, 0, 1, p); }), "heads must be at least 1"));
    MultiHeadParams huge = p;
    huge.Wo.setConstant(3e38f);
    huge.W.Wv = Mat::Constant(5, 6, 1);
    CHECK(contains(error_of([&] { multi_head_attention(X, M, 3, 3, huge); }), "output = concat Wo overflows float32"));
}

// Grouped keys and values against a plain double-precision reference written
// here: every product and softmax by loops, query head h reading key/value
// head floor(h kv_heads / heads).
static Eigen::MatrixXd gqa_product(const MatRef& A, const MatRef& B) {
    Eigen::MatrixXd C(A.rows(), B.cols());
    for (Index i = 0; i < A.rows(); ++i)
        for (Index j = 0; j < B.cols(); ++j) {
            double s = 0;
            for (Index k = 0; k < A.cols(); ++k) s += double(A(i, k)) * double(B(k, j));
            C(i, j) = s;
        }
    return C;
}

static Eigen::MatrixXd gqa_reference(const Mat& X, const Mat& M, Index heads, Index kv_heads,
                                         const MultiHeadParams& p) {
    const Eigen::MatrixXd Q = gqa_product(X, p.W.Wq), K = gqa_product(M, p.W.Wk), V = gqa_product(M, p.W.Wv);
    const Index d_model = p.Wo.rows(), d_h = d_model / heads;
    Mat concat(X.rows(), d_model);
    for (Index h = 0; h < heads; ++h) {
        const Index g = h * kv_heads / heads;
        for (Index i = 0; i < X.rows(); ++i) {
            std::vector<double> w(size_t(M.rows()));
            double top = -1e300, sum = 0;
            for (Index j = 0; j < M.rows(); ++j) {
                double s = 0;
                for (Index c = 0; c < d_h; ++c) s += Q(i, h * d_h + c) * K(j, g * d_h + c);
                w[size_t(j)] = s / std::sqrt(double(d_h));
                top = std::max(top, w[size_t(j)]);
            }
            for (double& x : w) sum += (x = std::exp(x - top));
            for (Index c = 0; c < d_h; ++c) {
                double z = 0;
                for (Index j = 0; j < M.rows(); ++j) z += w[size_t(j)] / sum * V(j, g * d_h + c);
                concat(i, h * d_h + c) = Scalar(z);
            }
        }
    }
    return gqa_product(concat, p.Wo);
}

TEST_CASE("multi-head: grouped keys and values (MHA, GQA, MQA) against the double reference") {
    // n_q, n_kv, d_in, d_model, heads, kv_heads: 1 x 1, n_kv >> n_q, every divisor of heads
    const Index shapes[][6] = {{1, 1, 1, 1, 1, 1}, {3, 3, 5, 8, 4, 2}, {2, 40, 3, 8, 8, 1}, {5, 7, 6, 12, 6, 3},
                               {4, 9, 8, 16, 8, 4}, {6, 6, 4, 8, 4, 4}, {1, 64, 4, 6, 6, 2}};
    std::uint64_t seed = 10;
    for (const auto& s : shapes) {
        INFO("n_q ", s[0], ", n_kv ", s[1], ", heads ", s[4], ", kv_heads ", s[5]);
        const Mat X = random_matrix(s[0], s[2], ++seed), M = random_matrix(s[1], s[2], ++seed);
        const MultiHeadParams p = multi_head_params_complete({}, s[2], s[2], s[3], s[4], s[5], seed);
        const Index d_h = s[3] / s[4];
        CHECK(p.W.Wk.cols() == s[5] * d_h);
        const MultiHeadResult r = multi_head_attention(X, M, s[4], s[5], p);
        CHECK(r.K.rows() == s[1]);
        CHECK(r.K.cols() == s[5] * d_h);
        CHECK(r.V.cols() == s[5] * d_h);
        CHECK(max_rel_error_of(r.output, gqa_reference(X, M, s[4], s[5], p)) < 1e-5);
        for (Index h = 0; h < s[4]; ++h) {
            const Index g = h * s[5] / s[4];
            CHECK(r.kv_head[size_t(h)] == g);
            // a group shares the very same keys and values
            CHECK(r.keys[size_t(h)] == r.K.middleCols(g * d_h, d_h));
            CHECK(r.values[size_t(h)] == r.V.middleCols(g * d_h, d_h));
        }
    }
}

TEST_CASE("multi-head: kv_heads = heads is today's multi-head attention, bit for bit") {
    // today's computation written out with the core's pieces: project, then attention on each head's slices
    const Mat X = random_matrix(5, 8, 3), M = random_matrix(9, 6, 4);
    for (Index h : {1, 2, 4, 8}) {
        CAPTURE(h);
        const MultiHeadParams p = multi_head_params_complete({}, 8, 6, 8, h, h, 7);
        AttentionOptions o;
        o.valid_length = 7;
        const MultiHeadResult r = multi_head_attention(X, M, h, h, p, o);
        const ProjectedAttention all = project(X, M, p.W);
        CHECK(r.K == all.K);
        const Index d_h = 8 / h;
        o.scale = Scalar(1) / std::sqrt(Scalar(d_h));
        Mat concat(5, 8);
        for (Index i = 0; i < h; ++i) {
            const AttentionResult a = attention(all.Q.middleCols(i * d_h, d_h), all.K.middleCols(i * d_h, d_h),
                                                all.V.middleCols(i * d_h, d_h), o);
            CHECK(r.heads[size_t(i)].weights == a.weights);
            concat.middleCols(i * d_h, d_h) = a.output;
        }
        CHECK(r.concat == concat);
        Mat output;
        output = concat * p.Wo;
        CHECK(r.output == output);
    }
}

TEST_CASE("multi-head: the errors of grouped keys and values") {
    const Mat X = random_matrix(3, 4, 1);
    CHECK(error_of([&] { multi_head_params_complete({}, 4, 4, 8, 4, 3, 1); }) ==
          "kv_heads (3) must divide heads (4): each key/value head serves an equal group of query heads");
    CHECK(error_of([&] { multi_head_params_complete({}, 4, 4, 8, 4, 0, 1); }) == "kv_heads must be at least 1, got 0");
    CHECK(error_of([&] { multi_head_params_complete({}, 4, 4, 8, 4, 8, 1); }) ==
          "kv_heads (8) must divide heads (4): each key/value head serves an equal group of query heads");
    MultiHeadParams given;
    given.W.Wk = random_matrix(4, 8, 2);  // a full-width W^K where 1 key/value head of width 2 is wanted
    CHECK(error_of([&] { multi_head_params_complete(given, 4, 4, 8, 4, 1, 1); }) ==
          "projections.Wk must have shape (4, 2) (columns: 1 key/value head of width 2), got (4, 8)");
    given.W.Wk = Mat();
    given.W.Wq = random_matrix(4, 2, 2);
    CHECK(error_of([&] { multi_head_params_complete(given, 4, 4, 8, 4, 1, 1); }) ==
          "projections.Wq must have shape (4, 8) (columns: 4 heads of width 2), got (4, 2)");
    try {
        multi_head_params_complete({}, 4, 4, 8, 4, 3, 1);
    } catch (const invalid_argument& e) {
        CHECK(e.argument == "kv_heads");
    }
    // params drawn for 2 key/value heads do not serve 4
    const MultiHeadParams p = multi_head_params_complete({}, 4, 4, 8, 4, 2, 1);
    CHECK(contains(error_of([&] { multi_head_attention(X, X, 4, 4, p); }), "projections do not fit the inputs and heads"));
}
