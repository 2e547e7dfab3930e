#include "attention/kernels/fused_attention.hpp"

#include "attention/kernels/fused_attention_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn {

namespace {

using namespace kernel_blocks;
using simd::f32x4;

// The running state of one block of 4 queries.
struct Block {
    Index i0 = 0;        // first query
    float* q = nullptr;  // (d, 4) packed queries
    float* o = nullptr;  // (ceil(d_v / 8), 4, 8) output so far, not yet divided by l
    f32x4 m;             // the shift per query: the largest score seen (-inf before any), or 0 (narrow)
    f32x4 l;             // sum of e^(score - m) per query
};

struct Kernel {
    const MatRef& Q;
    const MatRef& K;
    const MatRef& V;
    const KernelOptions& o;
    Index keys;                // keys any query may see: valid_length or n_k
    bool careful;              // check every score for overflow
    bool narrow;               // |score| log2 e < 60: e^score needs no shift (see scores_narrow)
    f32x4 scale;               // multiplies each dot product
    const float* kp;           // packed keys
    Values v;                  // the values, in panels of 8 columns
    float* st;                 // (4, kTile) scores, then probabilities, of one block and tile
    Mat* weights;              // (n_q, n_k) scaled scores (or e^score when narrow), then weights; or null

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
        // the tile hides a key from a query: padding (j >= keys), with
        // causal a key after it (j > i), with a window a key before it (j <=
        // i - window, not a sink). Else n = j1 - j0: every key exists.
        const bool masked = j0 + n > keys || (o.causal && j0 + n - 1 > b.i0) ||
                            (o.window && j0 + *o.window < b.i0 + kRows && j0 + n > o.sinks);
        f32x4 alpha = simd::splat(1);  // rescales the output so far
        if (narrow && !masked) {
            // one pass: the scores, 8 keys at a time, and their e^s (no shift
            // can be needed); each query's sum of them
            f32x4 sums[kRows] = {simd::splat(0), simd::splat(0), simd::splat(0), simd::splat(0)};
            for (Index p = 0; p < n; p += kPanel) micro_scores<true>(b.q, kp + (j0 + p) * d, d, scale, st + p, sums);
            b.l = simd::add(b.l, simd::set(simd::sum_lanes(sums[0]), simd::sum_lanes(sums[1]),
                                           simd::sum_lanes(sums[2]), simd::sum_lanes(sums[3])));
            if (weights) keep(b, j0, n);
        } else {
            // pass 1: scores, 8 keys at a time (the last panel may run past j1), and each query's largest
            f32x4 tops[kRows] = {simd::splat(kNegInf), simd::splat(kNegInf), simd::splat(kNegInf), simd::splat(kNegInf)};
            for (Index p = 0; p < n; p += kPanel) micro_scores<false>(b.q, kp + (j0 + p) * d, d, scale, st + p, tops);
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
                    // the window's first key, relative to j0 (the sinks before it stay)
                    const Index first = o.window ? b.i0 + r - *o.window + 1 - j0 : 0;
                    for (Index j = std::max<Index>(0, o.sinks - j0); j < std::min(first, n); ++j)
                        st[r * kTile + j] = kNegInf;
                    for (Index j = 0; j < n; j += 4, index = simd::add(index, step)) {
                        float* s = st + r * kTile + j;
                        const f32x4 x = simd::select_lt(limit, index, simd::splat(kNegInf), simd::load(s));
                        simd::store(s, x);
                        tops[r] = simd::max(tops[r], x);
                    }
                }
            if (weights && !narrow) keep(b, j0, n);
            // pass 3: e^(score - m), -inf giving 0. Narrow: m = 0. Else an
            // online softmax: the new maximum m' rescales what was summed so
            // far by alpha = e^(m - m'); a query that has seen no key yet
            // keeps m = -inf and subtracts 0 instead, so its terms stay 0.
            f32x4 shift = simd::splat(0);
            if (!narrow) {
                const f32x4 top = simd::set(simd::max_lanes(tops[0]), simd::max_lanes(tops[1]),
                                            simd::max_lanes(tops[2]), simd::max_lanes(tops[3]));
                const f32x4 m_new = simd::max(b.m, top);
                shift = simd::select_lt(m_new, simd::splat(-FLT_MAX), simd::splat(0), m_new);
                alpha = exp_shifted(b.m, shift);
                b.m = m_new;
            }
            float sums[kRows];
            for (Index r = 0; r < kRows; ++r) sums[r] = exp_row(st + r * kTile, n, simd::splat(simd::lane(shift, int(r))));
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

