#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

static const Score kAll[] = {Score::dot, Score::general, Score::concat, Score::additive, Score::gaussian};

TEST_CASE("scores: every score matches its plain-loop reference on random inputs") {
    for (Score score : kAll)
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            CAPTURE(score_name(score));
            CAPTURE(seed);
            const bool same = score == Score::dot || score == Score::gaussian;
            const Index nq = 1 + Index(seed % 5), nk = 1 + Index(seed * 7 % 9);
            const Index dq = 1 + Index(seed * 5 % 13), dk = same ? dq : 1 + Index(seed * 3 % 6);
            const Mat Q = random_matrix(nq, dq, seed);
            const Mat K = random_matrix(nk, dk, seed + 50);
            ScoreParams p = score_params_complete(score, dq, dk, {}, seed, Index(seed % 4));
            p.sigma = 0.5f + Scalar(seed) / 4;
            CHECK(max_rel_error(scores(score, Q, K, p), scores_reference(score, Q, K, p)) < 1e-5);
        }
}

TEST_CASE("scores: dot of the Thinking Machines vectors gives 112 and 96") {
    const Mat q = Mat::Constant(1, 64, 1);
    Mat k(2, 64);
    k.row(0).setConstant(1.75f);
    k.row(1).setConstant(1.5f);
    const Mat S = score_dot(q, k);
    CHECK(S(0, 0) == 112);
    CHECK(S(0, 1) == 96);
}

TEST_CASE("scores: general with the identity is dot; additive takes different widths") {
    const Mat Q = random_matrix(3, 4, 1), K = random_matrix(5, 4, 2);
    CHECK(max_rel_error(score_general(Q, K, Mat::Identity(4, 4)), score_dot(Q, K)) < 1e-6);
    const Mat K2 = random_matrix(5, 7, 3);
    const ScoreParams p = score_params_complete(Score::additive, 4, 7, {}, 9, 6);
    CHECK(p.W.rows() == 6);
    CHECK(p.W.cols() == 4);
    CHECK(p.U.cols() == 7);
    const Mat S = score_additive(Q, K2, p.W, p.U, p.v);
    CHECK(S.rows() == 3);
    CHECK(S.cols() == 5);
    // |v^T tanh(.)| <= sum |v|
    CHECK(S.cwiseAbs().maxCoeff() <= p.v.cwiseAbs().sum());
}

TEST_CASE("scores: concat ranks keys the same for every query") {
    const Mat Q = random_matrix(3, 2, 4), K = random_matrix(4, 2, 5);
    const ScoreParams p = score_params_complete(Score::concat, 2, 2, {}, 1);
    const Mat S = score_concat(Q, K, p.v);
    // rows differ only by a constant
    for (Index i = 1; i < 3; ++i) {
        const Scalar shift = S(i, 0) - S(0, 0);
        for (Index j = 0; j < 4; ++j) CHECK(S(i, j) - S(0, j) == doctest::Approx(shift).epsilon(1e-5));
    }
}

TEST_CASE("scores: gaussian of scalar keys is -(q-k)^2 / (2 sigma^2)") {
    Mat q(1, 1), k(4, 1);
    q << 172;
    k << 160, 165, 170, 175;
    const Mat S = score_gaussian(q, k, 2);
    CHECK(S(0, 0) == doctest::Approx(-144.0 / 8));
    CHECK(S(0, 2) == doctest::Approx(-4.0 / 8));
    CHECK(S(0, 3) == doctest::Approx(-9.0 / 8));
}

TEST_CASE("scores: parameters the score does not use are refused; hidden follows a given W") {
    ScoreParams p;
    p.W = Mat::Identity(2, 2);
    CHECK(error_of([&] { score_params_complete(Score::dot, 2, 2, p, 0); }) == "params.W is not used by the dot score");
    p = {};
    p.v = Vec::Ones(3);
    CHECK(error_of([&] { score_params_complete(Score::general, 2, 2, p, 0); }) == "params.v is not used by the general score");
    p = {};
    p.W = random_matrix(5, 2, 1);
    const ScoreParams done = score_params_complete(Score::additive, 2, 3, p, 0);
    CHECK(done.U.rows() == 5);
    CHECK(done.v.size() == 5);
}

TEST_CASE("scores: limits on size and range") {
    const Mat big = Mat::Zero(5000, 1);
    CHECK(error_of([&] { score_dot(big, big); }) == "5000 queries x 5000 keys is too large (at most 16777216 scores in one map)");
    const Mat Q = random_matrix(2, 1, 1);
    CHECK(contains(error_of([&] { score_gaussian(Q, Q, 1e-20f); }), "params.sigma = 1e-20 is out of range"));
    CHECK(contains(error_of([&] { score_gaussian(Q, Q, 1e20f); }), "out of range"));
    const Mat wide = Mat::Zero(4000, 4000);
    CHECK(contains(error_of([&] { score_dot(wide, wide); }), "the dot score of (4000, 4000) queries against (4000, 4000) keys is too large"));
}

TEST_CASE("scores: names and errors") {
    CHECK(score_from_name("additive") == Score::additive);
    CHECK(std::string(score_name(Score::gaussian)) == "gaussian");
    CHECK(error_of([] { score_from_name("cosine"); }) ==
          "unknown score 'cosine' (expected dot, general, concat, additive or gaussian)");
    const Mat Q = random_matrix(2, 3, 1), K = random_matrix(2, 4, 2);
    CHECK(error_of([&] { score_dot(Q, K); }) == "key has 4 columns but query has 3; the dot score needs equal widths");
    CHECK(error_of([&] { score_general(Q, K, Mat::Identity(3, 3)); }) ==
          "params.W must have shape (3, 4), got (3, 3)");
    CHECK(contains(error_of([&] { score_gaussian(Q, Q, 0); }), "params.sigma must be a finite number greater than 0"));
    CHECK(contains(error_of([&] { score_dot(Mat(0, 3), Q); }), "query must have at least one row"));
}
