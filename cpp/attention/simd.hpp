// A small portable layer over vectors of 4 floats, so the attention kernel
// (fused_attention.cpp) is written once and builds three ways:
//
//   -msimd128 (Emscripten)   WebAssembly SIMD128, <wasm_simd128.h>: what the module ships
//   x86-64 (g++, clang)      SSE2, <emmintrin.h>: the native tests under ASan/UBSan
//   anything else            plain arrays of 4 floats (or -DATTN_SIMD_SCALAR)
//
// Only what the kernels need: loads and stores, lane-wise arithmetic (division too), a 4x4
// transpose and 2^x. No FMA: relaxed-simd does not run on Node 20, and a
// fused multiply-add would make the three builds round differently.
#pragma once

#include <cstdint>
#include <cstring>

// Inlined whatever a file is compiled for (-Oz would otherwise make each a call)
#define ATTN_SIMD_FN inline __attribute__((always_inline))

#if defined(__wasm_simd128__) && !defined(ATTN_SIMD_SCALAR)
#define ATTN_SIMD_WASM 1
#include <wasm_simd128.h>
#elif (defined(__SSE2__) || defined(_M_X64)) && !defined(ATTN_SIMD_SCALAR)
#define ATTN_SIMD_SSE2 1
#include <emmintrin.h>
#endif

