#include "attention/mechanism/conditional.hpp"

#include "attention/init.hpp"

namespace attn {

Fusion fusion_from_name(const std::string& name) {
    if (name == "concat") return Fusion::concat;
    if (name == "add") return Fusion::add;
    if (name == "fc") return Fusion::fc;
    fail("unknown fusion '" + name + "' (expected concat, add or fc)");
}

const char* fusion_name(Fusion fusion) {
    switch (fusion) {
        case Fusion::concat: return "concat";
        case Fusion::add: return "add";
        case Fusion::fc: return "fc";
    }
    return "?";
}

// [X | 1 c^T]   -> (n, d_in + d_c)
static Mat append_condition(const MatRef& X, const VecRef& c) {
    Mat F(X.rows(), X.cols() + c.size());
    F.leftCols(X.cols()) = X;
    F.rightCols(c.size()) = c.transpose().replicate(X.rows(), 1);
    return F;
}

ConditionalResult conditional_attention(const MatRef& X, const VecRef& c, Fusion fusion, Index d_k, Index d_v,
                                        std::uint64_t seed, const AttentionOptions& options) {
    require_nonempty(X, "input");
    require_finite(X, "input");
    require(c.size() > 0, "condition must have at least one entry");
    require_finite(c, "condition");
    require_width(d_k, "d_k");
    require_width(d_v, "d_v");
    const Index d_in = X.cols(), d_c = c.size();

    ConditionalResult r;
    switch (fusion) {
        case Fusion::concat:
            r.fused = append_condition(X, c);
            break;
        case Fusion::add:
            r.P = init_xavier(d_c, d_in, seed, stream::condition);
            r.fused = X.rowwise() + (c.transpose() * r.P);
            break;
        case Fusion::fc:
            r.Wf = init_xavier(d_in + d_c, d_in, seed, stream::fusion);
            r.bf = init_uniform(d_in, 1, seed, stream::fusion_bias, Scalar(0.1));
            r.fused = ((append_condition(X, c) * r.Wf).rowwise() + r.bf.transpose()).array().tanh().matrix();
            break;
    }
    require_finite_result(r.fused, std::string("the fused input (") + fusion_name(fusion) + ")");
    // Q and K see the condition; V does not.
    const Index d_f = r.fused.cols();
    Projections& W = r.attn.W;
    W.Wq = init_xavier(d_f, d_k, seed, stream::Wq);
    W.Wk = init_xavier(d_f, d_k, seed, stream::Wk);
    W.Wv = init_xavier(d_in, d_v, seed, stream::Wv);
    r.attn.Q = r.fused * W.Wq;
    r.attn.K = r.fused * W.Wk;
    r.attn.V = X * W.Wv;
    require_finite_result(r.attn.Q, "Q = fused Wq");
    require_finite_result(r.attn.K, "K = fused Wk");
    require_finite_result(r.attn.V, "V = input Wv");
    r.attn.attention = attention(r.attn.Q, r.attn.K, r.attn.V, options);
    return r;
}

}  // namespace attn
