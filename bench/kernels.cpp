// The WASM side of the benchmark (bench/bench.mjs): what the public module has
// no reason to export. Built by the CMake target attention_bench (on demand,
// not by `build.sh all`) into build-wasm/bench/attention_bench.mjs.
//
//   bench_peak     the f32x4 multiply-add peak: the ceiling every kernel is measured against
//   bench_block    the kernel's inner loop alone (a 4 x 8 block of accumulators fed from
//                  L1): how close to the peak V8's code for a matrix product gets
//   bench_eigen    our Eigen path (scores, softmax, weights * V), as the module computed
//                  attention before the kernel, without copying anything to JS
//   bench_kernel   the fused kernel without the JS API, to show what the API costs
#include "attention/attention_all.hpp"

#include <emscripten/emscripten.h>
#include <wasm_simd128.h>

using namespace attn;

namespace {

// `chains` independent chains of acc = acc * m + c: each step is one f32x4
// multiply and one add (8 flops) whose inputs come from the step before, so
// nothing can be hoisted or folded, and with enough chains the latency of
// multiply-then-add is hidden. Returns the sum so the work is not dead.
template <int chains>
float peak(int steps) {
    const v128_t m = wasm_f32x4_splat(0.999999f), c = wasm_f32x4_splat(1e-6f);
    v128_t acc[chains];
    for (int i = 0; i < chains; ++i) acc[i] = wasm_f32x4_splat(float(i) / chains);
    for (int s = 0; s < steps; ++s)
        for (int i = 0; i < chains; ++i) acc[i] = wasm_f32x4_add(wasm_f32x4_mul(acc[i], m), c);
    v128_t sum = acc[0];
    for (int i = 1; i < chains; ++i) sum = wasm_f32x4_add(sum, acc[i]);
    return wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1) + wasm_f32x4_extract_lane(sum, 2) +
           wasm_f32x4_extract_lane(sum, 3);
}

// The register block of cpp/attention/kernels/fused_attention.cpp's micro-kernels, alone: per step one f32x4
// pair of 8 keys, 4 splatted queries, 8 multiplies and 8 adds (64 flops), on
// packed operands that stay in L1.
// (written out as micro_scores is: V8's code for it depends on the shape)
float block(int repeats, const float* a, const float* b, int depth) {
    v128_t c00 = wasm_f32x4_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
    for (int r = 0; r < repeats; ++r) {
        const float* q = a;
        const float* k = b;
        for (int c = 0; c < depth; ++c, q += 4, k += 8) {
            const v128_t k0 = wasm_v128_load(k), k1 = wasm_v128_load(k + 4);
            v128_t x = wasm_v128_load32_splat(q);
            c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(x, k0));
            c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(x, k1));
            x = wasm_v128_load32_splat(q + 1);
            c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(x, k0));
            c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(x, k1));
            x = wasm_v128_load32_splat(q + 2);
            c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(x, k0));
            c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(x, k1));
            x = wasm_v128_load32_splat(q + 3);
            c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(x, k0));
            c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(x, k1));
        }
    }
    const v128_t sum = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(c00, c01), wasm_f32x4_add(c10, c11)),
                                      wasm_f32x4_add(wasm_f32x4_add(c20, c21), wasm_f32x4_add(c30, c31)));
    return wasm_f32x4_extract_lane(sum, 0);
}

using MatMap = Eigen::Map<const Mat>;

}  // namespace

extern "C" {

// flops = steps * chains * 8
EMSCRIPTEN_KEEPALIVE float bench_peak(int chains, int steps) {
    switch (chains) {
        case 4: return peak<4>(steps);
        case 8: return peak<8>(steps);
        case 12: return peak<12>(steps);
        case 14: return peak<14>(steps);
        default: return 0;
    }
}

// flops = repeats * 64 * 64: a (64, 4) and a (64, 8) panel, as for d = 64
EMSCRIPTEN_KEEPALIVE float bench_block(int repeats) {
    static float a[64 * 4], b[64 * 8];
    for (int i = 0; i < 64 * 4; ++i) a[i] = 1e-3f * float(i % 7);
    for (int i = 0; i < 64 * 8; ++i) b[i] = 1e-3f * float(i % 5);
    return block(repeats, a, b, 64);
}

// Q, K, V: (n, d) row-major; out: (n, d). The plain path of attention() before
// the kernel: every (n, n) intermediate formed with Eigen.
EMSCRIPTEN_KEEPALIVE int bench_eigen(const float* q, const float* k, const float* v, int n, int d, int causal,
                                     float* out) {
    try {
        const MatMap Q(q, n, d), K(k, n, d), V(v, n, d);
        const Mat scaled = score_dot(Q, K) * (1 / std::sqrt(Scalar(d)));
        const Mask mask = causal ? mask_causal(n, n) : Mask::Constant(n, n, true);
        const Mat weights = masked_softmax_rows(scaled, mask);
        Eigen::Map<Mat>(out, n, d).noalias() = weights * V;
        return 0;
    } catch (...) {
        return 1;
    }
}

EMSCRIPTEN_KEEPALIVE int bench_kernel(const float* q, const float* k, const float* v, int n, int d, int causal,
                                      float* out) {
    try {
        KernelOptions o;
        o.scale = 1 / std::sqrt(Scalar(d));
        o.causal = causal != 0;
        attention_kernel_into(MatMap(q, n, d), MatMap(k, n, d), MatMap(v, n, d), o, Eigen::Map<Mat>(out, n, d));
        return 0;
    } catch (...) {
        return 1;
    }
}

}  // extern "C"
