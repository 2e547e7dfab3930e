#include "helpers.hpp"

#include <limits>

using namespace attn;
using namespace attn::test;

namespace {

constexpr Scalar kNegInf = -std::numeric_limits<Scalar>::infinity();

// the options of a case: n_q, n_k, d, d_v, and the masks by number
struct Case {
    Index nq, nk, d, dv;
    int masks;  // 0 none, 1 causal, 2 causal + window 3, 3 causal + window 4 + 2 sinks + padding, 4 bias
};

AttentionOptions options_of(const Case& c, std::uint64_t seed) {
    AttentionOptions o;
    o.causal = c.masks >= 1 && c.masks <= 3;
    if (c.masks >= 2 && c.masks <= 3) o.window = c.masks == 2 ? 3 : 4;
    if (c.masks == 3) {
        o.sinks = 2;
        o.valid_length = std::max<Index>(1, c.nk - 2);
    }
    if (c.masks == 4) o.bias = random_matrix(c.nq, c.nk, seed) * 3;
    return o;
}

const Case kCases[] = {{1, 1, 1, 1, 0},  {1, 1, 1, 1, 1},  {3, 40, 5, 2, 0},  {3, 40, 5, 2, 4},  {7, 7, 4, 3, 1},
                       {9, 9, 6, 5, 2},  {12, 15, 8, 4, 3}, {20, 5, 3, 7, 0}, {33, 33, 16, 8, 2}, {17, 60, 4, 4, 4}};

}  // namespace

TEST_CASE("attention: window, sinks and bias against the plain-loop reference") {
    std::uint64_t seed = 1;
    for (const Case& c : kCases) {
        CAPTURE(c.nq);
        CAPTURE(c.nk);
        CAPTURE(c.masks);
        const AttentionOptions o = options_of(c, seed);
        const Mat Q = random_matrix(c.nq, c.d, seed + 1), K = random_matrix(c.nk, c.d, seed + 2),
                  V = random_matrix(c.nk, c.dv, seed + 3);
        seed += 5;
        const AttentionResult fast = attention(Q, K, V, o), ref = attention_reference(Q, K, V, o);
        CHECK((fast.mask.array() == ref.mask.array()).all());
        CHECK(max_rel_error(fast.weights, ref.weights) < 1e-5);
        CHECK(max_rel_error(fast.output, ref.output) < 1e-5);
        check_rows_sum_to_one_or_zero(fast.weights);
        for (Index i = 0; i < c.nq; ++i)
            for (Index j = 0; j < c.nk; ++j) CHECK(fast.mask(i, j) == visible(o, i, j));
    }
}

TEST_CASE("attention: a window of 2 with 1 sink, by hand") {
    AttentionOptions o;
    o.causal = true;
    o.window = 2;
    o.sinks = 1;
    const Mask m = mask_combined(o, 5, 5);
    // query 4 sees key 0 (the sink), 3 and 4
    const int want[5][5] = {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 1, 1, 0, 0}, {1, 0, 1, 1, 0}, {1, 0, 0, 1, 1}};
    for (Index i = 0; i < 5; ++i)
        for (Index j = 0; j < 5; ++j) CHECK(m(i, j) == bool(want[i][j]));
}

TEST_CASE("flash attention: the output and the log-sum-exp of the reference, for every tile size") {
    std::uint64_t seed = 50;
    for (const Case& c : kCases)
        for (const auto& tile : {std::pair<Index, Index>{1, 1}, {2, 3}, {4, 4}, {16, 16}, {64, 5}}) {
            const Index br = tile.first, bc = tile.second;
            CAPTURE(c.nq);
            CAPTURE(c.nk);
            CAPTURE(c.masks);
            CAPTURE(br);
            CAPTURE(bc);
            const AttentionOptions o = options_of(c, seed);
            const Mat Q = random_matrix(c.nq, c.d, seed + 1) * 3, K = random_matrix(c.nk, c.d, seed + 2) * 3,
                      V = random_matrix(c.nk, c.dv, seed + 3);
            seed += 5;
            const AttentionResult ref = attention_reference(Q, K, V, o);
            const FlashResult f = flash_attention(Q, K, V, o, {br, bc, false});
            CHECK(max_rel_error(f.output, ref.output) < 1e-5);
            for (Index i = 0; i < c.nq; ++i) {
                if (ref.row_sums(i) == 0) {
                    CHECK(f.log_sum_exp(i) == kNegInf);
                    continue;
                }
                const double want = double(ref.row_max(i)) + std::log(double(ref.row_sums(i)));
                CHECK(std::abs(f.log_sum_exp(i) - want) <= 1e-5 * (1 + std::abs(want)));
            }
            const Index tiles = ((c.nq + br - 1) / br) * ((c.nk + bc - 1) / bc);
            CHECK(f.tiles_visited + f.tiles_skipped == tiles);
            CHECK(f.trace.empty());
        }
}

