#include "attention/mechanism/scores.hpp"

#include "attention/init.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace attn {

Score score_from_name(const std::string& name) {
    if (name == "dot") return Score::dot;
    if (name == "general") return Score::general;
    if (name == "concat") return Score::concat;
    if (name == "additive") return Score::additive;
    if (name == "gaussian") return Score::gaussian;
    fail("unknown score '" + name + "' (expected dot, general, concat, additive or gaussian)");
}

const char* score_name(Score score) {
    switch (score) {
        case Score::dot: return "dot";
        case Score::general: return "general";
        case Score::concat: return "concat";
        case Score::additive: return "additive";
        case Score::gaussian: return "gaussian";
    }
    return "?";
}

static void check_qk(const MatRef& Q, const MatRef& K, bool same_width, const char* score) {
    require_nonempty(Q, "query");
    require_nonempty(K, "key");
    if (same_width && Q.cols() != K.cols())  // if/fail: the message is built only on failure
        fail(std::string("key has ") + std::to_string(K.cols()) + " columns but query has " + std::to_string(Q.cols()) +
             "; the " + score + " score needs equal widths");
}

static void check_param(const MatRef& m, Index rows, Index cols, const std::string& name) {
    require(m.rows() == rows && m.cols() == cols,
            "params." + name + " must have shape " + shape(rows, cols) + ", got " + shape(m));
    require_finite(m, "params." + name);
}

static void check_param(const VecRef& v, Index size, const std::string& name) {
    require(v.size() == size, "params." + name + " must have " + std::to_string(size) +
                                  " entries, got " + std::to_string(v.size()));
    require_finite(v, "params." + name);
}

static void check_sigma(Scalar sigma) {
    require_argument(std::isfinite(sigma) && sigma > 0, "params.sigma",
                     "params.sigma must be a finite number greater than 0, got " + number(sigma));
    // 2 sigma^2 must be a normal, finite float32: the score divides by it
    require_argument(std::isnormal(2 * sigma * sigma), "params.sigma",
                     "params.sigma = " + number(sigma) + " is out of range (sigma^2 over- or underflows float32)");
}

// Multiply-adds of each score, to refuse calls that would run for minutes.
static double score_work(Score score, const MatRef& Q, const MatRef& K, Index hidden) {
    const double nq = double(Q.rows()), nk = double(K.rows()), dq = double(Q.cols()), dk = double(K.cols());
    switch (score) {
        case Score::dot:
        case Score::gaussian: return nq * nk * dq;
        case Score::general: return nq * dq * dk + nq * nk * dk;
        case Score::concat: return (nq + nk) * (dq + dk) + nq * nk;
        case Score::additive: return (nq * dq + nk * dk) * double(hidden) + nq * nk * double(hidden) * 8;  // tanh ~ 8
    }
    return 0;
}

// The parameters of one call as references: checking them copies nothing.
namespace {
struct ParamRefs {
    const MatRef& W;
    const MatRef& U;
    const VecRef& v;
    Scalar sigma;
};
const Mat kNoMat;
const Vec kNoVec;
}  // namespace

static void check_score_refs(Score score, const MatRef& Q, const MatRef& K, const ParamRefs& p, bool whole_map) {
    const bool same_width = score == Score::dot || score == Score::gaussian;
    check_qk(Q, K, same_width, score_name(score));
    if (whole_map && double(Q.rows()) * double(K.rows()) > kMaxMapEntries)
        fail(std::to_string(Q.rows()) + " queries x " + std::to_string(K.rows()) + " keys is too large (at most " +
             std::to_string(std::int64_t(kMaxMapEntries)) + " scores in one map)");
    switch (score) {
        case Score::dot: break;
        case Score::general: check_param(p.W, Q.cols(), K.cols(), "W"); break;
        case Score::concat: check_param(p.v, Q.cols() + K.cols(), "v"); break;
        case Score::additive:
            if (p.v.size() == 0) fail("params.v must have at least one entry");
            check_param(p.W, p.v.size(), Q.cols(), "W");
            check_param(p.U, p.v.size(), K.cols(), "U");
            check_param(p.v, p.v.size(), "v");
            break;
        case Score::gaussian: check_sigma(p.sigma); break;
    }
    const double work = score_work(score, Q, K, p.v.size());
    if (work > kMaxWork)  // the message is built only on failure
        require_work(work, std::string("the ") + score_name(score) + " score of " + shape(Q) + " queries against " +
                               shape(K) + " keys");
}

void check_score(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p, bool whole_map) {
    check_score_refs(score, Q, K, {p.W, p.U, p.v, p.sigma}, whole_map);
}