namespace attn::simd {

#if defined(ATTN_SIMD_WASM)

constexpr const char* kName = "wasm-simd128";
using f32x4 = v128_t;
ATTN_SIMD_FN f32x4 load(const float* p) { return wasm_v128_load(p); }
ATTN_SIMD_FN void store(float* p, f32x4 x) { wasm_v128_store(p, x); }
ATTN_SIMD_FN f32x4 splat(float x) { return wasm_f32x4_splat(x); }
ATTN_SIMD_FN f32x4 load_splat(const float* p) { return wasm_v128_load32_splat(p); }
ATTN_SIMD_FN f32x4 set(float a, float b, float c, float d) { return wasm_f32x4_make(a, b, c, d); }
ATTN_SIMD_FN f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
ATTN_SIMD_FN f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
ATTN_SIMD_FN f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
ATTN_SIMD_FN f32x4 div(f32x4 a, f32x4 b) { return wasm_f32x4_div(a, b); }
// pmax/pmin: one instruction each; the kernel never feeds them NaN
ATTN_SIMD_FN f32x4 max(f32x4 a, f32x4 b) { return wasm_f32x4_pmax(a, b); }
ATTN_SIMD_FN f32x4 min(f32x4 a, f32x4 b) { return wasm_f32x4_pmin(a, b); }
// lanes where a < b take y, the others keep x
ATTN_SIMD_FN f32x4 select_lt(f32x4 a, f32x4 b, f32x4 y, f32x4 x) { return wasm_v128_bitselect(y, x, wasm_f32x4_lt(a, b)); }
ATTN_SIMD_FN bool all_equal(f32x4 a, f32x4 b) { return wasm_i32x4_all_true(wasm_f32x4_eq(a, b)); }
ATTN_SIMD_FN float lane(f32x4 x, int i) {
    float out[4];
    store(out, x);
    return out[i];
}
// the bits of x as int32 lanes shifted left by 23 (the low 9 into the sign and exponent fields)
ATTN_SIMD_FN f32x4 bits_shl23(f32x4 x) { return wasm_i32x4_shl(x, 23); }
// rows a, b, c, d -> columns
ATTN_SIMD_FN void transpose(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
    const f32x4 ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
    const f32x4 cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
    a = wasm_i64x2_shuffle(ab_lo, cd_lo, 0, 2);
    b = wasm_i64x2_shuffle(ab_lo, cd_lo, 1, 3);
    c = wasm_i64x2_shuffle(ab_hi, cd_hi, 0, 2);
    d = wasm_i64x2_shuffle(ab_hi, cd_hi, 1, 3);
}

#elif defined(ATTN_SIMD_SSE2)

constexpr const char* kName = "sse2";
using f32x4 = __m128;
ATTN_SIMD_FN f32x4 load(const float* p) { return _mm_loadu_ps(p); }
ATTN_SIMD_FN void store(float* p, f32x4 x) { _mm_storeu_ps(p, x); }
ATTN_SIMD_FN f32x4 splat(float x) { return _mm_set1_ps(x); }
ATTN_SIMD_FN f32x4 load_splat(const float* p) { return _mm_load1_ps(p); }
ATTN_SIMD_FN f32x4 set(float a, float b, float c, float d) { return _mm_setr_ps(a, b, c, d); }
ATTN_SIMD_FN f32x4 add(f32x4 a, f32x4 b) { return _mm_add_ps(a, b); }
ATTN_SIMD_FN f32x4 sub(f32x4 a, f32x4 b) { return _mm_sub_ps(a, b); }
ATTN_SIMD_FN f32x4 mul(f32x4 a, f32x4 b) { return _mm_mul_ps(a, b); }
ATTN_SIMD_FN f32x4 div(f32x4 a, f32x4 b) { return _mm_div_ps(a, b); }
ATTN_SIMD_FN f32x4 max(f32x4 a, f32x4 b) { return _mm_max_ps(a, b); }
ATTN_SIMD_FN f32x4 min(f32x4 a, f32x4 b) { return _mm_min_ps(a, b); }
ATTN_SIMD_FN f32x4 select_lt(f32x4 a, f32x4 b, f32x4 y, f32x4 x) {
    const __m128 m = _mm_cmplt_ps(a, b);
    return _mm_or_ps(_mm_and_ps(m, y), _mm_andnot_ps(m, x));
}
ATTN_SIMD_FN bool all_equal(f32x4 a, f32x4 b) { return _mm_movemask_ps(_mm_cmpeq_ps(a, b)) == 0xf; }
ATTN_SIMD_FN float lane(f32x4 x, int i) {
    float out[4];
    store(out, x);
    return out[i];
}
ATTN_SIMD_FN f32x4 bits_shl23(f32x4 x) { return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(x), 23)); }
ATTN_SIMD_FN void transpose(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
    const __m128 ab_lo = _mm_unpacklo_ps(a, b), ab_hi = _mm_unpackhi_ps(a, b);
    const __m128 cd_lo = _mm_unpacklo_ps(c, d), cd_hi = _mm_unpackhi_ps(c, d);
    a = _mm_movelh_ps(ab_lo, cd_lo);
    b = _mm_movehl_ps(cd_lo, ab_lo);
    c = _mm_movelh_ps(ab_hi, cd_hi);
    d = _mm_movehl_ps(cd_hi, ab_hi);
}

#else

