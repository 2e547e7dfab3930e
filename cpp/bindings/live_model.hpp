// A live language model of the JS API (raw_language_model.cpp keeps them by
// handle) with the buffers its calls reuse, for the bindings that share it
// (raw_lm_chunks.cpp: the step in chunks).
#pragma once

#include "attention/language_model/analysis.hpp"
#include "attention/language_model/model.hpp"
#include "bindings/convert.hpp"

#include <memory>
#include <vector>

namespace attn::js {

struct LiveModel {
    std::unique_ptr<train::LanguageModel> model;
    std::vector<double> losses;               // (n) of the last step(n)
    std::vector<train::Baselines> baselines;  // the n-gram ladder once computed: one entry
    std::vector<std::vector<float>> sums;     // the chunks' sums of a step in chunks, reused from step to step
    std::vector<float> kept;                  // this model's own run of the step: its nodes' sums ...
    std::vector<train::LanguageModel::ChunkSum> kept_nodes;  // ... and its nodes, till apply_chunks takes them
};

// the live model of { handle } (a deleted or unknown handle throws)
LiveModel& live_of(const val& o);

}  // namespace attn::js
