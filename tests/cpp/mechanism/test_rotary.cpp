// Rotary position embedding (Su et al. 2021, "RoFormer", section 3.4.2):
// pairs (2i, 2i + 1) of row r turned by (r + offset) base^(-2i/d).
#include "helpers.hpp"

#include <cmath>

using namespace attn;
using namespace attn::test;

// the turn written out in double, from the paper's block-diagonal rotation
static Eigen::MatrixXd roformer(const Mat& X, double base, Index offset) {
    const Index d = X.cols();
    Eigen::MatrixXd Y(X.rows(), d);
    for (Index r = 0; r < X.rows(); ++r)
        for (Index i = 0; i < d / 2; ++i) {
            const double theta = double(r + offset) / std::pow(base, double(2 * i) / double(d));
            Y(r, 2 * i) = std::cos(theta) * X(r, 2 * i) - std::sin(theta) * X(r, 2 * i + 1);
            Y(r, 2 * i + 1) = std::sin(theta) * X(r, 2 * i) + std::cos(theta) * X(r, 2 * i + 1);
        }
    return Y;
}

TEST_CASE("rotary: the fast turn and the plain-loop reference against the paper's rotation") {
    // n, d, offset: 1 x 2, long and narrow, wide, far positions
    const Index shapes[][3] = {{1, 2, 0}, {3, 4, 0}, {40, 2, 7}, {5, 64, 0}, {17, 10, 1000}, {2, 128, 100000}};
    std::uint64_t seed = 20;
    for (const auto& s : shapes)
        for (double base : {10000.0, 500000.0, 1.5}) {
            INFO("n ", s[0], ", d ", s[1], ", offset ", s[2], ", base ", base);
            const Mat X = random_matrix(s[0], s[1], ++seed);
            const RotaryOptions o{base, s[2]};
            const Eigen::MatrixXd expected = roformer(X, base, s[2]);
            CHECK(max_rel_error_of(rotary(X, o), expected) < 1e-6);
            CHECK(max_rel_error_of(rotary_reference(X, o), expected) < 1e-6);
        }
    // row 0 at offset 0 does not turn; the first pair of row 1 turns by one radian
    const Mat X = random_matrix(2, 4, 1);
    const Mat Y = rotary(X);
    CHECK(Y.row(0) == X.row(0));
    CHECK(Y(1, 0) == doctest::Approx(std::cos(1.0) * X(1, 0) - std::sin(1.0) * X(1, 1)));
    const Mat angles = rotary_angles(3, 4, {100, 2});
    CHECK(angles(2, 0) == 4);
    CHECK(angles(2, 1) == doctest::Approx(0.4));  // 4 * 100^(-2/4)
}

TEST_CASE("rotary: each row keeps its length; scores depend on the offsets' difference alone") {
    const Mat q = random_matrix(1, 16, 3), k = random_matrix(1, 16, 4);
    const Mat X = random_matrix(9, 16, 5);
    const Mat Y = rotary(X, {10000, 3});
    for (Index r = 0; r < 9; ++r) CHECK(Y.row(r).norm() == doctest::Approx(X.row(r).norm()).epsilon(1e-6));
    const auto score = [&](Index a, Index b) {
        return double(rotary(q, {10000, a}).row(0).dot(rotary(k, {10000, b}).row(0)));
    };
    for (Index a : {0, 1, 5, 40})
        for (Index b : {0, 2, 9}) {
            const double s = score(a, b);
            for (Index shift : {1, 17, 1000}) CHECK(score(a + shift, b + shift) == doctest::Approx(s).epsilon(1e-5));
        }
}

TEST_CASE("rotary: errors") {
    const Mat odd = random_matrix(2, 3, 1);
    CHECK(error_of([&] { rotary(odd); }) == "matrix has 3 columns; rotary turns pairs of columns, so its width must be even");
    const Mat X = random_matrix(2, 4, 1);
    CHECK(error_of([&] { rotary(X, {1, 0}); }) == "base must be a finite number above 1, got 1");
    CHECK(error_of([&] { rotary(X, {INFINITY, 0}); }) == "base must be a finite number above 1, got Infinity");
    CHECK(error_of([&] { rotary(X, {10000, -1}); }) == "offset must be at least 0, got -1");
    Mat bad = X;
    bad(1, 2) = NAN;
    CHECK(contains(error_of([&] { rotary(bad); }), "matrix"));
    try {
        rotary(odd);
    } catch (const invalid_argument& e) {
        CHECK(e.argument == "matrix");
    }
}