// ---- the scores without checks: each public score_* checks, then calls one

static Mat dot_unchecked(const MatRef& Q, const MatRef& K) { return Q * K.transpose(); }

// The scores with learned parameters are summed in double and rounded to
// float once, as the plain-loop reference does: a score is then the float
// nearest its exact value (but for a double rounding), whatever the order of
// the sums. Summed in float, near-ties came out a unit of the last place
// apart in one path and equal in another, and a large scale (1e36, a hard
// argmax) then gave one key all the weight in one and shared it in the other.
// Plain loops: their maps are the page's small examples, and Eigen's double
// products would add 15 KB to the module.

// rows of M (n, c) against w (c) or the rows of W (h, c): (n, h), in double
static std::vector<double> rows_times(const MatRef& M, const MatRef& W) {
    std::vector<double> out(size_t(M.rows() * W.rows()));
    for (Index i = 0; i < M.rows(); ++i)
        for (Index h = 0; h < W.rows(); ++h) {
            double z = 0;
            for (Index c = 0; c < M.cols(); ++c) z += double(M(i, c)) * W(h, c);
            out[size_t(i * W.rows() + h)] = z;
        }
    return out;
}

static Mat general_unchecked(const MatRef& Q, const MatRef& K, const MatRef& W) {
    const Mat Wt = W.transpose();                       // (d_k, d_q)
    const std::vector<double> QW = rows_times(Q, Wt);  // (n_q, d_k): q_i^T W
    Mat S(Q.rows(), K.rows());
    for (Index i = 0; i < Q.rows(); ++i)
        for (Index j = 0; j < K.rows(); ++j) {
            double s = 0;
            for (Index b = 0; b < K.cols(); ++b) s += QW[size_t(i * K.cols() + b)] * K(j, b);
            S(i, j) = Scalar(s);
        }
    return S;
}

static Mat concat_unchecked(const MatRef& Q, const MatRef& K, const VecRef& w) {
    const std::vector<double> from_q = rows_times(Q, w.head(Q.cols()).transpose());  // (n_q)
    const std::vector<double> from_k = rows_times(K, w.tail(K.cols()).transpose());  // (n_k)
    Mat S(Q.rows(), K.rows());
    for (Index i = 0; i < Q.rows(); ++i)
        for (Index j = 0; j < K.rows(); ++j) S(i, j) = Scalar(from_q[size_t(i)] + from_k[size_t(j)]);
    return S;
}

static Mat additive_unchecked(const MatRef& Q, const MatRef& K, const MatRef& W, const MatRef& U, const VecRef& v) {
    const Index hidden = v.size();
    const std::vector<double> A = rows_times(Q, W);  // (n_q, hidden): W q_i
    const std::vector<double> B = rows_times(K, U);  // (n_k, hidden): U k_j
    Mat S(Q.rows(), K.rows());
    for (Index i = 0; i < Q.rows(); ++i)
        for (Index j = 0; j < K.rows(); ++j) {
            double s = 0;
            for (Index h = 0; h < hidden; ++h) s += double(v(h)) * std::tanh(A[size_t(i * hidden + h)] + B[size_t(j * hidden + h)]);
            S(i, j) = Scalar(s);
        }
    return S;
}

static Mat gaussian_unchecked(const MatRef& Q, const MatRef& K, Scalar sigma) {
    const double c = -0.5 / (double(sigma) * sigma);
    Mat S(Q.rows(), K.rows());
    for (Index i = 0; i < Q.rows(); ++i)
        for (Index j = 0; j < K.rows(); ++j) {
            double s = 0;
            for (Index a = 0; a < Q.cols(); ++a) {
                const double diff = double(Q(i, a)) - K(j, a);
                s += diff * diff;
            }
            S(i, j) = Scalar(c * s);
        }
    return S;
}

Mat score_dot(const MatRef& Q, const MatRef& K) {
    check_score_refs(Score::dot, Q, K, {kNoMat, kNoMat, kNoVec, 1}, true);
    return dot_unchecked(Q, K);
}

Mat score_general(const MatRef& Q, const MatRef& K, const MatRef& W) {
    check_score_refs(Score::general, Q, K, {W, kNoMat, kNoVec, 1}, true);
    return general_unchecked(Q, K, W);
}

Mat score_concat(const MatRef& Q, const MatRef& K, const VecRef& w) {
    check_score_refs(Score::concat, Q, K, {kNoMat, kNoMat, w, 1}, true);
    return concat_unchecked(Q, K, w);
}

Mat score_additive(const MatRef& Q, const MatRef& K, const MatRef& W, const MatRef& U, const VecRef& v) {
    check_score_refs(Score::additive, Q, K, {W, U, v, 1}, true);
    return additive_unchecked(Q, K, W, U, v);
}

