// Plain-loop double-precision references for every layer of the training
// engine (layers.hpp), forward and backward, and for the whole default
// model; and the gradient check: central finite differences of the double
// forward over every parameter against the double backward.
//
// Slow and obvious on purpose: the fast float path is tested against these,
// and these against finite differences.
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using TokenIds = std::vector<std::int32_t>;

// ---- layers ----------------------------------------------------------------
// E: (vocab, d)   PE: (length, d)   tokens: (rows)   -> X: (rows, d), row r at position r % length
MatD embedding_forward_reference(const MatD& E, const MatD& PE, const TokenIds& tokens);
// dX: (rows, d) -> dE: (vocab, d)
MatD embedding_backward_reference(const MatD& dX, const TokenIds& tokens, Index vocab);
// X: (rows, in)   W: (in, out)   -> (rows, out)
MatD linear_forward_reference(const MatD& X, const MatD& W);
// -> dX = dY W^T: (rows, in),  dW = X^T dY: (in, out)
void linear_backward_reference(const MatD& X, const MatD& W, const MatD& dY, MatD& dX, MatD& dW);
// columns [h d/heads, (h + 1) d/heads) of M (rows, d) -> (rows, d / heads)
MatD split_head_reference(const MatD& M, Index heads, Index h);
// the heads side by side: heads x (rows, d_head) -> (rows, heads d_head); its
// backward is split_head_reference of the gradient, and split's is concat
MatD concat_heads_reference(const std::vector<MatD>& heads);

// visible(i, j): may query i attend to key j?  keys >= valid are padding
Mask attention_mask_reference(Index n, Index valid, bool causal);

struct HeadReference {
    MatD scores;   // (n, n) Q K^T / sqrt(d_head), -inf where masked
    MatD weights;  // (n, n) softmax by rows, 0 where masked
    MatD output;   // (n, d_head) weights V
};
// one head of one sequence: Q, K, V: (n, d_head)   visible: (n, n)
// bias (if given): (n, m) added to the scaled scores before the mask (ALiBi's distances)
HeadReference attention_head_forward_reference(const MatD& Q, const MatD& K, const MatD& V, const Mask& visible,
                                               const MatD* bias = nullptr);
// weights: (n, n) from forward   dZ: (n, d_head) -> dQ, dK, dV: (n, d_head)
void attention_head_backward_reference(const MatD& Q, const MatD& K, const MatD& V, const MatD& weights,
                                       const MatD& dZ, MatD& dQ, MatD& dK, MatD& dV);

// mean cross-entropy over rows with target >= 0; dlogits (if not null): (rows, classes)
double cross_entropy_reference(const MatD& logits, const TokenIds& targets, MatD* dlogits);

// ---- the model -------------------------------------------------------------
// tokens -> X = E[token] + PE -> per head A_h = softmax(Q_h K_h^T / sqrt(d_head)), Z_h = A_h V_h
// -> Z = concat_h Z_h (+ X if residual) -> logits = Z Wo -> mean cross-entropy
struct ModelConfig {
    Index vocab = 10, length = 8, d_model = 32, heads = 1;
    bool causal = false, residual = false;
    // cross: the queries come from the positions alone, Q = P Wq (P the positional
    // encoding): an output position asks for what it must write, knowing only where
    // it is, while the keys and values come from the input: cross-attention from the
    // output's positions to the input, as a translator's decoder reads its source
    bool cross = false;
};
// the parameters, in this order: E (vocab, d), Wq, Wk, Wv (d, d), Wo (d, vocab)
using ParamsD = std::vector<MatD>;

struct ModelReference {
    double loss = 0;
    MatD logits;                // (rows, vocab)
    std::vector<MatD> weights;  // sequences * heads maps (n, n), sequence-major
};
// tokens, targets: (sequences * length)   valid: (sequences) keys per sequence, or empty for all
// grads (if not null) receives dloss/dparam, same shapes as params
ModelReference model_reference(const ModelConfig& config, const ParamsD& params, const MatD& PE,
                               const TokenIds& tokens, const TokenIds& targets, const std::vector<Index>& valid,
                               ParamsD* grads);

// ---- gradient check ----------------------------------------------------------
// For every entry p of every parameter: the analytic derivative a (backward in
// double) against a central finite difference b of the double forward,
//   b = [8 (L(p + h) - L(p - h)) - (L(p + 2h) - L(p - 2h))] / (12 h),  h = 1e-3,
// (the five-point central stencil: truncation error O(h^4), about 1e-13 here,
// and rounding error about 1e-16 |L| / h). The relative error of one entry is
//   |a - b| / max(|a| + |b|, 1e-6)
// (the floor keeps a derivative that is 0 up to rounding from dividing 1e-13 by
// 1e-13); the check reports the largest over all entries.
struct TensorCheck {
    std::string name;              // as parameters() names the tensor
    Index checked = 0;             // its entries compared
    double max_relative_error = 0;
};
struct GradientCheck {
    double max_relative_error = 0;
    Index checked = 0;  // entries compared
    std::string worst;  // "Wq(3, 1)": where the largest error is
    std::vector<TensorCheck> tensors;  // each tensor checked, in the order checked: its own largest error
    // one entry compared: relative error e, of tensor `tensor`, at `where` ("Wq(3, 1)")
    void add(const std::string& tensor, double e, const std::string& where);
};
GradientCheck gradient_check_reference(const ModelConfig& config, const ParamsD& params, const MatD& PE,
                                       const TokenIds& tokens, const TokenIds& targets, const std::vector<Index>& valid);
// the relative error above
double relative_error(double a, double b);

}  // namespace attn::train
