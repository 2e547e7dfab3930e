#include "helpers.hpp"

#include <cmath>

using namespace attn;
using namespace attn::test;

TEST_CASE("fit_line: points on a line give that line exactly, r^2 = 1") {
    const LineFit f = fit_line(vec({1, 2, 3, 4}), vec({5, 7, 9, 11}));  // y = 2x + 3
    CHECK(f.slope == doctest::Approx(2).epsilon(1e-12));
    CHECK(f.intercept == doctest::Approx(3).epsilon(1e-12));
    CHECK(f.r_squared == doctest::Approx(1).epsilon(1e-12));
}

TEST_CASE("fit_line: scattered points, against the textbook sums") {
    // x = 0, 1, 2, 3; y = 1, 3, 2, 5: mean x 1.5, mean y 2.75,
    // sxx = 5, sxy = 5.5, syy = 8.75: slope 1.1, intercept 1.1, r^2 = 30.25 / 43.75
    const LineFit f = fit_line(vec({0, 1, 2, 3}), vec({1, 3, 2, 5}));
    CHECK(f.slope == doctest::Approx(1.1).epsilon(1e-12));
    CHECK(f.intercept == doctest::Approx(1.1).epsilon(1e-12));
    CHECK(f.r_squared == doctest::Approx(30.25 / 43.75).epsilon(1e-12));
}

TEST_CASE("fit_line: log-log of t = c n^2 has slope 2, whatever c") {
    Vec xs(6), ys(6);
    for (Index i = 0; i < 6; ++i) {
        const double n = 32 * std::pow(2.0, double(i));
        xs(i) = Scalar(std::log(n));
        ys(i) = Scalar(std::log(3e-7 * n * n));
    }
    const LineFit f = fit_line(xs, ys);
    CHECK(f.slope == doctest::Approx(2).epsilon(1e-5));
    CHECK(f.r_squared == doctest::Approx(1).epsilon(1e-6));
}

TEST_CASE("fit_line: far from 0 the sums about the means stay exact") {
    const LineFit f = fit_line(vec({10000, 10001, 10002}), vec({1, 2, 3}));
    CHECK(f.slope == doctest::Approx(1).epsilon(1e-12));
    CHECK(f.intercept == doctest::Approx(-9999).epsilon(1e-12));
}

TEST_CASE("fit_line: a flat line has slope 0 and r^2 = 1; two points fit exactly") {
    const LineFit flat = fit_line(vec({1, 2, 3}), vec({4, 4, 4}));
    CHECK(flat.slope == 0);
    CHECK(flat.intercept == 4);
    CHECK(flat.r_squared == 1);
    const LineFit two = fit_line(vec({1, 3}), vec({0, 1}));
    CHECK(two.slope == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(two.intercept == doctest::Approx(-0.5).epsilon(1e-12));
    CHECK(two.r_squared == doctest::Approx(1).epsilon(1e-12));
}

TEST_CASE("fit_line: bad arguments name the problem") {
    CHECK(error_of([] { fit_line(vec({1}), vec({2})); }) == "a line needs at least 2 points, got 1");
    CHECK(error_of([] { fit_line(Vec(0), Vec(0)); }) == "a line needs at least 2 points, got 0");
    CHECK(error_of([] { fit_line(vec({1, 2, 3}), vec({1, 2})); }) ==
          "xs has 3 entries but ys has 2; give one y per x");
    CHECK(error_of([] { fit_line(vec({2, 2, 2}), vec({1, 2, 3})); }) ==
          "every x is 2: a line through them would be vertical, with no slope");
    CHECK(contains(error_of([] { fit_line(vec({1, NAN}), vec({1, 2})); }), "xs has NaN at index 1"));
    CHECK(contains(error_of([] { fit_line(vec({1, 2}), vec({INFINITY, 2})); }), "ys has Infinity at index 0"));
}
