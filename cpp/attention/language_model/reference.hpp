// Plain-loop double-precision references for the language model
// (model.hpp): its new layers (layer norm, GELU, bias, residual),
// forward and backward, and the whole model's forward, loss and backward;
// and its gradient check by finite differences. Slow and obvious on purpose:
// the fast float path is tested against these, and these against finite
// differences. The attention heads and linear maps are training/reference.hpp's.
#pragma once

#include "attention/training/reference.hpp"

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
// How the model knows where a token is: a learned table P added to the
// embeddings, the fixed sinusoidal one, rotary turns of each head's q and k,
// ALiBi's per-head linear biases on the scores, or nothing but the causal mask.
enum class LmPosition { learned, sinusoidal, rotary, alibi, none };
LmPosition lm_position(const std::string& name);  // throws naming the option for another name
const char* lm_position_name(LmPosition position);
constexpr double kRotaryBase = 10000;

struct LmConfig {
    Index vocab = 10, context = 6, d_model = 8, heads = 2, layers = 2;
    LmPosition position = LmPosition::learned;
    Index kv_heads = 0;         // 0: heads
    Index window = 0, sinks = 0;  // 0: no window; sinks need one
    Index kv() const { return kv_heads ? kv_heads : heads; }
    Index kv_width() const { return kv() * (d_model / heads); }  // the columns of K and V
};
// The parameter tensors by name: indices into the model's ParameterStore (and
// a ParamsD) in store order. The embedding E (vocab, d) and the positions P
// (context, d; (0, d) unless position is learned); kBlockTensors per block; then the final layer norm and the
// unembedding. lm_tensor_shape() gives each one's shape, lm_tensor_names() its
// name ("layer1.Wq", "lnf.gain").
constexpr Index kEmbedding = 0, kPositions = 1;
enum LmBlockTensor : Index {
    kLn1Gain, kLn1Bias,    // (1, d)
    kWq, kBq, kWk, kBk,    // (d, d), (1, d); Wk (d, kv_width), bk (1, kv_width)
    kWv, kBv, kWo, kBo,    // Wv (d, kv_width), bv (1, kv_width); (d, d), (1, d)
    kLn2Gain, kLn2Bias,    // (1, d)
    kW1, kB1,              // (d, 4d), (1, 4d)
    kW2, kB2,              // (4d, d), (1, d)
    kBlockTensors
};
enum LmFinalTensor : Index {
    kLnfGain, kLnfBias,    // (1, d)
    kWout, kBout,          // (d, vocab), (1, vocab)
    kFinalTensors
};
// tensor `which` of block `layer` (from 0); of the tensors after the blocks
constexpr Index lm_tensor(Index layer, LmBlockTensor which) { return 2 + kBlockTensors * layer + which; }
constexpr Index lm_final_tensor(Index layers, LmFinalTensor which) { return 2 + kBlockTensors * layers + which; }
constexpr Index lm_tensor_count(Index layers) { return lm_final_tensor(layers, kFinalTensors); }
std::vector<std::string> lm_tensor_names(Index layers);
struct TensorShape {
    Index rows, cols;
};
TensorShape lm_tensor_shape(const LmConfig& config, Index tensor);
struct LmReference {
    double loss = 0;
    MatD logits;                               // (rows, vocab)
    std::vector<std::vector<MatD>> weights;    // [layer][sequence * heads + head] (n, n)
};
// tokens, targets: (sequences * n), n = config.context; target -1: no loss at that row.
// Positions run 0 .. n - 1 in each sequence (with sinusoidal, rotary, alibi or
// none, n may pass the context the model was trained at).
// grads (if not null) receives dloss/dparam, same shapes as params.
LmReference lm_reference(const LmConfig& config, const ParamsD& params, const TokenIds& tokens,
                         const TokenIds& targets, ParamsD* grads);

// The gradient check of gradient_check_reference (training/reference.hpp: the
// five-point stencil, the same relative error) over the entries listed as
// (tensor, flat index), or every entry if the list is empty.
GradientCheck lm_gradient_check_reference(const LmConfig& config, const ParamsD& params, const TokenIds& tokens,
                                          const TokenIds& targets,
                                          const std::vector<std::pair<Index, Index>>& entries);

}  // namespace attn::train