constexpr const char* kName = "scalar";
struct f32x4 {
    float v[4];
};
ATTN_SIMD_FN f32x4 load(const float* p) {
    f32x4 x;
    std::memcpy(x.v, p, sizeof x.v);
    return x;
}
ATTN_SIMD_FN void store(float* p, f32x4 x) { std::memcpy(p, x.v, sizeof x.v); }
ATTN_SIMD_FN f32x4 set(float a, float b, float c, float d) { return f32x4{{a, b, c, d}}; }
ATTN_SIMD_FN f32x4 splat(float x) { return set(x, x, x, x); }
ATTN_SIMD_FN f32x4 load_splat(const float* p) { return splat(*p); }
template <class F>
ATTN_SIMD_FN f32x4 lanewise(f32x4 a, f32x4 b, F f) {
    return set(f(a.v[0], b.v[0]), f(a.v[1], b.v[1]), f(a.v[2], b.v[2]), f(a.v[3], b.v[3]));
}
ATTN_SIMD_FN f32x4 add(f32x4 a, f32x4 b) { return lanewise(a, b, [](float x, float y) { return x + y; }); }
ATTN_SIMD_FN f32x4 sub(f32x4 a, f32x4 b) { return lanewise(a, b, [](float x, float y) { return x - y; }); }
ATTN_SIMD_FN f32x4 mul(f32x4 a, f32x4 b) { return lanewise(a, b, [](float x, float y) { return x * y; }); }
ATTN_SIMD_FN f32x4 div(f32x4 a, f32x4 b) { return lanewise(a, b, [](float x, float y) { return x / y; }); }
ATTN_SIMD_FN f32x4 max(f32x4 a, f32x4 b) { return lanewise(a, b, [](float x, float y) { return x < y ? y : x; }); }
ATTN_SIMD_FN f32x4 min(f32x4 a, f32x4 b) { return lanewise(a, b, [](float x, float y) { return y < x ? y : x; }); }
ATTN_SIMD_FN f32x4 select_lt(f32x4 a, f32x4 b, f32x4 y, f32x4 x) {
    for (int i = 0; i < 4; ++i) x.v[i] = a.v[i] < b.v[i] ? y.v[i] : x.v[i];
    return x;
}
ATTN_SIMD_FN bool all_equal(f32x4 a, f32x4 b) {
    return a.v[0] == b.v[0] && a.v[1] == b.v[1] && a.v[2] == b.v[2] && a.v[3] == b.v[3];
}
ATTN_SIMD_FN float lane(f32x4 x, int i) { return x.v[i]; }
ATTN_SIMD_FN f32x4 bits_shl23(f32x4 x) {
    for (float& f : x.v) {
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        u <<= 23;
        std::memcpy(&f, &u, 4);
    }
    return x;
}
ATTN_SIMD_FN void transpose(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
    const f32x4 r[4] = {a, b, c, d};
    f32x4* out[4] = {&a, &b, &c, &d};
    for (int i = 0; i < 4; ++i) *out[i] = set(r[0].v[i], r[1].v[i], r[2].v[i], r[3].v[i]);
}

#endif

// The largest lane (no NaN), and the sum of the lanes, (x0 + x1) + (x2 + x3).
ATTN_SIMD_FN float max_lanes(f32x4 x) {
    float v[4];
    store(v, x);
    const float a = v[0] < v[1] ? v[1] : v[0], b = v[2] < v[3] ? v[3] : v[2];
    return a < b ? b : a;
}
ATTN_SIMD_FN float sum_lanes(f32x4 x) {
    float v[4];
    store(v, x);
    return (v[0] + v[1]) + (v[2] + v[3]);
}

// 2^x for x in [-127, 127]:
//   x = n + f, n = round(x), f in [-0.5, 0.5]:  2^x = 2^n * p(f)
// p: degree 5, fitted to 2^f on [-0.5, 0.5] for least relative error
// (at most 1.9e-7 in float32, about 3 ulp). Adding 1.5 * 2^23 + 127 rounds x
// to an integer and leaves n + 127 in the low 9 bits of the sum, which a
// shift by 23 moves into the exponent field: 2^n (n = -127 gives +0).
// (From 127.5 on, n + 127 overflows the exponent field.)
ATTN_SIMD_FN f32x4 exp2_in_range(f32x4 x) {
    const float kRound = 12582912.0f + 127.0f;  // 1.5 * 2^23 + 127, exact in float32
    const f32x4 shifted = add(x, splat(kRound));
    const f32x4 f = sub(x, sub(shifted, splat(kRound)));
    f32x4 p = splat(1.32647238e-3f);
    p = add(mul(p, f), splat(9.67151299e-3f));
    p = add(mul(p, f), splat(5.55073358e-2f));
    p = add(mul(p, f), splat(2.40222424e-1f));
    p = add(mul(p, f), splat(6.93147004e-1f));
    p = add(mul(p, f), splat(1.0f));
    return mul(p, bits_shl23(shifted));
}

// 2^x for x <= 0 (and up to 126), including -inf; 0 below -126.5 (no denormals).
ATTN_SIMD_FN f32x4 exp2_nonpositive(f32x4 x) { return exp2_in_range(max(x, splat(-127.0f))); }

}  // namespace attn::simd
