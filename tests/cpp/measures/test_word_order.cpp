#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

namespace {

// the rows of X read in a new order: the word vectors of the permuted sentence
Mat permute_rows(const Mat& X, const std::vector<Index>& order) {
    Mat out(X.rows(), X.cols());
    for (Index i = 0; i < X.rows(); ++i) out.row(i) = X.row(order[size_t(i)]);
    return out;
}

}  // namespace

TEST_CASE("add_positional_encoding: X + PE, entry by entry") {
    const Mat X = random_matrix(7, 10, 1);
    const Mat Y = add_positional_encoding(X);
    const Mat pe = positional_encoding_reference(7, 10);
    for (Index i = 0; i < 7; ++i)
        for (Index j = 0; j < 10; ++j) CHECK(Y(i, j) == doctest::Approx(X(i, j) + pe(i, j)).epsilon(1e-6));
    // position 0 adds sin 0 = 0 and cos 0 = 1
    CHECK(Y(0, 0) == X(0, 0));
    CHECK(Y(0, 1) == X(0, 1) + 1);
}

TEST_CASE("permute_map: B(i, j) = A(order[i], order[j])") {
    Mat A(3, 3);
    A << 1, 2, 3, 4, 5, 6, 7, 8, 9;
    Mat reversed(3, 3);
    reversed << 9, 8, 7, 6, 5, 4, 3, 2, 1;
    CHECK(permute_map(A, {2, 1, 0}) == reversed);
    CHECK(permute_map(A, {0, 1, 2}) == A);
    Mat rotated(3, 3);
    rotated << 5, 6, 4, 8, 9, 7, 2, 3, 1;
    CHECK(permute_map(A, {1, 2, 0}) == rotated);
}

TEST_CASE("max_abs_difference: the largest gap; equal infinities count as equal") {
    Mat a(2, 2), b(2, 2);
    a << 1, -2, 3, 0.5f;
    b << 1, -2.25f, 3.5f, 0.5f;
    CHECK(max_abs_difference(a, b) == 0.5);
    CHECK(max_abs_difference(a, a) == 0);
    const float inf = std::numeric_limits<float>::infinity();
    a(1, 1) = -inf;
    b(1, 1) = -inf;
    CHECK(max_abs_difference(a, b) == 0.5);
    b(1, 1) = 0;
    CHECK(std::isinf(max_abs_difference(a, b)));
}

TEST_CASE("word order: without PE the permuted sentence's map is the map permuted; with PE it is not") {
    const Mat X = random_matrix(5, 8, 3);
    const Projections W = projections_complete({}, 8, 8, 8, 8, 2);
    const std::vector<Index> order = {4, 3, 2, 1, 0};
    const Mat Xp = permute_rows(X, order);
    const Mat A = self_attention(X, W).attention.weights;
    const Mat Ap = self_attention(Xp, W).attention.weights;
    CHECK(max_abs_difference(Ap, permute_map(A, order)) < 1e-6);
    const Mat B = self_attention(add_positional_encoding(X), W).attention.weights;
    const Mat Bp = self_attention(add_positional_encoding(Xp), W).attention.weights;
    CHECK(max_abs_difference(Bp, permute_map(B, order)) > 1e-3);
}

TEST_CASE("word order: errors") {
    const Mat A = random_matrix(3, 3, 1);
    CHECK(error_of([&] { permute_map(A, {0, 1}); }) == "order has 2 entries but the map has 3 words");
    CHECK(error_of([&] { permute_map(A, {0, 1, 3}); }) == "order[2] = 3 is outside 0..2");
    CHECK(error_of([&] { permute_map(A, {0, 1, -1}); }) == "order[2] = -1 is outside 0..2");
    CHECK(error_of([&] { permute_map(A, {1, 1, 0}); }) == "order[1] = 1 repeats an earlier entry; order must be a permutation");
    CHECK(error_of([&] { permute_map(random_matrix(2, 3, 1), {0, 1}); }) ==
          "map must be square (one row and one column per word), got shape (2, 3)");
    CHECK(error_of([&] { max_abs_difference(A, random_matrix(3, 2, 1)); }) ==
          "a has shape (3, 3) but b has shape (3, 2); they must be equal");
    Mat bad = A;
    bad(1, 2) = std::numeric_limits<float>::quiet_NaN();
    CHECK(error_of([&] { max_abs_difference(A, bad); }) == "b has NaN at row 1, column 2");
    CHECK(error_of([&] { add_positional_encoding(bad); }) ==
          "input has NaN at row 1, column 2 (every entry must be a finite float32)");
}
