#include "attention/mechanism/flash.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

namespace {

constexpr Scalar kNegInf = -std::numeric_limits<Scalar>::infinity();

// Whether query i may see key j: the explicit mask and visible()'s rules.
bool allowed(const AttentionOptions& o, Index i, Index j) {
    return (o.mask.size() == 0 || o.mask(i, j)) && visible(o, i, j);
}

// The scaled score of query i and key j (+ bias): the dot product summed in
// float, in order (plain loops over the rows: the file is compiled for size)
Scalar logit(const MatRef& Q, const MatRef& K, const AttentionOptions& o, Scalar scale, Index i, Index j) {
    const Scalar* q = Q.data() + i * Q.outerStride();
    const Scalar* k = K.data() + j * K.outerStride();
    Scalar dot = 0;
    for (Index c = 0; c < Q.cols(); ++c) dot += q[c] * k[c];
    return o.bias.size() ? dot * scale + o.bias(i, j) : dot * scale;
}

// The running state of the rows of one block of queries. The sum and the
// output are kept in double: unnormalised, o can pass float32's range where
// o / l does not (values near its maximum), as the kernel's shrunk columns avoid.
struct Rows {
    Index n, dv;
    std::vector<Scalar> m;  // (n) running maximum
    std::vector<double> l;  // (n) running sum
    std::vector<double> o;  // (n, d_v) unnormalised output, row-major
};

// a vector of doubles as floats
template <class Out>
Out floats(const std::vector<double>& x, Index rows, Index cols) {
    Out out(rows, cols);
    for (Index i = 0; i < rows * cols; ++i) out.data()[i] = Scalar(x[size_t(i)]);
    return out;
}

// One tile: the online softmax's update of the rows' state by its scores.
//   S: (rows, cols) scores, -inf where hidden   V: the values, from row col0
void update(Rows& r, const Mat& S, const MatRef& V, Index col0, FlashTile* trace) {
    if (trace) {
        trace->scores = S;
        trace->max_before = Eigen::Map<const Vec>(r.m.data(), r.n);
        trace->sum_before = floats<Vec>(r.l, r.n, 1);
    }
    std::vector<double> alpha(size_t(r.n));
    for (Index i = 0; i < r.n; ++i) {
        Scalar m_new = r.m[size_t(i)];
        for (Index j = 0; j < S.cols(); ++j) m_new = std::max(m_new, S(i, j));
        // a row that has seen no key yet (m = -inf) has l = 0 and o = 0: nothing to rescale
        const double a = r.m[size_t(i)] == kNegInf ? 1.0 : double(std::exp(r.m[size_t(i)] - m_new));
        double* o = r.o.data() + i * r.dv;
        for (Index c = 0; c < r.dv; ++c) o[c] *= a;
        double sum = 0;
        for (Index j = 0; j < S.cols(); ++j) {
            if (S(i, j) == kNegInf) continue;
            const double p = double(std::exp(S(i, j) - m_new));
            sum += p;
            const Scalar* v = V.data() + (col0 + j) * V.outerStride();
            for (Index c = 0; c < r.dv; ++c) o[c] += p * v[c];
        }
        r.l[size_t(i)] = a * r.l[size_t(i)] + sum;
        r.m[size_t(i)] = m_new;
        alpha[size_t(i)] = a;
    }
    if (trace) {
        trace->max_after = Eigen::Map<const Vec>(r.m.data(), r.n);
        trace->rescale = floats<Vec>(alpha, r.n, 1);
        trace->sum_after = floats<Vec>(r.l, r.n, 1);
        trace->output_after = floats<Mat>(r.o, r.n, r.dv);
    }
}

void check_flash(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& o, const FlashOptions& f) {
    if (o.score != Score::dot)
        fail_argument("score", std::string("flash attention computes the dot score, got ") + score_name(o.score));
    require_argument(f.block_rows >= 1, "block_rows", "block_rows must be at least 1, got " + std::to_string(f.block_rows));
    require_argument(f.block_cols >= 1, "block_cols", "block_cols must be at least 1, got " + std::to_string(f.block_cols));
    if (f.trace && (Q.rows() > kFlashTraceMax || K.rows() > kFlashTraceMax))
        fail_argument("trace", "trace keeps every tile, so it takes at most " + std::to_string(kFlashTraceMax) +
                                   " queries and " + std::to_string(kFlashTraceMax) + " keys; got " +
                                   shape(Q.rows(), K.rows()) + " (leave trace out for larger inputs)");
    (void)V;
}

}  // namespace

