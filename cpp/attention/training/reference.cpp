#include "attention/training/reference.hpp"

#include <cmath>
#include <limits>

namespace attn::train {

MatD embedding_forward_reference(const MatD& E, const MatD& PE, const TokenIds& tokens) {
    const Index rows = Index(tokens.size()), d = E.cols(), n = PE.rows();
    MatD X(rows, d);
    for (Index r = 0; r < rows; ++r)
        for (Index c = 0; c < d; ++c) X(r, c) = E(tokens[size_t(r)], c) + PE(r % n, c);
    return X;
}

MatD embedding_backward_reference(const MatD& dX, const TokenIds& tokens, Index vocab) {
    MatD dE = MatD::Zero(vocab, dX.cols());
    for (Index r = 0; r < dX.rows(); ++r)
        for (Index c = 0; c < dX.cols(); ++c) dE(tokens[size_t(r)], c) += dX(r, c);
    return dE;
}

MatD linear_forward_reference(const MatD& X, const MatD& W) {
    MatD Y = MatD::Zero(X.rows(), W.cols());
    for (Index r = 0; r < X.rows(); ++r)
        for (Index o = 0; o < W.cols(); ++o)
            for (Index i = 0; i < X.cols(); ++i) Y(r, o) += X(r, i) * W(i, o);
    return Y;
}

void linear_backward_reference(const MatD& X, const MatD& W, const MatD& dY, MatD& dX, MatD& dW) {
    dX = MatD::Zero(X.rows(), X.cols());
    dW = MatD::Zero(W.rows(), W.cols());
    for (Index r = 0; r < X.rows(); ++r)
        for (Index i = 0; i < X.cols(); ++i)
            for (Index o = 0; o < W.cols(); ++o) {
                dX(r, i) += dY(r, o) * W(i, o);
                dW(i, o) += X(r, i) * dY(r, o);
            }
}

MatD split_head_reference(const MatD& M, Index heads, Index h) {
    const Index dh = M.cols() / heads;
    MatD out(M.rows(), dh);
    for (Index r = 0; r < M.rows(); ++r)
        for (Index c = 0; c < dh; ++c) out(r, c) = M(r, h * dh + c);
    return out;
}

MatD concat_heads_reference(const std::vector<MatD>& heads) {
    const Index dh = heads[0].cols();
    MatD out(heads[0].rows(), dh * Index(heads.size()));
    for (size_t h = 0; h < heads.size(); ++h)
        for (Index r = 0; r < out.rows(); ++r)
            for (Index c = 0; c < dh; ++c) out(r, Index(h) * dh + c) = heads[h](r, c);
    return out;
}

Mask attention_mask_reference(Index n, Index valid, bool causal) {
    Mask m(n, n);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < n; ++j) m(i, j) = j < valid && (!causal || j <= i);
    return m;
}

HeadReference attention_head_forward_reference(const MatD& Q, const MatD& K, const MatD& V, const Mask& visible,
                                               const MatD* bias) {
    const Index n = Q.rows(), m = K.rows(), dh = Q.cols();
    const double scale = 1 / std::sqrt(double(dh));
    HeadReference r{MatD(n, m), MatD::Zero(n, m), MatD::Zero(n, V.cols())};
    for (Index i = 0; i < n; ++i) {
        double top = -std::numeric_limits<double>::infinity();
        for (Index j = 0; j < m; ++j) {
            double s = 0;
            for (Index c = 0; c < dh; ++c) s += Q(i, c) * K(j, c);
            r.scores(i, j) = visible(i, j) ? s * scale + (bias ? (*bias)(i, j) : 0.0)
                                           : -std::numeric_limits<double>::infinity();
            top = std::max(top, r.scores(i, j));
        }
        if (std::isinf(top)) continue;  // nothing visible: a zero row
        double sum = 0;
        for (Index j = 0; j < m; ++j) sum += visible(i, j) ? std::exp(r.scores(i, j) - top) : 0;
        for (Index j = 0; j < m; ++j) r.weights(i, j) = visible(i, j) ? std::exp(r.scores(i, j) - top) / sum : 0;
        for (Index j = 0; j < m; ++j)
            for (Index c = 0; c < V.cols(); ++c) r.output(i, c) += r.weights(i, j) * V(j, c);
    }
    return r;
}

