// Plain-loop double-precision references for the language model
// (language_model.hpp): its new layers (layer norm, GELU, bias, residual),
// forward and backward, and the whole model's forward, loss and backward;
// and its gradient check by finite differences. Slow and obvious on purpose:
// the fast float path is tested against these, and these against finite
// differences. The attention heads and linear maps are train_reference.hpp's.
#pragma once

#include "attention/train_reference.hpp"

#include <utility>

namespace attn::train {

// ---- layers ----------------------------------------------------------------
constexpr double kLayerNormEpsilon = 1e-5;
// X: (rows, d)   gain, bias: (1, d)   -> (rows, d): (x - mean) / sqrt(var + eps) gain + bias
MatD layer_norm_reference(const MatD& X, const MatD& gain, const MatD& bias);
// dY: (rows, d) -> dX: (rows, d), dgain, dbias: (1, d)
void layer_norm_backward_reference(const MatD& X, const MatD& gain, const MatD& dY, MatD& dX, MatD& dgain,
                                   MatD& dbias);
// entry by entry: u (1 + tanh(sqrt(2/pi) (u + 0.044715 u^3))) / 2
MatD gelu_reference(const MatD& U);
// dG (same shape as U) -> dU = dG gelu'(U)
MatD gelu_backward_reference(const MatD& U, const MatD& dG);
// X: (rows, cols) + b: (1, cols) on every row; its backward: db = column sums of dY, dX = dY
MatD bias_reference(const MatD& X, const MatD& b);
MatD bias_backward_reference(const MatD& dY);
// X + F; its backward: dX = dY and dF = dY
MatD residual_reference(const MatD& X, const MatD& F);

// ---- the model -------------------------------------------------------------
struct LmConfig {
    Index vocab = 10, context = 6, d_model = 8, heads = 2, layers = 2;
};
// The parameters in the order of the model's ParameterStore:
//   0 E (vocab, d), 1 P (context, d), then per layer l (at 2 + 16 l):
//   ln1 gain, ln1 bias (1, d), Wq (d, d), bq (1, d), Wk, bk, Wv, bv, Wo, bo,
//   ln2 gain, ln2 bias, W1 (d, 4d), b1 (1, 4d), W2 (4d, d), b2 (1, d),
//   then lnf gain, lnf bias (1, d), W_out (d, vocab), b_out (1, vocab).
std::vector<std::string> lm_tensor_names(Index layers);
struct LmReference {
    double loss = 0;
    MatD logits;                               // (rows, vocab)
    std::vector<std::vector<MatD>> weights;    // [layer][sequence * heads + head] (n, n)
};
// tokens, targets: (sequences * context); target -1: no loss at that row.
// grads (if not null) receives dloss/dparam, same shapes as params.
LmReference lm_reference(const LmConfig& config, const ParamsD& params, const TokenIds& tokens,
                         const TokenIds& targets, ParamsD* grads);

// The gradient check of gradient_check_reference (train_reference.hpp: the
// five-point stencil, the same relative error) over the entries listed as
// (tensor, flat index), or every entry if the list is empty.
GradientCheck lm_gradient_check_reference(const LmConfig& config, const ParamsD& params, const TokenIds& tokens,
                                          const TokenIds& targets,
                                          const std::vector<std::pair<Index, Index>>& entries);

}  // namespace attn::train
