// A tiny decoder-only language model, trained live: characters (Unicode code
// points) as tokens, learned positions, pre-layer-norm transformer blocks,
// trained by backpropagation and Adam on a list of texts, then sampled.
//
// Tokens. Token 0 is the boundary (shown "⏎"): every text is encoded as
// [0] + its characters + [0], and training predicts every next token of that,
// so the model learns where a text starts and where it ends. Characters seen
// fewer than min_count times in the training texts fold into one unknown
// token (shown "�"). A held-out character missing from the training texts
// folds into it too; the unknown token exists only if something folded. The
// other tokens are the kept characters in code point order:
//   [⏎, (�,) kept characters...]
// A prompt character not in the vocabulary becomes the unknown token if the
// model has one, and is otherwise an error naming it.
//
// The model, d = d_model, n = context (rows = sequences * n, each sequence
// stacked as n rows):
//   X = E[token] + P[position]                 (rows, d)  E: (vocab, d), P: (n, d) learned
//   per block l = 1..layers:
//     H = X + Attn(LN1(X))                     Q, K, V = LN1(X) W + b, causal multi-head
//                                              attention, output Z Wo + bo
//     X = H + MLP(LN2(H))                      MLP(x) = GELU(x W1 + b1) W2 + b2, W1: (d, 4d)
//   logits = LN_f(X) W_out + b_out             (rows, vocab), W_out: (d, vocab), not tied to E
//   loss = mean cross-entropy of the next token over the positions that have one
// Adam with bias correction, linear warm-up over `warmup` steps and clipping
// of the global gradient norm at `clip` (training/adam.hpp).
//
// Positions, shared keys, windows: as attention is run today (each option
// trained by the same backward, each checked against lm_reference):
//   position   "learned" (above, the default); "sinusoidal": P fixed,
//              PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i + 1) = cos(...);
//              "rotary": no P, each head's q and k turned by their position
//              (base 10000, mechanism/rotary.hpp) after their projections;
//              "alibi": no P, head h adds -m_h (i - j) to its scores (the
//              slopes of mechanism/alibi.hpp); "none": no P, only the causal
//              mask tells positions apart. Without learned positions, the
//              tensor "positions" has 0 rows and the model reads texts
//              longer than its context (evaluate_texts, up to 4x).
//   kv_heads   query head h reads key/value head h kv_heads / heads: Wk and
//              Wv are (d, kv_heads d / heads), and so is each cache entry.
//   window     query i sees keys j with i - j < window, and j < sinks always
//   sinks      (mechanism/attention.hpp's visible()). Generation keeps the
//              sinks and a ring buffer of the last `window` positions: it
//              writes past the context (except with learned positions,
//              whose table ends there), the cache never holding more than
//              sinks + window entries.
//   cache_positions (GenerateOptions) "absolute": a cached key is read at
//              its token's position (what the training saw; the default);
//              "slot": rotary and alibi number the cache's entries 0, 1, ...
//              when they read them, as StreamingLLM does, so no position
//              ever passes sinks + window. Keys are cached before rotation
//              and turned when read, either way.
//
// Batches: each of the `batch` sequences is a training text drawn at random
// (seeded); a text longer than context + 1 tokens is cut to a random window of
// context + 1 tokens, a shorter one is padded (padding targets are -1, left
// out of the loss; under the causal mask padding is never seen by a real
// position). Only the rows with a target go through the unembedding.
//
// Initialisation (seeded SplitMix64, init.hpp; one stream per tensor): E and P
// uniform on [-0.5, 0.5] (smaller rows make layer norm so curved that the
// finite differences of the gradient check lose their 1e-6), Wq, Wk, Wv, W1 and W_out Xavier, Wo and W2 Xavier
// scaled by 1 / sqrt(2 layers), biases 0, layer-norm gains 1.
//
// Seeded and deterministic: the same options give bit-identical losses at
// every step natively and in WASM (training/products.hpp: no FMA, our own exp and
// log, the same summation order everywhere). Every buffer is allocated in the
// constructor: step() allocates nothing. generate() runs the model one token
// at a time with a cache of every layer's keys and values (the same logits as
// the full forward, bit for bit).
//
// What a trained model has learned (its heads' roles, the halves of repeated
// texts, the n-gram ladder, the forward stage by stage) is measured by the
// free functions of analysis.hpp, over what the model exposes below.
#pragma once

