#include "allocations.hpp"
#include "helpers.hpp"

#include <limits>

using namespace attn;
using namespace attn::test;

namespace {

KernelOptions kernel_options(const AttentionOptions& o, Index d) {
    KernelOptions k;
    k.scale = o.scale ? *o.scale : 1 / std::sqrt(Scalar(d));
    k.causal = o.causal;
    k.valid_length = o.valid_length;
    k.window = o.window;
    k.sinks = o.sinks;
    return k;
}

// The kernel, with and without weights, against the plain-loop reference.
// Q and K are uniform on [-amplitude, amplitude]: 1 keeps every score narrow
// (one pass: 2^score as it is formed), 8 makes none narrow (the online
// softmax, shifted by each row's running maximum).
void check_against_reference(Index nq, Index nk, Index d, Index dv, const AttentionOptions& o, std::uint64_t seed,
                             float amplitude = 1) {
    CAPTURE(nq);
    CAPTURE(nk);
    CAPTURE(d);
    CAPTURE(dv);
    CAPTURE(o.causal);
    CAPTURE(o.valid_length.value_or(-1));
    CAPTURE(o.window.value_or(-1));
    CAPTURE(o.sinks);
    CAPTURE(amplitude);
    const Mat Q = random_matrix(nq, d, seed) * amplitude, K = random_matrix(nk, d, seed + 1) * amplitude,
              V = random_matrix(nk, dv, seed + 2);
    // a weight's error is its exponent's, whose float32 rounding grows with the
    // scores' size: about |score| 2^-24 each, and at amplitude 8 scores reach a
    // few hundred (over 200 random inputs of the largest shape below,
    // attention() itself is 0.98e-5 off the float64 reference, the kernel 0.99e-5)
    const double tolerance = amplitude > 1 ? 3e-5 : 1e-5;
    const AttentionResult ref = attention_reference(Q, K, V, o);
    const KernelResult plain = attention_kernel(Q, K, V, kernel_options(o, d));
    CHECK(plain.weights.size() == 0);
    CHECK(max_rel_error(plain.output, ref.output) < tolerance);
    const KernelResult with = attention_kernel(Q, K, V, kernel_options(o, d), /*with_weights=*/true);
    CHECK(max_rel_error(with.weights, ref.weights) < tolerance);
    CHECK((with.output.array() == plain.output.array()).all());  // asking for the weights changes nothing else
    check_rows_sum_to_one_or_zero(with.weights);
    CHECK(max_rel_error(attention_output(Q, K, V, o), ref.output) < tolerance);
    // each row's log-sum-exp: the reference's shift and sum, m + log l
    Vec m(nq), l(nq), lse;
    Mat out(nq, dv);
    const RowStats stats{m.data(), l.data()};
    attention_kernel_into(Q, K, V, kernel_options(o, d), out, nullptr, &stats);
    CHECK((out.array() == plain.output.array()).all());
    attention_output(Q, K, V, o, &lse);
    for (Index i = 0; i < nq; ++i) {
        CAPTURE(i);
        if (ref.row_sums(i) == 0) {
            CHECK(l(i) == 0);
            CHECK(lse(i) == -std::numeric_limits<Scalar>::infinity());
        } else {
            CHECK(std::abs(double(m(i)) + std::log(double(l(i))) - lse(i)) <= 1e-6 * (1 + std::abs(lse(i))));
            const double want = double(ref.row_max(i)) + std::log(double(ref.row_sums(i)));
            CHECK(std::abs(lse(i) - want) <= tolerance * (1 + std::abs(want)));
        }
    }
}

}  // namespace

TEST_CASE("kernel: the SIMD code compiled in") {
#if defined(__wasm_simd128__)
    CHECK(std::string(kernel_simd()) == "wasm-simd128");
#else
    CHECK((std::string(kernel_simd()) == "sse2" || std::string(kernel_simd()) == "scalar"));
#endif
}

