// Learning attention live: a one-layer attention model trained by
// backpropagation and Adam on a task whose right map is known (tasks.hpp).
//
//   tokens -> X = E[token] + PE              (rows, d_model)  PE sinusoidal, fixed
//          -> Q, K, V = X Wq, X Wk, X Wv     (rows, d_model)  no biases (cross: Q = PE Wq)
//          -> per head h: A_h = softmax(Q_h K_h^T / sqrt(d_head)), Z_h = A_h V_h
//          -> Z = concat_h Z_h               (rows, d_model)  (+ X if residual)
//          -> logits = Z Wo                  (rows, vocab)
//          -> loss = mean cross-entropy over every position of every sequence
// No biases, no layer norm, no feed-forward. Options add a residual
// connection (Z + X) and a causal mask (query i sees keys j <= i; the reverse
// task cannot be solved under it: position 0 would need the last token).
//
// Initialisation (seeded SplitMix64, init.hpp): E uniform on [-1, 1] (the
// scale of PE's entries, so neither drowns the other), Wq, Wk, Wv, Wo Xavier.
// Batches come from a generator seeded with `seed`; the held-out set (256
// sequences) and the probe example are fixed by the seed too. The same
// options give bit-identical losses at every step, natively and in WASM.
//
// Every buffer is allocated in the constructor; step() allocates nothing.
//
// Measured (default options, a shared 2-core machine): held-out accuracy
// first reaches 99% after 48-59 steps for seeds 1-5 on reverse, 40-48 on
// shift; a step takes about 1 ms natively (g++ -O3, SSE2) and 2.2 ms in
// WASM SIMD128 under Node 20, so reverse is learned in about 0.15 s.
// gradient_check() takes about 2 s natively and 3.4 s in WASM on the
// default model (3712 parameters, 4 double forwards each).
#pragma once

#include "attention/training/adam.hpp"
#include "attention/init.hpp"
#include "attention/training/param_store.hpp"
#include "attention/training/step.hpp"
#include "attention/training/tasks.hpp"
#include "attention/training/layers.hpp"
#include "attention/training/reference.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

// Sizes and the seed are numbers as a JS caller gives them, checked here to
// be integers in range (so the binding converts nothing itself).
struct TrainerOptions {
    std::string task = "reverse";  // "reverse" or "shift"
    double seed = 1;               // integer in [0, 2^53]
    double length = 8;             // tokens per sequence, 2..256
    double vocab = 10;             // distinct tokens, 2..4096
    double d_model = 32;           // 1..512, a multiple of heads
    double heads = 1;              // 1..d_model
    double batch = 32;             // sequences per step, 1..4096
    double learning_rate = 0.01;   // Adam's, finite and > 0
    bool causal = false;
    bool residual = false;
    bool cross = false;            // queries from the positions alone (ModelConfig::cross): cross-attention
};

struct StepResult {
    double step;  // steps taken so far
    double loss;  // the mean cross-entropy of the last step's batch (before its update)
};
struct Evaluation {
    double loss;      // mean cross-entropy over the held-out set
    double accuracy;  // fraction of held-out positions whose most likely token is the target
};
struct Probe {
    std::vector<std::int32_t> input, target, prediction;  // (length) each
    std::vector<Mat> weights;                             // per head (length, length)
    Mat needed;  // (length, length) the map the task needs: 1 where output i reads input task_source(i)
};
struct Parameters {
    Mat embedding;   // (vocab, d_model)
    Mat Wq, Wk, Wv;  // (d_model, d_model)
    Mat Wo;          // (d_model, vocab)
};

class Trainer {
public:
    static constexpr Index kHeldOut = 256;      // held-out sequences
    static constexpr double kMaxFloats = 1 << 26;  // 256 MB of buffers at most
    static constexpr double kMaxCheckWork = 4294967296.0;  // 2^32 multiply-adds per gradient_check(): ~15 s in WASM

    // Throws invalid_argument naming the first bad option.
    explicit Trainer(const TrainerOptions& options);

    // Takes n steps (n an integer >= 1) and returns the last one's loss. Throws
    // if training diverges (a loss, a parameter or the logits not finite: too
    // high a learning rate), on the step whose update did it; from then on
    // every step, evaluate(), probe() and gradient_check() throw the same.
    // With `losses`, also each step's loss: it is resized to n once n is checked
    // (a vector kept between calls allocates only when n grows).
    StepResult step(double n = 1, std::vector<double>* losses = nullptr);
    Evaluation evaluate();
    Probe probe();
    Parameters parameters() const;
    // Finite differences in double over every parameter, on 2 held-out sequences.
    // Throws for a model too large to check in one call (kMaxCheckWork).
    GradientCheck gradient_check() const;

    // Forward, loss and backward on `sequences` (<= batch) sequences of tokens and
    // targets (sequences * length each), without updating: the gradients are
    // then in gradient(i), i in the order of ParamsD. What step() does before Adam.
    double compute_gradients(Index sequences, const std::int32_t* tokens, const std::int32_t* targets);
    Mat gradient(Index i) const;
    // the held-out set: (kHeldOut * length) tokens and targets
    const std::vector<std::int32_t>& held_out_tokens() const { return held_tokens_; }
    const std::vector<std::int32_t>& held_out_targets() const { return held_targets_; }

    const ModelConfig& config() const { return config_; }
    Task task() const { return task_; }
    Index steps() const { return steps_; }
    // the fixed positional encoding added to every sequence: (length, d_model)
    const Mat& positional() const { return pe_; }

private:
    // the logits of `sequences` sequences; divergence_.found(steps_) when one is not finite
    void forward(Index sequences, const std::int32_t* tokens);
    void backward(Index sequences, const std::int32_t* tokens);
    void train_step();
    ParamsD parameters_double() const { return train::parameters_double(store_); }

    ModelConfig config_;
    Task task_;
    Index batch_;
    std::uint64_t seed_;
    Rng batches_;
    Index steps_ = 0;
    double last_loss_ = 0;
    Divergence divergence_;

    ParameterStore store_;
    Adam adam_;
    Embedding embedding_;
    Linear project_, unembed_;  // (d, d) for Wq, Wk, Wv;  (d, vocab) for Wo
    MultiHeadAttention attention_;
    SoftmaxCrossEntropy loss_;

    Mat pe_;                                          // (length, d_model)
    std::vector<float> arena_;                        // every activation, one allocation
    float *X_, *Q_, *K_, *V_, *Z_, *logits_;          // (rows, d) ... (rows, vocab)
    float *dX_, *dQ_, *dK_, *dV_, *dZ_, *dlogits_;    // same shapes
    float *A_, *scratch_;                             // (batch, heads, n, n), (n, n)
    float* P_ = nullptr;                              // (rows, d): cross-attention's query input, PE tiled
    std::vector<std::int32_t> tokens_, targets_, predicted_;  // (rows)
    std::vector<std::int32_t> held_tokens_, held_targets_;    // (kHeldOut * length)
    std::vector<std::int32_t> probe_tokens_, probe_targets_;  // (length)
};

}  // namespace attn::train