#include "attention/training/adam.hpp"
#include "attention/init.hpp"
#include "attention/language_model/reference.hpp"
#include "attention/language_model/results.hpp"
#include "attention/language_model/text.hpp"
#include "attention/options.hpp"
#include "attention/training/param_store.hpp"
#include "attention/language_model/sampling.hpp"
#include "attention/training/step.hpp"
#include "attention/training/layers.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

class LanguageModel {
public:
    static constexpr double kMaxFloats = 1 << 26;           // 256 MB of buffers at most
    static constexpr double kMaxCheckWork = 4294967296.0;   // multiply-adds of one gradient_check()
    static constexpr Index kTop = 20;                       // next(): the most likely tokens
    static constexpr std::int32_t kBoundary = 0;

    // Throws invalid_argument naming the first bad option.
    explicit LanguageModel(const LanguageModelOptions& options);
    // its buffers point into its own arena: a copy would share them
    LanguageModel(const LanguageModel&) = delete;
    LanguageModel& operator=(const LanguageModel&) = delete;

    // Takes n Adam steps (n an integer >= 1); `losses` (if given) gets each one's loss.
    // Throws if training diverges (a loss, a parameter or the logits not
    // finite), on the step whose update did it; from then on every step and
    // every read that runs the model (evaluate, next, attention, generate, the
    // analysis, …) throws the same, until set_parameters() gives finite ones.
    LmStep step(double n = 1, std::vector<double>* losses = nullptr);
    LmEvaluation evaluate();
    // the loss of every next token of texts (the held-out texts if none; each [0] + text + [0], joined into one
    // stream) read in windows of `length` positions (1 .. 4 context; learned
    // positions: 1 .. context): how a position scheme carries past its training length
    LmEvaluation evaluate_texts(const std::vector<std::string>& texts, double length);
    // the top 20 next tokens after [0] + prefix (the last context tokens of it)
    NextTokens next(const std::string& prefix);
    // every layer's and head's weights over [0] + text (at most context tokens)
    AttentionMaps attention(const std::string& text);
    // the prompt + what the model wrote: stops at the boundary token, after
    // max_tokens characters, or when the context is full. Sampling: sampling.hpp's filters
    // (top_k, top_p, min_p) and one draw of the seeded generator per token; never the
    // unknown token (it stands for many characters and cannot write any)
    std::string generate(const GenerateOptions& options);
    // the same generation one token at a time, the cache kept between calls:
    // begin_generation() reads the boundary and the prompt (one step each) and
    // samples what follows; next_token() reads that and samples the next. Any
    // other use of the cache (generate, logits, step) ends the generation.
    std::vector<DecodeStep> begin_generation(const GenerateOptions& options);
    DecodeStep next_token();
    // the multiply-adds of one token at position t, and of the prefill of m positions (DecodeStep)
    double cached_multiply_adds(Index t) const;
    double uncached_multiply_adds(Index t) const;
    double prefill_multiply_adds(Index m) const;
    // finite differences in double on a slice: `per_tensor` entries spread over every
    // tensor (0: all), on the first training text's first tokens (at most 6
    // positions, the model cut to that context)
    GradientCheck gradient_check(Index per_tensor = 3) const;
    VocabularyInfo vocabulary() const;
    LmInfo info() const;
    Index kv_heads() const { return config_.kv(); }
    // the cache's capacity in positions: context, or sinks + window with a window
    Index cache_capacity() const;
    const ParameterStore& parameters() const { return store_; }
    // replaces the values of the tensors named, as parameters() names them (the
    // others keep theirs): a model trained elsewhere on the same texts and options.
    // Every name, shape and value is checked before any is written; the
    // optimiser's moments and the step count stay.
    void set_parameters(const std::vector<std::string>& names, const std::vector<Mat>& values);

