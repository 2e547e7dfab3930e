// What the models trained with Adam (Trainer, LanguageModel) share around a
// step: the check of a call's step count, one update of every parameter with
// the divergence check after it, the divergence message, and the parameters
// in double for the references.
#pragma once

#include "attention/adam.hpp"
#include "attention/param_store.hpp"
#include "attention/train_reference.hpp"

namespace attn::train {

// Throws unless n (the steps of one call) is an integer from 1 to 1000000.
void require_steps(double n);

// Throws "training diverged at step <step>: …".
[[noreturn]] void fail_diverged(Index step);

// One Adam update of every parameter from its gradient, as step `step`
// (from 1): throws fail_diverged(step) when a parameter is no longer finite.
void adam_update(Adam& adam, ParameterStore& store, Index step);

// Every tensor of the store, in double, in store order.
ParamsD parameters_double(const ParameterStore& store);

}  // namespace attn::train