Mat score_gaussian(const MatRef& Q, const MatRef& K, Scalar sigma) {
    check_score_refs(Score::gaussian, Q, K, {kNoMat, kNoMat, kNoVec, sigma}, true);
    return gaussian_unchecked(Q, K, sigma);
}

Mat scores(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p) {
    check_score(score, Q, K, p);
    return scores_unchecked(score, Q, K, p);
}

Mat scores_unchecked(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p) {
    switch (score) {
        case Score::dot: return dot_unchecked(Q, K);
        case Score::general: return general_unchecked(Q, K, p.W);
        case Score::concat: return concat_unchecked(Q, K, p.v);
        case Score::additive: return additive_unchecked(Q, K, p.W, p.U, p.v);
        case Score::gaussian: return gaussian_unchecked(Q, K, p.sigma);
    }
    fail("unknown score");
}

Mat scores_reference(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p) {
    check_score(score, Q, K, p);
    return scores_reference_unchecked(score, Q, K, p);
}

Mat scores_reference_unchecked(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p) {
    const Index nq = Q.rows(), nk = K.rows(), dq = Q.cols(), dk = K.cols();
    Mat S(nq, nk);
    for (Index i = 0; i < nq; ++i)
        for (Index j = 0; j < nk; ++j) {
            double s = 0;
            switch (score) {
                case Score::dot:
                    for (Index c = 0; c < dq; ++c) s += double(Q(i, c)) * K(j, c);
                    break;
                case Score::general:
                    for (Index a = 0; a < dq; ++a)
                        for (Index b = 0; b < dk; ++b) s += double(Q(i, a)) * p.W(a, b) * K(j, b);
                    break;
                case Score::concat:
                    for (Index a = 0; a < dq; ++a) s += double(p.v(a)) * Q(i, a);
                    for (Index b = 0; b < dk; ++b) s += double(p.v(dq + b)) * K(j, b);
                    break;
                case Score::additive:
                    for (Index h = 0; h < p.v.size(); ++h) {
                        double z = 0;
                        for (Index a = 0; a < dq; ++a) z += double(p.W(h, a)) * Q(i, a);
                        for (Index b = 0; b < dk; ++b) z += double(p.U(h, b)) * K(j, b);
                        s += double(p.v(h)) * std::tanh(z);
                    }
                    break;
                case Score::gaussian:
                    for (Index c = 0; c < dq; ++c) {
                        const double diff = double(Q(i, c)) - K(j, c);
                        s -= diff * diff;
                    }
                    s /= 2.0 * double(p.sigma) * p.sigma;
                    break;
            }
            S(i, j) = Scalar(s);
        }
    return S;
}

ScoreParams score_params_complete(Score score, Index d_q, Index d_k, ScoreParams p, std::uint64_t seed,
                                  Index hidden) {
    if (hidden < 0) fail("params.hidden must not be negative, got " + std::to_string(hidden));
    const bool uses_W = score == Score::general || score == Score::additive;
    const bool uses_U = score == Score::additive;
    const bool uses_v = score == Score::concat || score == Score::additive;
    const auto unused = [&](const char* name) {
        fail(std::string("params.") + name + " is not used by the " + score_name(score) + " score");
    };
    if (!uses_W && p.W.size() != 0) unused("W");
    if (!uses_U && p.U.size() != 0) unused("U");
    if (!uses_v && p.v.size() != 0) unused("v");
    if (score == Score::additive && hidden == 0)  // the width of whichever parameter is given, else d_k
        hidden = p.v.size() ? p.v.size() : p.W.size() ? p.W.rows() : p.U.size() ? p.U.rows() : d_k;
    switch (score) {
        case Score::general:
            if (p.W.size() == 0) p.W = init_xavier(d_q, d_k, seed, stream::W);
            break;
        case Score::concat:
            if (p.v.size() == 0) p.v = init_xavier(d_q + d_k, 1, seed, stream::v);
            break;
        case Score::additive:
            if (double(hidden) * double(d_q + d_k + 1) > kMaxMapEntries)
                fail("params.hidden = " + std::to_string(hidden) + " is too large");
            if (p.W.size() == 0) p.W = init_xavier(hidden, d_q, seed, stream::W);
            if (p.U.size() == 0) p.U = init_xavier(hidden, d_k, seed, stream::U);
            if (p.v.size() == 0) p.v = init_xavier(hidden, 1, seed, stream::v);
            break;
        case Score::dot:
        case Score::gaussian:
            break;
    }
    return p;
}

}  // namespace attn
