#include "attention/mechanism/self_attention.hpp"

#include "attention/init.hpp"

#include <cmath>

namespace attn {

void require_width(Index width, const char* name) {
    require_argument(width > 0, name, std::string(name) + " must be positive, got " + std::to_string(width));
}

static void check_projection(const Mat& W, Index rows, Index cols, const char* name) {
    require(W.rows() == rows && W.cols() == cols, std::string("projections.") + name + " must have shape " +
                                                      shape(rows, cols) + ", got " + shape(W));
    require_finite(W, std::string("projections.") + name);
}

Projections projections_complete(Projections p, Index d_in_q, Index d_in_kv, Index d_k, Index d_v,
                                 std::uint64_t seed) {
    require_width(d_k, "d_k");
    require_width(d_v, "d_v");
    if (p.Wq.size() == 0) p.Wq = init_xavier(d_in_q, d_k, seed, stream::Wq);
    if (p.Wk.size() == 0) p.Wk = init_xavier(d_in_kv, d_k, seed, stream::Wk);
    if (p.Wv.size() == 0) p.Wv = init_xavier(d_in_kv, d_v, seed, stream::Wv);
    check_projection(p.Wq, d_in_q, d_k, "Wq");
    check_projection(p.Wk, d_in_kv, d_k, "Wk");
    check_projection(p.Wv, d_in_kv, d_v, "Wv");
    return p;
}

void require_projection_inputs(const MatRef& X, const MatRef& M) {
    require_nonempty(X, "input");
    require_nonempty(M, "memory");
    require_finite(X, "input");
    require_finite(M, "memory");
}

void project_unchecked(const MatRef& X, const MatRef& M, const Projections& W, Mat& Q, Mat& K, Mat& V) {
    Q = X * W.Wq;
    K = M * W.Wk;
    V = M * W.Wv;
    require_finite_result(Q, "Q = input Wq");
    require_finite_result(K, "K = memory Wk");
    require_finite_result(V, "V = memory Wv");
}

ProjectedAttention project(const MatRef& X, const MatRef& M, const Projections& W) {
    require_projection_inputs(X, M);
    require(W.Wq.rows() == X.cols() && W.Wk.rows() == M.cols() && W.Wv.rows() == M.cols() &&
                W.Wq.cols() == W.Wk.cols(),
            "projections do not fit the inputs: Wq " + shape(W.Wq) + ", Wk " + shape(W.Wk) + ", Wv " +
                shape(W.Wv) + " for input width " + std::to_string(X.cols()) + " and memory width " +
                std::to_string(M.cols()));
    ProjectedAttention r;
    r.W = W;
    project_unchecked(X, M, W, r.Q, r.K, r.V);
    return r;
}

ProjectedAttention cross_attention(const MatRef& X, const MatRef& M, const Projections& W,
                                   const AttentionOptions& options) {
    ProjectedAttention r = project(X, M, W);
    r.attention = attention(r.Q, r.K, r.V, options);
    return r;
}

ProjectedAttention self_attention(const MatRef& X, const Projections& W, const AttentionOptions& options) {
    return cross_attention(X, X, W, options);
}

SelfMapStats self_map_stats(const MatRef& scores, const MatRef& weights) {
    require_nonempty(scores, "scores");
    require_finite(scores, "scores");
    require_finite(weights, "weights");
    const Index n = scores.rows();
    require(scores.cols() == n && weights.rows() == n && weights.cols() == n,
            "scores and weights must be one square map each, of one size: scores " + shape(scores) + ", weights " +
                shape(weights));
    double differences = 0, entries = 0, diagonal = 0, on_diagonal = 0;  // in double: no drift over n²
    for (Index i = 0; i < n; ++i) {
        Index top = 0;
        for (Index j = 0; j < n; ++j) {
            const double d = double(scores(i, j)) - double(scores(j, i));
            differences += d * d;
            entries += double(scores(i, j)) * scores(i, j);
            if (weights(i, j) > weights(i, top)) top = j;
        }
        diagonal += weights(i, i);
        on_diagonal += top == i ? 1 : 0;
    }
    SelfMapStats out;
    out.asymmetry = entries > 0 ? std::sqrt(differences) / (2 * std::sqrt(entries)) : 0;
    out.diagonal_share = diagonal / double(n);
    out.rows_on_diagonal = on_diagonal;
    return out;
}

}  // namespace attn