    // ---- what the analysis (analysis.hpp), the tests and the tools read -------
    // The token ids of a text (no boundaries); throws for a character not in the
    // vocabulary when there is no unknown token. `what` names the text in messages.
    std::vector<std::int32_t> encode(const std::string& text, const std::string& what) const;
    // each text's token ids, named what[i] in messages
    std::vector<std::vector<std::int32_t>> encode_all(const std::vector<std::string>& texts,
                                                      const std::string& what) const;
    // [0] + the text's token ids; throws when they do not fit in the context (past_context:
    // in 4 context, for a prompt a windowed cache reads)
    std::vector<std::int32_t> sequence_of(const std::string& text, const std::string& what,
                                          bool past_context = false) const;
    std::string token_text(std::int32_t token) const;  // ⏎, �, or the character
    // the `top` most likely tokens of p (vocab), most likely first (the smaller id on ties)
    NextTokens most_likely(const std::vector<float>& p, Index top) const;
    // the vocabulary by token id: 0 for the boundary, U+FFFD for the unknown
    // token (if any), then the kept characters in code point order
    const std::vector<std::uint32_t>& code_points() const { return code_points_; }
    std::int32_t unknown_token() const { return has_unknown_ ? 1 : -1; }  // -1: none
    // the texts' token ids (no boundaries): the held-out ones and the training ones
    const std::vector<std::vector<std::int32_t>>& held_out_tokens() const { return held_texts_; }
    std::vector<std::vector<std::int32_t>> training_tokens() const;
    Index vocab() const { return vocab_; }
    Index context() const { return n_; }
    Index batch() const { return batch_; }
    Index steps() const { return steps_; }
    const LmConfig& config() const { return config_; }
    // The forward of up to batch texts, each read as [0] + its tokens (cut to
    // context) and padded to the longest; with_targets: every next token is a
    // target, the closing boundary included. The views point into the model's
    // buffers: they hold until the next call that runs the model.
    struct TextsForward {
        Index length;                       // rows of each text, padding included
        std::vector<const float*> weights;  // [layer] (texts, heads, length, length)
        Index kept;                         // rows with a target
        const float* logits;                // (kept, vocab)
        const std::int32_t* rows;           // (kept) each one's row: text * length + position
        const std::int32_t* targets;        // (kept)
    };
    TextsForward forward_texts(const std::vector<const std::vector<std::int32_t>*>& texts, bool with_targets);
    // the model's attention layer and rotary turns (of a matrix of `cols` columns)
    // for sequences of `length` <= context rows, and the position table added to
    // the embeddings (context rows at least) or null: what trace() runs
    MultiHeadAttention attention_layer(Index length) const {
        MultiHeadAttention a = attention_;
        a.length = length;
        return a;
    }
    Rotary rotary_layer(Index cols, Index length) const { return Rotary{cols, d_ / heads_, length, rot_cos_, rot_sin_}; }
    const float* position_table() const;
    // throws when the model has diverged (what every forward checks first)
    void require_not_diverged() const { divergence_.require_none(); }
    // a reader found a number of the last forward that is not finite: the model
    // has diverged at its last step, as when a forward's logits are not; throws
    [[noreturn]] void diverged() { divergence_.found(steps_); }
    // logits (m, vocab) of every position of one sequence of m tokens: the batch
    // forward (m <= context, or 4 context without learned positions), or one token
    // at a time through the key-value cache (m <= context, or any m with a window
    // and positions other than learned); slot_positions (cached only): rotary and alibi
    // read the cache's entries at their slots (cache_positions "slot")
    Mat logits(const std::vector<std::int32_t>& tokens, bool cached, bool slot_positions = false);
    // forward, loss and backward on `sequences` (<= batch) sequences of tokens and
    // targets (sequences * context each, targets -1 for none), no update: the
    // gradients are then in parameters().grad(i). What step() does before Adam.
    double compute_gradients(Index sequences, const std::int32_t* tokens, const std::int32_t* targets);
    ParamsD parameters_double() const { return train::parameters_double(store_); }

