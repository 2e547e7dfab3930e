// The language model's options and the results of its calls (model.hpp holds
// the model; analysis.hpp the results of its analysis): plain structs, each
// field with its shape and meaning.
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

// Sizes and the seed are numbers as a JS caller gives them, checked here.
struct LanguageModelOptions {
    std::vector<std::string> texts;     // training texts, UTF-8, at least one character in all
    std::vector<std::string> held_out;  // held-out texts (may be empty: evaluate() then throws)
    double layers = 2;                  // blocks, 1..4
    double heads = 4;                   // 1..d_model, divides d_model
    double d_model = 64;                // 1..256
    double context = 32;                // positions, 2..128
    double seed = 1;                    // integer in [0, 2^53]
    double batch = 32;                  // sequences per step, 1..512
    double learning_rate = 3e-3;        // Adam's, finite and > 0
    double warmup = 50;                 // steps of linear learning-rate warm-up, integer >= 0
    double clip = 1;                    // global gradient norm clip, finite and >= 0 (0: off)
    double min_count = 1;               // characters seen fewer times fold into the unknown token, integer >= 1
    // As attention is run today (model.hpp, "Positions, shared keys, windows"):
    std::string position = "learned";   // "learned", "sinusoidal", "rotary", "alibi" or "none"
    double kv_heads = 0;                // key/value heads, divides heads (0: heads, one per query head)
    double window = 0;                  // a query sees the last `window` keys, itself included (0: all), <= context
    double sinks = 0;                   // and the first `sinks` keys always (needs a window), <= context
};

struct LmStep {
    double step;    // steps taken so far
    double loss;    // the mean cross-entropy of the last step's batch (before its update)
    double tokens;  // the characters predicted (padding left out) in all the steps of the call
};
struct LmEvaluation {
    double loss;          // held-out mean cross-entropy per predicted token (nats)
    double unigram_loss;  // the same targets under the training unigram frequencies, add-one smoothed
    double tokens;        // held-out targets counted
    double length = 0;    // evaluate_texts: the longest window read (positions)
};
struct NextTokens {
    std::vector<std::string> tokens;  // the most likely next tokens, most likely first (at most 20)
    std::vector<float> probabilities; // their probabilities
};
struct AttentionMaps {
    std::vector<std::string> tokens;           // ⏎ + the text's characters (m tokens)
    std::vector<std::vector<Mat>> weights;     // [layer][head] (m, m), causal
};
struct GenerateOptions {
    std::string prompt;        // UTF-8, the text the poem starts with
    double max_tokens = 24;    // characters to write at most, integer >= 0
    double temperature = 0.8;  // finite, >= 0 (0: always the most likely)
    double top_k = 20;         // sample among the k most likely, integer >= 0 (0: all)
    double top_p = 1;          // then the fewest most likely reaching this probability, in (0, 1] (1: all)
    double min_p = 0;          // then those at least min_p times as likely as the first, in [0, 1] (0: all)
    double seed = 1;           // integer in [0, 2^53]
    // the positions rotary and alibi read a cached key at: "absolute" (the token's own) or
    // "slot" (renumbered 0, 1, ... in the cache, as StreamingLLM does; rotary and alibi only)
    std::string cache_positions = "absolute";
};
// One token through the key-value cache, in a generation begun by
// begin_generation(): the query row it adds to every head's causal map and
// what it cost. Multiply-adds count the products of the matrix products
// (projections, scores, weighted sums, MLP, unembedding), per token at
// position t with d = d_model, L layers, and a = decode_attention_cost(t + 1, d)
// (measures/cost_model.hpp: one layer's scores and weighted sums, the one count the
// complexity table's generation_cost sums too):
//   with the cache:    L (12 d^2 + a.cached) + d vocab          a.cached = 2 (t + 1) d
//   without (every position 0..t again): L (12 d^2 (t + 1) + a.uncached) + d vocab
//                                                                a.uncached = (t + 1)(t + 2) d
// and the prefill, ⏎ and the prompt's m rows of the map in one pass: L (12 d^2 m + a.uncached) + d vocab
//                                                                with a = decode_attention_cost(m, d)
struct DecodeStep {
    std::string token;                  // the token read at this position (the prompt's or the one written)
    double position;                    // t: its position, the query row computed
    std::vector<std::vector<std::vector<float>>> rows;  // [layer][head] (t + 1): the row's weights on keys 0..t
    double cached_multiply_adds;        // this token with the cache
    double uncached_multiply_adds;      // this token recomputing positions 0..t
    double attention_cached;            // of these, one layer's attention with the cache: a.cached
    double attention_uncached;          // and without it: a.uncached
    double cache_numbers;               // K and V kept after it: 2 L entries kv_heads d_head
    double cache_entries;               // the positions the cache holds: t + 1, at most sinks + window
    std::string next;                   // the token sampled to follow ("" once done)
    bool done;                          // the boundary was sampled, or the context is full
    double prefill_multiply_adds, decode_multiply_adds;  // the generation's prefill; its decode steps so far
    NextTokens kept;                    // what `next` was drawn from: the filters' survivors (sampling.hpp), renormalised
};
struct VocabularyInfo {
    std::vector<std::string> tokens;  // every token's text, by index: ⏎, (�,) the characters
    double unknown;                   // distinct training characters folded into �
    double coverage;                  // share of training characters kept (not folded)
};
struct LmInfo {
    double parameters, vocab, tokens_per_step, steps;
    std::string position;             // as the options name it
    double kv_heads, window, sinks;   // kv_heads as used (heads when the option was 0)
    double chunks;                    // a step's chunks (model.hpp, "a step in chunks")
};

}  // namespace attn::train
