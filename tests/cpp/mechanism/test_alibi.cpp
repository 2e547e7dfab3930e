// The head slopes of ALiBi (Press, Smith and Lewis 2022), and the rule of the
// paper's code for a head count that is not a power of two.
#include "helpers.hpp"

#include <cmath>
#include <vector>

using namespace attn;
using namespace attn::test;

// the paper's code (get_slopes), written again: the slopes of the power of two
// below n, then every other slope of twice that power
static std::vector<double> alibi_rule(Index n) {
    const auto power = [](Index p) {
        std::vector<double> m;
        const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(p)) - 3)));
        for (Index k = 0; k < p; ++k) m.push_back(start * std::pow(start, double(k)));
        return m;
    };
    const Index p = Index(1) << Index(std::floor(std::log2(double(n))));
    std::vector<double> m = power(p);
    const std::vector<double> twice = power(2 * p);
    for (Index k = 0; Index(m.size()) < n; k += 2) m.push_back(twice[size_t(k)]);
    return m;
}

TEST_CASE("alibi slopes: 8 heads are 1/2, 1/4, ..., 1/256; other counts follow the paper's rule") {
    const Vec m = alibi_slopes(8);
    for (Index k = 0; k < 8; ++k) CHECK(m(k) == std::ldexp(1.0f, -int(k) - 1));
    CHECK(alibi_slopes(1)(0) == 1.0f / 256);
    for (Index n : {1, 2, 3, 5, 6, 7, 12, 16, 20, 24, 31, 64, 96, 100}) {
        CAPTURE(n);
        const Vec got = alibi_slopes(n);
        const std::vector<double> expected = alibi_rule(n);
        REQUIRE(got.size() == n);
        for (Index k = 0; k < n; ++k) CHECK(got(k) == doctest::Approx(expected[size_t(k)]).epsilon(1e-7));
    }
    // 12 heads: the 8 slopes of 8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (16 heads' 1st, 3rd, 5th, 7th)
    const Vec twelve = alibi_slopes(12);
    CHECK(twelve(8) == doctest::Approx(std::pow(2.0, -0.5)));
    CHECK(twelve(11) == doctest::Approx(std::pow(2.0, -3.5)));
}

TEST_CASE("alibi slopes: errors") {
    CHECK(error_of([] { alibi_slopes(0); }) == "heads must be at least 1, got 0");
    CHECK(error_of([] { alibi_slopes(70000); }) == "heads must be at most 65536, got 70000");
    CHECK(contains(error_of([] { alibi_power_slopes(6); }), "power of two"));
}