    // ---- a step in chunks: data-parallel training -----------------------------------
    // A step's batch is cut into chunks() chunks of whole sequences (chunk c holds
    // sequences c batch / chunks .. (c + 1) batch / chunks - 1), a number fixed by the
    // batch (min(batch, 8)), never by how many workers compute them. A chunk's gradient
    // is of the batch's mean loss (its loss summed, divided by the batch's targets).
    // The chunks' gradients (and loss sums) are added as a fixed binary tree: node
    // [first, end) is node [first, mid) + node [mid, end), mid = (first + end) / 2, its
    // leaves single chunks; the root's sum is clipped and applied once by Adam.
    // step() computes the tree alone; workers (the JS API's threads) each compute the
    // largest nodes inside a run of chunks, and the model adds their sums up the
    // tree, with the same bits whatever the runs:
    //   worker: set_values(main's values()), set_batch_state(main.batch_state()),
    //           chunk_sums(first, end, out) -> its nodes, their sums in out
    //   main:   chunk_sums of a run of its own (or none), then apply_chunks(every node)
    static constexpr Index kChunks = 8;
    Index chunks() const { return std::min(batch_, kChunks); }
    // where the batch generator is: the next step's batch is drawn from there (by its first chunk_sums, once)
    std::uint64_t batch_state() const { return drawn_ ? drawn_from_ : batches_.state(); }
    void set_batch_state(std::uint64_t state);
    // every parameter at once, (parameters().total()) in store order
    // (values_to_set(): where set_values copies them, to write them into)
    const float* values() const { return store_.values(); }
    void set_values(const float* values, Index count);
    float* values_to_set();
    struct ChunkSum {
        Index first, end;      // the node: chunks first .. end - 1
        double loss;           // their loss sum
        const float* gradient; // (total) their gradient
    };
    // the largest nodes of the tree inside chunks first .. end - 1, in order
    std::vector<std::pair<Index, Index>> nodes_within(Index first, Index end) const;
    // draws the next batch (as step() would; once a step) and computes the nodes_within(first, end):
    // node k's gradient into out + k total (out: nodes * total); each one's loss sum
    std::vector<ChunkSum> chunk_sums(Index first, Index end, float* out);
    // draws the next batch unless chunk_sums did (advancing the generator as the workers
    // did) and takes the step from nodes that tile the chunks (every worker's
    // chunk_sums, this model's among them): nothing changes if one is missing or is no
    // node of the tree
    LmStep apply_chunks(const std::vector<ChunkSum>& nodes);
    // one training batch as step() would draw it next (advances nothing), each
    // sequence padded to context: (batch * context) each
    void peek_batch(std::vector<std::int32_t>& tokens, std::vector<std::int32_t>& targets);

private:
    struct Block {  // the activations of one block, kept for backward: (rows, d) unless said
        float *X, *Y1, *Q, *K, *V, *Z, *H, *Y2;
        float *U, *T, *G;           // (rows, 4d)
        float *A;                   // (batch, heads, n, n)
        float *mean1, *rstd1, *mean2, *rstd2;  // (rows)
    };
    using CodePoints = std::vector<std::uint32_t>;
    // construction, step by step
    void build_vocabulary(const std::vector<CodePoints>& train, const std::vector<CodePoints>& held, Index min_count);
    std::int32_t token_of(std::uint32_t code_point) const;  // the unknown token (1) for one not kept
    void check_memory(const std::vector<CodePoints>& train, const std::vector<CodePoints>& held) const;
    void encode_texts(const std::vector<CodePoints>& train, const std::vector<CodePoints>& held);
    void init_parameters();
    // every activation buffer for sequences of up to length_cap rows (the context, or
    // longer for evaluate_texts); the key-value cache is lost
    void carve_arena(Index length_cap);
    double arena_floats(Index length_cap) const;  // what carve_arena(length_cap) allocates
    // buffers for sequences of `length` rows: the arena carved again if it is shorter (throws past the memory limit)
    void reserve_length(Index length);
    // a cached token's query, its visible keys' slots and the positions it reads them at
    void cache_slots(Index t, bool slot_positions);
    // the index of a tensor after the blocks (lm_tensor(l, which) names a block's)
    Index last(LmFinalTensor which) const { return lm_final_tensor(layers_, which); }
    // draws a batch: tokens and targets (batch * length), each sequence padded to
    // length = the longest in the batch (compact) or context; returns length
    Index fill_batch(Rng& rng, std::int32_t* tokens, std::int32_t* targets, bool compact) const;
    // forward of `sequences` sequences of `length` <= context rows each; the rows with
    // a target >= 0 go through the unembedding, compacted: logits_ (kept_, vocab),
    // their row indices in kept_rows_. divergence_.found(steps_) when a logit is not finite
    void forward(Index sequences, Index length, const std::int32_t* tokens, const std::int32_t* targets);
    // after a step() call: the forward of the first training text (a window), so
    // that the last update is checked by the call that made it
    void check_update();
    void backward(Index sequences, const std::int32_t* tokens);
    void train_step();
    // a step in chunks: begin_step() draws the batch (step_length_, step_targets_) unless
    // drawn; chunk_gradient(c) leaves chunk c's gradient in the store's gradients (wherever
    // they are written) and returns its loss sum; tree_sum(first, end, out) computes node
    // [first, end)'s sum into out, each leaf's gradient written there by the backward
    // (given: nodes already summed, taken where they are; null: every chunk computed here),
    // and returns the node with where its sum is; end_step(root) applies it
    void begin_step();
    double chunk_gradient(Index c);
    ChunkSum tree_sum(Index first, Index end, float* out, const std::vector<ChunkSum>* given, Index depth = 0);
    void end_step(const ChunkSum& root);
    // one token at position t through the cache -> step_logits_ (vocab); rows (if
    // given) gets each layer's and head's weights on keys 0..t
    // slot_positions: rotary and alibi read the cache's entries at their slots (cache_positions "slot")
    void cached_token(std::int32_t token, Index t, std::vector<std::vector<std::vector<float>>>* rows = nullptr,
                      bool slot_positions = false);
    // rotary's cos and sin at position p: a row of the tables, or computed into cs_ past them
    void rotary_angles_at(Index p, const float*& cos, const float*& sin);
    // can a token at position t be read? (learned positions end at the context; the others go on with a window)
    bool position_fits(Index t) const;
    // the keys token t sees: with a window the sinks and the last `window` positions, otherwise 0..t
    Index visible_keys(Index t) const;
    // the next token from step_logits_ (never the unknown token): sampling.hpp's filters, one
    // uniform draw (temperature 0: none); kept (if given) gets the filters' survivors
    std::int32_t sample_next(Rng& rng, const SamplingOptions& sampling, NextTokens* kept = nullptr);
    // reads `token` at position t through the cache; `sample`: then samples the next
    DecodeStep decode(std::int32_t token, Index t, bool sample = true);

