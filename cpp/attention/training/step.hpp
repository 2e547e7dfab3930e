// What the models trained with Adam (Trainer, LanguageModel) share around a
// step: the check of a call's step count, one update of every parameter with
// the divergence check after it, the divergence message and the state it
// leaves, and the parameters in double for the references.
#pragma once

#include "attention/training/adam.hpp"
#include "attention/training/param_store.hpp"
#include "attention/training/reference.hpp"

namespace attn::train {

// Throws unless n (the steps of one call) is an integer from 1 to 1000000.
void require_steps(double n);

// Throws "training diverged at step <step>: …".
[[noreturn]] void fail_diverged(Index step);

// Whether a model still computes finite numbers. An update can leave every
// parameter finite and yet so large that the next forward overflows (a
// learning rate of 1e15 does): so the models check the logits of every
// forward, and each step() call ends with a forward of one sequence. Once a
// model has diverged, every step and every read that runs a forward throws
// fail_diverged with the step whose update broke it, never numbers.
class Divergence {
public:
    // throws when the model has diverged
    void require_none() const {
        if (step_) fail_diverged(step_);
    }
    // the update of `step` broke the model (0, the model as initialised: step 1)
    [[noreturn]] void found(Index step) {
        step_ = step > 0 ? step : 1;
        fail_diverged(step_);
    }
    // new parameters, all finite (set_parameters)
    void clear() { step_ = 0; }

private:
    Index step_ = 0;  // 0: none
};

// Whether the n floats from x are all finite.
bool all_finite(const float* x, Index n);

// One Adam update of every parameter from its gradient, as step `step`
// (from 1): divergence.found(step) when a parameter is no longer finite.
// grads: the gradients to apply (default: the store's own)
void adam_update(Adam& adam, ParameterStore& store, Index step, Divergence& divergence, const float* grads = nullptr);

// Every tensor of the store, in double, in store order.
ParamsD parameters_double(const ParameterStore& store);

}  // namespace attn::train
