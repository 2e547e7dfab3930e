// Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V: Vaswani et al. 2017,
// "Attention Is All You Need", section 3.2.1 (https://arxiv.org/abs/1706.03762).
// The golden case is the "Thinking Machines" example of Jay Alammar's "The
// Illustrated Transformer" (https://jalammar.github.io/illustrated-transformer/).
#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("attention: golden Thinking Machines 112, 96 -> 14, 12 -> 0.880797, 0.119203") {
    const Mat Q = Mat::Constant(1, 64, 1);
    Mat K(2, 64);
    K.row(0).setConstant(1.75f);
    K.row(1).setConstant(1.5f);
    Mat V(2, 3);
    V << 1, 0, 2, 0, 1, 2;
    const AttentionResult r = attention(Q, K, V);
    CHECK(r.scale == 0.125f);
    CHECK(r.scores(0, 0) == 112);
    CHECK(r.scores(0, 1) == 96);
    CHECK(r.scaled(0, 0) == 14);
    CHECK(r.scaled(0, 1) == 12);
    CHECK(r.weights(0, 0) == doctest::Approx(0.880797).epsilon(1e-6));
    CHECK(r.weights(0, 1) == doctest::Approx(0.119203).epsilon(1e-5));
    // the steps a page shows: exp(14 - 14) = 1, exp(12 - 14) = e^-2, their sum
    CHECK(r.row_max(0) == 14);
    CHECK(r.exps(0, 0) == 1);
    CHECK(r.exps(0, 1) == doctest::Approx(std::exp(-2.0)));
    CHECK(r.row_sums(0) == doctest::Approx(1 + std::exp(-2.0)));
    // z1 = a11 v1 + a12 v2
    CHECK(r.output(0, 0) == doctest::Approx(r.weights(0, 0)));
    CHECK(r.output(0, 1) == doctest::Approx(r.weights(0, 1)));
    CHECK(r.output(0, 2) == doctest::Approx(2));
}

TEST_CASE("attention: matches the reference for every score and mask on random inputs") {
    const Score all[] = {Score::dot, Score::general, Score::concat, Score::additive, Score::gaussian};
    for (Score score : all)
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            CAPTURE(score_name(score));
            CAPTURE(seed);
            const bool same = score == Score::dot || score == Score::gaussian;
            const Index nq = 1 + Index(seed % 6), nk = 1 + Index(seed * 5 % 8);
            const Index dq = 1 + Index(seed * 3 % 10), dk = same ? dq : 1 + Index(seed % 4), dv = 1 + Index(seed % 5);
            AttentionOptions o;
            o.score = score;
            o.seed = seed;
            o.causal = seed % 2 == 0;
            if (seed % 3 == 0) o.valid_length = Index(seed % (nk + 1));
            if (seed % 4 == 1) o.mask = random_matrix(nq, nk, seed + 7).array() > -0.5f;
            if (seed % 5 == 2) o.scale = 0.3f;
            const Mat Q = random_matrix(nq, dq, seed), K = random_matrix(nk, dk, seed + 1),
                      V = random_matrix(nk, dv, seed + 2);
            const AttentionResult fast = attention(Q, K, V, o);
            const AttentionResult ref = attention_reference(Q, K, V, o);
            CHECK(max_rel_error(fast.scores, ref.scores) < 1e-5);
            CHECK(max_rel_error(fast.masked, ref.masked) < 1e-5);
            CHECK(max_rel_error(fast.weights, ref.weights) < 1e-5);
            CHECK(max_rel_error(fast.exps, ref.exps) < 1e-5);
            CHECK(max_rel_error(fast.row_sums, ref.row_sums) < 1e-5);
            CHECK(max_rel_error(fast.row_max, ref.row_max) < 1e-5);
            CHECK(max_rel_error(fast.output, ref.output) < 1e-5);
            CHECK((fast.mask == ref.mask).all());
            check_rows_sum_to_one_or_zero(fast.weights);
            CHECK(fast.output.allFinite());
        }
}