TEST_CASE("kernel: matches the reference with tails of every size, unmasked, causal and padded, narrow and wide") {
    // n and d that are and are not multiples of 4, of the 8-key panel, of the
    // 64-key tile and of the 16-query group
    const Index sizes[][4] = {{1, 1, 1, 1},    {1, 5, 3, 2},    {3, 7, 5, 9},     {4, 8, 4, 8},
                              {5, 9, 6, 7},    {8, 16, 8, 16},  {13, 17, 11, 10}, {16, 64, 64, 64},
                              {17, 65, 64, 63}, {33, 63, 31, 33}, {70, 130, 21, 19}, {129, 72, 36, 17}};
    std::uint64_t seed = 1;
    for (const auto& s : sizes) {
        const Index nq = s[0], nk = s[1], d = s[2], dv = s[3];
        for (int variant = 0; variant < 4; ++variant) {
            AttentionOptions o;
            o.causal = variant == 1 || variant == 3;
            if (variant >= 2) o.valid_length = std::max<Index>(1, nk * 2 / 3);
            if (variant == 3) o.scale = 0.7f;
            check_against_reference(nq, nk, d, dv, o, seed += 3);
            check_against_reference(nq, nk, d, dv, o, seed += 3, /*amplitude=*/8);
        }
    }
}

TEST_CASE("kernel: causal with more keys than queries and more queries than keys") {
    for (const auto& [nq, nk] : {std::pair<Index, Index>{10, 100}, {100, 10}, {67, 67}}) {
        AttentionOptions o;
        o.causal = true;
        check_against_reference(nq, nk, 12, 5, o, std::uint64_t(nq * 31 + nk));
        o.valid_length = 7;
        check_against_reference(nq, nk, 12, 5, o, std::uint64_t(nq * 37 + nk));
        check_against_reference(nq, nk, 12, 5, o, std::uint64_t(nq * 41 + nk), /*amplitude=*/8);
    }
}

TEST_CASE("kernel: sliding windows with and without sinks, across tiles, narrow and wide") {
    // windows shorter and longer than the 256-key tile, sinks inside and past
    // the first tile: the tiles before each block's window are skipped
    const Index cases[][4] = {{1, 1, 1, 0}, {9, 9, 3, 0}, {40, 40, 5, 2}, {70, 130, 16, 1},
                              {300, 300, 7, 0}, {600, 600, 100, 4}, {600, 700, 300, 0}, {520, 520, 2, 260}};
    std::uint64_t seed = 100;
    for (const auto& c : cases) {
        AttentionOptions o;
        o.causal = true;
        o.window = c[2];
        o.sinks = c[3];
        check_against_reference(c[0], c[1], 12, 9, o, seed += 3);
        check_against_reference(c[0], c[1], 12, 9, o, seed += 3, /*amplitude=*/8);
        o.valid_length = c[1] / 2 + 1;
        check_against_reference(c[0], c[1], 12, 9, o, seed += 3);
    }
}

TEST_CASE("kernel: large values with narrow scores: 2^score unshifted would overflow their sums") {
    // scores up to 2^59 (as in the test below) times values of 1e25: the
    // shifted softmax's weights (at most 1) keep the sums near 1e26, while
    // 2^59 * 1e25 is past float32's range. The kernel must shift these.
    const float c = std::sqrt(59.0f / (4 * 1.44269504f));
    Mat Q(5, 4), K(12, 4);
    for (Index i = 0; i < Q.rows(); ++i) Q.row(i).setConstant(i % 2 ? c : -c);
    for (Index j = 0; j < K.rows(); ++j) K.row(j).setConstant(j % 3 ? c : -c);
    const Mat V = random_matrix(12, 3, 19) * 1e25f;
    AttentionOptions o;
    o.scale = 1;
    const AttentionResult ref = attention_reference(Q, K, V, o);
    const KernelResult r = attention_kernel(Q, K, V, kernel_options(o, 4), true);
    CHECK(r.output.allFinite());
    CHECK(max_rel_error(r.output / 1e25f, ref.output / 1e25f) < 1e-5);
    CHECK(max_rel_error(attention_output(Q, K, V, o) / 1e25f, ref.output / 1e25f) < 1e-5);
}

