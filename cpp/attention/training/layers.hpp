// The layers of the training engine: explicit forward and backward passes,
// no autograd. Each layer is a small struct holding its sizes; its buffers
// are the caller's (preallocated once, reused by every step), raw row-major
// float pointers whose shapes are in the comments. A batch of `sequences`
// sequences of `length` tokens is stacked as rows = sequences * length rows.
//
// Backward passes *accumulate* parameter gradients (dW +=), so one layer may
// be used twice, and overwrite or accumulate input gradients as stated.
// The plain-loop double references are in reference.hpp.
#pragma once

#include "attention/types.hpp"

#include <cstdint>

namespace attn::train {

// Tokens -> X = E[token] + PE[position]. PE is fixed (not learned).
struct Embedding {
    Index vocab, d_model, length;
    // tokens: (rows), each in [0, vocab)   E: (vocab, d_model)   PE: (length, d_model) or null (none)
    // -> X: (rows, d_model), row r gets position r % length
    void forward(Index rows, const std::int32_t* tokens, const float* E, const float* PE, float* X) const;
    // dE (vocab, d_model) += dX (rows, d_model) scattered to each row's token; PE gets none
    void backward(Index rows, const std::int32_t* tokens, const float* dX, float* dE) const;
    // For learned positions: dPE (length, d_model) += dX (rows, d_model), row r to position r % length
    void backward_positions(Index rows, const float* dX, float* dPE) const;
};

// Y = X + b: a bias row added to every row.
struct Bias {
    Index cols;
    // Y: (rows, cols) += b: (cols), in place
    void forward(Index rows, const float* b, float* Y) const;
    // db (cols) += the column sums of dY (rows, cols), row by row in order; dY passes through unchanged
    void backward(Index rows, const float* dY, float* db) const;
};

// Y = X + F(X): the residual connection. Its backward is the identity on
// both branches: dX += dY (and F's input gradient is added to dX by F's backward).
struct Residual {
    // Y (count) = X + F, Y may be X or F
    static void forward(Index count, const float* X, const float* F, float* Y);
    // dX (count) += dY
    static void backward(Index count, const float* dY, float* dX);
};

// Layer normalisation over each row of d entries, with a learned gain and bias:
//   mean = sum x / d,  var = sum (x - mean)^2 / d,  rstd = 1 / sqrt(var + epsilon)
//   y = (x - mean) rstd gain + bias
struct LayerNorm {
    Index d;
    float epsilon = 1e-5f;
    // X: (rows, d)   gain, bias: (d)   -> Y: (rows, d); mean, rstd: (rows) kept for backward
    void forward(Index rows, const float* X, const float* gain, const float* bias, float* Y, float* mean,
                 float* rstd) const;
    // dY: (rows, d) -> dgain, dbias (d) +=;  dX (rows, d) += with x^ = (x - mean) rstd, g = dY gain:
    //   dx = rstd (g - mean(g) - x^ mean(g x^))
    void backward(Index rows, const float* X, const float* gain, const float* mean, const float* rstd,
                  const float* dY, float* dgain, float* dbias, float* dX) const;
};

// GELU in its tanh form, entry by entry:
//   gelu(u) = u (1 + t) / 2,  t = tanh(c (u + 0.044715 u^3)),  c = sqrt(2 / pi)
// tanh from simd::exp2_nonpositive (|error| < 3e-7), so every build gives the same bits.
struct Gelu {
    // U: (count) -> G: (count), T: (count) the tanh values, kept for backward
    static void forward(Index count, const float* U, float* T, float* G);
    // dU (count) = dG gelu'(u), overwritten (dU may be dG):
    //   gelu'(u) = (1 + t) / 2 + u (1 - t^2) c (1 + 3 0.044715 u^2) / 2
    static void backward(Index count, const float* U, const float* T, const float* dG, float* dU);
};

// Y = X W, no bias.
struct Linear {
    Index in, out;
    // X: (rows, in)   W: (in, out)   -> Y: (rows, out)
    void forward(Index rows, const float* X, const float* W, float* Y) const;
    // dW (in, out) += X^T dY;  dX (rows, in) += dY W^T (skipped if dX is null)
    void backward(Index rows, const float* X, const float* W, const float* dY, float* dW, float* dX) const;
};

// Multi-head scaled dot-product attention over each sequence of a batch:
// head h reads columns [h d_head, (h + 1) d_head) of Q and those of key/value
// head g = h kv_heads / heads of K and V (the split is a strided view) and
// writes the same columns of Z (the concatenation), so the split and concat
// cost nothing and their backward is the same view.
//   S_h = Q_h K_g^T / sqrt(d_head) - slope_h (i - j), masked;  A_h = softmax(S_h) by rows;  Z_h = A_h V_g
// Masks: key j is visible to query i when j < valid[sequence] (padding; all
// keys if valid is null), if causal j <= i, and with a window i - j < window
// or j < sinks. A masked entry has weight 0 and gets exactly 0 gradient; a
// query with no visible key gets a zero row.
struct MultiHeadAttention {
    Index length, d_model, heads;
    bool causal = false;
    Index kv_heads = 0;               // 0: heads (one key/value head per query head)
    Index window = 0, sinks = 0;      // 0: no window
    const float* slopes = nullptr;    // (heads) ALiBi's slopes, or null: no bias

