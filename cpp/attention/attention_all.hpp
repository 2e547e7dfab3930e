// The whole core, for the bindings and the tests: every room's headers.
#pragma once

// shared by every room: the types and checks, the numeric options, the seeded initialiser
#include "attention/init.hpp"
#include "attention/options.hpp"
#include "attention/types.hpp"

// mechanism/: attention as the articles build it
#include "attention/mechanism/alibi.hpp"
#include "attention/mechanism/attention.hpp"
#include "attention/mechanism/conditional.hpp"
#include "attention/mechanism/flash.hpp"
#include "attention/mechanism/kernel_regression.hpp"
#include "attention/mechanism/masks.hpp"
#include "attention/mechanism/multi_head.hpp"
#include "attention/mechanism/positional.hpp"
#include "attention/mechanism/rotary.hpp"
#include "attention/mechanism/scores.hpp"
#include "attention/mechanism/self_attention.hpp"
#include "attention/mechanism/softmax.hpp"
#include "attention/mechanism/tokens.hpp"

// measures/: what the page measures around it
#include "attention/measures/arithmetic.hpp"
#include "attention/measures/cost_model.hpp"
#include "attention/measures/dot_kernel.hpp"
#include "attention/measures/fit.hpp"
#include "attention/measures/histogram.hpp"
#include "attention/measures/scaling.hpp"
#include "attention/measures/word_order.hpp"

// kernels/: the fast paths
#include "attention/kernels/fused_attention.hpp"
#include "attention/kernels/gemm.hpp"

// training/: the training engine and the two small trainers
#include "attention/training/adam.hpp"
#include "attention/training/layers.hpp"
#include "attention/training/param_store.hpp"
#include "attention/training/products.hpp"
#include "attention/training/reference.hpp"
#include "attention/training/tasks.hpp"
#include "attention/training/trainer.hpp"
#include "attention/training/width_trainer.hpp"

// language_model/: the live-trained language model and its analysis
#include "attention/language_model/analysis.hpp"
#include "attention/language_model/model.hpp"
#include "attention/language_model/reference.hpp"
#include "attention/language_model/sampling.hpp"
#include "attention/language_model/text.hpp"

// encoder/ and io/: the pretrained encoder and its model file
#include "attention/encoder/encoder.hpp"
#include "attention/encoder/layers.hpp"
#include "attention/encoder/tokenizer.hpp"
#include "attention/io/model_file.hpp"
