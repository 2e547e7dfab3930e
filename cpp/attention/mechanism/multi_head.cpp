#include "attention/mechanism/multi_head.hpp"

#include "attention/init.hpp"

#include <cmath>

namespace attn {

MultiHeadParams multi_head_params_complete(MultiHeadParams p, Index d_in_q, Index d_in_kv, Index d_model,
                                           std::uint64_t seed) {
    require_width(d_model, "d_model");
    p.W = projections_complete(p.W, d_in_q, d_in_kv, d_model, d_model, seed);
    if (p.Wo.size() == 0) p.Wo = init_xavier(d_model, d_model, seed, stream::Wo);
    require(p.Wo.rows() == d_model && p.Wo.cols() == d_model,
            "projections.Wo must have shape " + shape(d_model, d_model) + ", got " + shape(p.Wo));
    require_finite(p.Wo, "projections.Wo");
    return p;
}

MultiHeadResult multi_head_attention(const MatRef& X, const MatRef& M, Index heads, const MultiHeadParams& p,
                                     const AttentionOptions& options) {
    const Index d_model = p.Wo.rows();
    require(heads >= 1, "heads must be at least 1, got " + std::to_string(heads));
    require_argument(d_model % heads == 0, "d_model",
                     "d_model (" + std::to_string(d_model) + ") must be divisible by heads (" + std::to_string(heads) + ")");
    require(options.score == Score::dot, "multi-head attention uses the dot score");
    const ProjectedAttention all = project(X, M, p.W);  // validates X, M, W
    const Index d_h = d_model / heads;

    MultiHeadResult r;
    r.params = p;
    r.Q = all.Q;
    r.K = all.K;
    r.V = all.V;
    r.concat = Mat(X.rows(), d_model);
    AttentionOptions head_options = options;
    if (!head_options.scale) head_options.scale = Scalar(1) / std::sqrt(Scalar(d_h));
    for (Index h = 0; h < heads; ++h) {
        // head h: its own slice of Q, K and V
        r.heads.push_back(attention(r.Q.middleCols(h * d_h, d_h), r.K.middleCols(h * d_h, d_h),
                                    r.V.middleCols(h * d_h, d_h), head_options));
        r.concat.middleCols(h * d_h, d_h) = r.heads.back().output;
    }
    r.output = r.concat * p.Wo;
    require_finite_result(r.output, "output = concat Wo");
    return r;
}

}  // namespace attn