    // output = o / l (0 for a query that saw no key); weights = e^(score - m) / l
    void finish(const Block& b, Eigen::Ref<Mat>& output, const RowStats* stats) const {
        const Index dv = V.cols();
        for (Index r = 0; r < kRows && b.i0 + r < Q.rows(); ++r) {
            const float l = simd::lane(b.l, int(r)), m = simd::lane(b.m, int(r));
            const float inv = l > 0 ? 1 / l : 0;
            if (stats) {
                stats->max[b.i0 + r] = m;
                stats->sum[b.i0 + r] = l;
            }
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
            const f32x4 shift = simd::splat(m), inv_l = simd::splat(inv);
            const Index seen = o.causal ? std::min(keys, b.i0 + r + 1) : keys;
            for (Index j = 0; j < seen; j += 4) {
                float chunk[4] = {kNegInf, kNegInf, kNegInf, kNegInf};
                std::copy(w + j, w + std::min(j + 4, seen), chunk);
                const f32x4 x = simd::load(chunk);
                // narrow: the tiles kept e^score already
                simd::store(chunk, simd::mul(narrow ? x : exp_shifted(x, shift), inv_l));
                std::copy(chunk, chunk + std::min<Index>(4, seen - j), w + j);
            }
            std::fill(w + seen, w + keys, 0.0f);  // causal: written by the diagonal tile, hidden
            // a window: the keys before it, in tiles skipped or masked, but the sinks
            for (Index j = o.sinks; o.window && j <= b.i0 + r - *o.window && j < keys; ++j) w[j] = 0;
        }
    }

    // Whether block b needs the tile from j0: not when a window hides all its keys from every query of b
    bool needed(const Block& b, Index j0) const {
        return !o.window || j0 < o.sinks || j0 + kTile + *o.window > b.i0 + 1;
    }
};

}  // namespace

const char* kernel_simd() { return simd::kName; }

void attention_kernel_into(const MatRef& Q, const MatRef& K, const MatRef& V, const KernelOptions& o,
                           Eigen::Ref<Mat> output, Mat* weights, const RowStats* stats) {
    const Index nq = Q.rows(), d = Q.cols(), dv = V.cols();
    if (weights) weights->setZero(nq, K.rows());  // no allocation when it has this shape already
    const Index keys = o.valid_length ? *o.valid_length : K.rows();
    if (keys == 0) {  // every key is padding: no query sees any
        output.setZero();
        if (stats) {
            std::fill_n(stats->max, nq, kNegInf);
            std::fill_n(stats->sum, nq, 0.0f);
        }
        return;
    }
    // the narrowness bound is on exponents of 2: e^(s * scale) = 2^(s * scale * log2 e)
    const double log2_scale = double(o.scale) * kLog2e;
    Scratch& buf = scratch();
    float* zeros = room(buf.zeros, size_t(d));  // the rows past the last query or key
    std::fill_n(zeros, d, 0.0f);
    const double q_max = max_abs(Q, nq), k_max = max_abs(K, keys), v_max = max_abs(V, keys);
    Kernel k{Q, K, V, o, keys, !scores_surely_finite(q_max, k_max, d, log2_scale),
             scores_narrow(q_max, k_max, v_max, d, keys, log2_scale), simd::splat(o.scale), pack_keys(K, keys, zeros, buf.keys),
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
            pack_queries(Q, group[b].i0, group[b].q, zeros);
            std::fill(group[b].o, group[b].o + dv_pad * kRows, 0.0f);
        }
        // causal: the group's last query sees keys up to its own index
        const Index last = std::min(nq, (g + n_blocks) * kRows) - 1;
        const Index group_keys = o.causal ? std::min(keys, last + 1) : keys;
        for (Index j0 = 0; j0 < group_keys; j0 += kTile)
            for (Index b = 0; b < n_blocks; ++b) {
                const Index block_keys = o.causal ? std::min(group_keys, group[b].i0 + kRows) : group_keys;
                if (j0 < block_keys && k.needed(group[b], j0))
                    k.tile(group[b], j0, std::min(j0 + kTile, block_keys));
            }
        for (Index b = 0; b < n_blocks; ++b) k.finish(group[b], output, stats);
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
