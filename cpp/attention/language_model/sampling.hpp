// Sampling a language model's next token from its logits: softmax with a
// temperature, three filters, each applied to what the one before kept, and
// one uniform draw among what survives.
//   top-k  the k most likely tokens (0: all); softmax(logits / temperature)
//          over those k
//   top-p  of those, the fewest most likely whose probabilities sum to at
//          least top_p: the "nucleus" (1: all)
//   min-p  of those, the tokens at least min_p times as likely as the most
//          likely one (0: all)
// The survivors' probabilities are renormalised to sum to 1 (left as they are
// when top-p and min-p removed nothing, so that top_p = 1 and min_p = 0 draw
// exactly what top-k alone draws). A token of probability 0 (a logit of -inf,
// or one whose exp underflows) is never kept. Temperature 0 keeps the most
// likely token alone, with probability 1, and draws nothing. Ties: the lower
// token id first.
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <vector>

namespace attn::train {

struct SamplingOptions {
    double temperature = 0.8;  // finite, >= 0 (0: always the most likely)
    Index top_k = 20;          // >= 0 (0: every token)
    double top_p = 1;          // in (0, 1]
    double min_p = 0;          // in [0, 1]
};

// The options checked, each by its name: temperature finite >= 0, top_k an
// integer >= 0, top_p in (0, 1], min_p in [0, 1].
SamplingOptions sampling_options(double temperature, double top_k, double top_p, double min_p);

// The filters on one step's logits (vocab entries, finite or -inf), in scratch
// buffers of vocab entries that the caller keeps between steps (no allocation):
// order gets the token ids, most likely first; p the probabilities of the
// first `count` of them, the kept ones, renormalised. Returns count (>= 1).
Index sampling_filter(const float* logits, Index vocab, const SamplingOptions& options, std::int32_t* order, float* p);

// The kept token where u (uniform on [0, 1)) falls among their cumulative
// probabilities, summed in float in the order kept; the last one if rounding
// leaves u beyond the total.
std::int32_t sampling_draw(const std::int32_t* order, const float* p, Index count, float u);

// The plain reference: a full sort, softmax and cumulative sums in double.
struct KeptTokens {
    std::vector<std::int32_t> tokens;  // the kept ids, most likely first
    std::vector<double> probabilities; // renormalised, summing to 1
};
KeptTokens sampling_reference(const std::vector<float>& logits, const SamplingOptions& options);
std::int32_t sampling_draw_reference(const KeptTokens& kept, double u);

}  // namespace attn::train
