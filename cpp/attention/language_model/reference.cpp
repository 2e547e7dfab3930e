#include "attention/language_model/reference.hpp"

#include "attention/mechanism/alibi.hpp"
#include "attention/options.hpp"

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

LmPosition lm_position(const std::string& name) {
    for (LmPosition p : {LmPosition::learned, LmPosition::sinusoidal, LmPosition::rotary, LmPosition::alibi,
                         LmPosition::none})
        if (name == lm_position_name(p)) return p;
    fail_argument("position", "position must be \"learned\", \"sinusoidal\", \"rotary\", \"alibi\" or \"none\", got \"" +
                                  name + "\"");
}

const char* lm_position_name(LmPosition position) {
    switch (position) {
        case LmPosition::learned: return "learned";
        case LmPosition::sinusoidal: return "sinusoidal";
        case LmPosition::rotary: return "rotary";
        case LmPosition::alibi: return "alibi";
        default: return "none";
    }
}

std::vector<std::string> lm_tensor_names(Index layers) {
    static const char* const kBlock[kBlockTensors] = {"ln1.gain", "ln1.bias", "Wq", "bq", "Wk", "bk", "Wv", "bv",
                                                      "Wo", "bo", "ln2.gain", "ln2.bias", "W1", "b1", "W2", "b2"};
    static const char* const kFinal[kFinalTensors] = {"lnf.gain", "lnf.bias", "Wout", "bout"};
    std::vector<std::string> names = {"embedding", "positions"};
    for (Index l = 0; l < layers; ++l)
        for (const char* name : kBlock) names.push_back("layer" + std::to_string(l + 1) + "." + name);
    for (const char* name : kFinal) names.push_back(name);
    return names;
}

TensorShape lm_tensor_shape(const LmConfig& c, Index tensor) {
    const Index d = c.d_model;
    if (tensor == kEmbedding) return {c.vocab, d};
    if (tensor == kPositions) return {c.position == LmPosition::learned ? c.context : 0, d};
    const Index final = tensor - lm_final_tensor(c.layers, kLnfGain);
    if (final >= 0) return final == kWout ? TensorShape{d, c.vocab} : TensorShape{1, final == kBout ? c.vocab : d};
    switch (LmBlockTensor((tensor - 2) % kBlockTensors)) {
        case kWq: case kWo: return {d, d};
        case kWk: case kWv: return {d, c.kv_width()};
        case kBk: case kBv: return {1, c.kv_width()};
        case kW1: return {d, 4 * d};
        case kB1: return {1, 4 * d};
        case kW2: return {4 * d, d};
        default: return {1, d};
    }
}

