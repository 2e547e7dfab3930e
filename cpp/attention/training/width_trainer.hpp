// Learning the width of Nadaraya-Watson attention pooling: the parametric
// kernel regression of the height -> weight example.
//
//   score(q, k) = -((q - k) w)^2 / 2       w: the learnable width (1/cm)
//   alpha(q, k_j) = softmax_j score(q, k_j),  estimate(q) = sum_j alpha(q, k_j) y_j
//
// Training data: `samples` heights uniform on [150, 195] cm and weights from a
// body-mass index of 22, weight = 22 (height / 100)^2 kg, plus noise (the sum of
// 12 uniforms minus 6, about normal, times `noise` kg), all from the seeded
// SplitMix64 generator. The loss is the mean squared error of leave-one-out
// estimates (each sample estimated from the others: with itself included the
// best w would be infinite, each point copying its own value):
//   L(w) = 1/n sum_i (yhat_i - y_i)^2,   yhat_i = sum_{j != i} alpha_ij y_j
// and its gradient in closed form:
//   dL/dw = 2/n sum_i (yhat_i - y_i) sum_{j != i} alpha_ij (y_j - yhat_i) ds_ij/dw,
//   ds_ij/dw = -(x_i - x_j)^2 w
// w is trained by Adam (adam.hpp). Everything is in double with the
// deterministic exp of products.hpp: the same bits natively and in WASM.
#pragma once

#include "attention/training/adam.hpp"
#include "attention/types.hpp"

#include <vector>

namespace attn::train {

using VecD = Eigen::VectorXd;

struct NwOptions {
    double seed = 1;             // integer in [0, 2^53]
    double samples = 50;         // training samples, integer 3..10000
    double noise = 2;            // kg, finite, >= 0
    double width = 0.02;         // the initial w (1/cm), finite, > 0: a wide, nearly flat kernel
    double learning_rate = 0.01;  // Adam's, finite, > 0
};

struct NwStep {
    double step, loss, width;  // steps so far, the leave-one-out loss before the last update, w after it
};
struct NwEstimate {
    Mat weights;    // (m, n) alpha(query_i, key_j), rows summing to 1
    Vec estimates;  // (m)
};

// The leave-one-out loss of w on samples (x, y), and dL/dw in *gradient if not null.
double nw_loss(const VecD& x, const VecD& y, double w, double* gradient);
// The same loss by plain loops with std::exp, for the tests.
double nw_loss_reference(const VecD& x, const VecD& y, double w);

class NwTrainer {
public:
    static constexpr Index kHeldOut = 100;  // held-out samples, from their own stream

    explicit NwTrainer(const NwOptions& options);

    // n steps of Adam on w (n an integer >= 1); throws if training diverges.
    // With `losses`, each step's loss too (resized to n once n is checked).
    NwStep step(double n = 1, std::vector<double>* losses = nullptr);
    // The leave-one-out loss at each width (finite, > 0): the curve L(w) that
    // training descends. (widths)
    VecD losses_at(const VecD& widths) const;
    double loss() const;          // leave-one-out loss at the current w
    double held_out_loss() const;  // mean squared error of the held-out samples estimated from all training samples
    double width() const { return double(width_); }
    // the same width as a kernel's sigma (cm): score -((q - k) / sigma)^2 / 2
    double sigma() const { return 1.0 / double(width_); }
    // attention pooling with the current w: keys, values (n), queries (m), all finite
    NwEstimate estimate(const VecRef& keys, const VecRef& values, const VecRef& queries) const;
    // the training samples: heights (cm), weights (kg)
    const VecD& heights() const { return x_; }
    const VecD& weights() const { return y_; }

private:
    VecD x_, y_, held_x_, held_y_;
    float width_, grad_ = 0, m_ = 0, v_ = 0;
    Adam adam_;
    Index steps_ = 0;
};

}  // namespace attn::train
