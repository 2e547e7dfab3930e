#include "attention/training/step.hpp"

#include <cmath>

namespace attn::train {

void require_steps(double n) {
    // if/fail: the message is built only on failure, so a step allocates nothing
    if (!(std::isfinite(n) && n == std::floor(n) && n >= 1 && n <= 1e6))
        fail("steps must be an integer from 1 to 1000000, got " + number(n));
}

void fail_diverged(Index step) {
    fail("training diverged at step " + std::to_string(step) +
             ": the loss or a parameter is no longer finite; try a smaller learning_rate",
         Code::diverged, "learning_rate");
}

bool all_finite(const float* x, Index n) {
    for (Index i = 0; i < n; ++i)
        if (!std::isfinite(x[i])) return false;
    return true;
}

void adam_update(Adam& adam, ParameterStore& store, Index step, Divergence& divergence, const float* grads) {
    if (!adam.step(store.values(), grads ? grads : store.grads(), store.first_moments(), store.second_moments(),
                   store.total()))
        divergence.found(step);
}

ParamsD parameters_double(const ParameterStore& store) {
    ParamsD p;
    for (Index i = 0; i < store.count(); ++i) p.push_back(store.get(i).cast<double>());
    return p;
}

}  // namespace attn::train
