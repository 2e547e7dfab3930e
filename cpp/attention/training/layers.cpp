#include "attention/training/layers.hpp"

#include "attention/simd.hpp"
#include "attention/training/products.hpp"

#include <cmath>
#include <limits>

namespace attn::train {

void Embedding::forward(Index rows, const std::int32_t* tokens, const float* E, const float* PE, float* X) const {
    for (Index r = 0; r < rows; ++r) {
        const float* e = E + Index(tokens[r]) * d_model;
        float* x = X + r * d_model;
        if (!PE) {
            for (Index c = 0; c < d_model; ++c) x[c] = e[c];
            continue;
        }
        const float* pe = PE + (r % length) * d_model;
        for (Index c = 0; c < d_model; ++c) x[c] = e[c] + pe[c];
    }
}

void Embedding::backward(Index rows, const std::int32_t* tokens, const float* dX, float* dE) const {
    for (Index r = 0; r < rows; ++r) add_to(dE + Index(tokens[r]) * d_model, dX + r * d_model, d_model);
}

void Embedding::backward_positions(Index rows, const float* dX, float* dPE) const {
    for (Index r = 0; r < rows; ++r) add_to(dPE + (r % length) * d_model, dX + r * d_model, d_model);
}

void Bias::forward(Index rows, const float* b, float* Y) const {
    for (Index r = 0; r < rows; ++r) add_to(Y + r * cols, b, cols);
}

void Bias::backward(Index rows, const float* dY, float* db) const {
    for (Index r = 0; r < rows; ++r) add_to(db, dY + r * cols, cols);
}

void Residual::forward(Index count, const float* X, const float* F, float* Y) {
    for (Index i = 0; i < count; ++i) Y[i] = X[i] + F[i];
}

void Residual::backward(Index count, const float* dY, float* dX) { add_to(dX, dY, count); }

void LayerNorm::forward(Index rows, const float* X, const float* gain, const float* bias, float* Y, float* mean,
                        float* rstd) const {
    const float inv_d = float(1.0 / double(d));
    for (Index r = 0; r < rows; ++r) {
        const float* x = X + r * d;
        float* y = Y + r * d;
        float sum = 0;
        for (Index c = 0; c < d; ++c) sum += x[c];
        const float mu = sum * inv_d;
        float squares = 0;
        for (Index c = 0; c < d; ++c) squares += (x[c] - mu) * (x[c] - mu);
        const float s = 1.0f / std::sqrt(squares * inv_d + epsilon);
        for (Index c = 0; c < d; ++c) y[c] = (x[c] - mu) * s * gain[c] + bias[c];
        mean[r] = mu;
        rstd[r] = s;
    }
}

void LayerNorm::backward(Index rows, const float* X, const float* gain, const float* mean, const float* rstd,
                         const float* dY, float* dgain, float* dbias, float* dX) const {
    const float inv_d = float(1.0 / double(d));
    for (Index r = 0; r < rows; ++r) {
        const float* x = X + r * d;
        const float* dy = dY + r * d;
        float* dx = dX + r * d;
        const float mu = mean[r], s = rstd[r];
        float sum_g = 0, sum_gx = 0;
        for (Index c = 0; c < d; ++c) {
            const float xhat = (x[c] - mu) * s, g = dy[c] * gain[c];
            dgain[c] += dy[c] * xhat;
            dbias[c] += dy[c];
            sum_g += g;
            sum_gx += g * xhat;
        }
        const float mean_g = sum_g * inv_d, mean_gx = sum_gx * inv_d;
        for (Index c = 0; c < d; ++c) {
            const float xhat = (x[c] - mu) * s;
            dx[c] += s * (dy[c] * gain[c] - mean_g - xhat * mean_gx);
        }
    }
}

namespace {
constexpr float kGeluC = 0.797884560802865355f;  // sqrt(2 / pi)
constexpr float kGeluA = 0.044715f;
// tanh of 4 lanes: t = (1 - e) / (1 + e), e = exp(-2 |z|) = 2^(-2 |z| log2 e), with z's sign
inline simd::f32x4 tanh4(simd::f32x4 z) {
    const simd::f32x4 zero = simd::splat(0.0f), one = simd::splat(1.0f);
    const simd::f32x4 a = simd::max(z, simd::sub(zero, z));  // |z|
    const simd::f32x4 e = simd::exp2_nonpositive(simd::mul(a, simd::splat(-2.88539008177792681f)));
    const simd::f32x4 t = simd::div(simd::sub(one, e), simd::add(one, e));
    return simd::select_lt(z, zero, simd::sub(zero, t), t);
}
}  // namespace

void Gelu::forward(Index count, const float* U, float* T, float* G) {
    const simd::f32x4 c = simd::splat(kGeluC), a = simd::splat(kGeluA), half = simd::splat(0.5f),
                      one = simd::splat(1.0f);
    Index i = 0;
    auto four = [&](const float* u4, float* t4, float* g4) {
        const simd::f32x4 u = simd::load(u4);
        const simd::f32x4 t = tanh4(simd::mul(c, simd::add(u, simd::mul(a, simd::mul(u, simd::mul(u, u))))));
        simd::store(t4, t);
        simd::store(g4, simd::mul(simd::mul(half, u), simd::add(one, t)));
    };
    for (; i + 4 <= count; i += 4) four(U + i, T + i, G + i);
    if (i < count) {
        float u[4] = {0, 0, 0, 0}, t[4], g[4];
        for (Index k = i; k < count; ++k) u[k - i] = U[k];
        four(u, t, g);
        for (Index k = i; k < count; ++k) T[k] = t[k - i], G[k] = g[k - i];
    }
}

void Gelu::backward(Index count, const float* U, const float* T, const float* dG, float* dU) {
    for (Index i = 0; i < count; ++i) {
        const float u = U[i], t = T[i];
        const float slope = 0.5f * (1.0f + t) + 0.5f * u * (1.0f - t * t) * kGeluC * (1.0f + 3.0f * kGeluA * u * u);
        dU[i] = dG[i] * slope;
    }
}

void Linear::forward(Index rows, const float* X, const float* W, float* Y) const {
    zero(Y, rows * out);
    matmul_acc(rows, out, in, X, in, W, out, Y, out);
}

void Linear::backward(Index rows, const float* X, const float* W, const float* dY, float* dW, float* dX) const {
    matmul_tn_acc(in, out, rows, X, in, dY, out, dW, out);
    if (dX) matmul_nt_acc(rows, in, out, dY, out, W, out, dX, in);
}

void MultiHeadAttention::forward(Index sequences, const Index* valid, const float* Q, const float* K, const float* V,
                                 float* A, float* Z) const {
    const Index n = length, d = d_model, dh = d_head(), dk = kv_width();
    const float scale = float(1.0 / std::sqrt(double(dh)));
    const float kNegInf = -std::numeric_limits<float>::infinity();
    zero(Z, sequences * n * d);
    for (Index b = 0; b < sequences; ++b) {
        const Index keys = valid ? valid[b] : n;
        for (Index h = 0; h < heads; ++h) {
            const Index at = b * n * d + h * dh;                  // (row 0 of sequence b, column 0 of head h)
            const Index kv_at = b * n * dk + (h * kv() / heads) * dh;  // the same of its key/value head
            float* S = A + (b * heads + h) * n * n;  // (n, n): scores, then weights in place
            // 1. scores Q_h K_g^T, scaled
            zero(S, n * n);
            matmul_nt_acc(n, n, dh, Q + at, d, K + kv_at, dk, S, n);
            // 2. the linear bias, the mask, then softmax row by row
            for (Index i = 0; i < n; ++i) {
                float* s = S + i * n;
                for (Index j = 0; j < n; ++j) {
                    const bool seen = j < keys && visible(i, j);
                    s[j] = !seen ? kNegInf : slopes ? s[j] * scale - slopes[h] * float(i - j) : s[j] * scale;
                }
                softmax_row(s, n);
            }
            // 3. Z_h = A_h V_g
            matmul_acc(n, dh, n, S, n, V + kv_at, dk, Z + at, d);
        }
    }
}

void MultiHeadAttention::backward(Index sequences, const float* Q, const float* K, const float* V, const float* A,
                                  const float* dZ, float* dQ, float* dK, float* dV, float* scratch) const {
    const Index n = length, d = d_model, dh = d_head(), dk = kv_width();
    const float scale = float(1.0 / std::sqrt(double(dh)));
    zero(dQ, sequences * n * d);
    zero(dK, sequences * n * dk);
    zero(dV, sequences * n * dk);
    for (Index b = 0; b < sequences; ++b)
        for (Index h = 0; h < heads; ++h) {
            const Index at = b * n * d + h * dh;
            const Index kv_at = b * n * dk + (h * kv() / heads) * dh;
            const float* W = A + (b * heads + h) * n * n;  // (n, n) the weights
            float* dS = scratch;                             // (n, n) dA, then dS in place
            // 1. dA = dZ_h V_g^T;  dV_g += A^T dZ_h (a shared head gathers every query head's)
            zero(dS, n * n);
            matmul_nt_acc(n, n, dh, dZ + at, d, V + kv_at, dk, dS, n);
            matmul_tn_acc(n, dh, n, W, n, dZ + at, d, dV + kv_at, dk);
            // 2. through softmax: dS_ij = A_ij (dA_ij - sum_k dA_ik A_ik), then the scale.
            //    A masked entry has A_ij = 0, so its gradient is exactly 0; the bias is constant.
            for (Index i = 0; i < n; ++i) {
                const float* w = W + i * n;
                float* g = dS + i * n;
                float c = 0;
                for (Index j = 0; j < n; ++j) c += g[j] * w[j];
                for (Index j = 0; j < n; ++j) g[j] = w[j] * (g[j] - c) * scale;
            }
            // 3. dQ_h += dS K_g;  dK_g += dS^T Q_h
            matmul_acc(n, dh, n, dS, n, K + kv_at, dk, dQ + at, d);
            matmul_tn_acc(n, dh, n, dS, n, Q + at, d, dK + kv_at, dk);
        }
}

namespace {
// the pairs of every head of row x turned by the angles whose cos and sin are c and s (d_head / 2 each);
// sign -1 turns them back
void turn_row(float* x, Index cols, Index dh, const float* c, const float* s, float sign) {
    for (Index h = 0; h < cols; h += dh)
        for (Index i = 0; i < dh / 2; ++i) {
            const float a = x[h + 2 * i], b = x[h + 2 * i + 1], sn = sign * s[i];
            x[h + 2 * i] = a * c[i] - b * sn;
            x[h + 2 * i + 1] = a * sn + b * c[i];
        }
}
}  // namespace

void rotary_turn(float* x, Index cols, Index d_head, const float* cos, const float* sin) {
    turn_row(x, cols, d_head, cos, sin, 1.0f);
}

void Rotary::forward(Index rows, float* X) const {
    const Index half = d_head / 2;
    for (Index r = 0; r < rows; ++r)
        turn_row(X + r * cols, cols, d_head, cos + (r % length) * half, sin + (r % length) * half, 1.0f);
}

void Rotary::backward(Index rows, float* dX) const {
    const Index half = d_head / 2;
    for (Index r = 0; r < rows; ++r)
        turn_row(dX + r * cols, cols, d_head, cos + (r % length) * half, sin + (r % length) * half, -1.0f);
}

void rotary_angles_row(Index position, Index d_head, double base, float* cos, float* sin) {
    for (Index i = 0; i < d_head / 2; ++i) {
        const double theta = double(position) * std::pow(base, -2.0 * double(i) / double(d_head));
        cos[i] = float(std::cos(theta));
        sin[i] = float(std::sin(theta));
    }
}

void rotary_tables(Index positions, Index d_head, double base, float* cos, float* sin) {
    const Index half = d_head / 2;
    for (Index p = 0; p < positions; ++p) rotary_angles_row(p, d_head, base, cos + p * half, sin + p * half);
}

double SoftmaxCrossEntropy::forward_backward(Index rows, const float* logits, const std::int32_t* targets,
                                             float* dlogits) const {
    Index counted = 0;
    for (Index r = 0; r < rows; ++r) counted += targets[r] >= 0;
    const double total = forward_backward_sum(rows, logits, targets, dlogits, double(counted));
    return counted ? total / double(counted) : 0.0;
}

double SoftmaxCrossEntropy::forward_backward_sum(Index rows, const float* logits, const std::int32_t* targets,
                                                 float* dlogits, double normaliser) const {
    double total = 0;
    const float inv = normaliser > 0 ? float(1.0 / normaliser) : 0.0f;
    for (Index r = 0; r < rows; ++r) {
        const float* x = logits + r * classes;
        float* g = dlogits + r * classes;
        const std::int32_t t = targets[r];
        if (t < 0) {
            zero(g, classes);
            continue;
        }
        float top = x[0];
        for (Index c = 1; c < classes; ++c) top = x[c] > top ? x[c] : top;
        for (Index c = 0; c < classes; ++c) g[c] = x[c];
        const float sum = softmax_row(g, classes);  // g = softmax(x)
        // -log softmax(x)_t = log(sum exp(x - max)) - (x_t - max)
        total += log_det(double(sum)) - double(x[t] - top);
        g[t] -= 1;
        for (Index c = 0; c < classes; ++c) g[c] *= inv;
    }
    return total;
}

void argmax_rows(Index rows, Index classes, const float* logits, std::int32_t* out) {
    for (Index r = 0; r < rows; ++r) {
        const float* x = logits + r * classes;
        Index best = 0;
        for (Index c = 1; c < classes; ++c)
            if (x[c] > x[best]) best = c;
        out[r] = std::int32_t(best);
    }
}

}  // namespace attn::train
