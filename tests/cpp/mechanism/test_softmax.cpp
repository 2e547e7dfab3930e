// Golden cases: scores 14, 12 (the "Thinking Machines" example of Jay
// Alammar's "The Illustrated Transformer"); [1000, 10000], the saturation
// example of the Chinese introduction to attention the page follows.
#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("softmax: golden [1000, 10000] saturates to [0, 1] without NaN or Inf") {
    Mat x(1, 2);
    x << 1000, 10000;
    const Mat w = softmax_rows(x);
    CHECK(w(0, 0) == 0.0f);
    CHECK(w(0, 1) == 1.0f);
    CHECK(w.allFinite());
}

TEST_CASE("softmax: golden 14, 12 -> 0.880797, 0.119203") {
    Mat x(1, 2);
    x << 14, 12;
    const Mat w = softmax_rows(x);
    CHECK(w(0, 0) == doctest::Approx(0.880797).epsilon(1e-6));
    CHECK(w(0, 1) == doctest::Approx(0.119203).epsilon(1e-5));
}

TEST_CASE("softmax: matches the double reference on random inputs, with temperature and masks") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const Index rows = 1 + Index(seed % 7), cols = 1 + Index(seed * 3 % 11);
        const Mat x = random_matrix(rows, cols, seed) * Scalar(seed);
        const Scalar temperature = Scalar(0.25) * Scalar(1 + seed % 5);
        const Mask mask = (random_matrix(rows, cols, seed + 100).array() > -0.3f);
        const Mat fast = masked_softmax_rows(x, mask, temperature);
        const Mat ref = masked_softmax_rows_reference(x, mask, temperature);
        CHECK(max_rel_error(fast, ref) < 1e-6);
        check_rows_sum_to_one_or_zero(fast);
        CHECK(((!mask).select(fast, 0).array() == 0).all());
    }
}

TEST_CASE("softmax: a higher temperature flattens, a lower one sharpens") {
    Mat x(1, 3);
    x << 1, 2, 3;
    CHECK(softmax_rows(x, 10)(0, 2) < softmax_rows(x, 1)(0, 2));
    CHECK(softmax_rows(x, 0.1f)(0, 2) > 0.99f);
}

TEST_CASE("softmax: a fully masked row gives zeros, never NaN") {
    Mat x(2, 3);
    x << 1, 2, 3, 4, 5, 6;
    Mask mask(2, 3);
    mask << false, false, false, true, false, true;
    const Mat w = masked_softmax_rows(x, mask);
    CHECK((w.row(0).array() == 0).all());
    CHECK(w(1, 1) == 0);
    CHECK(w(1, 0) + w(1, 2) == doctest::Approx(1));
    CHECK(w.allFinite());
}

TEST_CASE("softmax: bad input is rejected with a message naming it") {
    Mat x(1, 2);
    x << 1, std::nanf("");
    CHECK(contains(error_of([&] { softmax_rows(x); }), "x has NaN at row 0, column 1"));
    x << 1, 2;
    CHECK(contains(error_of([&] { softmax_rows(x, 0); }), "temperature must be greater than 0"));
    CHECK(contains(error_of([&] { softmax_rows(x, -1); }), "temperature"));
    CHECK(contains(error_of([&] { masked_softmax_rows(x, Mask::Constant(2, 2, true)); }),
                   "mask has shape (2, 2) but x has shape (1, 2)"));
    x << 1e30f, 2;
    CHECK(contains(error_of([&] { softmax_rows(x, 1e-10f); }), "x / temperature overflows float32 at row 0, column 0"));
}

TEST_CASE("softmax: scores near the float32 limits with a huge temperature (found by fuzzing)") {
    // (x - max) overflows to -inf here although (x - max) / T is -1.64
    const Scalar big = std::numeric_limits<Scalar>::max();
    Mat x(1, 3);
    x << big, -2.17993371e+38f, -0.0625f;
    const Mat w = softmax_rows(x, big);
    const Mat ref = masked_softmax_rows_reference(x, Mask::Constant(1, 3, true), big);
    CHECK(max_rel_error(w, ref) < 1e-6);
    CHECK(w(0, 1) > 0.1);  // was 0
}

TEST_CASE("softmax: entropy is 0 for one-hot rows and log n for uniform rows") {
    Mat w(2, 4);
    w << 1, 0, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f;
    const Vec h = entropy_rows(w);
    CHECK(h(0) == 0);
    CHECK(h(1) == doctest::Approx(std::log(4.0)));
    w(0, 1) = -0.5f;
    CHECK(contains(error_of([&] { entropy_rows(w); }), "weights must not be negative"));
}

TEST_CASE("softmax vs sigmoid: sigmoid squashes each entry alone, rows need not sum to 1") {
    Mat x(1, 4);
    x << -1000, -1, 0, 1000;
    const Mat s = sigmoid(x);
    CHECK(s(0, 0) == 0);
    CHECK(s(0, 1) == doctest::Approx(1 / (1 + std::exp(1.0))));
    CHECK(s(0, 2) == 0.5f);
    CHECK(s(0, 3) == 1);
    CHECK(s.allFinite());
    CHECK(s.sum() > 1.2f);
}
