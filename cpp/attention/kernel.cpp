#include "attention/kernel.hpp"

#include "attention/simd.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

namespace attn {

namespace {

using simd::f32x4;

constexpr Index kRows = 4;    // queries per block: one f32x4 lane each
constexpr Index kPanel = 8;   // keys per key panel, columns per value panel: two f32x4
constexpr Index kTile = 256;  // keys per tile: a block's scores fit in 4 KB
constexpr Index kGroup = 4;   // blocks that take a tile in turn while it is in L1
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

Index round_up(Index x, Index m) { return (x + m - 1) / m * m; }

// The kernel's buffers, kept per thread between calls: after the first call
// of a size, a call allocates nothing (the encoder runs 16 heads per sentence).
// Every pass writes a buffer before it reads it: no zeroing (a memset of every
// buffer was a third of a small call).
struct Scratch {
    std::vector<float> keys, values, shrink, st, q, o, zeros;
};
Scratch& scratch() {
    static thread_local Scratch s;
    return s;
}

// The largest |entry| of the first `rows` rows of M (finite entries, checked before).
float max_abs(const MatRef& M, Index rows) {
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

// Four rows of d floats -> columns of 4, scaled: out[c * stride + r] = rows[r][c] * scale,
// 4 x 4 blocks at a time.
void interleave4(const float* const rows[4], Index d, float scale, float* out, Index stride) {
    const f32x4 s = simd::splat(scale);
    Index c = 0;
    for (; c + 4 <= d; c += 4) {
        f32x4 a = simd::mul(simd::load(rows[0] + c), s), b = simd::mul(simd::load(rows[1] + c), s),
              e = simd::mul(simd::load(rows[2] + c), s), f = simd::mul(simd::load(rows[3] + c), s);
        simd::transpose(a, b, e, f);
        simd::store(out + c * stride, a);
        simd::store(out + (c + 1) * stride, b);
        simd::store(out + (c + 2) * stride, e);
        simd::store(out + (c + 3) * stride, f);
    }
    for (; c < d; ++c)
        for (int r = 0; r < 4; ++r) out[c * stride + r] = rows[r][c] * scale;
}

// Row i of M, or a row of zeros past the last.
const float* row_or_zeros(const MatRef& M, Index i, Index rows, const float* zeros) {
    return i < rows ? M.data() + i * M.outerStride() : zeros;
}

// K -> panels of 8 keys, key-minor: out[p][c][j] = K(8p + j, c); 0 for keys >= n_keys.
//   -> (ceil(n_keys / 8), d, 8)
const float* pack_keys(const MatRef& K, Index n_keys, const float* zeros, std::vector<float>& buf) {
    const Index d = K.cols();
    float* out = room(buf, size_t(round_up(n_keys, kPanel) * d));
    for (Index j = 0; j < n_keys; j += 4) {
        const float* rows[4] = {row_or_zeros(K, j, n_keys, zeros), row_or_zeros(K, j + 1, n_keys, zeros),
                                row_or_zeros(K, j + 2, n_keys, zeros), row_or_zeros(K, j + 3, n_keys, zeros)};
        interleave4(rows, d, 1.0f, out + (j / kPanel) * d * kPanel + j % kPanel, kPanel);
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

Values pack_values(const MatRef& V, Index n_keys, double v_max, Scratch& buf) {
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

// Four queries from row i0, query-minor and scaled: out[c][r] = Q(i0 + r, c) * scale;
// rows past the last query are 0.   -> (d, 4)
void pack_queries(const MatRef& Q, Index i0, float scale, float* out, const float* zeros) {
    const Index n = Q.rows();
    const float* rows[4] = {row_or_zeros(Q, i0, n, zeros), row_or_zeros(Q, i0 + 1, n, zeros),
                            row_or_zeros(Q, i0 + 2, n, zeros), row_or_zeros(Q, i0 + 3, n, zeros)};
    interleave4(rows, Q.cols(), scale, out, kRows);
}

// Whether no score, nor any partial sum of one, can overflow:
// |q.k| <= d max|q| max|k|, with a margin for rounding. When this fails the
// kernel checks every score it forms.
bool scores_surely_finite(double q_max, double k_max, Index d, double scale) {
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
bool scores_narrow(double q_max, double k_max, double v_max, Index d, Index n_keys, double scale) {
    const double s = double(d) * q_max * scale * k_max;
    return s < 60 && std::exp2(s) * double(n_keys) * v_max < 1e30;
}

// 2^(s - shift) for a row of n scores (n a multiple of 4), in place, -inf giving 0; returns their sum.
float exp2_row(float* s, Index n, f32x4 shift) {
    f32x4 sum = simd::splat(0);
    for (Index j = 0; j < n; j += 4) {
        const f32x4 p = simd::exp2_nonpositive(simd::sub(simd::load(s + j), shift));
        sum = simd::add(sum, p);
        simd::store(s + j, p);
    }
    return simd::sum_lanes(sum);
}

// ---- micro-kernels: 8 accumulators in registers ---------------------------

// Scores of 4 queries against 8 keys, s[r][j] = sum_c q[c][r] k[c][j], stored
// query-major at st[r * kTile + j] (no transpose: the registers hold a query's
// keys side by side). As they are, each query's largest raised in acc[r]; or,
// with exps (narrow scores), as 2^s, each query's sum of them added to acc[r].
//   q: (d, 4) packed queries   k: (d, 8) one key panel   st: 4 rows of kTile, from the panel's first key
template <bool exps>
inline void micro_scores(const float* q, const float* k, Index d, float* st, f32x4 acc[4]) {
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
        f32x4 lo = rows[r][0], hi = rows[r][1];
        if (exps) {
            lo = simd::exp2_in_range(lo);
            hi = simd::exp2_in_range(hi);
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

// The running state of one block of 4 queries.
struct Block {
    Index i0 = 0;        // first query
    float* q = nullptr;  // (d, 4) packed queries, in log2 units
    float* o = nullptr;  // (ceil(d_v / 8), 4, 8) output so far, not yet divided by l
    f32x4 m;             // the shift per query: the largest score seen (-inf before any), or 0 (narrow)
    f32x4 l;             // sum of 2^(score - m) per query
};

struct Kernel {
    const MatRef& Q;
    const MatRef& K;
    const MatRef& V;
    const KernelOptions& o;
    Index keys;                // keys any query may see: valid_length or n_k
    bool careful;              // check every score for overflow
    bool narrow;               // |score| < 60 (log2 units): 2^score needs no shift (see scores_narrow)
    const float* kp;           // packed keys
    Values v;                  // the values, in panels of 8 columns
    float* st;                 // (4, kTile) scores, then probabilities, of one block and tile
    Mat* weights;              // (n_q, n_k) raw scores (or 2^score when narrow), then weights; or null

    Block start(Index i0, float* q, float* o_buf) const {
        return Block{i0, q, o_buf, simd::splat(narrow ? 0.0f : kNegInf), simd::splat(0)};
    }

    // rows of st -> the block's rows of weights, keys [j0, j0 + n) that exist
    void keep(const Block& b, Index j0, Index n) {
        for (Index r = 0; r < kRows && b.i0 + r < Q.rows(); ++r)
            std::copy(st + r * kTile, st + r * kTile + (std::min(j0 + n, keys) - j0), &(*weights)(b.i0 + r, j0));
    }

    // One block against keys [j0, j1) of a tile (j0 a multiple of 8).
    void tile(Block& b, Index j0, Index j1) {
        const Index d = Q.cols(), n = round_up(j1 - j0, kPanel);
        // the tile hides a key from a query: padding (j >= keys) or, with
        // causal, a key after it (j > i). Else n = j1 - j0: every key exists.
        const bool masked = j0 + n > keys || (o.causal && j0 + n - 1 > b.i0);
        f32x4 alpha = simd::splat(1);  // rescales the output so far
        if (narrow && !masked) {
            // one pass: the scores, 8 keys at a time, and their 2^s (no shift
            // can be needed); each query's sum of them
            f32x4 sums[kRows] = {simd::splat(0), simd::splat(0), simd::splat(0), simd::splat(0)};
            for (Index p = 0; p < n; p += kPanel) micro_scores<true>(b.q, kp + (j0 + p) * d, d, st + p, sums);
            b.l = simd::add(b.l, simd::set(simd::sum_lanes(sums[0]), simd::sum_lanes(sums[1]),
                                           simd::sum_lanes(sums[2]), simd::sum_lanes(sums[3])));
            if (weights) keep(b, j0, n);
        } else {
            // pass 1: scores, 8 keys at a time (the last panel may run past j1), and each query's largest
            f32x4 tops[kRows] = {simd::splat(kNegInf), simd::splat(kNegInf), simd::splat(kNegInf), simd::splat(kNegInf)};
            for (Index p = 0; p < n; p += kPanel) micro_scores<false>(b.q, kp + (j0 + p) * d, d, st + p, tops);
            if (careful)
                for (Index r = 0; r < kRows; ++r)
                    for (Index j = 0; j < n; ++j)
                        if (!(std::abs(st[r * kTile + j]) <= FLT_MAX))
                            fail("the scores overflow float32 (an entry is not finite); use smaller inputs or a smaller scale");
            // pass 2: the hidden keys' scores become -inf
            if (masked)
                for (Index r = 0; r < kRows; ++r) {
                    // the last key query i0 + r sees, relative to j0
                    const Index last = (o.causal ? std::min(keys - 1, b.i0 + r) : keys - 1) - j0;
                    const f32x4 limit = simd::splat(float(last)), step = simd::splat(4);
                    f32x4 index = simd::set(0, 1, 2, 3);
                    tops[r] = simd::splat(kNegInf);  // the largest may be hidden: found again among what is seen
                    for (Index j = 0; j < n; j += 4, index = simd::add(index, step)) {
                        float* s = st + r * kTile + j;
                        const f32x4 x = simd::select_lt(limit, index, simd::splat(kNegInf), simd::load(s));
                        simd::store(s, x);
                        tops[r] = simd::max(tops[r], x);
                    }
                }
            if (weights && !narrow) keep(b, j0, n);
            // pass 3: 2^(score - m), -inf giving 0. Narrow: m = 0. Else an
            // online softmax: the new maximum m' rescales what was summed so
            // far by alpha = 2^(m - m'); a query that has seen no key yet
            // keeps m = -inf and subtracts 0 instead, so its terms stay 0.
            f32x4 shift = simd::splat(0);
            if (!narrow) {
                const f32x4 top = simd::set(simd::max_lanes(tops[0]), simd::max_lanes(tops[1]),
                                            simd::max_lanes(tops[2]), simd::max_lanes(tops[3]));
                const f32x4 m_new = simd::max(b.m, top);
                shift = simd::select_lt(m_new, simd::splat(-FLT_MAX), simd::splat(0), m_new);
                alpha = simd::exp2_nonpositive(simd::sub(b.m, shift));
                b.m = m_new;
            }
            float sums[kRows];
            for (Index r = 0; r < kRows; ++r) sums[r] = exp2_row(st + r * kTile, n, simd::splat(simd::lane(shift, int(r))));
            b.l = simd::add(simd::mul(b.l, alpha), simd::load(sums));
            if (weights && narrow) keep(b, j0, n);
        }
        // pass 4: output = output * alpha + P V, 8 columns at a time (the keys
        // past j1 have p = 0 and are left out: V has no row for them)
        const bool rescale = !simd::all_equal(alpha, simd::splat(1));
        const f32x4 alphas[4] = {simd::splat(simd::lane(alpha, 0)), simd::splat(simd::lane(alpha, 1)),
                                 simd::splat(simd::lane(alpha, 2)), simd::splat(simd::lane(alpha, 3))};
        for (Index c = 0; c < V.cols(); c += kPanel)
            micro_values(st, v.data + (c / kPanel) * v.panel + j0 * v.stride, v.stride, j1 - j0,
                         b.o + c * kRows, rescale ? alphas : nullptr);
    }

    // output = o / l (0 for a query that saw no key); weights = 2^(score - m) / l
    void finish(const Block& b, Eigen::Ref<Mat>& output) const {
        const Index dv = V.cols();
        for (Index r = 0; r < kRows && b.i0 + r < Q.rows(); ++r) {
            const float l = simd::lane(b.l, int(r)), m = simd::lane(b.m, int(r));
            const float inv = l > 0 ? 1 / l : 0;
            float* out = &output(b.i0 + r, 0);
            const float* acc = b.o + r * kPanel;  // column c at acc[(c / 8) * 32 + c % 8]
            Index c = 0;
            if (!v.copied)  // no column shrunk: 4 at a time
                for (; c + 4 <= dv; c += 4)
                    simd::store(out + c, simd::mul(simd::load(acc + (c / kPanel) * kRows * kPanel + c % kPanel),
                                                   simd::splat(inv)));
            for (; c < dv; ++c)  // shrink is a power of 2: dividing by it is exact
                out[c] = acc[(c / kPanel) * kRows * kPanel + c % kPanel] * inv * (1 / v.shrink[c]);
            if (!weights) continue;
            float* w = &(*weights)(b.i0 + r, 0);
            if (l == 0) {  // no key seen: all 0
                std::fill(w, w + K.rows(), 0.0f);
                continue;
            }
            const f32x4 shift = simd::splat(m), scale = simd::splat(inv);
            const Index seen = o.causal ? std::min(keys, b.i0 + r + 1) : keys;
            for (Index j = 0; j < seen; j += 4) {
                float chunk[4] = {kNegInf, kNegInf, kNegInf, kNegInf};
                std::copy(w + j, w + std::min(j + 4, seen), chunk);
                const f32x4 x = simd::load(chunk);
                // narrow: the tiles kept 2^score already
                simd::store(chunk, simd::mul(narrow ? x : simd::exp2_nonpositive(simd::sub(x, shift)), scale));
                std::copy(chunk, chunk + std::min<Index>(4, seen - j), w + j);
            }
            std::fill(w + seen, w + keys, 0.0f);  // causal: written by the diagonal tile, hidden
        }
    }
};

}  // namespace

const char* kernel_simd() { return simd::kName; }

void attention_kernel_into(const MatRef& Q, const MatRef& K, const MatRef& V, const KernelOptions& o,
                           Eigen::Ref<Mat> output, Mat* weights) {
    const Index nq = Q.rows(), d = Q.cols(), dv = V.cols();
    if (weights) weights->setZero(nq, K.rows());  // no allocation when it has this shape already
    const Index keys = o.valid_length ? *o.valid_length : K.rows();
    if (keys == 0) {  // every key is padding: no query sees any
        output.setZero();
        return;
    }
    // scores in log2 units: e^(s * scale) = 2^(s * scale * log2 e)
    const float q_scale = o.scale * kLog2e;
    Scratch& buf = scratch();
    float* zeros = room(buf.zeros, size_t(d));  // the rows past the last query or key
    std::fill_n(zeros, d, 0.0f);
    const double q_max = max_abs(Q, nq), k_max = max_abs(K, keys), v_max = max_abs(V, keys);
    Kernel k{Q, K, V, o, keys, !scores_surely_finite(q_max, k_max, d, q_scale),
             scores_narrow(q_max, k_max, v_max, d, keys, q_scale), pack_keys(K, keys, zeros, buf.keys),
             pack_values(V, keys, v_max, buf), room(buf.st, size_t(kTile * kRows)), weights};
    const Index dv_pad = round_up(dv, kPanel), blocks = (nq + kRows - 1) / kRows;
    const Index group_size = std::min(kGroup, blocks);
    float* const q_buf = room(buf.q, size_t(group_size * d * kRows));
    float* const o_buf = room(buf.o, size_t(group_size * dv_pad * kRows));
    Block group[kGroup];
    // groups of 4 blocks of 4 queries; each tile of keys meets the group's blocks in turn
    for (Index g = 0; g < blocks; g += kGroup) {
        const Index n_blocks = std::min(kGroup, blocks - g);
        for (Index b = 0; b < n_blocks; ++b) {
            group[b] = k.start((g + b) * kRows, q_buf + b * d * kRows, o_buf + b * dv_pad * kRows);
            pack_queries(Q, group[b].i0, q_scale, group[b].q, zeros);
            std::fill(group[b].o, group[b].o + dv_pad * kRows, 0.0f);
        }
        // causal: the group's last query sees keys up to its own index
        const Index last = std::min(nq, (g + n_blocks) * kRows) - 1;
        const Index group_keys = o.causal ? std::min(keys, last + 1) : keys;
        for (Index j0 = 0; j0 < group_keys; j0 += kTile)
            for (Index b = 0; b < n_blocks; ++b) {
                const Index block_keys = o.causal ? std::min(group_keys, group[b].i0 + kRows) : group_keys;
                if (j0 < block_keys) k.tile(group[b], j0, std::min(j0 + kTile, block_keys));
            }
        for (Index b = 0; b < n_blocks; ++b) k.finish(group[b], output);
    }
}

KernelResult attention_kernel(const MatRef& Q, const MatRef& K, const MatRef& V, const KernelOptions& o,
                              bool with_weights) {
    KernelResult r;
    r.output = Mat(Q.rows(), V.cols());  // every row is written by finish()
    attention_kernel_into(Q, K, V, o, r.output, with_weights ? &r.weights : nullptr);
    return r;
}

}  // namespace attn