void attention_head_backward_reference(const MatD& Q, const MatD& K, const MatD& V, const MatD& weights,
                                       const MatD& dZ, MatD& dQ, MatD& dK, MatD& dV) {
    const Index n = Q.rows(), m = K.rows(), dh = Q.cols();
    const double scale = 1 / std::sqrt(double(dh));
    dQ = MatD::Zero(n, dh);
    dK = MatD::Zero(m, dh);
    dV = MatD::Zero(m, V.cols());
    for (Index i = 0; i < n; ++i) {
        // dA_ij = dZ_i . V_j
        std::vector<double> dA(size_t(m), 0.0);
        for (Index j = 0; j < m; ++j)
            for (Index c = 0; c < V.cols(); ++c) {
                dA[size_t(j)] += dZ(i, c) * V(j, c);
                dV(j, c) += weights(i, j) * dZ(i, c);
            }
        // softmax Jacobian: dS_ij = A_ij (dA_ij - sum_k A_ik dA_ik), times the scale
        double inner = 0;
        for (Index j = 0; j < m; ++j) inner += weights(i, j) * dA[size_t(j)];
        for (Index j = 0; j < m; ++j) {
            const double dS = weights(i, j) * (dA[size_t(j)] - inner) * scale;
            for (Index c = 0; c < dh; ++c) {
                dQ(i, c) += dS * K(j, c);
                dK(j, c) += dS * Q(i, c);
            }
        }
    }
}

double cross_entropy_reference(const MatD& logits, const TokenIds& targets, MatD* dlogits) {
    const Index rows = logits.rows(), classes = logits.cols();
    Index counted = 0;
    for (std::int32_t t : targets) counted += t >= 0;
    if (dlogits) *dlogits = MatD::Zero(rows, classes);
    double total = 0;
    for (Index r = 0; r < rows; ++r) {
        const std::int32_t t = targets[size_t(r)];
        if (t < 0) continue;
        double top = logits(r, 0), sum = 0;
        for (Index c = 1; c < classes; ++c) top = std::max(top, logits(r, c));
        for (Index c = 0; c < classes; ++c) sum += std::exp(logits(r, c) - top);
        total += std::log(sum) - (logits(r, t) - top);
        if (dlogits)
            for (Index c = 0; c < classes; ++c)
                (*dlogits)(r, c) = (std::exp(logits(r, c) - top) / sum - (c == t ? 1 : 0)) / double(counted);
    }
    return counted ? total / double(counted) : 0;
}

namespace {
// rows [b n, (b + 1) n) of M
MatD rows_of(const MatD& M, Index b, Index n) { return M.block(b * n, 0, n, M.cols()); }
}  // namespace

