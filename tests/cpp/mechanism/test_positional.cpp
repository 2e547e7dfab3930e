// The sinusoidal encoding of Vaswani et al. 2017, "Attention Is All You Need",
// section 3.5: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...).
#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("positional encoding: sin on even columns, cos on odd, matches the reference") {
    const Mat pe = positional_encoding(50, 16);
    CHECK(max_rel_error(pe, positional_encoding_reference(50, 16)) < 1e-6);
    CHECK(pe(0, 0) == 0);
    CHECK(pe(0, 1) == 1);
    CHECK(pe(1, 0) == doctest::Approx(std::sin(1.0)));
    CHECK(pe(3, 2) == doctest::Approx(std::sin(3.0 / std::pow(10000.0, 2.0 / 16))));
    CHECK(pe(3, 3) == doctest::Approx(std::cos(3.0 / std::pow(10000.0, 2.0 / 16))));
    CHECK(pe.cwiseAbs().maxCoeff() <= 1);
    const Mat odd = positional_encoding(5, 7);
    CHECK(max_rel_error(odd, positional_encoding_reference(5, 7)) < 1e-6);
}

TEST_CASE("positional encoding: every position differs") {
    const Mat pe = positional_encoding(64, 8);
    for (Index a = 0; a < 64; ++a)
        for (Index b = a + 1; b < 64; ++b) CHECK((pe.row(a) - pe.row(b)).norm() > 1e-3f);
}

TEST_CASE("positional encoding: errors") {
    CHECK(error_of([] { positional_encoding(0, 4); }) == "n (positions) must be at least 1, got 0");
    CHECK(error_of([] { positional_encoding(4, -2); }) == "d (width) must be at least 1, got -2");
    CHECK(contains(error_of([] { positional_encoding(100000, 100000); }), "too large"));
}