FlashResult flash_attention(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& o,
                            const FlashOptions& f) {
    check_flash(Q, K, V, o, f);
    Scalar scale;
    prepare_attention(Q, K, V, o, scale, /*whole_map=*/false);
    const Index nq = Q.rows(), nk = K.rows(), dv = V.cols();
    FlashResult r;
    r.output = Mat::Zero(nq, dv);
    r.log_sum_exp = Vec::Constant(nq, kNegInf);
    for (Index row0 = 0; row0 < nq; row0 += f.block_rows) {
        const Index rows = std::min(f.block_rows, nq - row0);
        Rows state{rows, dv, std::vector<Scalar>(size_t(rows), kNegInf), std::vector<double>(size_t(rows), 0.0),
                   std::vector<double>(size_t(rows * dv), 0.0)};
        for (Index col0 = 0; col0 < nk; col0 += f.block_cols) {
            const Index cols = std::min(f.block_cols, nk - col0);
            Mat S(rows, cols);  // the one tile of scores held at a time
            bool any = false;
            for (Index i = 0; i < rows; ++i)
                for (Index j = 0; j < cols; ++j) {
                    const bool seen = allowed(o, row0 + i, col0 + j);
                    S(i, j) = seen ? logit(Q, K, o, scale, row0 + i, col0 + j) : kNegInf;
                    if (seen && !std::isfinite(S(i, j)))
                        fail("the scores overflow float32 (an entry is not finite); use smaller inputs or a smaller scale");
                    any = any || seen;
                }
            if (!any) {  // the masks hide the whole tile: never computed
                ++r.tiles_skipped;
                continue;
            }
            ++r.tiles_visited;
            FlashTile* trace = nullptr;
            if (f.trace) {
                r.trace.push_back(FlashTile{row0, rows, col0, cols, {}, {}, {}, {}, {}, {}, {}});
                trace = &r.trace.back();
            }
            update(state, S, V, col0, trace);
        }
        for (Index i = 0; i < rows; ++i) {
            const double l = state.l[size_t(i)];
            if (l == 0) continue;  // no key seen: output 0, log-sum-exp -inf
            for (Index c = 0; c < dv; ++c) r.output(row0 + i, c) = Scalar(state.o[size_t(i * dv + c)] / l);
            r.log_sum_exp(row0 + i) = state.m[size_t(i)] + std::log(Scalar(l));
        }
    }
    require_finite_result(r.output, "output = weights V");
    return r;
}

Mat weights_from_log_sum_exp(const MatRef& Q, const MatRef& K, const VecRef& lse, const std::vector<Index>& rows,
                             const AttentionOptions& o) {
    if (o.score != Score::dot)
        fail_argument("score", std::string("the weights from log-sum-exp use the dot score, got ") + score_name(o.score));
    // attention's checks, with no values (the keys stand in for them: they
    // have a row per key and are checked already)
    Scalar scale;
    prepare_attention(Q, K, K, o, scale, /*whole_map=*/false);
    if (lse.size() != Q.rows())
        fail_argument("log_sum_exp", "log_sum_exp has " + std::to_string(lse.size()) + " entries but query has " +
                                         std::to_string(Q.rows()) + " rows; it needs one per query");
    for (Index i = 0; i < lse.size(); ++i)
        if (!(std::isfinite(lse(i)) || lse(i) == kNegInf))
            fail_argument("log_sum_exp", "log_sum_exp[" + std::to_string(i) + "] is " + number(lse(i)) +
                                             "; each entry is a finite number, or -Infinity for a row that sees no key");
    for (size_t r = 0; r < rows.size(); ++r)
        if (rows[r] < 0 || rows[r] >= Q.rows())
            fail_argument("rows", "rows[" + std::to_string(r) + "] = " + std::to_string(rows[r]) +
                                      " is not a query row (0.." + std::to_string(Q.rows() - 1) + ")");
    require_work(double(rows.size()) * double(K.rows()) * double(K.cols()), "the rows' scores");
    Mat W = Mat::Zero(Index(rows.size()), K.rows());
    for (size_t r = 0; r < rows.size(); ++r) {
        const Index i = rows[r];
        if (lse(i) == kNegInf) continue;
        for (Index j = 0; j < K.rows(); ++j)
            if (allowed(o, i, j)) W(Index(r), j) = std::exp(logit(Q, K, o, scale, i, j) - lse(i));
    }
    return W;
}

}  // namespace attn