namespace {
MatD rows_of(const MatD& M, Index b, Index n) { return M.block(b * n, 0, n, M.cols()); }

// What the blocks share: the mask, each head's score bias (ALiBi's), and the
// turns of rotary positions, for sequences of n rows.
struct Positions {
    Mask visible;            // (n, n) causal, then the window and the sinks
    std::vector<MatD> bias;  // [head] (n, n) -m_h (i - j), or empty
    Positions(const LmConfig& c, Index n) : visible(n, n) {
        for (Index i = 0; i < n; ++i)
            for (Index j = 0; j < n; ++j)
                visible(i, j) = j <= i && (c.window == 0 || i - j < c.window || j < c.sinks);
        if (c.position != LmPosition::alibi) return;
        const Vec slopes = alibi_slopes(c.heads);
        for (Index h = 0; h < c.heads; ++h) {
            MatD b(n, n);
            for (Index i = 0; i < n; ++i)
                for (Index j = 0; j < n; ++j) b(i, j) = -double(slopes[h]) * double(i - j);
            bias.push_back(b);
        }
    }
    const MatD* bias_of(Index h) const { return bias.empty() ? nullptr : &bias[size_t(h)]; }
};

// Rotary positions on the heads of M (rows = sequences * n, heads of width dh side
// by side): the pair (2i, 2i + 1) of each head of row r turned by
// sign (r mod n) base^(-2i/dh). sign -1 is its backward (a turn's transpose).
MatD rotary_heads_reference(const MatD& M, Index n, Index dh, double sign) {
    MatD out = M;
    for (Index r = 0; r < M.rows(); ++r)
        for (Index h = 0; h < M.cols() / dh; ++h)
            for (Index i = 0; i < dh / 2; ++i) {
                const double theta = sign * double(r % n) * std::pow(kRotaryBase, -2.0 * double(i) / double(dh));
                const Index a = h * dh + 2 * i;
                const double x = M(r, a), y = M(r, a + 1);
                out(r, a) = x * std::cos(theta) - y * std::sin(theta);
                out(r, a + 1) = x * std::sin(theta) + y * std::cos(theta);
            }
    return out;
}

// PE(p, 2i) = sin(p / base^(2i/d)), PE(p, 2i + 1) = cos(the same), p < n  -> (n, d)
MatD sinusoidal_reference(Index n, Index d) {
    MatD P(n, d);
    for (Index p = 0; p < n; ++p)
        for (Index c = 0; c < d; ++c) {
            const double angle = double(p) / std::pow(10000.0, double(c - c % 2) / double(d));
            P(p, c) = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }
    return P;
}

struct BlockCache {
    MatD X, Y1, Q, K, V, Z, H, Y2, U, G;  // Q and K after their rotary turns
    std::vector<MatD> weights;  // sequence * heads + head
};

// The tensors of block l, by name: W[kWq], and their gradients: W.grad(g, kWq)
struct BlockTensors {
    const ParamsD& p;
    Index l;
    const MatD& operator[](LmBlockTensor which) const { return p[size_t(lm_tensor(l, which))]; }
    MatD& grad(ParamsD& g, LmBlockTensor which) const { return g[size_t(lm_tensor(l, which))]; }
};

// One block: X (rows, d) -> H = X + attention(ln1(X)), then H + MLP(ln2(H));
// what backward needs is kept in b. Query head h reads key/value head h kv / heads.
MatD block_forward_reference(const LmConfig& c, const BlockTensors& W, const MatD& X, const Positions& at, Index n,
                             BlockCache& b) {
    const Index d = c.d_model, H = c.heads, kv = c.kv(), dh = d / H, rows = X.rows(), sequences = rows / n;
    b.X = X;
    b.Y1 = layer_norm_reference(X, W[kLn1Gain], W[kLn1Bias]);
    b.Q = bias_reference(linear_forward_reference(b.Y1, W[kWq]), W[kBq]);
    b.K = bias_reference(linear_forward_reference(b.Y1, W[kWk]), W[kBk]);
    b.V = bias_reference(linear_forward_reference(b.Y1, W[kWv]), W[kBv]);
    if (c.position == LmPosition::rotary) {
        b.Q = rotary_heads_reference(b.Q, n, dh, 1);
        b.K = rotary_heads_reference(b.K, n, dh, 1);
    }
    b.Z = MatD(rows, d);
    for (Index s = 0; s < sequences; ++s) {
        std::vector<MatD> parts;
        for (Index h = 0; h < H; ++h) {
            const Index g = h * kv / H;
            const HeadReference head = attention_head_forward_reference(
                split_head_reference(rows_of(b.Q, s, n), H, h), split_head_reference(rows_of(b.K, s, n), kv, g),
                split_head_reference(rows_of(b.V, s, n), kv, g), at.visible, at.bias_of(h));
            b.weights.push_back(head.weights);
            parts.push_back(head.output);
        }
        b.Z.block(s * n, 0, n, d) = concat_heads_reference(parts);
    }
    const MatD O = bias_reference(linear_forward_reference(b.Z, W[kWo]), W[kBo]);
    b.H = residual_reference(X, O);
    b.Y2 = layer_norm_reference(b.H, W[kLn2Gain], W[kLn2Bias]);
    b.U = bias_reference(linear_forward_reference(b.Y2, W[kW1]), W[kB1]);
    b.G = gelu_reference(b.U);
    const MatD M = bias_reference(linear_forward_reference(b.G, W[kW2]), W[kB2]);
    return residual_reference(b.H, M);
}

// Its backward: dX of the block's output -> dX of its input; the block's
// gradients into g.
MatD block_backward_reference(const LmConfig& c, const BlockTensors& W, const BlockCache& b, Index n, const MatD& dX,
                              ParamsD& g) {
    const Index d = c.d_model, H = c.heads, kv = c.kv(), dh = d / H, rows = dX.rows(), sequences = rows / n;
    // X_next = H + M: dH = dX (+ through the MLP), dM = dX
    MatD dG, dU, dY2, dH2, dZ, dY1;
    linear_backward_reference(b.G, W[kW2], dX, dG, W.grad(g, kW2));
    W.grad(g, kB2) = bias_backward_reference(dX);
    dU = gelu_backward_reference(b.U, dG);
    linear_backward_reference(b.Y2, W[kW1], dU, dY2, W.grad(g, kW1));
    W.grad(g, kB1) = bias_backward_reference(dU);
    layer_norm_backward_reference(b.H, W[kLn2Gain], dY2, dH2, W.grad(g, kLn2Gain), W.grad(g, kLn2Bias));
    const MatD dH = dX + dH2;
    // H = X + O: dX = dH (+ through attention), dO = dH
    linear_backward_reference(b.Z, W[kWo], dH, dZ, W.grad(g, kWo));
    W.grad(g, kBo) = bias_backward_reference(dH);
    // a shared key/value head gathers the gradients of every query head reading it
    MatD dQ(rows, d), dK = MatD::Zero(rows, kv * dh), dV = MatD::Zero(rows, kv * dh);
    for (Index s = 0; s < sequences; ++s)
        for (Index h = 0; h < H; ++h) {
            const Index k = h * kv / H;
            MatD gq, gk, gv;
            attention_head_backward_reference(
                split_head_reference(rows_of(b.Q, s, n), H, h), split_head_reference(rows_of(b.K, s, n), kv, k),
                split_head_reference(rows_of(b.V, s, n), kv, k), b.weights[size_t(s * H + h)],
                split_head_reference(rows_of(dZ, s, n), H, h), gq, gk, gv);
            dQ.block(s * n, h * dh, n, dh) = gq;
            dK.block(s * n, k * dh, n, dh) += gk;
            dV.block(s * n, k * dh, n, dh) += gv;
        }
    if (c.position == LmPosition::rotary) {  // back through the turns
        dQ = rotary_heads_reference(dQ, n, dh, -1);
        dK = rotary_heads_reference(dK, n, dh, -1);
    }
    MatD dYq, dYk, dYv;
    linear_backward_reference(b.Y1, W[kWq], dQ, dYq, W.grad(g, kWq));
    linear_backward_reference(b.Y1, W[kWk], dK, dYk, W.grad(g, kWk));
    linear_backward_reference(b.Y1, W[kWv], dV, dYv, W.grad(g, kWv));
    W.grad(g, kBq) = bias_backward_reference(dQ);
    W.grad(g, kBk) = bias_backward_reference(dK);
    W.grad(g, kBv) = bias_backward_reference(dV);
    dY1 = dYq + dYk + dYv;
    MatD dX1;
    layer_norm_backward_reference(b.X, W[kLn1Gain], dY1, dX1, W.grad(g, kLn1Gain), W.grad(g, kLn1Bias));
    return dH + dX1;
}
}  // namespace

