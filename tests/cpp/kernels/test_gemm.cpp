#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

namespace {

// act(X W + b) + R in double, from the plain-loop reference
Mat expected(const Mat& X, const Mat& W, const Vec& b, Activation act, const Mat* R) {
    Mat Y = dense_reference(X, W, b);
    if (act == Activation::relu) Y = Y.cwiseMax(Scalar(0));
    if (R) Y += *R;
    return Y;
}

}  // namespace

TEST_CASE("dense on packed weights matches the plain-loop reference at every shape edge") {
    // rows: tiles of 4 and every remainder; inputs: one block of the shared index,
    // several, and a remainder; outputs: full panels of 8 and a partial last one
    for (Index m : {1, 2, 3, 4, 5, 7, 13, 33})
        for (Index in : {1, 3, 8, 255, 256, 257, 600})
            for (Index out : {1, 7, 8, 9, 24, 30}) {
                CAPTURE(m);
                CAPTURE(in);
                CAPTURE(out);
                const std::uint64_t seed = std::uint64_t(m * 10007 + in * 101 + out);
                const Mat X = random_matrix(m, in, seed), W = random_matrix(in, out, seed + 1);
                const Vec b = random_matrix(1, out, seed + 2).row(0).transpose();
                const Mat R = random_matrix(m, out, seed + 3);
                const PackedDense P = pack_dense(W, b);
                CHECK(max_rel_error_of(dense(X, P), expected(X, W, b, Activation::none, nullptr)) < 1e-5);
                CHECK(max_rel_error_of(dense(X, P, Activation::relu, &R), expected(X, W, b, Activation::relu, &R)) < 1e-5);
            }
}

TEST_CASE("dense on packed weights: a strided view of X, and zeros past the last column never reach Y") {
    const Mat big = random_matrix(6, 40, 5);
    const Mat W = random_matrix(20, 11, 6);
    const Vec b = Vec::LinSpaced(11, -1, 1);
    const PackedDense P = pack_dense(W, b);
    // X: columns 10..29 of big (stride 40); Y: columns 3..13 of a (6, 20) buffer of sevens
    Mat Y = Mat::Constant(6, 20, 7);
    dense_packed(6, big.data() + 10, 40, P, Activation::none, nullptr, 0, Y.data() + 3, 20);
    const Mat want = dense_reference(big.middleCols(10, 20), W, b);
    CHECK(max_rel_error_of(Mat(Y.middleCols(3, 11)), want) < 1e-5);
    CHECK((Y.leftCols(3).array() == 7).all());
    CHECK((Y.rightCols(6).array() == 7).all());
}

TEST_CASE("pack_dense and dense check their shapes") {
    const Mat W = random_matrix(4, 3, 1);
    CHECK_THROWS_WITH(pack_dense(W, Vec::Zero(2)), "bias must have 3 entries (the output width), got 2");
    CHECK_THROWS_WITH(pack_dense(Mat(0, 3), Vec::Zero(3)), "weights must not be empty, got (0, 3)");
    const PackedDense P = pack_dense(W, Vec::Zero(3));
    CHECK_THROWS_WITH(dense(random_matrix(2, 5, 2), P), "input must have 4 columns (the layer's input width), got (2, 5)");
    const Mat R = Mat::Zero(3, 3);
    CHECK_THROWS_WITH(dense(random_matrix(2, 4, 2), P, Activation::none, &R), "residual must have shape (2, 3), got (3, 3)");
}

TEST_CASE("dense on packed weights skips zero inputs, and Y is the same to the bit as when it visits every k") {
    for (Index in : {8, 255, 600})
        for (Index out : {9, 24}) {
            CAPTURE(in);
            CAPTURE(out);
            const std::uint64_t seed = std::uint64_t(in * 31 + out);
            // 8 rows as after ReLU: rows 0-3 are 93% zeros, rows 4-7 are zeros but one entry
            Mat X = random_matrix(8, in, seed);
            for (Index i = 0; i < X.size(); ++i)
                if ((std::uint64_t(i) * 2654435761u + seed) % 100 < 93) X.data()[i] = 0;
            X.bottomRows(4).setZero();
            X(6, in / 2) = 0.5f;
            const Mat W = random_matrix(in, out, seed + 1);
            const Vec b = random_matrix(1, out, seed + 2).row(0).transpose();
            const PackedDense P = pack_dense(W, b);
            const Mat sparse = dense(X, P, Activation::relu);  // few live k: only they are visited
            CHECK(max_rel_error_of(sparse, expected(X, W, b, Activation::relu, nullptr)) < 1e-5);
            // the same 8 rows above 40 rows without zeros: most k are live, and every k is visited
            Mat tall(48, in);
            tall.topRows(8) = X;
            tall.bottomRows(40) = random_matrix(40, in, seed + 3);
            const Mat full = dense(tall, P, Activation::relu);
            CHECK((full.topRows(8).array() == sparse.array()).all());
        }
}
