// The training engine's shared numerical kernels, on raw row-major float
// pointers with leading dimensions (ld = floats from one row to the next), so
// a head's columns of Q or a batch's rows are views, never copies.
//
// Written once over simd.hpp's f32x4 layer: WebAssembly SIMD128 in the module,
// SSE2 natively, plain floats elsewhere. No FMA and the same summation order
// in every build, so natively and in WASM a training run gives bit-identical
// losses. For the same reason exp and log are our own (below): std::exp and
// std::log differ between glibc and Emscripten's libc in the last bit.
#pragma once

#include "attention/types.hpp"

#include <cstdint>

namespace attn::train {

// ---- products (accumulate: C += ...) ---------------------------------------
// Each C(i, j) adds its terms one by one in the order of the shared index, in
// every build: the vector lanes run over j, never over the sum.

// C (m, n) += A (m, k) * B (k, n)
void matmul_acc(Index m, Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C, Index ldc);
// C (m, n) += A (m, k) * B^T, B: (n, k).  Each dot product sums 4 lanes over
// k in steps of 4, then the lanes as (0 + 1) + (2 + 3), then the tail.
void matmul_nt_acc(Index m, Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C,
                   Index ldc);
// C (m, n) += A^T * B, A: (k, m), B: (k, n)
void matmul_tn_acc(Index m, Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C,
                   Index ldc);

// x (rows, cols) with leading dimension ld := 0
void zero(float* x, Index rows, Index cols, Index ld);
inline void zero(float* x, Index count) { zero(x, 1, count, count); }
// y (rows, cols) += x (rows, cols), both contiguous
void add_to(float* y, const float* x, Index count);

// ---- softmax ---------------------------------------------------------------
// The weights of one row of n scores in place. Entries set to -inf are masked
// and get weight 0; a row with every entry masked becomes all 0.
// Returns the row's sum of exponentials (after subtracting the maximum), >= 1,
// or 0 for a fully masked row. A row holding a NaN or +inf (scores that
// overflowed) becomes all NaN and returns NaN, so that the overflow reaches
// the logits and the loss instead of passing for a masked row.
float softmax_row(float* row, Index n);

// ---- deterministic exp and log (double) ------------------------------------
// Only +, -, *, / and exact scalings by powers of 2: correctly rounded IEEE
// operations, the same bits on every platform. Relative error about 1e-16.
double exp_det(double x);  // e^x; 0 below -745, +inf above 709.7
double log_det(double x);  // ln x for finite x > 0

}  // namespace attn::train
