#include "attention/training/adam.hpp"

#include <cmath>
#include <limits>

namespace attn::train {

void validate(const AdamOptions& o) {
    require_argument(std::isfinite(o.learning_rate) && o.learning_rate > 0, "learning_rate",
                     "learning_rate must be a finite number greater than 0, got " + number(o.learning_rate));
    require(o.beta1 >= 0 && o.beta1 < 1, "beta1 must be in [0, 1), got " + number(o.beta1));
    require(o.beta2 >= 0 && o.beta2 < 1, "beta2 must be in [0, 1), got " + number(o.beta2));
    require(std::isfinite(o.epsilon) && o.epsilon > 0,
            "epsilon must be a finite number greater than 0, got " + number(o.epsilon));
    require(std::isfinite(o.warmup) && o.warmup == std::floor(o.warmup) && o.warmup >= 0 && o.warmup <= 1e9,
            "warmup must be an integer from 0 to 1000000000, got " + number(o.warmup));
    require(std::isfinite(o.clip) && o.clip >= 0, "clip must be a finite number >= 0, got " + number(o.clip));
}

double Adam::rate_at(std::int64_t t) const {
    if (options_.warmup > 0 && double(t) < options_.warmup)
        return options_.learning_rate * (double(t) / options_.warmup);
    return options_.learning_rate;
}

Adam::Adam(const AdamOptions& options) : options_(options) { validate(options_); }

bool Adam::step(float* p, const float* g, float* m, float* v, Index count) {
    ++t_;
    beta1_t_ *= options_.beta1;
    beta2_t_ *= options_.beta2;
    const float b1 = float(options_.beta1), b2 = float(options_.beta2);
    const float c1 = float(1 - options_.beta1), c2 = float(1 - options_.beta2);
    // the bias corrections 1 / (1 - beta^t)
    const float k1 = float(1 / (1 - beta1_t_)), k2 = float(1 / (1 - beta2_t_));
    const float lr = float(rate_at(t_)), eps = float(options_.epsilon);
    // s: the clipping's scale of g (1: none)
    float s = 1;
    if (options_.clip > 0) {
        double sum = 0;
        for (Index i = 0; i < count; ++i) sum += double(g[i]) * double(g[i]);
        last_norm_ = std::sqrt(sum);
        if (last_norm_ > options_.clip) s = float(options_.clip / last_norm_);
    }
    // |x| <= the largest float fails for an infinity and a NaN alone
    const float largest = std::numeric_limits<float>::max();
    int infinite = 0;
    const auto update = [&](Index i, float gi) {
        m[i] = b1 * m[i] + c1 * gi;
        v[i] = b2 * v[i] + c2 * (gi * gi);
        const float m_hat = m[i] * k1, v_hat = v[i] * k2;
        p[i] -= lr * m_hat / (std::sqrt(v_hat) + eps);
        infinite |= !(std::fabs(p[i]) <= largest);
    };
    if (s != 1)
        for (Index i = 0; i < count; ++i) update(i, g[i] * s);
    else
        for (Index i = 0; i < count; ++i) update(i, g[i]);
    return infinite == 0;
}

}  // namespace attn::train
