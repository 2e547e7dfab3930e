// Adam (Kingma and Ba, 2015) with bias correction. For each parameter p with
// gradient g, at step t = 1, 2, ...:
//   m = beta1 m + (1 - beta1) g            first moment (running mean)
//   v = beta2 v + (1 - beta2) g^2          second moment (running mean of squares)
//   m_hat = m / (1 - beta1^t),  v_hat = v / (1 - beta2^t)   both start at 0: undo that bias
//   p -= learning_rate m_hat / (sqrt(v_hat) + epsilon)
// beta^t is kept as a running product in double (no pow), so every build
// gives the same bits.
//
// Two options, both off by default (then the update is exactly the above):
//   warmup W > 0: the learning rate grows linearly over the first W steps,
//                 learning_rate min(1, t / W)
//   clip c > 0:   when the global norm |g| = sqrt(sum of every g^2) (in double,
//                 in order) exceeds c, every g is scaled by c / |g| first
#pragma once

#include "attention/types.hpp"

#include <cstdint>

namespace attn::train {

struct AdamOptions {
    double learning_rate = 0.01;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    double warmup = 0;  // steps of linear warm-up, an integer >= 0 (0: none)
    double clip = 0;    // the largest global gradient norm, finite and >= 0 (0: no clipping)
};

// Throws unless learning_rate is finite and > 0, the betas in [0, 1), epsilon
// finite and > 0, warmup an integer in [0, 1e9] and clip finite and >= 0.
void validate(const AdamOptions& options);

class Adam {
public:
    explicit Adam(const AdamOptions& options);

    // One update of count parameters p with gradients g and moments m, v
    // (all (count), m and v 0 before the first step). Advances t. Returns whether
    // every updated parameter is finite (checked in the same pass).
    bool step(float* p, const float* g, float* m, float* v, Index count);

    std::int64_t steps() const { return t_; }
    // the global gradient norm of the last step (before clipping); 0 before the first
    // step and when clip is off (it is then not computed)
    double last_norm() const { return last_norm_; }
    // the learning rate of step t (warm-up included)
    double rate_at(std::int64_t t) const;
    const AdamOptions& options() const { return options_; }

private:
    AdamOptions options_;
    std::int64_t t_ = 0;
    double beta1_t_ = 1, beta2_t_ = 1;  // beta1^t, beta2^t
    double last_norm_ = 0;
};

}  // namespace attn::train