    Index d_head() const { return d_model / heads; }
    Index kv() const { return kv_heads ? kv_heads : heads; }
    Index kv_width() const { return kv() * d_head(); }
    bool visible(Index i, Index j) const {
        return (!causal || j <= i) && (window == 0 || i - j < window || j < sinks);
    }
    // Q: (rows, d_model)   K, V: (rows, kv_width)   valid: (sequences) or null
    // -> A: (sequences, heads, length, length) the weights, kept for backward and for the page
    // -> Z: (rows, d_model)
    void forward(Index sequences, const Index* valid, const float* Q, const float* K, const float* V, float* A,
                 float* Z) const;
    // dZ: (rows, d_model) -> dQ: (rows, d_model), dK, dV: (rows, kv_width), overwritten
    // scratch: (length, length)
    void backward(Index sequences, const float* Q, const float* K, const float* V, const float* A, const float* dZ,
                  float* dQ, float* dK, float* dV, float* scratch) const;
};

// Rotary positions (mechanism/rotary.hpp) on the heads of a (rows, cols)
// matrix of sequences of `length` rows: in each head of width d_head, the
// pair (2i, 2i + 1) of row r turns by (r % length) base^(-2i/d_head), from
// tables of cos and sin (positions, d_head / 2) made by rotary_tables().
struct Rotary {
    Index cols, d_head, length;
    const float *cos, *sin;
    // X: (rows, cols), turned in place
    void forward(Index rows, float* X) const;
    // dX: (rows, cols), turned back in place (each turn's transpose)
    void backward(Index rows, float* dX) const;
};
// cos, sin: (positions, d_head / 2) of the angles p base^(-2i/d_head), each from
// its formula in double, rounded once
void rotary_tables(Index positions, Index d_head, double base, float* cos, float* sin);
// one position's row of them: cos, sin (d_head / 2)
void rotary_angles_row(Index position, Index d_head, double base, float* cos, float* sin);
// x (cols): the pairs of each head of width d_head turned by the angles whose cos and sin are given (d_head / 2)
void rotary_turn(float* x, Index cols, Index d_head, const float* cos, const float* sin);

// Mean softmax cross-entropy of logits against target classes; rows whose
// target is negative (padding) are left out of the mean and get no gradient.
struct SoftmaxCrossEntropy {
    Index classes;
    // logits: (rows, classes)   targets: (rows)   -> dlogits: (rows, classes)
    // = (softmax(logits) - onehot(target)) / counted rows.  Returns the mean loss.
    double forward_backward(Index rows, const float* logits, const std::int32_t* targets, float* dlogits) const;
    // the same with the gradient divided by `normaliser` instead (the targets of a
    // whole batch, of which these rows are a part). Returns the summed loss.
    double forward_backward_sum(Index rows, const float* logits, const std::int32_t* targets, float* dlogits,
                                double normaliser) const;
};

// The index of the largest entry of each row (the first on ties).
// logits: (rows, classes) -> out: (rows)
void argmax_rows(Index rows, Index classes, const float* logits, std::int32_t* out);

}  // namespace attn::train