TEST_CASE("attention: default scale is 1/sqrt(d_k) for dot and general, 1 otherwise") {
    const Mat Q = random_matrix(2, 16, 1), K = random_matrix(3, 16, 2), V = random_matrix(3, 2, 3);
    AttentionOptions o;
    CHECK(attention(Q, K, V, o).scale == 0.25f);
    o.score = Score::general;
    CHECK(attention(Q, K, V, o).scale == 0.25f);
    o.score = Score::additive;
    CHECK(attention(Q, K, V, o).scale == 1.0f);
    o.scale = 2.0f;
    CHECK(attention(Q, K, V, o).scale == 2.0f);
}

TEST_CASE("attention: masked entries are -inf before softmax; fully masked rows give zero output") {
    const Mat Q = random_matrix(3, 4, 1), K = random_matrix(3, 4, 2), V = random_matrix(3, 2, 3);
    AttentionOptions o;
    o.causal = true;
    o.valid_length = 2;
    o.mask = Mask::Constant(3, 3, true);
    o.mask(0, 0) = false;  // row 0 may see key 0 only by causality: now none
    const AttentionResult r = attention(Q, K, V, o);
    CHECK(std::isinf(r.masked(0, 0)));
    CHECK(r.masked(0, 0) < 0);
    CHECK(std::isinf(r.masked(2, 2)));  // padding
    CHECK(std::isinf(r.masked(1, 2)));  // causal and padding
    CHECK((r.weights.row(0).array() == 0).all());
    CHECK((r.output.row(0).array() == 0).all());
    CHECK(r.weights(1, 0) + r.weights(1, 1) == doctest::Approx(1));
    CHECK(r.weights(2, 2) == 0);
    CHECK(r.output.allFinite());
}

TEST_CASE("attention: given score parameters are used, missing ones drawn from the seed") {
    const Mat Q = random_matrix(2, 3, 1), K = random_matrix(4, 3, 2), V = random_matrix(4, 1, 3);
    AttentionOptions o;
    o.score = Score::general;
    o.params.W = Mat::Identity(3, 3);
    const AttentionResult r = attention(Q, K, V, o);
    CHECK(r.params.W == Mat::Identity(3, 3));
    CHECK(max_rel_error(r.scores, score_dot(Q, K)) < 1e-6);
    o.params = {};
    o.seed = 5;
    CHECK(attention(Q, K, V, o).params.W == init_xavier(3, 3, 5, stream::W));
}

TEST_CASE("attention: errors name the argument") {
    const Mat Q = random_matrix(2, 3, 1), K = random_matrix(4, 3, 2), V = random_matrix(4, 1, 3);
    CHECK(error_of([&] { attention(Q, K, random_matrix(3, 1, 1)); }) ==
          "value has 3 rows but key has 4; each key needs one value");
    Mat bad = Q;
    bad(1, 2) = INFINITY;
    CHECK(error_of([&] { attention(bad, K, V); }) ==
          "query has Infinity at row 1, column 2 (every entry must be a finite float32)");
    AttentionOptions o;
    o.mask = Mask::Constant(4, 2, true);
    CHECK(error_of([&] { attention(Q, K, V, o); }) == "mask has shape (4, 2) but needs (rows(query), rows(key)) = (2, 4)");
    o = {};
    o.scale = -1.0f;
    CHECK(contains(error_of([&] { attention(Q, K, V, o); }), "scale must be a finite number greater than 0"));
    o = {};
    o.valid_length = 9;
    CHECK(contains(error_of([&] { attention(Q, K, V, o); }), "valid_length must be between 0 and the number of keys (4)"));
    const Mat huge = Mat::Constant(2, 3, 1e30f);
    CHECK(contains(error_of([&] { attention(huge, huge, Mat::Ones(2, 1)); }), "scores overflow float32"));
    CHECK(contains(error_of([&] { attention(Mat(0, 3), K, V); }), "query must have at least one row and one column"));
    // found by the fuzzer: weights (1, 4e-8) on two values at the float32 maximum sum past it
    const Mat q1 = Mat::Ones(1, 1), k2 = (Mat(2, 1) << 0, -17).finished();
    const Mat v_max = Mat::Constant(2, 1, std::numeric_limits<Scalar>::max());
    CHECK(contains(error_of([&] { attention(q1, k2, v_max); }), "output = weights V overflows float32"));
    CHECK(contains(error_of([&] { attention_output(q1, k2, v_max); }), "output = weights V overflows float32"));
}

