// The language model's options and the results of its calls (language_model.hpp
// holds the model): plain structs, each field with its shape and meaning.
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
};
struct NextTokens {
    std::vector<std::string> tokens;  // the most likely next tokens, most likely first (at most 20)
    std::vector<float> probabilities; // their probabilities
};
struct AttentionMaps {
    std::vector<std::string> tokens;           // ⏎ + the text's characters (m tokens)
    std::vector<std::vector<Mat>> weights;     // [layer][head] (m, m), causal
};
struct HeadScores {
    // [layer][head]: mean over queries i >= period of A[i][i - period]
    std::vector<std::vector<double>> previous_line;
    // [layer][head]: mean over every query of the weight on keys that are punctuation
    std::vector<std::vector<double>> punctuation;
};
struct GenerateOptions {
    std::string prompt;        // UTF-8, the text the poem starts with
    double max_tokens = 24;    // characters to write at most, integer >= 0
    double temperature = 0.8;  // finite, >= 0 (0: always the most likely)
    double top_k = 20;         // sample among the k most likely, integer >= 0 (0: all)
    double top_p = 1;          // then the fewest most likely reaching this probability, in (0, 1] (1: all)
    double min_p = 0;          // then those at least min_p times as likely as the first, in [0, 1] (0: all)
    double seed = 1;           // integer in [0, 2^53]
};
// trace(): the tensors of one text through every stage of the model, with
// the residual connections or the layer norms removed if asked (a lesion of
// the trained model, to measure what each does to the activations)
struct TraceOptions {
    bool residual = true;      // false: H = Attn(LN1(X)) and X = MLP(LN2(H)), no skip connections
    bool layer_norm = true;    // false: LN1, LN2 and LN_f pass their input through unchanged
    double temperature = 1;    // of the next token's softmax, finite and > 0
};
struct TraceStage {
    std::string name;  // embedding | ln1 | attention | residual1 | ln2 | hidden | mlp | residual2 | lnf | logits
    double layer;      // the block, 1..layers; 0 for embedding, lnf and logits
    Mat values;        // (m, d); hidden (m, 4d); logits (m, vocab)
    double rms;        // sqrt(mean of the squares of values)
};
struct Trace {
    std::vector<std::string> tokens;  // ⏎ + the text's characters (m tokens)
    std::vector<TraceStage> stages;   // in the order computed
    NextTokens next;                  // after the last token: softmax(logits / temperature), the 10 most likely
    double entropy;                   // of that whole distribution (nats)
    double loss;                      // mean cross-entropy of the text's characters, each predicted from
                                      // those before it (temperature 1; nats; 0 for an empty text)
};
// One token through the key-value cache, in a generation begun by
// begin_generation(): the query row it adds to every head's causal map and
// what it cost. Multiply-adds count the products of the matrix products
// (projections, scores, weighted sums, MLP, unembedding), per token at
// position t with d = d_model, L layers, and a = decode_attention_cost(t + 1, d)
// (cost_model.hpp: one layer's scores and weighted sums, the one count the
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
    double cache_numbers;               // K and V kept after it: 2 L (t + 1) d
    std::string next;                   // the token sampled to follow ("" once done)
    bool done;                          // the boundary was sampled, or the context is full
    double prefill_multiply_adds, decode_multiply_adds;  // the generation's prefill; its decode steps so far
    NextTokens kept;                    // what `next` was drawn from: the filters' survivors (sampling.hpp), renormalised
};
// head_roles(): what each head attends to, as the mean weight its queries put
// on a named key, over ⏎ + each text (at most context tokens), token i a query:
//   previous   A[i][i - 1]                    queries i >= 2
//   self       A[i][i]                        queries i >= 1
//   first      A[i][0], the boundary           queries i >= 2
//   induction  the sum of A[i][j + 1] over the earlier occurrences j (1 <= j <= i - 2)
//              of token i: the key right after where the current token was last seen
//                                             queries whose token occurred before
//   line       A[i][i - p], the same place one line back, p the length of the
//              text's first line (up to and including its first punctuation mark)
//                                             queries i >= p + 1, texts with a second line
// A role no query of the texts has is NaN (null in JS). best: the role with the
// highest score, the first in this order on ties.
struct HeadRole {
    double previous, self, first, induction, line;
    std::string best;
    double score;  // best's
};
struct HeadRoles {
    std::vector<std::vector<HeadRole>> heads;  // [layer][head]
    double texts, queries;                     // texts measured and their queries (i >= 1)
};
// halves(): for texts written twice (the repeats corpus), the next-token loss
// and accuracy over each half. A text of c characters has h = floor(c / 2) in
// its first half; the targets of [⏎, x0 .. x(c-1), ⏎] are x0 .. x(c-1) and the
// closing ⏎:
//   first   x0 .. x(h-1): new characters, to be guessed
//   second  x(h+1) .. x(c-1) and ⏎: each after a character seen before, so it can be
//           copied from what followed it there (x(h), whose coming nothing announces,
//           is in neither)
struct HalfScore {
    double loss;      // mean cross-entropy (nats)
    double accuracy;  // share of targets that are the most likely next token
    double tokens;    // targets counted
};
struct Halves {
    HalfScore first, second;
};
// baselines(): the held-out loss of counting models on the model's own tokens
// and held-out texts: for order N, P(x | the N - 1 tokens before) =
// (count(context, x) + k) / (count(context) + k vocab), counted over the
// training texts (each [⏎] + text + [⏎], ⏎ before its start). k is chosen among
// 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001 by the loss on the last tenth of the training texts, counted on the
// rest; the held-out texts are never looked at before the final loss.
struct NgramBaseline {
    double order;  // 1 unigram, 2 bigram, 3 trigram, 4 four-gram
    double loss;   // held-out mean cross-entropy per token (nats)
    double k;      // the smoothing chosen
    double unseen; // held-out targets whose context no training text has (add-k guesses 1 / vocab), a share
};
struct Baselines {
    std::vector<NgramBaseline> ladder;  // orders 1..4
    double tokens;                      // held-out targets (those of evaluate())
};
struct VocabularyInfo {
    std::vector<std::string> tokens;  // every token's text, by index: ⏎, (�,) the characters
    double unknown;                   // distinct training characters folded into �
    double coverage;                  // share of training characters kept (not folded)
};
struct LmInfo {
    double parameters, vocab, tokens_per_step, steps;
};

}  // namespace attn::train
