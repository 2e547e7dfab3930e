// The fused attention kernel's building blocks (fused_attention.cpp is their one
// includer): its tile sizes, its per-thread buffers, the packed layouts the
// micro-kernels read with unit stride, the overflow bounds that choose its
// path, and the two micro-kernels (scores, weighted values) that hold 8
// accumulators in registers. Written against simd.hpp.
#pragma once

#include "attention/simd.hpp"
#include "attention/types.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

namespace attn::kernel_blocks {

using simd::f32x4;

inline constexpr Index kRows = 4;    // queries per block: one f32x4 lane each
inline constexpr Index kPanel = 8;   // keys per key panel, columns per value panel: two f32x4
inline constexpr Index kTile = 256;  // keys per tile: a block's scores fit in 4 KB
inline constexpr Index kGroup = 4;   // blocks that take a tile in turn while it is in L1
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

inline Index round_up(Index x, Index m) { return (x + m - 1) / m * m; }

// The kernel's buffers, kept per thread between calls: after the first call
// of a size, a call allocates nothing (the encoder runs 16 heads per sentence).
// Every pass writes a buffer before it reads it: no zeroing (a memset of every
// buffer was a third of a small call).
struct Scratch {
    std::vector<float> keys, values, shrink, st, q, o, zeros;
};
inline Scratch& scratch() {
    static thread_local Scratch s;
    return s;
}

// The largest |entry| of the first `rows` rows of M (finite entries, checked before).
inline float max_abs(const MatRef& M, Index rows) {
    f32x4 top4 = simd::splat(0);
    float top = 0;
    for (Index i = 0; i < rows; ++i) {
        const float* row = M.data() + i * M.outerStride();
        Index c = 0;
        for (; c + 4 <= M.cols(); c += 4) {
            const f32x4 x = simd::load(row + c);
            top4 = simd::max(top4, simd::max(x, simd::sub(simd::splat(0), x)));
        }
        for (; c < M.cols(); ++c) top = std::max(top, std::abs(row[c]));
    }
    for (int i = 0; i < 4; ++i) top = std::max(top, simd::lane(top4, i));
    return top;
}

// ---- packing: the layouts the micro-kernels read with unit stride ---------

// Four rows of d floats -> columns of 4: out[c * stride + r] = rows[r][c], 4 x 4 blocks at a time.
inline void interleave4(const float* const rows[4], Index d, float* out, Index stride) {
    Index c = 0;
    for (; c + 4 <= d; c += 4) {
        f32x4 a = simd::load(rows[0] + c), b = simd::load(rows[1] + c), e = simd::load(rows[2] + c),
              f = simd::load(rows[3] + c);
        simd::transpose(a, b, e, f);
        simd::store(out + c * stride, a);
        simd::store(out + (c + 1) * stride, b);
        simd::store(out + (c + 2) * stride, e);
        simd::store(out + (c + 3) * stride, f);
    }
    for (; c < d; ++c)
        for (int r = 0; r < 4; ++r) out[c * stride + r] = rows[r][c];
}

// Row i of M, or a row of zeros past the last.
inline const float* row_or_zeros(const MatRef& M, Index i, Index rows, const float* zeros) {
    return i < rows ? M.data() + i * M.outerStride() : zeros;
}

// K -> panels of 8 keys, key-minor: out[p][c][j] = K(8p + j, c); 0 for keys >= n_keys.
//   -> (ceil(n_keys / 8), d, 8)
inline const float* pack_keys(const MatRef& K, Index n_keys, const float* zeros, std::vector<float>& buf) {
    const Index d = K.cols();
    float* out = room(buf, size_t(round_up(n_keys, kPanel) * d));
    for (Index j = 0; j < n_keys; j += 4) {
        const float* rows[4] = {row_or_zeros(K, j, n_keys, zeros), row_or_zeros(K, j + 1, n_keys, zeros),
                                row_or_zeros(K, j + 2, n_keys, zeros), row_or_zeros(K, j + 3, n_keys, zeros)};
        interleave4(rows, d, out + (j / kPanel) * d * kPanel + j % kPanel, kPanel);
    }
    if (n_keys % kPanel && n_keys % kPanel <= 4)  // the last panel's second half: no key
        for (Index c = 0; c < d; ++c)
            std::fill_n(out + (n_keys / kPanel) * d * kPanel + c * kPanel + 4, 4, 0.0f);
    return out;
}

// The values as panels of 8 columns: panel p, key j at data + p * panel + j * stride.
// V itself when its width is a multiple of 8 and no column needs shrinking
// (no copy: at n = 16384 that is 4 MB less heap); else a packed copy,
// out[p][j][c] = V(j, 8p + c) * shrink[8p + c], 0 past the last column.
// shrink is a power of 2, 1 unless a column is so large that a sum over
// n_keys of its entries could overflow float32.
struct Values {
    const float* data;
    Index panel, stride;
    bool copied;          // data is the packed copy: (ceil(d_v / 8), n_keys, 8)
    const float* shrink;  // (d_v)
};

inline Values pack_values(const MatRef& V, Index n_keys, double v_max, Scratch& buf) {
    const Index dv = V.cols();
    float* shrink = room(buf.shrink, size_t(dv));
    std::fill_n(shrink, dv, 1.0f);
    Values out{nullptr, 0, 0, false, shrink};
    bool shrunk = false;
    const double bound = v_max * double(n_keys);
    for (Index c = 0; c < dv && bound > 1e30; ++c) {
        const double sum_bound = double(V.col(c).head(n_keys).cwiseAbs().maxCoeff()) * double(n_keys);
        if (sum_bound > 1e30) {
            shrink[c] = std::ldexp(1.0f, -(std::ilogb(sum_bound / 1e30) + 1));
            shrunk = true;
        }
    }
    if (dv % kPanel == 0 && !shrunk) {
        out.data = V.data();
        out.panel = kPanel;
        out.stride = V.outerStride();
        return out;
    }
    const Index size = round_up(dv, kPanel) * n_keys;
    float* packed = room(buf.values, size_t(size));
    std::fill_n(packed, size, 0.0f);
    for (Index j = 0; j < n_keys; ++j)
        for (Index c = 0; c < dv; ++c)
            packed[(c / kPanel) * n_keys * kPanel + j * kPanel + c % kPanel] = V(j, c) * shrink[c];
    out.data = packed;
    out.panel = n_keys * kPanel;
    out.stride = kPanel;
    out.copied = true;
    return out;
}

// Four queries from row i0, query-minor: out[c][r] = Q(i0 + r, c); rows past
// the last query are 0.   -> (d, 4)
// (Unscaled: the scale multiplies each finished dot product, as attention()
// does. Folded into the queries it would round every product at the scaled
// size, and a cancellation between products, -5 + 4.75, would then break a
// tie that attention() keeps exact.)
inline void pack_queries(const MatRef& Q, Index i0, float* out, const float* zeros) {
    const Index n = Q.rows();
    const float* rows[4] = {row_or_zeros(Q, i0, n, zeros), row_or_zeros(Q, i0 + 1, n, zeros),
                            row_or_zeros(Q, i0 + 2, n, zeros), row_or_zeros(Q, i0 + 3, n, zeros)};
    interleave4(rows, Q.cols(), out, kRows);
}

// Whether no score, nor any partial sum of one, can overflow:
// |q.k| <= d max|q| max|k|, with a margin for rounding. When this fails the
// kernel checks every score it forms.
inline bool scores_surely_finite(double q_max, double k_max, Index d, double scale) {
    return double(d) * q_max * k_max * std::max(scale, 1.0) < 1e37;
}

// Whether every score (scale included, in log2 units) is narrow: |score| <=
// s = d max|q| scale max|k| < 60, with room for rounding. Then 2^score lies in
// [2^-60, 2^60] and a sum of them is far from overflow: the softmax needs no
// shift by the row's largest (its only use; the ratios 2^s / sum 2^s round
// the same in float32 at any scale), so the kernel forms 2^score as it forms
// the score. The values' weighted sums must stay far from overflow too:
// 2^s n_keys max|v| < 1e30 (as the shifted softmax's weights, at most 1, keep
// them under n_keys max|v|).
inline bool scores_narrow(double q_max, double k_max, double v_max, Index d, Index n_keys, double scale) {
    const double s = double(d) * q_max * scale * k_max;
    return s < 60 && std::exp2(s) * double(n_keys) * v_max < 1e30;
}

// e^(s - shift) = 2^((s - shift) log2 e) for s <= shift: the kernel's exponential.
inline f32x4 exp_shifted(f32x4 s, f32x4 shift) {
    return simd::exp2_nonpositive(simd::mul(simd::sub(s, shift), simd::splat(kLog2e)));
}

// e^(s - shift) for a row of n scores (n a multiple of 4), in place, -inf giving 0; returns their sum.
inline float exp_row(float* s, Index n, f32x4 shift) {
    f32x4 sum = simd::splat(0);
    for (Index j = 0; j < n; j += 4) {
        const f32x4 p = exp_shifted(simd::load(s + j), shift);
        sum = simd::add(sum, p);
        simd::store(s + j, p);
    }
    return simd::sum_lanes(sum);
}

// ---- micro-kernels: 8 accumulators in registers ---------------------------

// Scores of 4 queries against 8 keys, s[r][j] = scale * sum_c q[c][r] k[c][j]
// (the dot product first, then the scale: the same float32 operations as
// attention()'s QK^T * scale), stored query-major at st[r * kTile + j] (no
// transpose: the registers hold a query's keys side by side). As they are,
// each query's largest raised in acc[r]; or, with exps (narrow scores), as
// e^s = 2^(s log2 e), each query's sum of them added to acc[r].
//   q: (d, 4) packed queries   k: (d, 8) one key panel   st: 4 rows of kTile, from the panel's first key
template <bool exps>
inline void micro_scores(const float* q, const float* k, Index d, f32x4 scale, float* st, f32x4 acc[4]) {
    f32x4 c00 = simd::splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
    for (Index c = 0; c < d; ++c, q += kRows, k += kPanel) {
        const f32x4 k0 = simd::load(k), k1 = simd::load(k + 4);
        f32x4 x = simd::load_splat(q);
        c00 = simd::add(c00, simd::mul(x, k0));
        c01 = simd::add(c01, simd::mul(x, k1));
        x = simd::load_splat(q + 1);
        c10 = simd::add(c10, simd::mul(x, k0));
        c11 = simd::add(c11, simd::mul(x, k1));
        x = simd::load_splat(q + 2);
        c20 = simd::add(c20, simd::mul(x, k0));
        c21 = simd::add(c21, simd::mul(x, k1));
        x = simd::load_splat(q + 3);
        c30 = simd::add(c30, simd::mul(x, k0));
        c31 = simd::add(c31, simd::mul(x, k1));
    }
    const f32x4 rows[kRows][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
    for (Index r = 0; r < kRows; ++r) {
        f32x4 lo = simd::mul(rows[r][0], scale), hi = simd::mul(rows[r][1], scale);
        if (exps) {
            lo = simd::exp2_in_range(simd::mul(lo, simd::splat(kLog2e)));
            hi = simd::exp2_in_range(simd::mul(hi, simd::splat(kLog2e)));
            acc[r] = simd::add(acc[r], simd::add(lo, hi));
        } else {
            acc[r] = simd::max(acc[r], simd::max(lo, hi));
        }
        simd::store(st + r * kTile, lo);
        simd::store(st + r * kTile + 4, hi);
    }
}

// o[r][c] = o[r][c] * alpha[r] + sum_j p[r][j] v[j][c], for 4 queries and 8 columns.
//   p: 4 rows of kTile probabilities   v: (n, 8) one value panel, rows stride apart   o: (4, 8)   alpha: 4 splats
inline void micro_values(const float* p, const float* v, Index stride, Index n, float* o, const f32x4* alpha) {
    f32x4 c00 = simd::load(o), c01 = simd::load(o + 4), c10 = simd::load(o + 8), c11 = simd::load(o + 12),
          c20 = simd::load(o + 16), c21 = simd::load(o + 20), c30 = simd::load(o + 24), c31 = simd::load(o + 28);
    if (alpha) {
        c00 = simd::mul(c00, alpha[0]);
        c01 = simd::mul(c01, alpha[0]);
        c10 = simd::mul(c10, alpha[1]);
        c11 = simd::mul(c11, alpha[1]);
        c20 = simd::mul(c20, alpha[2]);
        c21 = simd::mul(c21, alpha[2]);
        c30 = simd::mul(c30, alpha[3]);
        c31 = simd::mul(c31, alpha[3]);
    }
    for (Index j = 0; j < n; ++j, ++p, v += stride) {
        const f32x4 v0 = simd::load(v), v1 = simd::load(v + 4);
        f32x4 x = simd::load_splat(p);
        c00 = simd::add(c00, simd::mul(x, v0));
        c01 = simd::add(c01, simd::mul(x, v1));
        x = simd::load_splat(p + kTile);
        c10 = simd::add(c10, simd::mul(x, v0));
        c11 = simd::add(c11, simd::mul(x, v1));
        x = simd::load_splat(p + 2 * kTile);
        c20 = simd::add(c20, simd::mul(x, v0));
        c21 = simd::add(c21, simd::mul(x, v1));
        x = simd::load_splat(p + 3 * kTile);
        c30 = simd::add(c30, simd::mul(x, v0));
        c31 = simd::add(c31, simd::mul(x, v1));
    }
    const f32x4 out[8] = {c00, c01, c10, c11, c20, c21, c30, c31};
    for (int i = 0; i < 8; ++i) simd::store(o + 4 * i, out[i]);
}

}  // namespace attn::kernel_blocks
