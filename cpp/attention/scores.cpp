#include "attention/scores.hpp"

#include "attention/init.hpp"

#include <cmath>

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
    require(!same_width || Q.cols() == K.cols(),
            std::string("key has ") + std::to_string(K.cols()) + " columns but query has " +
                std::to_string(Q.cols()) + "; the " + score + " score needs equal widths");
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
    require(std::isfinite(sigma) && sigma > 0,
            "params.sigma must be a finite number greater than 0, got " + std::to_string(sigma));
}

Mat score_dot(const MatRef& Q, const MatRef& K) {
    check_qk(Q, K, true, "dot");
    return Q * K.transpose();
}

Mat score_general(const MatRef& Q, const MatRef& K, const MatRef& W) {
    check_qk(Q, K, false, "general");
    check_param(W, Q.cols(), K.cols(), "W");
    const Mat QW = Q * W;  // (n_q, d_k)
    return QW * K.transpose();
}

Mat score_concat(const MatRef& Q, const MatRef& K, const VecRef& w) {
    check_qk(Q, K, false, "concat");
    check_param(w, Q.cols() + K.cols(), "v");
    const Vec from_q = Q * w.head(Q.cols());  // (n_q)
    const Vec from_k = K * w.tail(K.cols());  // (n_k)
    Mat S(Q.rows(), K.rows());
    for (Index i = 0; i < Q.rows(); ++i) S.row(i) = from_k.transpose().array() + from_q(i);
    return S;
}

Mat score_additive(const MatRef& Q, const MatRef& K, const MatRef& W, const MatRef& U, const VecRef& v) {
    check_qk(Q, K, false, "additive");
    const Index hidden = v.size();
    require(hidden > 0, "params.v must have at least one entry");
    check_param(W, hidden, Q.cols(), "W");
    check_param(U, hidden, K.cols(), "U");
    check_param(v, hidden, "v");
    const Mat A = Q * W.transpose();  // (n_q, hidden): W q_i
    const Mat B = K * U.transpose();  // (n_k, hidden): U k_j
    Mat S(Q.rows(), K.rows());
    for (Index i = 0; i < Q.rows(); ++i)
        for (Index j = 0; j < K.rows(); ++j)
            S(i, j) = (A.row(i) + B.row(j)).array().tanh().matrix().dot(v.transpose());
    return S;
}

Mat score_gaussian(const MatRef& Q, const MatRef& K, Scalar sigma) {
    check_qk(Q, K, true, "gaussian");
    check_sigma(sigma);
    const Scalar c = Scalar(-0.5) / (sigma * sigma);
    Mat S(Q.rows(), K.rows());
    // differences, not |q|^2 + |k|^2 - 2 q.k, which cancels badly for keys like 170
    for (Index i = 0; i < Q.rows(); ++i) S.row(i) = c * (K.rowwise() - Q.row(i)).rowwise().squaredNorm();
    return S;
}

Mat scores(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p) {
    switch (score) {
        case Score::dot: return score_dot(Q, K);
        case Score::general: return score_general(Q, K, p.W);
        case Score::concat: return score_concat(Q, K, p.v);
        case Score::additive: return score_additive(Q, K, p.W, p.U, p.v);
        case Score::gaussian: return score_gaussian(Q, K, p.sigma);
    }
    fail("unknown score");
}

Mat scores_reference(Score score, const MatRef& Q, const MatRef& K, const ScoreParams& p) {
    // The same checks as the fast path, then plain loops in double.
    (void)scores(score, Q, K, p);
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
    require(hidden >= 0, "params.hidden must be positive, got " + std::to_string(hidden));
    if (hidden == 0) hidden = p.v.size() > 0 && score == Score::additive ? p.v.size() : d_k;
    switch (score) {
        case Score::general:
            if (p.W.size() == 0) p.W = init_xavier(d_q, d_k, seed, stream::W);
            break;
        case Score::concat:
            if (p.v.size() == 0) p.v = init_xavier(d_q + d_k, 1, seed, stream::v);
            break;
        case Score::additive:
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
