#include "helpers.hpp"

#include <cmath>
#include <limits>

using namespace attn;
using namespace attn::test;

TEST_CASE("row_sums: golden values, and every attention row sums to 1") {
    Mat m(2, 3);
    m << 1, 2, 3.5f, -1, 0.25f, 0;
    const Vec s = row_sums(m);
    CHECK(s(0) == 6.5f);
    CHECK(s(1) == -0.75f);

    Mat weights(1, 4);
    weights << 0.1f, 0.15f, 0.45f, 0.3f;
    CHECK(row_sums(weights)(0) == doctest::Approx(1.0).epsilon(1e-7));
}

TEST_CASE("row_sums: matches the double reference on random inputs") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const Mat m = random_matrix(1 + Index(seed % 5), 1 + Index(seed * 7 % 300), seed) * Scalar(seed);
        const Vec fast = row_sums(m), ref = row_sums_reference(m);
        for (Index i = 0; i < m.rows(); ++i) CHECK(fast(i) == ref(i));
    }
}

TEST_CASE("row_sums: rejects empty, NaN and overflowing input") {
    CHECK_THROWS_WITH(row_sums(Mat(0, 3)), doctest::Contains("m"));
    Mat bad(1, 2);
    bad << 1, std::numeric_limits<Scalar>::quiet_NaN();
    CHECK_THROWS_WITH(row_sums(bad), doctest::Contains("m"));
    Mat big(1, 2);
    big << 3e38f, 3e38f;
    CHECK_THROWS_WITH(row_sums(big), doctest::Contains("row sums"));
}

TEST_CASE("scale: golden values (Thinking Machines: 112 and 96 times 1/8)") {
    Mat scores(1, 2);
    scores << 112, 96;
    const Mat s = scale(scores, 0.125f);
    CHECK(s(0, 0) == 14.0f);
    CHECK(s(0, 1) == 12.0f);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const Mat m = random_matrix(3, 1 + Index(seed), seed) * Scalar(100);
        const Scalar factor = Scalar(seed) * 0.37f - 2;
        CHECK(max_rel_error(scale(m, factor), scale_reference(m, factor)) == 0);
    }
}

TEST_CASE("scale: rejects a non-finite factor and an overflowing product") {
    Mat m(1, 1);
    m << 2;
    CHECK_THROWS_WITH(scale(m, std::numeric_limits<Scalar>::infinity()), doctest::Contains("factor"));
    CHECK_THROWS_WITH(scale(m, 3e38f), doctest::Contains("m * factor"));
}

TEST_CASE("top_rows: the largest entry of each row, the first on a tie, -inf allowed") {
    constexpr Scalar inf = std::numeric_limits<Scalar>::infinity();
    Mat m(3, 4);
    m << 0.1f, 0.15f, 0.45f, 0.3f,  //
        2, 5, 5, 1,                  //
        -inf, -inf, -inf, -inf;
    const RowTop top = top_rows(m);
    CHECK(top.index[0] == 2);
    CHECK(top.value(0) == 0.45f);
    CHECK(top.index[1] == 1);
    CHECK(top.value(1) == 5.0f);
    CHECK(top.index[2] == 0);
    CHECK(top.value(2) == -inf);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const Mat r = random_matrix(4, 1 + Index(seed * 3), seed);
        const RowTop a = top_rows(r), b = top_rows_reference(r);
        CHECK(a.index == b.index);
        CHECK(max_rel_error(a.value.transpose(), b.value.transpose()) == 0);
    }
    Mat nan(1, 2);
    nan << 1, std::numeric_limits<Scalar>::quiet_NaN();
    CHECK_THROWS_WITH(top_rows(nan), doctest::Contains("NaN at row 0, column 1"));
}

TEST_CASE("max_entropy: log n, the entropy of n even weights") {
    CHECK(max_entropy(1) == 0.0f);
    CHECK(max_entropy(12) == doctest::Approx(2.484907).epsilon(1e-6));
    CHECK(max_entropy(12) == doctest::Approx(entropy_rows(Mat::Constant(1, 12, 1.0f / 12))(0)).epsilon(1e-6));
    CHECK_THROWS_WITH(max_entropy(0), doctest::Contains("n must be at least 1"));
}

TEST_CASE("dot_products: a bᵀ against the double reference; widths must match") {
    Rng rng(7, 0);
    Mat a(3, 5), b(4, 5);
    for (Index i = 0; i < a.size(); ++i) a.data()[i] = Scalar(rng.uniform() * 2 - 1);
    for (Index i = 0; i < b.size(); ++i) b.data()[i] = Scalar(rng.uniform() * 2 - 1);
    const Mat fast = dot_products(a, b), ref = dot_products_reference(a, b);
    REQUIRE(fast.rows() == 3);
    REQUIRE(fast.cols() == 4);
    CHECK((fast - ref).cwiseAbs().maxCoeff() < 1e-6f);
    Mat unit(2, 2);
    unit << 0.6f, 0.8f, 1.0f, 0.0f;
    CHECK(dot_products(unit, unit)(0, 0) == doctest::Approx(1.0));
    CHECK(dot_products(unit, unit)(0, 1) == doctest::Approx(0.6));
    CHECK_THROWS_WITH(dot_products(a, Mat(2, 4)), doctest::Contains("b has 4 columns but a has 5"));
    CHECK_THROWS_WITH(dot_products(Mat(0, 5), b), doctest::Contains("a"));
}