TEST_CASE("kernel: scores at the edge of the one-pass range, 2^59 beside 2^-59, and past it") {
    // d = 4, scale 1: q.k = +-4 c^2 = +-top in log2 units. At 59 (the bound
    // for one pass is 60) 2^59 is summed as it is, and a key 2^118 times less
    // likely keeps its weight (about 3e-36, a normal float) exactly; at 130,
    // past the exponent's range, the row's maximum must be subtracted first
    for (const float top : {59.0f, 130.0f}) {
        CAPTURE(top);
        const float c = std::sqrt(top / (4 * 1.44269504f));
        Mat Q(6, 4), K(40, 4);
        for (Index i = 0; i < Q.rows(); ++i) Q.row(i).setConstant(i % 2 ? c : -c);
        for (Index j = 0; j < K.rows(); ++j) K.row(j).setConstant(j % 3 ? c : -c);
        const Mat V = random_matrix(40, 3, 17);
        AttentionOptions o;
        o.scale = 1;
        for (bool causal : {false, true}) {
            o.causal = causal;
            const AttentionResult ref = attention_reference(Q, K, V, o);
            const KernelResult r = attention_kernel(Q, K, V, kernel_options(o, 4), true);
            CHECK(max_rel_error(r.output, ref.output) < 1e-5);
            check_rows_sum_to_one_or_zero(r.weights);
            for (Index i = 0; i < Q.rows(); ++i)
                for (Index j = 0; j < K.rows(); ++j) {
                    CAPTURE(i);
                    CAPTURE(j);
                    const double want = ref.weights(i, j), got = r.weights(i, j);
                    CHECK(std::abs(got - want) <= 1e-5 * want);  // relative, however small
                    if (top < 60 && (!causal || j <= i)) CHECK(got > 0);
                }
        }
    }
}

TEST_CASE("kernel: queries that may see no key get a zero output, never NaN") {
    const Mat Q = random_matrix(9, 5, 1), K = random_matrix(11, 5, 2), V = random_matrix(11, 3, 3);
    AttentionOptions o;
    o.valid_length = 0;
    for (bool causal : {false, true}) {
        o.causal = causal;
        const KernelResult r = attention_kernel(Q, K, V, kernel_options(o, 5), true);
        CHECK((r.output.array() == 0).all());
        CHECK((r.weights.array() == 0).all());
        CHECK(r.output.allFinite());
        CHECK((attention_output(Q, K, V, o).array() == 0).all());
        CHECK(max_rel_error(attention_output(Q, K, V, o), attention_reference(Q, K, V, o).output) == 0);
    }
}

TEST_CASE("kernel: scores far apart (weights that underflow to 0) and a large scale") {
    Mat Q = random_matrix(20, 8, 5) * 30, K = random_matrix(90, 8, 6) * 30;
    const Mat V = random_matrix(90, 4, 7);
    AttentionOptions o;
    o.scale = 0.5f;  // scores up to about 3600: most weights are exactly 0
    const AttentionResult ref = attention_reference(Q, K, V, o);
    const KernelResult r = attention_kernel(Q, K, V, kernel_options(o, 8), true);
    // the exponent argument is rounded like the scores, about |score| * 6e-8
    CHECK(max_rel_error(r.output, ref.output) < 1e-3);
    CHECK(r.output.allFinite());
    check_rows_sum_to_one_or_zero(r.weights);
}

TEST_CASE("kernel: a hidden key with a far larger score does not set the softmax's shift") {
    // key 1 scores 2000 with every query, key 0 scores 0; the causal mask
    // hides key 1 from query 0: were its score the tile's maximum,
    // 2^(0 - 2000 log2 e) would leave the seen key a weight of 0. As padding
    // (valid_length 1) key 1 is never scored: the same weights must come out
    Mat Q = Mat::Zero(2, 2), K = Mat::Zero(3, 2);
    Q.col(0).setConstant(40);
    K(1, 0) = 50;
    const Mat V = random_matrix(3, 2, 9);
    KernelOptions causal;
    causal.causal = true;
    const KernelResult c = attention_kernel(Q, K, V, causal, /*with_weights=*/true);
    CHECK(c.weights(0, 0) == doctest::Approx(1));
    CHECK(max_rel_error(Mat(c.output.row(0)), Mat(V.row(0))) < 1e-6);
    KernelOptions padded;
    padded.valid_length = 1;
    const KernelResult p = attention_kernel(Q, K, V, padded, /*with_weights=*/true);
    for (Index i = 0; i < 2; ++i) {
        CHECK(p.weights(i, 0) == doctest::Approx(1));
        CHECK(max_rel_error(Mat(p.output.row(i)), Mat(V.row(0))) < 1e-6);
    }
}

