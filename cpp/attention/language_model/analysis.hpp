// What a trained language model has learned, measured: free functions over a
// model (model.hpp), reading what it exposes (its forward on given texts, its
// vocabulary, its held-out and training texts) and never its insides. Each
// runs the model's forward, so each throws once the model has diverged.
//
//   head_roles   what each head attends to (previous, self, first, induction, line)
//   head_scores  each head's weight one period back and on punctuation, over one text
//   halves       the loss and accuracy over each half of texts written twice
//   baselines    the n-gram ladder the model is measured against
//   trace        the forward on one text stage by stage, optionally lesioned
//   position_losses  the loss of every next token along one text, read through the cache
#pragma once

#include "attention/language_model/model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

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

struct HeadScores {
    // [layer][head]: mean over queries i >= period of A[i][i - period]
    std::vector<std::vector<double>> previous_line;
    // [layer][head]: mean over every query of the weight on keys that are punctuation
    std::vector<std::vector<double>> punctuation;
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

// head_roles() measures on the held-out texts, when given none, the first ones
// up to this many tokens in all
constexpr Index kRoleTokens = 256;

// The roles of one head from its maps: maps[k] (m, m), m <= size + 1, over
// [⏎] + texts[k] (token ids); punctuation[token]: is it a punctuation mark;
// `unknown`: a token that never counts as an occurrence (-1: none).
HeadRole head_role(const std::vector<Mat>& maps, const std::vector<std::vector<std::int32_t>>& texts,
                   const std::vector<bool>& punctuation, std::int32_t unknown = -1);
// what each head attends to (HeadRoles) over the texts given, or the held-out
// texts (the first ones, up to kRoleTokens tokens in all) when there are none
HeadRoles head_roles(LanguageModel& model, const std::vector<std::string>& texts);
// over ⏎ + text (at most context tokens): period an integer in [1, context - 1]
HeadScores head_scores(LanguageModel& model, const std::string& text, double period);
// the loss and accuracy over each half of texts written twice (Halves): the
// texts given, or every held-out text when there are none
Halves halves(LanguageModel& model, const std::vector<std::string>& texts);
// the n-gram ladder (Baselines) of the model's tokens and held-out texts; it
// depends on them alone, not on the parameters
Baselines baselines(const LanguageModel& model);
// the stages of the forward on [0] + text (at most context tokens); with both
// options on, the logits are the model's own (the forward of training)
Trace trace(LanguageModel& model, const std::string& text, const TraceOptions& options);

// position_losses(): the loss of every next token along one text, as a
// decoder reading it token by token meets them. The model reads [⏎] + text and
// predicts text + [⏎]: m = characters + 1 targets, losses[i] the cross-entropy
// (nats) of token i + 1 given tokens 0..i, computed as the training loss is.
//   cached true   one token at a time through the model's key-value cache, as
//                 generation reads a prompt: with a window, its sinks and a ring of
//                 the last `window` positions, so the text may be of any length (up
//                 to kMaxPositionLossTokens); without, at most context tokens
//   cached false  the full forward, the model's mask (window and sinks) applied: up
//                 to context tokens, or 4 context without learned positions
// Where both can read the text, they give the same logits (bit for bit) and so
// the same losses. cache_positions "slot" (cached, rotary or alibi only): the
// cache's entries read at their slots, as StreamingLLM does (GenerateOptions).
struct PositionLossOptions {
    bool cached = true;
    std::string cache_positions = "absolute";
};
struct PositionLosses {
    std::vector<std::string> tokens;  // (m + 1) ⏎, the text's characters, ⏎
    std::vector<double> losses;       // (m) losses[i]: of tokens[i + 1]
    double mean;                      // of losses
};
constexpr Index kMaxPositionLossTokens = 65536;
PositionLosses position_losses(LanguageModel& model, const std::string& text, const PositionLossOptions& options);

}  // namespace attn::train