ModelReference model_reference(const ModelConfig& config, const ParamsD& params, const MatD& PE,
                               const TokenIds& tokens, const TokenIds& targets, const std::vector<Index>& valid,
                               ParamsD* grads) {
    const MatD &E = params[0], &Wq = params[1], &Wk = params[2], &Wv = params[3], &Wo = params[4];
    const Index n = config.length, H = config.heads, sequences = Index(tokens.size()) / n;
    ModelReference out;
    // forward
    const MatD X = embedding_forward_reference(E, PE, tokens);  // (rows, d)
    MatD P(X.rows(), X.cols());  // the positions alone, for cross-attention's queries
    for (Index r = 0; r < X.rows(); ++r) P.row(r) = PE.row(r % n);
    const MatD Q = linear_forward_reference(config.cross ? P : X, Wq), K = linear_forward_reference(X, Wk),
               V = linear_forward_reference(X, Wv);
    MatD Z(X.rows(), config.d_model);
    std::vector<HeadReference> heads;
    for (Index b = 0; b < sequences; ++b) {
        const Mask visible = attention_mask_reference(n, valid.empty() ? n : valid[size_t(b)], config.causal);
        std::vector<MatD> parts;
        for (Index h = 0; h < H; ++h) {
            heads.push_back(attention_head_forward_reference(split_head_reference(rows_of(Q, b, n), H, h),
                                                             split_head_reference(rows_of(K, b, n), H, h),
                                                             split_head_reference(rows_of(V, b, n), H, h), visible));
            out.weights.push_back(heads.back().weights);
            parts.push_back(heads.back().output);
        }
        Z.block(b * n, 0, n, config.d_model) = concat_heads_reference(parts);
    }
    if (config.residual) Z += X;
    out.logits = linear_forward_reference(Z, Wo);
    MatD dlogits;
    out.loss = cross_entropy_reference(out.logits, targets, grads ? &dlogits : nullptr);
    if (!grads) return out;

    // backward
    grads->assign(5, MatD());
    MatD dZ, dX, dQ(Q.rows(), Q.cols()), dK(K.rows(), K.cols()), dV(V.rows(), V.cols());
    linear_backward_reference(Z, Wo, dlogits, dZ, (*grads)[4]);
    for (Index b = 0; b < sequences; ++b)
        for (Index h = 0; h < H; ++h) {
            const Index dh = config.d_model / H;
            MatD gq, gk, gv;
            attention_head_backward_reference(
                split_head_reference(rows_of(Q, b, n), H, h), split_head_reference(rows_of(K, b, n), H, h),
                split_head_reference(rows_of(V, b, n), H, h), heads[size_t(b * H + h)].weights,
                split_head_reference(rows_of(dZ, b, n), H, h), gq, gk, gv);
            dQ.block(b * n, h * dh, n, dh) = gq;
            dK.block(b * n, h * dh, n, dh) = gk;
            dV.block(b * n, h * dh, n, dh) = gv;
        }
    MatD dXq, dXk, dXv;
    linear_backward_reference(config.cross ? P : X, Wq, dQ, dXq, (*grads)[1]);
    linear_backward_reference(X, Wk, dK, dXk, (*grads)[2]);
    linear_backward_reference(X, Wv, dV, dXv, (*grads)[3]);
    dX = config.cross ? MatD(dXk + dXv) : MatD(dXq + dXk + dXv);  // cross: the queries do not depend on the tokens
    if (config.residual) dX += dZ;
    (*grads)[0] = embedding_backward_reference(dX, tokens, config.vocab);
    return out;
}

double relative_error(double a, double b) { return std::abs(a - b) / std::max(std::abs(a) + std::abs(b), 1e-6); }

void GradientCheck::add(const std::string& tensor, double e, const std::string& where) {
    if (tensors.empty() || tensors.back().name != tensor) tensors.push_back({tensor, 0, 0});
    ++tensors.back().checked;
    tensors.back().max_relative_error = std::max(tensors.back().max_relative_error, e);
    ++checked;
    if (e > max_relative_error || worst.empty()) {
        max_relative_error = std::max(max_relative_error, e);
        worst = where;
    }
}

GradientCheck gradient_check_reference(const ModelConfig& config, const ParamsD& params, const MatD& PE,
                                       const TokenIds& tokens, const TokenIds& targets, const std::vector<Index>& valid) {
    static const char* const kNames[5] = {"embedding", "Wq", "Wk", "Wv", "Wo"};
    constexpr double h = 1e-3;
    ParamsD grads;
    model_reference(config, params, PE, tokens, targets, valid, &grads);
    ParamsD p = params;
    GradientCheck check;
    auto loss = [&] { return model_reference(config, p, PE, tokens, targets, valid, nullptr).loss; };
    for (size_t t = 0; t < p.size(); ++t)
        for (Index i = 0; i < p[t].rows(); ++i)
            for (Index j = 0; j < p[t].cols(); ++j) {
                const double x = p[t](i, j);
                double L[4];
                const double steps[4] = {h, -h, 2 * h, -2 * h};
                for (int s = 0; s < 4; ++s) {
                    p[t](i, j) = x + steps[s];
                    L[s] = loss();
                }
                p[t](i, j) = x;
                const double numeric = (8 * (L[0] - L[1]) - (L[2] - L[3])) / (12 * h);
                check.add(kNames[t], relative_error(grads[t](i, j), numeric), std::string(kNames[t]) + shape(i, j));
            }
    return check;
}

}  // namespace attn::train
