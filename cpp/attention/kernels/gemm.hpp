// Dense layers on weights packed once: Y = act(X W + b) + R.
//
// Why: a dense layer of the encoder multiplies a few rows (the pieces of one
// sentence) by a large weight matrix (up to 512 x 1536). Eigen packs W into
// its own layout on every call (a full copy of the weights each time) and has
// no WebAssembly SIMD code. Here W is packed at load into panels of 8 output
// columns, each panel stored row after row (k-major), so the micro-kernel
// reads it with unit stride; a block of 4 rows of X meets one panel at a time
// and keeps its 4 x 8 sums in eight f32x4 registers. The bias starts the sums,
// and the activation and a residual are applied as the sums are stored: one
// pass over Y. The shared index is cut into blocks of kKBlock so a panel's
// slice (8 KB) stays in L1 while every row block of X passes it.
//
// Zero inputs are skipped: after ReLU most of X is exactly 0 (93% of the
// encoder's feed-forward activations), and a term 0 * w adds nothing to a
// sum. Each block of 4 rows lists the k where one of its rows is not 0; when
// the lists are short the micro-kernel visits only those k, in the same order,
// so Y is the same to the bit (for finite weights: 0 * inf would be NaN).
//
// Written once against simd.hpp: WASM SIMD128 in the module, SSE2 natively.
// dense_reference() in encoder/layers.hpp is the plain-loop double reference.
#pragma once

#include "attention/types.hpp"

#include <vector>

namespace attn {

struct PackedDense {
    static constexpr Index kPanel = 8;  // output columns per panel: two f32x4
    Index in = 0, out = 0;
    std::vector<float> panels;  // (ceil(out / 8), in, 8): panels[(p in + k) 8 + j] = W(k, 8p + j), 0 past out
    std::vector<float> bias;    // (ceil(out / 8) 8): b, then 0
    Index panel_count() const { return (out + kPanel - 1) / kPanel; }
};

enum class Activation { none, relu };

//   W: (in, out)  b: (out)  -> the packed layer. Throws on empty or mismatched shapes.
PackedDense pack_dense(const MatRef& W, const VecRef& b);

// Y (m, out) = act(X W + b) (+ R), on raw row-major pointers with row strides.
//   X: (m, in) stride ldx   R: (m, out) stride ldr, or null   Y: stride ldy, overlapping neither
// Unchecked: the caller has checked the shapes. W finite (a model file's weights are checked at load).
void dense_packed(Index m, const float* X, Index ldx, const PackedDense& W, Activation act, const float* R,
                  Index ldr, float* Y, Index ldy);

// The same on matrices, checked:  X: (m, in)  residual: (m, out) or null  -> (m, out)
Mat dense(const MatRef& X, const PackedDense& W, Activation act = Activation::none, const Mat* residual = nullptr);
// The same into Y, of shape (m, out) already, overlapping neither X nor the residual.
void dense_into(const MatRef& X, const PackedDense& W, Activation act, const MatRef* residual, Eigen::Ref<Mat> Y);

}  // namespace attn
