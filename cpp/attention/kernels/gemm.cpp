#include "attention/kernels/gemm.hpp"

#include "attention/simd.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace attn {

namespace {

using simd::f32x4;

constexpr Index kPanel = PackedDense::kPanel;
constexpr Index kRows = 4;      // rows of X per micro-tile: 4 x 8 sums in eight registers
constexpr Index kKBlock = 256;  // the shared index per pass: a panel slice of 8 KB stays in L1

// acc[r] (two f32x4: 8 columns) += sum over t < count of A(t, r) * B(k_t, :), r < R,
// where k_t = live[t] (Listed), or t itself (every k of the pass).
//   A: (count, 4) a block of rows of X, packed k-major   B: (kc, 8) contiguous
// A's 4 entries of one k sit side by side, so the 4 splats read one address
// with small offsets, and the loop needs only 8 sums, 2 B and 1 splat in
// registers (V8 has 15 for SIMD). Two loops, not one with a choice per k: 2-5% faster.
template <int R, bool Listed>
inline void micro(Index count, const std::int32_t* live, const float* A, const float* B, f32x4 (&acc)[kRows][2]) {
    for (Index t = 0; t < count; ++t, A += kRows) {
        const float* b = B;
        if constexpr (Listed)
            b = B + Index(live[t]) * kPanel;
        else
            B += kPanel;
        const f32x4 b0 = simd::load(b), b1 = simd::load(b + 4);
        for (int r = 0; r < R; ++r) {
            const f32x4 a = simd::load_splat(A + r);
            acc[r][0] = simd::add(acc[r][0], simd::mul(a, b0));
            acc[r][1] = simd::add(acc[r][1], simd::mul(a, b1));
        }
    }
}

// One tile of R rows and the 8 columns from col: its sums start from the bias
// (first pass) or from what Y holds, take one pass of the shared index (the
// listed k only, when live is not null), and are stored back; the last pass
// applies the activation and adds R.
template <int R>
void tile(Index count, const std::int32_t* live, const float* A, const float* B, const float* bias, bool first,
          bool last, Activation act, const float* Res, Index ldr, float* Y, Index ldy, Index width) {
    f32x4 acc[kRows][2];
    float edge[kRows][kPanel];  // the last panel's columns past out: never read from or written to Y
    const bool full = width == kPanel;
    for (int r = 0; r < R; ++r) {
        if (first) {
            acc[r][0] = simd::load(bias);
            acc[r][1] = simd::load(bias + 4);
        } else if (full) {
            acc[r][0] = simd::load(Y + r * ldy);
            acc[r][1] = simd::load(Y + r * ldy + 4);
        } else {
            std::fill(edge[r], edge[r] + kPanel, 0.0f);
            std::copy(Y + r * ldy, Y + r * ldy + width, edge[r]);
            acc[r][0] = simd::load(edge[r]);
            acc[r][1] = simd::load(edge[r] + 4);
        }
    }
    if (live)
        micro<R, true>(count, live, A, B, acc);
    else
        micro<R, false>(count, live, A, B, acc);
    for (int r = 0; r < R; ++r) {
        if (last) {
            if (act == Activation::relu) {
                acc[r][0] = simd::max(acc[r][0], simd::splat(0));
                acc[r][1] = simd::max(acc[r][1], simd::splat(0));
            }
            if (Res) {
                if (full) {
                    acc[r][0] = simd::add(acc[r][0], simd::load(Res + r * ldr));
                    acc[r][1] = simd::add(acc[r][1], simd::load(Res + r * ldr + 4));
                } else {
                    float res[kPanel] = {};
                    std::copy(Res + r * ldr, Res + r * ldr + width, res);
                    acc[r][0] = simd::add(acc[r][0], simd::load(res));
                    acc[r][1] = simd::add(acc[r][1], simd::load(res + 4));
                }
            }
        }
        if (full) {
            simd::store(Y + r * ldy, acc[r][0]);
            simd::store(Y + r * ldy + 4, acc[r][1]);
        } else {
            simd::store(edge[r], acc[r][0]);
            simd::store(edge[r] + 4, acc[r][1]);
            std::copy(edge[r], edge[r] + width, Y + r * ldy);
        }
    }
}

// The first kc columns of `rows` rows of X (stride ldx), packed k-major into
// A (kc, 4), 0 for the rows past `rows`; live gets the k where one of the rows
// is not 0. Returns how many.
Index pack_block(const float* X, Index ldx, Index rows, Index kc, float* A, std::int32_t* live) {
    Index n = 0;
    for (Index k = 0; k < kc; ++k) {
        bool any = false;
        for (Index r = 0; r < kRows; ++r) {
            const float x = r < rows ? X[r * ldx + k] : 0.0f;
            A[k * kRows + r] = x;
            any |= x != 0;
        }
        live[n] = std::int32_t(k);
        n += any;
    }
    return n;
}

}  // namespace