TEST_CASE("flash attention: the trace replays the online softmax") {
    const Mat Q = random_matrix(6, 4, 7) * 4, K = random_matrix(9, 4, 8) * 4, V = random_matrix(9, 3, 9);
    AttentionOptions o;
    o.causal = true;
    const FlashResult f = flash_attention(Q, K, V, o, {4, 4, true});
    REQUIRE(Index(f.trace.size()) == f.tiles_visited);
    // rows 0-3 meet keys 0-3 only (the tiles right of the diagonal are skipped); rows 4-5 meet keys 0-7
    CHECK(f.tiles_visited == 3);
    CHECK(f.tiles_skipped == 3);
    for (const FlashTile& t : f.trace) {
        for (Index i = 0; i < t.rows; ++i) {
            // m' = max(m, the tile's largest); the rescale e^(m - m'); l' = rescale l + sum e^(s - m')
            const double top = t.scores.row(i).maxCoeff();
            CHECK(t.max_after(i) == std::max(t.max_before(i), Scalar(top)));
            const double rescale = t.max_before(i) == kNegInf ? 1 : std::exp(double(t.max_before(i)) - t.max_after(i));
            CHECK(t.rescale(i) == doctest::Approx(rescale).epsilon(1e-6));
            double sum = 0;
            for (Index j = 0; j < t.cols; ++j)
                if (t.scores(i, j) != kNegInf) sum += std::exp(double(t.scores(i, j)) - t.max_after(i));
            CHECK(t.sum_after(i) == doctest::Approx(rescale * t.sum_before(i) + sum).epsilon(1e-5));
        }
    }
    // the last visit of each row holds its output before the division by l
    const FlashTile& last = f.trace.back();
    for (Index i = 0; i < last.rows; ++i)
        CHECK(max_rel_error(Mat(last.output_after.row(i) / last.sum_after(i)), Mat(f.output.row(last.row0 + i))) < 1e-6);
}

TEST_CASE("weights from the log-sum-exp: the reference's rows, without the matrix") {
    std::uint64_t seed = 90;
    for (const Case& c : kCases) {
        CAPTURE(c.masks);
        const AttentionOptions o = options_of(c, seed);
        const Mat Q = random_matrix(c.nq, c.d, seed + 1) * 3, K = random_matrix(c.nk, c.d, seed + 2) * 3,
                  V = random_matrix(c.nk, c.dv, seed + 3);
        seed += 5;
        const AttentionResult ref = attention_reference(Q, K, V, o);
        const FlashResult f = flash_attention(Q, K, V, o);
        std::vector<Index> rows;
        for (Index i = c.nq - 1; i >= 0; i -= 2) rows.push_back(i);
        const Mat W = weights_from_log_sum_exp(Q, K, f.log_sum_exp, rows, o);
        REQUIRE(W.rows() == Index(rows.size()));
        for (size_t r = 0; r < rows.size(); ++r)
            for (Index j = 0; j < c.nk; ++j) CHECK(std::abs(W(Index(r), j) - ref.weights(rows[r], j)) <= 1e-6);
    }
}

TEST_CASE("flash attention and the weights from the log-sum-exp: bad arguments, named") {
    const Mat Q = random_matrix(3, 4, 1), K = random_matrix(5, 4, 2), V = random_matrix(5, 2, 3);
    AttentionOptions o;
    o.window = 2;
    CHECK(error_of([&] { flash_attention(Q, K, V, o); }).find("window needs causal") != std::string::npos);
    o = {};
    o.sinks = 1;
    CHECK(error_of([&] { attention(Q, K, V, o); }).find("give a window too") != std::string::npos);
    o = {};
    o.causal = true;
    o.window = 0;
    CHECK(error_of([&] { attention_output(Q, K, V, o); }).find("window must be at least 1") != std::string::npos);
    o = {};
    o.bias = Mat::Zero(3, 4);
    CHECK(error_of([&] { attention(Q, K, V, o); }).find("bias has shape (3, 4)") != std::string::npos);
    o = {};
    o.score = Score::additive;
    CHECK(error_of([&] { flash_attention(Q, K, V, o); }).find("dot score") != std::string::npos);
    o = {};
    CHECK(error_of([&] { flash_attention(Q, K, V, o, {0, 4, false}); }).find("block_rows must be at least 1") !=
          std::string::npos);
    const Mat big = random_matrix(129, 4, 5);
    CHECK(error_of([&] { flash_attention(big, big, big, o, {16, 16, true}); }).find("at most 128") != std::string::npos);
    const FlashResult f = flash_attention(Q, K, V, o);
    CHECK(error_of([&] { weights_from_log_sum_exp(Q, K, f.log_sum_exp, {3}, o); }).find("rows[0] = 3") !=
          std::string::npos);
    CHECK(error_of([&] { weights_from_log_sum_exp(Q, K, f.log_sum_exp.head(2), {0}, o); })
              .find("log_sum_exp has 2 entries") != std::string::npos);
    Vec nan = f.log_sum_exp;
    nan(1) = std::numeric_limits<Scalar>::quiet_NaN();
    CHECK(error_of([&] { weights_from_log_sum_exp(Q, K, nan, {0}, o); }).find("log_sum_exp[1] is NaN") !=
          std::string::npos);
}