TEST_CASE("all_finite: an infinity or a NaN anywhere, in the vector part of a row or its tail, in a strided view") {
    const float bad[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN()};
    for (Index cols = 1; cols <= 13; ++cols) {
        CAPTURE(cols);
        Mat wide = random_matrix(3, cols + 2, 7) * 3e38f;  // large but finite
        const MatRef m = wide.middleCols(1, cols);          // (outer stride cols + 2)
        CHECK(all_finite(m));
        for (Index i = 0; i < 3; ++i)
            for (Index j = 0; j < cols; ++j)
                for (const float x : bad) {
                    const float kept = wide(i, j + 1);
                    wide(i, j + 1) = x;
                    CHECK_FALSE(all_finite(m));
                    CHECK(contains(error_of([&] { require_finite(m, "query"); }),
                                   "at row " + std::to_string(i) + ", column " + std::to_string(j)));
                    wide(i, j + 1) = kept;
                }
        // outside the view: not its business
        wide(0, 0) = bad[2];
        wide(2, cols + 1) = bad[0];
        CHECK(all_finite(m));
    }
}

TEST_CASE("attention: at scales that make softmax a hard argmax, every score gives the reference's weights") {
    // Queries and keys on a grid of sixteenths, score parameters drawn from the
    // seed (not on any grid). At a scale of 1e36, scores one unit of the last
    // place apart get weights 1 and 0: the weights are then only as right as
    // the scores' rounding. Each parametrised score is summed in double and
    // rounded once, like the reference, so both find the same largest scores
    // (summed in float, 1 case in 300 came out a tie in one and not the other).
    std::uint64_t seed = 1;
    Index disagreements = 0, compared = 0;
    for (const Score score : {Score::general, Score::concat, Score::additive, Score::gaussian})
        for (const float scale : {1e4f, 1e12f, 1e20f, 1e30f, 1e36f, 1e37f, 3e38f})
            for (int trial = 0; trial < 120; ++trial) {
                Rng rng(++seed, 0);
                const Index nq = 1 + Index(rng.next() % 3), nk = 2 + Index(rng.next() % 5);
                const Index dq = 1 + Index(rng.next() % 4);
                const Index dk = score == Score::gaussian ? dq : 1 + Index(rng.next() % 4);
                auto grid = [&](Index rows, Index cols) {
                    Mat m(rows, cols);
                    for (Index i = 0; i < m.size(); ++i) m.data()[i] = Scalar(int(rng.next() % 256) - 128) / 16;
                    return m;
                };
                const Mat Q = grid(nq, dq), K = grid(nk, dk), V = grid(nk, 2);
                AttentionOptions o;
                o.score = score;
                o.scale = scale;
                o.seed = seed;
                const std::string fast_error = error_of([&] { attention(Q, K, V, o); });
                const std::string reference_error = error_of([&] { attention_reference(Q, K, V, o); });
                CHECK(fast_error == reference_error);
                if (!fast_error.empty()) continue;
                ++compared;
                if (max_rel_error(attention(Q, K, V, o).weights, attention_reference(Q, K, V, o).weights) > 1e-6)
                    ++disagreements;
            }
    CHECK(compared > 2000);
    CHECK(disagreements == 0);
}