    LmConfig config_;
    Index n_, d_, vocab_, batch_, layers_, heads_;
    Index length_cap_ = 0, rows_cap_ = 0, a_cap_ = 0;  // the arena's: sequence length, rows, weights per block
    std::uint64_t seed_;
    Rng batches_;
    Index steps_ = 0;
    double last_loss_ = 0;
    Index step_length_ = 0;                    // the step in chunks: its batch's rows per sequence
    double step_targets_ = 0;                  // its batch's targets
    bool drawn_ = false;                       // the next step's batch is drawn (begin_step) from ...
    std::uint64_t drawn_from_ = 0;             // ... this state of the generator
    std::vector<float> grad_sum_;              // (total) the tree's root: the step's gradient
    std::vector<std::vector<float>> tree_;     // (depth, total) a right half at each depth while adding
    Divergence divergence_;

    // vocabulary: token -> code point (tokens >= first_char_), sorted
    std::vector<std::uint32_t> code_points_;
    Index first_char_ = 1;
    bool has_unknown_ = false;
    double folded_ = 0, coverage_ = 1;
    // training texts as [0] + tokens + [0], one after another
    std::vector<std::int32_t> train_tokens_;
    std::vector<Index> train_start_;  // (texts + 1)
    // held-out windows: (windows * n) tokens and targets
    std::vector<std::int32_t> held_tokens_, held_targets_;
    std::vector<Index> held_lengths_;  // (windows) targets in each, ascending
    Index held_windows_ = 0;
    double held_count_ = 0, unigram_loss_ = 0;
    std::vector<std::vector<std::int32_t>> held_texts_;  // every held-out text's tokens (no boundaries)