LmReference lm_reference(const LmConfig& c, const ParamsD& p, const TokenIds& tokens, const TokenIds& targets,
                         ParamsD* grads) {
    const Index n = c.context, d = c.d_model, rows = Index(tokens.size());
    auto last = [&](LmFinalTensor which) { return size_t(lm_final_tensor(c.layers, which)); };
    LmReference out;
    // X = E[token] (+ P[position] for learned or sinusoidal positions)
    const MatD P = c.position == LmPosition::learned      ? p[kPositions]
                   : c.position == LmPosition::sinusoidal ? sinusoidal_reference(n, d)
                                                          : MatD::Zero(n, d);
    MatD X = embedding_forward_reference(p[kEmbedding], P, tokens);
    std::vector<BlockCache> cache(size_t(c.layers));
    const Positions at(c, n);
    for (Index l = 0; l < c.layers; ++l) {
        X = block_forward_reference(c, BlockTensors{p, l}, X, at, n, cache[size_t(l)]);
        out.weights.push_back(cache[size_t(l)].weights);
    }
    const MatD Yf = layer_norm_reference(X, p[last(kLnfGain)], p[last(kLnfBias)]);
    out.logits = bias_reference(linear_forward_reference(Yf, p[last(kWout)]), p[last(kBout)]);
    MatD dlogits;
    out.loss = cross_entropy_reference(out.logits, targets, grads ? &dlogits : nullptr);
    if (!grads) return out;

    // backward, in reverse
    grads->assign(p.size(), MatD());
    ParamsD& g = *grads;
    MatD dYf, dX;
    linear_backward_reference(Yf, p[last(kWout)], dlogits, dYf, g[last(kWout)]);
    g[last(kBout)] = bias_backward_reference(dlogits);
    layer_norm_backward_reference(X, p[last(kLnfGain)], dYf, dX, g[last(kLnfGain)], g[last(kLnfBias)]);
    for (Index l = c.layers - 1; l >= 0; --l)
        dX = block_backward_reference(c, BlockTensors{p, l}, cache[size_t(l)], n, dX, g);
    g[kEmbedding] = embedding_backward_reference(dX, tokens, c.vocab);
    g[kPositions] = MatD::Zero(p[kPositions].rows(), d);
    if (c.position == LmPosition::learned)
        for (Index r = 0; r < rows; ++r)
            for (Index k = 0; k < d; ++k) g[kPositions](r % n, k) += dX(r, k);
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
        const Index cols = p[size_t(t)].cols();
        check.add(names[size_t(t)], relative_error(grads[size_t(t)].data()[k], numeric),
                  names[size_t(t)] + shape(k / cols, k % cols));
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