PackedDense pack_dense(const MatRef& W, const VecRef& b) {
    require(W.rows() >= 1 && W.cols() >= 1, "weights must not be empty, got " + shape(W));
    require(b.size() == W.cols(), "bias must have " + std::to_string(W.cols()) +
                                      " entries (the output width), got " + std::to_string(b.size()));
    PackedDense p;
    p.in = W.rows();
    p.out = W.cols();
    const Index panels = p.panel_count();
    p.panels.assign(size_t(panels * p.in * kPanel), 0.0f);
    p.bias.assign(size_t(panels * kPanel), 0.0f);
    for (Index k = 0; k < p.in; ++k)
        for (Index j = 0; j < p.out; ++j) p.panels[size_t(((j / kPanel) * p.in + k) * kPanel + j % kPanel)] = W(k, j);
    for (Index j = 0; j < p.out; ++j) p.bias[size_t(j)] = b(j);
    return p;
}

void dense_packed(Index m, const float* X, Index ldx, const PackedDense& W, Activation act, const float* R,
                  Index ldr, float* Y, Index ldy) {
    const Index panels = W.panel_count(), blocks = (m + kRows - 1) / kRows;
    // one pass's blocks of rows, packed, and their live k (kept between
    // calls: no allocation once the largest m has been seen)
    static thread_local std::vector<float> packed_buf;
    static thread_local std::vector<std::int32_t> live_buf;
    static thread_local std::vector<Index> counts_buf;
    float* const packed = room(packed_buf, size_t(blocks * kKBlock * kRows));
    std::int32_t* const live = room(live_buf, size_t(blocks * kKBlock));
    Index* const counts = room(counts_buf, size_t(blocks));
    for (Index k0 = 0; k0 < W.in; k0 += kKBlock) {
        const Index kc = std::min(kKBlock, W.in - k0);
        const bool first = k0 == 0, last = k0 + kc == W.in;
        Index total = 0;
        for (Index b = 0; b < blocks; ++b) {
            counts[b] = pack_block(X + b * kRows * ldx + k0, ldx, std::min(kRows, m - b * kRows), kc,
                                   packed + b * kKBlock * kRows, live + b * kKBlock);
            total += counts[b];
        }
        // ReLU's output is mostly 0 (93% of the encoder's feed-forward
        // activations): then each block keeps only its live k (moved to the
        // front of its A) and visits those; else every k
        const bool skip = total * 4 < blocks * kc * 3;
        if (skip)
            for (Index b = 0; b < blocks; ++b) {
                float* A = packed + b * kKBlock * kRows;
                const std::int32_t* list = live + b * kKBlock;
                for (Index t = 0; t < counts[b]; ++t)  // list[t] >= t: a move forward overwrites nothing unread
                    if (list[t] != t) std::copy_n(A + list[t] * kRows, kRows, A + t * kRows);
            }
        for (Index p = 0; p < panels; ++p) {
            const Index col = p * kPanel, width = std::min(kPanel, W.out - col);
            const float* B = W.panels.data() + (p * W.in + k0) * kPanel;
            const float* bias = W.bias.data() + col;
            for (Index b = 0; b < blocks; ++b) {
                const Index i = b * kRows, count = skip ? counts[b] : kc;
                const std::int32_t* list = skip ? live + b * kKBlock : nullptr;
                const float* A = packed + b * kKBlock * kRows;
                const float* res = R ? R + i * ldr + col : nullptr;
                float* y = Y + i * ldy + col;
                switch (std::min(kRows, m - i)) {
                    case 4: tile<4>(count, list, A, B, bias, first, last, act, res, ldr, y, ldy, width); break;
                    case 3: tile<3>(count, list, A, B, bias, first, last, act, res, ldr, y, ldy, width); break;
                    case 2: tile<2>(count, list, A, B, bias, first, last, act, res, ldr, y, ldy, width); break;
                    default: tile<1>(count, list, A, B, bias, first, last, act, res, ldr, y, ldy, width); break;
                }
            }
        }
    }
}

void dense_into(const MatRef& X, const PackedDense& W, Activation act, const MatRef* residual, Eigen::Ref<Mat> Y) {
    require_nonempty(X, "input");
    if (X.cols() != W.in)  // (each message is built only when it is needed: no allocation per call)
        fail("input must have " + std::to_string(W.in) + " columns (the layer's input width), got " + shape(X));
    if (residual && (residual->rows() != X.rows() || residual->cols() != W.out))
        fail("residual must have shape " + shape(X.rows(), W.out) + ", got " + shape(*residual));
    if (Y.rows() != X.rows() || Y.cols() != W.out)
        fail("dense: the output has shape " + shape(Y) + ", expected " + shape(X.rows(), W.out));
    dense_packed(X.rows(), X.data(), X.outerStride(), W, act, residual ? residual->data() : nullptr,
                 residual ? residual->outerStride() : 0, Y.data(), Y.outerStride());
}

Mat dense(const MatRef& X, const PackedDense& W, Activation act, const Mat* residual) {
    Mat Y(X.rows(), W.out);
    if (residual) {
        const MatRef R = *residual;
        dense_into(X, W, act, &R, Y);
    } else {
        dense_into(X, W, act, nullptr, Y);
    }
    return Y;
}

}  // namespace attn
