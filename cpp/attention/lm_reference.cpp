#include "attention/lm_reference.hpp"

#include <cmath>

namespace attn::train {

namespace {
constexpr double kGeluC = 0.797884560802865355;  // sqrt(2 / pi)
constexpr double kGeluA = 0.044715;

struct RowMoments {
    double mean;
    double rstd;  // 1 / sqrt(variance + kLayerNormEpsilon)
};

// the mean of row r of X and the reciprocal of its standard deviation, as layer norm takes them
RowMoments row_moments(const MatD& X, Index r) {
    const Index d = X.cols();
    double mean = 0, var = 0;
    for (Index c = 0; c < d; ++c) mean += X(r, c);
    mean /= double(d);
    for (Index c = 0; c < d; ++c) var += (X(r, c) - mean) * (X(r, c) - mean);
    var /= double(d);
    return {mean, 1 / std::sqrt(var + kLayerNormEpsilon)};
}
}  // namespace

MatD layer_norm_reference(const MatD& X, const MatD& gain, const MatD& bias) {
    const Index d = X.cols();
    MatD Y(X.rows(), d);
    for (Index r = 0; r < X.rows(); ++r) {
        const auto [mean, rstd] = row_moments(X, r);
        for (Index c = 0; c < d; ++c) Y(r, c) = (X(r, c) - mean) * rstd * gain(0, c) + bias(0, c);
    }
    return Y;
}

void layer_norm_backward_reference(const MatD& X, const MatD& gain, const MatD& dY, MatD& dX, MatD& dgain,
                                   MatD& dbias) {
    const Index d = X.cols();
    dX = MatD::Zero(X.rows(), d);
    dgain = MatD::Zero(1, d);
    dbias = MatD::Zero(1, d);
    for (Index r = 0; r < X.rows(); ++r) {
        const auto [mean, rstd] = row_moments(X, r);
        // y = xhat g + b, xhat = (x - mean) rstd; through xhat by the chain rule, term by term:
        // dxhat_c/dx_k = rstd (delta_ck - 1/d) - xhat_c xhat_k rstd / d
        std::vector<double> xhat(static_cast<size_t>(d)), g(static_cast<size_t>(d));
        for (Index c = 0; c < d; ++c) {
            xhat[size_t(c)] = (X(r, c) - mean) * rstd;
            g[size_t(c)] = dY(r, c) * gain(0, c);
            dgain(0, c) += dY(r, c) * xhat[size_t(c)];
            dbias(0, c) += dY(r, c);
        }
        for (Index k = 0; k < d; ++k)
            for (Index c = 0; c < d; ++c) {
                const double jacobian =
                    rstd * ((c == k ? 1.0 : 0.0) - 1.0 / double(d)) - xhat[size_t(c)] * xhat[size_t(k)] * rstd / double(d);
                dX(r, k) += g[size_t(c)] * jacobian;
            }
    }
}

MatD gelu_reference(const MatD& U) {
    MatD G(U.rows(), U.cols());
    for (Index i = 0; i < U.rows(); ++i)
        for (Index j = 0; j < U.cols(); ++j) {
            const double u = U(i, j);
            G(i, j) = 0.5 * u * (1 + std::tanh(kGeluC * (u + kGeluA * u * u * u)));
        }
    return G;
}

MatD gelu_backward_reference(const MatD& U, const MatD& dG) {
    MatD dU(U.rows(), U.cols());
    for (Index i = 0; i < U.rows(); ++i)
        for (Index j = 0; j < U.cols(); ++j) {
            const double u = U(i, j), t = std::tanh(kGeluC * (u + kGeluA * u * u * u));
            dU(i, j) = dG(i, j) * (0.5 * (1 + t) + 0.5 * u * (1 - t * t) * kGeluC * (1 + 3 * kGeluA * u * u));
        }
    return dU;
}

MatD bias_reference(const MatD& X, const MatD& b) {
    MatD Y = X;
    for (Index r = 0; r < X.rows(); ++r)
        for (Index c = 0; c < X.cols(); ++c) Y(r, c) += b(0, c);
    return Y;
}

MatD bias_backward_reference(const MatD& dY) {
    MatD db = MatD::Zero(1, dY.cols());
    for (Index r = 0; r < dY.rows(); ++r)
        for (Index c = 0; c < dY.cols(); ++c) db(0, c) += dY(r, c);
    return db;
}

MatD residual_reference(const MatD& X, const MatD& F) {
    MatD Y(X.rows(), X.cols());
    for (Index r = 0; r < X.rows(); ++r)
        for (Index c = 0; c < X.cols(); ++c) Y(r, c) = X(r, c) + F(r, c);
    return Y;
}

std::vector<std::string> lm_tensor_names(Index layers) {
    static const char* const kBlock[16] = {"ln1.gain", "ln1.bias", "Wq", "bq", "Wk", "bk", "Wv", "bv",
                                           "Wo", "bo", "ln2.gain", "ln2.bias", "W1", "b1", "W2", "b2"};
    std::vector<std::string> names = {"embedding", "positions"};
    for (Index l = 0; l < layers; ++l)
        for (const char* name : kBlock) names.push_back("layer" + std::to_string(l + 1) + "." + name);
    for (const char* name : {"lnf.gain", "lnf.bias", "Wout", "bout"}) names.push_back(name);
    return names;
}

namespace {
MatD rows_of(const MatD& M, Index b, Index n) { return M.block(b * n, 0, n, M.cols()); }

struct BlockCache {
    MatD X, Y1, Q, K, V, Z, H, Y2, U, G;
    std::vector<MatD> weights;  // sequence * heads + head
};
}  // namespace

LmReference lm_reference(const LmConfig& c, const ParamsD& p, const TokenIds& tokens, const TokenIds& targets,
                         ParamsD* grads) {
    const Index n = c.context, d = c.d_model, H = c.heads, dh = d / H, rows = Index(tokens.size()),
                sequences = rows / n;
    const Index f = 2 + 16 * c.layers;  // lnf gain
    auto at = [](Index l, Index which) { return 2 + 16 * l + which; };
    LmReference out;
    // X = E[token] + P[position]
    MatD X = embedding_forward_reference(p[0], p[1], tokens);
    std::vector<BlockCache> cache(size_t(c.layers));
    const Mask visible = attention_mask_reference(n, n, true);
    for (Index l = 0; l < c.layers; ++l) {
        BlockCache& b = cache[size_t(l)];
        b.X = X;
        b.Y1 = layer_norm_reference(X, p[size_t(at(l, 0))], p[size_t(at(l, 1))]);
        b.Q = bias_reference(linear_forward_reference(b.Y1, p[size_t(at(l, 2))]), p[size_t(at(l, 3))]);
        b.K = bias_reference(linear_forward_reference(b.Y1, p[size_t(at(l, 4))]), p[size_t(at(l, 5))]);
        b.V = bias_reference(linear_forward_reference(b.Y1, p[size_t(at(l, 6))]), p[size_t(at(l, 7))]);
        b.Z = MatD(rows, d);
        for (Index s = 0; s < sequences; ++s) {
            std::vector<MatD> parts;
            for (Index h = 0; h < H; ++h) {
                const HeadReference head = attention_head_forward_reference(
                    split_head_reference(rows_of(b.Q, s, n), H, h), split_head_reference(rows_of(b.K, s, n), H, h),
                    split_head_reference(rows_of(b.V, s, n), H, h), visible);
                b.weights.push_back(head.weights);
                parts.push_back(head.output);
            }
            b.Z.block(s * n, 0, n, d) = concat_heads_reference(parts);
        }
        const MatD O = bias_reference(linear_forward_reference(b.Z, p[size_t(at(l, 8))]), p[size_t(at(l, 9))]);
        b.H = residual_reference(X, O);
        b.Y2 = layer_norm_reference(b.H, p[size_t(at(l, 10))], p[size_t(at(l, 11))]);
        b.U = bias_reference(linear_forward_reference(b.Y2, p[size_t(at(l, 12))]), p[size_t(at(l, 13))]);
        b.G = gelu_reference(b.U);
        const MatD M = bias_reference(linear_forward_reference(b.G, p[size_t(at(l, 14))]), p[size_t(at(l, 15))]);
        X = residual_reference(b.H, M);
        out.weights.push_back(b.weights);
    }
    const MatD Yf = layer_norm_reference(X, p[size_t(f)], p[size_t(f + 1)]);
    out.logits = bias_reference(linear_forward_reference(Yf, p[size_t(f + 2)]), p[size_t(f + 3)]);
    MatD dlogits;
    out.loss = cross_entropy_reference(out.logits, targets, grads ? &dlogits : nullptr);
    if (!grads) return out;

    // backward, in reverse
    grads->assign(p.size(), MatD());
    ParamsD& g = *grads;
    MatD dYf, dX;
    linear_backward_reference(Yf, p[size_t(f + 2)], dlogits, dYf, g[size_t(f + 2)]);
    g[size_t(f + 3)] = bias_backward_reference(dlogits);
    layer_norm_backward_reference(X, p[size_t(f)], dYf, dX, g[size_t(f)], g[size_t(f + 1)]);
    for (Index l = c.layers - 1; l >= 0; --l) {
        const BlockCache& b = cache[size_t(l)];
        // X_next = H + M: dH = dX (+ through the MLP), dM = dX
        MatD dG, dU, dY2, dH, dZ, dY1;
        linear_backward_reference(b.G, p[size_t(at(l, 14))], dX, dG, g[size_t(at(l, 14))]);
        g[size_t(at(l, 15))] = bias_backward_reference(dX);
        dU = gelu_backward_reference(b.U, dG);
        linear_backward_reference(b.Y2, p[size_t(at(l, 12))], dU, dY2, g[size_t(at(l, 12))]);
        g[size_t(at(l, 13))] = bias_backward_reference(dU);
        MatD dH2;
        layer_norm_backward_reference(b.H, p[size_t(at(l, 10))], dY2, dH2, g[size_t(at(l, 10))],
                                      g[size_t(at(l, 11))]);
        dH = dX + dH2;
        // H = X + O: dX = dH (+ through attention), dO = dH
        linear_backward_reference(b.Z, p[size_t(at(l, 8))], dH, dZ, g[size_t(at(l, 8))]);
        g[size_t(at(l, 9))] = bias_backward_reference(dH);
        MatD dQ(rows, d), dK(rows, d), dV(rows, d);
        for (Index s = 0; s < sequences; ++s)
            for (Index h = 0; h < H; ++h) {
                MatD gq, gk, gv;
                attention_head_backward_reference(
                    split_head_reference(rows_of(b.Q, s, n), H, h), split_head_reference(rows_of(b.K, s, n), H, h),
                    split_head_reference(rows_of(b.V, s, n), H, h), b.weights[size_t(s * H + h)],
                    split_head_reference(rows_of(dZ, s, n), H, h), gq, gk, gv);
                dQ.block(s * n, h * dh, n, dh) = gq;
                dK.block(s * n, h * dh, n, dh) = gk;
                dV.block(s * n, h * dh, n, dh) = gv;
            }
        MatD dYq, dYk, dYv;
        linear_backward_reference(b.Y1, p[size_t(at(l, 2))], dQ, dYq, g[size_t(at(l, 2))]);
        linear_backward_reference(b.Y1, p[size_t(at(l, 4))], dK, dYk, g[size_t(at(l, 4))]);
        linear_backward_reference(b.Y1, p[size_t(at(l, 6))], dV, dYv, g[size_t(at(l, 6))]);
        g[size_t(at(l, 3))] = bias_backward_reference(dQ);
        g[size_t(at(l, 5))] = bias_backward_reference(dK);
        g[size_t(at(l, 7))] = bias_backward_reference(dV);
        dY1 = dYq + dYk + dYv;
        MatD dX1;
        layer_norm_backward_reference(b.X, p[size_t(at(l, 0))], dY1, dX1, g[size_t(at(l, 0))], g[size_t(at(l, 1))]);
        dX = dH + dX1;
    }
    g[0] = embedding_backward_reference(dX, tokens, c.vocab);
    g[1] = MatD::Zero(n, d);
    for (Index r = 0; r < rows; ++r)
        for (Index k = 0; k < d; ++k) g[1](r % n, k) += dX(r, k);
    return out;
}

GradientCheck lm_gradient_check_reference(const LmConfig& config, const ParamsD& params, const TokenIds& tokens,
                                          const TokenIds& targets,
                                          const std::vector<std::pair<Index, Index>>& entries) {
    constexpr double h = 1e-3;
    const std::vector<std::string> names = lm_tensor_names(config.layers);
    ParamsD grads;
    lm_reference(config, params, tokens, targets, &grads);
    ParamsD p = params;
    GradientCheck check;
    auto one = [&](Index t, Index k) {
        double* x = p[size_t(t)].data() + k;
        const double saved = *x;
        double L[4];
        const double steps[4] = {h, -h, 2 * h, -2 * h};
        for (int s = 0; s < 4; ++s) {
            *x = saved + steps[s];
            L[s] = lm_reference(config, p, tokens, targets, nullptr).loss;
        }
        *x = saved;
        const double numeric = (8 * (L[0] - L[1]) - (L[2] - L[3])) / (12 * h);
        const double e = relative_error(grads[size_t(t)].data()[k], numeric);
        ++check.checked;
        if (e > check.max_relative_error || check.worst.empty()) {
            check.max_relative_error = std::max(check.max_relative_error, e);
            const Index cols = p[size_t(t)].cols();
            check.worst = names[size_t(t)] + shape(k / cols, k % cols);
        }
    };
    if (entries.empty()) {
        for (Index t = 0; t < Index(p.size()); ++t)
            for (Index k = 0; k < p[size_t(t)].size(); ++k) one(t, k);
    } else {
        for (const auto& e : entries) one(e.first, e.second);
    }
    return check;
}

}  // namespace attn::train
