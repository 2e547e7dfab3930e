// The whole core, for the bindings and the tests.
#pragma once

#include "attention/attention.hpp"
#include "attention/conditional.hpp"
#include "attention/cost_model.hpp"
#include "attention/init.hpp"
#include "attention/kernel_regression.hpp"
#include "attention/masks.hpp"
#include "attention/multi_head.hpp"
#include "attention/positional.hpp"
#include "attention/scaling.hpp"
#include "attention/scores.hpp"
#include "attention/self_attention.hpp"
#include "attention/softmax.hpp"
#include "attention/tokens.hpp"
#include "attention/types.hpp"