TEST_CASE("kernel: large values are summed without overflow") {
    const Mat Q = random_matrix(6, 4, 1), K = random_matrix(300, 4, 2);
    Mat V = random_matrix(300, 3, 3);
    V.col(1) *= 3e37f;  // 300 of these would overflow float32 if summed unscaled
    const AttentionResult ref = attention_reference(Q, K, V, {});
    const Mat out = attention_output(Q, K, V);
    CHECK(out.allFinite());
    CHECK(max_rel_error(out.col(0), ref.output.col(0)) < 1e-5);
    CHECK(max_rel_error(out.col(1) / 3e37f, ref.output.col(1) / 3e37f) < 1e-5);
}

TEST_CASE("kernel: overflowing scores are an error; huge inputs whose scores are finite are not") {
    const Mat big = Mat::Constant(3, 2, 1e20f);
    CHECK(error_of([&] { attention_output(big, big, big); }) ==
          "the scores overflow float32 (an entry is not finite); use smaller inputs or a smaller scale");
    // orthogonal: |q| |k| is 1e38, but every score is 0 (the careful path)
    Mat Q(2, 2), K(2, 2);
    Q << 1e19f, 0, 1e19f, 0;
    K << 0, 1e19f, 0, 1e19f;
    const Mat V = random_matrix(2, 3, 1);
    CHECK(max_rel_error(attention_output(Q, K, V), attention_reference(Q, K, V).output) < 1e-6);
}

TEST_CASE("kernel: views with a row stride (the heads of multi-head attention)") {
    const Mat X = random_matrix(37, 24, 3);
    AttentionOptions o;
    o.causal = true;
    const MatRef Q = X.middleCols(0, 8), K = X.middleCols(8, 8), V = X.middleCols(16, 8);
    CHECK(max_rel_error(attention_output(Q, K, V, o), attention_reference(Q, K, V, o).output) < 1e-5);
}

TEST_CASE("kernel: into a block of a wider matrix, as attention_kernel returns it, and a second call allocates nothing") {
    // V's width 12 is not a multiple of 8: the values are packed, in the kept room too
    const Mat Q = random_matrix(21, 8, 4), K = random_matrix(30, 8, 5), V = random_matrix(30, 12, 6);
    KernelOptions o;
    o.scale = 0.5f;
    o.causal = true;
    const KernelResult expected = attention_kernel(Q, K, V, o, true);
    Mat wide = Mat::Constant(21, 20, 7.0f), weights;
    attention_kernel_into(Q, K, V, o, wide.middleCols(4, 12), &weights);
    CHECK(wide.middleCols(4, 12) == expected.output);
    CHECK(weights == expected.weights);
    CHECK((wide.leftCols(4).array() == 7.0f).all());  // the columns around it are left alone
    CHECK((wide.rightCols(4).array() == 7.0f).all());
    CHECK(test::allocations_during([&] { attention_kernel_into(Q, K, V, o, wide.middleCols(4, 12), &weights); }) == 0);
    CHECK(weights == expected.weights);
}

TEST_CASE("kernel: attention_output() and attention() give the same output") {
    const Mat Q = random_matrix(40, 16, 1), K = random_matrix(50, 16, 2), V = random_matrix(50, 16, 3);
    AttentionOptions o;
    o.causal = true;
    o.valid_length = 45;
    const AttentionResult full = attention(Q, K, V, o);
    const Mat fused = attention_output(Q, K, V, o);
    CHECK(max_rel_error(fused, full.output) < 1e-5);
    CHECK(max_rel_error(fused, attention_reference(Q, K, V, o).output) < 1e-5);
    const Mat from_weights = full.weights * V;  // the full path: output = weights V, exactly as shown
    CHECK((full.output.array() == from_weights.array()).all());
}

