#include "attention/mechanism/multi_head.hpp"

#include "attention/init.hpp"

#include <cmath>

namespace attn {

void require_heads(Index d_model, Index heads, Index kv_heads) {
    require(heads >= 1, "heads must be at least 1, got " + std::to_string(heads));
    require_argument(d_model % heads == 0, "d_model",
                     "d_model (" + std::to_string(d_model) + ") must be divisible by heads (" + std::to_string(heads) + ")");
    require_argument(kv_heads >= 1, "kv_heads", "kv_heads must be at least 1, got " + std::to_string(kv_heads));
    require_argument(heads % kv_heads == 0, "kv_heads",
                     "kv_heads (" + std::to_string(kv_heads) + ") must divide heads (" + std::to_string(heads) +
                         "): each key/value head serves an equal group of query heads");
}

// "projections.Wk must have shape (5, 2) (columns: 1 key/value head of width 2), got (5, 8)"
static void require_head_projection(const Mat& W, Index rows, Index heads, Index d_h, const char* name) {
    const bool q = name[1] == 'q';
    require(W.rows() == rows && W.cols() == heads * d_h,
            std::string("projections.") + name + " must have shape " + shape(rows, heads * d_h) + " (columns: " +
                std::to_string(heads) + (q ? " head" : " key/value head") + (heads == 1 ? "" : "s") + " of width " +
                std::to_string(d_h) + "), got " + shape(W));
    require_finite(W, std::string("projections.") + name);
}

MultiHeadParams multi_head_params_complete(MultiHeadParams p, Index d_in_q, Index d_in_kv, Index d_model,
                                           Index heads, Index kv_heads, std::uint64_t seed) {
    require_width(d_model, "d_model");
    require_heads(d_model, heads, kv_heads);
    const Index d_h = d_model / heads, d_kv = kv_heads * d_h;
    if (p.W.Wq.size() == 0) p.W.Wq = init_xavier(d_in_q, d_model, seed, stream::Wq);
    if (p.W.Wk.size() == 0) p.W.Wk = init_xavier(d_in_kv, d_kv, seed, stream::Wk);
    if (p.W.Wv.size() == 0) p.W.Wv = init_xavier(d_in_kv, d_kv, seed, stream::Wv);
    if (p.Wo.size() == 0) p.Wo = init_xavier(d_model, d_model, seed, stream::Wo);
    const Mat* given[] = {&p.W.Wq, &p.W.Wk, &p.W.Wv};
    for (int i = 0; i < 3; ++i)  // one call for the three: each message built once in the module
        require_head_projection(*given[i], i == 0 ? d_in_q : d_in_kv, i == 0 ? heads : kv_heads, d_h,
                                i == 0 ? "Wq" : i == 1 ? "Wk" : "Wv");
    require(p.Wo.rows() == d_model && p.Wo.cols() == d_model,
            "projections.Wo must have shape " + shape(d_model, d_model) + ", got " + shape(p.Wo));
    require_finite(p.Wo, "projections.Wo");
    return p;
}

// Q = X Wq (n_q, d_model), K = M Wk and V = M Wv (n_kv, d_kv), after checking that the shapes fit
static void project_heads(const MatRef& X, const MatRef& M, const Projections& W, Index d_model, Index d_kv,
                          MultiHeadResult& r) {
    require_projection_inputs(X, M);
    require(W.Wq.rows() == X.cols() && W.Wq.cols() == d_model && W.Wk.rows() == M.cols() && W.Wk.cols() == d_kv &&
                W.Wv.rows() == M.cols() && W.Wv.cols() == d_kv,
            "projections do not fit the inputs and heads: Wq " + shape(W.Wq) + ", Wk " + shape(W.Wk) + ", Wv " +
                shape(W.Wv) + " for input width " + std::to_string(X.cols()) + ", memory width " +
                std::to_string(M.cols()) + ", d_model " + std::to_string(d_model) + " and key/value width " +
                std::to_string(d_kv));
    project_unchecked(X, M, W, r.Q, r.K, r.V);
}

MultiHeadResult multi_head_attention(const MatRef& X, const MatRef& M, Index heads, Index kv_heads,
                                     const MultiHeadParams& p, const AttentionOptions& options) {
    const Index d_model = p.Wo.rows();
    require_heads(d_model, heads, kv_heads);
    require(options.score == Score::dot, "multi-head attention uses the dot score");
    const Index d_h = d_model / heads;

    MultiHeadResult r;
    r.params = p;
    project_heads(X, M, p.W, d_model, kv_heads * d_h, r);
    r.concat = Mat(X.rows(), d_model);
    r.kv_head.resize(size_t(heads));
    r.keys.resize(size_t(heads));
    r.values.resize(size_t(heads));
    AttentionOptions head_options = options;
    if (!head_options.scale) head_options.scale = Scalar(1) / std::sqrt(Scalar(d_h));
    for (Index h = 0; h < heads; ++h) {
        // query head h: its own slice of Q; the slices of K and V of its group
        const Index g = h * kv_heads / heads;
        r.kv_head[size_t(h)] = g;
        r.heads.push_back(attention(r.Q.middleCols(h * d_h, d_h), r.K.middleCols(g * d_h, d_h),
                                    r.V.middleCols(g * d_h, d_h), head_options));
        r.keys[size_t(h)] = r.K.middleCols(g * d_h, d_h);
        r.values[size_t(h)] = r.V.middleCols(g * d_h, d_h);
        r.concat.middleCols(h * d_h, d_h) = r.heads.back().output;
    }
    r.output = r.concat * p.Wo;
    require_finite_result(r.output, "output = concat Wo");
    return r;
}

}  // namespace attn