    ParameterStore store_;
    Adam adam_;
    Embedding embedding_;
    Linear qkv_, kv_proj_, out_, up_, down_, unembed_;  // (d, d), (d, kv_width), (d, d), (d, 4d), (4d, d), (d, vocab)
    Bias bias_d_, bias_kv_, bias_4d_, bias_vocab_;
    LayerNorm norm_;
    MultiHeadAttention attention_;
    Rotary rotary_q_, rotary_k_;   // on Q (cols d) and K (cols kv_width), with position = rotary
    std::vector<float> slopes_;    // (heads) with position = alibi
    SoftmaxCrossEntropy loss_;

    std::vector<float> arena_;  // every activation and scratch buffer, one allocation
    std::vector<Block> blocks_;
    float *Xf_, *Yf_, *meanf_, *rstdf_;     // (rows, d), (rows, d), (rows), (rows)
    float *Yc_, *logits_, *dlogits_, *dYc_; // (rows, d), (rows, vocab), (rows, vocab), (rows, d)
    float *dX_, *dY_, *dZ_, *dQ_, *dK_, *dV_, *dU_, *scratch_;  // (rows, d) x6, (rows, 4d), (n, n)
    float *pe_, *rot_cos_, *rot_sin_;        // (length_cap, d) sinusoidal; (length_cap, d_head / 2) x2 rotary
    // the key-value cache (keys before any rotation) and one token's vectors
    float *Kc_, *Vc_;                        // (layers, cache_capacity, kv_width) each
    float *x1_, *y1_, *q1_, *z1_, *h1_, *u1_, *t1_, *g1_, *s1_, *step_logits_;  // (d) x5, (4d) x3, (capacity), (vocab)
    float *q2_, *kg_, *vg_, *cs_;            // (d_head) the query turned; (capacity, d_head) x2 the keys
                                             // (turned) and values read, oldest first; (d_head) cos, sin
    // cache_slots(): the visible keys of the token being read, oldest first
    std::vector<Index> read_keys_, read_slots_, read_positions_;  // (at most capacity) each one's
                                                                   // position, slot, and position read at
    Index read_query_position_ = 0;
    float mean1_ = 0, rstd1_ = 0;
    std::vector<std::int32_t> tokens_, targets_, kept_rows_, kept_targets_;  // (rows)
    Index kept_ = 0, length_ = 0;  // rows kept for the unembedding; the last forward's length
    mutable std::vector<Index> draw_start_, draw_count_;  // (batch) the draws of fill_batch
    std::vector<float> sample_;      // (vocab) the kept tokens' probabilities while sampling
    std::vector<std::int32_t> order_;  // (vocab) token order while sampling
    // the generation in progress (begin_generation): the cache holds positions 0..t - 1
    struct Decoding {
        bool live = false;
        Rng rng{0, 0};
        Index t = 0;  // the next position; the first written token's from begin_generation on
        SamplingOptions sampling;
        double prefill = 0, decoded = 0;  // multiply-adds: the prefill's, the decode steps' so far
        std::int32_t pending = 0;  // the token sampled, read by the next next_token()
        bool slot_positions = false;  // cache_positions "slot"
    } decoding_;
};

}  // namespace attn::train