TEST_CASE("kernel: attention_output has no map limit, but a work limit, and checks like attention()") {
    const Mat tall = Mat::Zero(5000, 1);
    AttentionOptions padded;
    padded.valid_length = 9;  // keeps the test quick: the kernel skips padding
    CHECK(contains(error_of([&] { attention(tall, tall, tall, padded); }), "5000 queries x 5000 keys is too large"));
    const Mat out = attention_output(tall, tall, tall, padded);
    CHECK(out.rows() == 5000);
    CHECK((out.array() == 0).all());
    const Mat wide = Mat::Zero(20000, 64);  // 20000^2 * 64 multiply-adds > 2^34
    CHECK(contains(error_of([&] { attention_output(wide, wide, wide.leftCols(1)); }),
                   "the dot score of (20000, 64) queries against (20000, 64) keys is too large"));
    const Mat Q = random_matrix(2, 3, 1), K = random_matrix(4, 2, 2), V = random_matrix(4, 2, 3);
    CHECK(error_of([&] { attention_output(Q, K, V); }) == "key has 2 columns but query has 3; the dot score needs equal widths");
    AttentionOptions o;
    o.valid_length = 5;
    CHECK(contains(error_of([&] { attention_output(K, K, V, o); }), "valid_length must be between 0 and the number of keys (4)"));
    Mat bad = K;
    bad(1, 1) = std::numeric_limits<Scalar>::quiet_NaN();
    CHECK(contains(error_of([&] { attention_output(bad, K, V); }), "query has NaN at row 1, column 1"));
}

TEST_CASE("kernel: other scores and explicit masks take the full path") {
    AttentionOptions o;
    CHECK(kernel_applies(o));
    o.causal = true;
    o.valid_length = 2;
    CHECK(kernel_applies(o));
    o.mask = Mask::Constant(3, 4, true);
    CHECK(!kernel_applies(o));
    o.mask = Mask();
    o.score = Score::general;
    CHECK(!kernel_applies(o));
    const Mat Q = random_matrix(3, 2, 1), K = random_matrix(4, 2, 2), V = random_matrix(4, 2, 3);
    o.params.W = random_matrix(2, 2, 4);
    CHECK(max_rel_error(attention_output(Q, K, V, o), attention_reference(Q, K, V, o).output) < 1e-5);
}

TEST_CASE("kernel: ties stay ties at every scale, as in attention() (the scale multiplies the finished dot product)") {
    // one query of -0.0625s; keys 0 and 1 tie at the top score, -0.25, key 0's
    // through a cancellation (-5 + 4.75). Every product and sum here is exact
    // in float32, so attention() weighs keys 0 and 1 equally at any scale:
    // (0.5 + 0.4375) / 2 = 0.46875 once the other keys' weights vanish. Were the
    // scale folded into the queries, each product would be rounded at the
    // scaled size and the cancellation would decide the tie (the kernel gave
    // 0.468634 at 1e4, 0.281092 at 1e8, and -0.625, key 2 alone, at 1e12).
    Mat Q(1, 2), K(6, 2), V(6, 1);
    Q << -0.0625f, -0.0625f;
    K << 80, -76,   // -5 + 4.75 = -0.25
        4, 0,       // -0.25
        8, -2,      // -0.375
        16, 0,      // -1
        24, 8,      // -2
        40, 4;      // -2.75
    V << 0.5f, 0.4375f, -0.625f, 2, 3, 4;
    for (const float scale : {1e4f, 1e6f, 1e8f, 1e12f, 1e20f, 1e36f}) {
        CAPTURE(scale);
        AttentionOptions o;
        o.scale = scale;
        const AttentionResult full = attention(Q, K, V, o);
        CHECK(full.output(0, 0) == 0.46875f);
        CHECK(attention_output(Q, K, V, o)(0, 0) == 0.46875f);
        const KernelResult r = attention_kernel(Q, K, V, kernel_options(o, 2), /*with_weights=*/true);
        CHECK(r.weights(0, 0) == 0.5f);
        CHECK(r.weights(0, 1) == 0.5f);
    }
}

TEST_CASE("kernel: scaled scores at the edge of float32 overflow where attention()'s do, with its message") {
    // q.k = 4 exactly; 4 * 8e37 = 3.2e38 is finite, 4 * 9e37 = 3.6e38 is not
    const Mat Q = Mat::Constant(1, 4, 1), K = Mat::Constant(2, 4, 1), V = random_matrix(2, 3, 1);
    for (const float scale : {8e37f, 9e37f}) {
        CAPTURE(scale);
        AttentionOptions o;
        o.scale = scale;
        const std::string full = error_of([&] { attention(Q, K, V, o); });
        const std::string fused = error_of([&] { attention_output(Q, K, V, o); });
        CHECK(full == fused);
        if (scale == 8e37f) {
            CHECK(full.empty());
        } else {
            CHECK(full == "the scores overflow float32 (an entry is not finite); use smaller inputs or a smaller scale");
        }
    }
}
