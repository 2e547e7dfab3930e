// The fused attention kernel: softmax(mask(Q K^T * scale)) V for the dot
// score, without forming the (n_q, n_k) matrices.
//
//   Q: (n_q, d)   K: (n_k, d)   V: (n_k, d_v)   ->   output: (n_q, d_v)
//
// Why: the plain path (attention() in mechanism/attention.hpp) keeps every intermediate
// for the page, so its memory grows with n_q * n_k, and Eigen has no WASM SIMD
// code. Here four queries at a time meet tiles of 256 keys: their scores live
// in a 4 KB buffer and each query keeps a sum l. When no score can leave
// (-60, 60) in log2 units (a bound from max|q| max|k|), 2^score is formed as
// the score is, in one pass: the softmax's shift by the row's maximum only
// guards against overflow. Otherwise an online (streaming) softmax keeps a
// running maximum m per query and rescales the partial output when m grows.
// Memory stays O((n_q + n_k) (d + d_v)); with causal masking the tiles above the diagonal
// are skipped, and with a window the tiles before it (but the sinks'): the
// time grows as n_q * window, not n_q * n_k. Written once against simd.hpp: WASM SIMD128 in the module,
// SSE2 or plain floats natively. attention_reference() is what it is checked
// against (tests/cpp/kernels/test_fused_attention.cpp, tests/node/kernel.test.mjs).
#pragma once

#include "attention/types.hpp"

#include <optional>

namespace attn {

struct KernelOptions {
    Scalar scale = 1;                   // multiplies q.k before softmax; finite, > 0
    bool causal = false;                // query i sees keys 0..i only
    std::optional<Index> valid_length;  // keys at index >= valid_length are padding (0..n_k)
    std::optional<Index> window;        // with causal: query i sees keys i - window + 1 .. i (window >= 1)
    Index sinks = 0;                    // with a window: keys 0 .. sinks - 1 stay visible
};

struct KernelResult {
    Mat output;   // (n_q, d_v); a query that may see no key gets 0
    Mat weights;  // (n_q, n_k) softmax rows, 0 where masked; only when asked for, else empty
};

// Expects what attention_output() checks: Q, K, V non-empty and finite,
// d_q == d_k, V.rows() == K.rows(), scale finite and > 0, valid_length in
// 0..n_k. Throws invalid_argument when a score overflows float32.
KernelResult attention_kernel(const MatRef& Q, const MatRef& K, const MatRef& V, const KernelOptions& options,
                              bool with_weights = false);

// The same, written into output (n_q, d_v), which may be a block of a larger
// matrix, and, when weights is given, into *weights, resized to (n_q, n_k).
// When stats is given, each row's running maximum m and sum l at the end
// (both n_q floats): log l + m is the log of the row's softmax denominator
// (l = 0 for a row that sees no key), from which weights_from_log_sum_exp()
// (mechanism/flash.hpp) gives any row of weights back without the matrix.
// The kernel's buffers are kept per thread: a call allocates nothing after the
// first of its size (and weights nothing when it has that shape already).
struct RowStats {
    float* max;  // (n_q) m
    float* sum;  // (n_q) l = sum_j e^(s_j - m)
};
void attention_kernel_into(const MatRef& Q, const MatRef& K, const MatRef& V, const KernelOptions& options,
                           Eigen::Ref<Mat> output, Mat* weights = nullptr, const RowStats* stats = nullptr);

// "wasm-simd128", "sse2" or "scalar": the vector code compiled in.
const char* kernel_simd();

}  // namespace attn
