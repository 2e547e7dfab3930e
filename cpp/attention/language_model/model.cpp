// The language model's options, construction (vocabulary, parameters, every
// buffer a step needs) and batches; its training is in training.cpp, its
// inference in inference.cpp, its generation through the cache in generation.cpp.
#include "attention/language_model/model.hpp"

#include "attention/mechanism/alibi.hpp"
#include "attention/mechanism/positional.hpp"
#include "attention/training/products.hpp"

#include <algorithm>
#include <cmath>

namespace attn::train {

// ---- options ------------------------------------------------------------------

namespace {

constexpr std::uint64_t kBatchStream = 61, kInitStream = 100;

struct Sizes {
    Index layers, heads, d, n, batch;
    LmPosition position;
    Index kv_heads, window, sinks;
};

Sizes validated(const LanguageModelOptions& o) {
    integer_option(o.seed, "seed", 0, 9007199254740992.0);
    Sizes s;
    s.layers = integer_option(o.layers, "layers", 1, 4);
    s.d = integer_option(o.d_model, "d_model", 1, 256);
    s.heads = integer_option(o.heads, "heads", 1, double(s.d));
    require_argument(s.d % s.heads == 0, "d_model",
                     "d_model " + std::to_string(s.d) + " is not divisible by heads " + std::to_string(s.heads));
    s.n = integer_option(o.context, "context", 2, 128);
    s.batch = integer_option(o.batch, "batch", 1, 512);
    require_argument(std::isfinite(o.learning_rate) && o.learning_rate > 0, "learning_rate",
                     "learning_rate must be a finite number greater than 0, got " + number(o.learning_rate));
    integer_option(o.warmup, "warmup", 0, 1e9);
    require(std::isfinite(o.clip) && o.clip >= 0, "clip must be a finite number >= 0, got " + number(o.clip));
    integer_option(o.min_count, "min_count", 1, 1e9);
    require(!o.texts.empty(), "texts must hold at least one text");
    s.position = lm_position(o.position);
    require_argument(s.position != LmPosition::rotary || (s.d / s.heads) % 2 == 0, "position",
                     "rotary positions turn pairs of numbers: each head's width must be even, got " +
                         std::to_string(s.d / s.heads));
    s.kv_heads = integer_option(o.kv_heads, "kv_heads", 0, double(s.heads));
    if (s.kv_heads == 0) s.kv_heads = s.heads;
    require_argument(s.heads % s.kv_heads == 0, "kv_heads",
                     "kv_heads " + std::to_string(s.kv_heads) + " does not divide heads " + std::to_string(s.heads) +
                         ": each key/value head serves the same number of query heads");
    s.window = integer_option(o.window, "window", 0, double(s.n));
    s.sinks = integer_option(o.sinks, "sinks", 0, double(s.n));
    require_argument(s.sinks == 0 || s.window > 0, "sinks",
                     "sinks keep the first keys in view when a window would hide them; give a window too");
    return s;
}

// The arena's sizes for sequences of up to length_cap rows: the rows of a
// batch (or of one such sequence), and the weights of a block (a batch of
// context rows, or one sequence of length_cap).
struct ArenaSizes {
    Index rows, weights;
};
ArenaSizes arena_sizes(Index batch, Index n, Index heads, Index length_cap) {
    return {std::max(batch * n, length_cap), std::max(batch * heads * n * n, heads * length_cap * length_cap)};
}

// floats of the arena (carve_arena) for sequences of up to length_cap rows
double arena_floats(const Sizes& s, double vocab, Index length_cap, Index cache) {
    const ArenaSizes a = arena_sizes(s.batch, s.n, s.heads, length_cap);
    const double d = double(s.d), rows = double(a.rows), L = double(s.layers), len = double(length_cap);
    const double per_block = rows * (8 * d + 3 * 4 * d + 4) + double(a.weights);
    const double scratch = rows * (4 * d + 2 * vocab + 6 * d + 4 * d + 4) + len * len + 2 * L * double(cache) * d +
                           9 * d + double(cache) + vocab + len * (d + d) + 2 * double(cache) * d + 2 * d;
    return L * per_block + scratch + 4 * rows;
}

// floats of every buffer (int32 buffers count one float per entry)
double floats_needed(const Sizes& s, double vocab, double params, double train_tokens, double held_tokens,
                     Index cache) {
    return 8 * params + arena_floats(s, vocab, s.n, cache) + 2 * vocab + train_tokens + 2 * held_tokens;
}

}  // namespace

// ---- construction -------------------------------------------------------------

LanguageModel::LanguageModel(const LanguageModelOptions& o)
    : batches_(0, 0),
      adam_(AdamOptions{o.learning_rate, 0.9, 0.999, 1e-8, o.warmup, o.clip}),
      loss_{1} {
    const Sizes s = validated(o);
    n_ = s.n, d_ = s.d, batch_ = s.batch, layers_ = s.layers, heads_ = s.heads;
    if (s.position == LmPosition::alibi) {
        const Vec slopes = alibi_slopes(heads_);
        slopes_.assign(slopes.data(), slopes.data() + slopes.size());
    }
    seed_ = std::uint64_t(o.seed);
    batches_ = Rng(seed_, kBatchStream);
    std::vector<CodePoints> train, held;
    for (const std::string& text : o.texts) train.push_back(code_points_of(text));
    for (const std::string& text : o.held_out) held.push_back(code_points_of(text));

    build_vocabulary(train, held, Index(o.min_count));
    config_ = LmConfig{vocab_, n_, d_, heads_, layers_, s.position, s.kv_heads, s.window, s.sinks};
    check_memory(train, held);
    encode_texts(train, held);
    init_parameters();
    grad_sum_.assign(size_t(store_.total()), 0.0f);
    // a right half at each depth of the chunks' tree (ceil(log2 chunks) of them)
    for (Index width = 1; width < chunks(); width *= 2) tree_.emplace_back(size_t(store_.total()), 0.0f);
    carve_arena(n_);
}

Index LanguageModel::cache_capacity() const {
    return config_.window ? config_.sinks + config_.window : n_;
}

// The characters seen min_count times or more in the training texts, sorted,
// after the boundary token (0) and, where a character is left out of either
// split, the unknown token (1).
void LanguageModel::build_vocabulary(const std::vector<CodePoints>& train, const std::vector<CodePoints>& held,
                                     Index min_count) {
    double characters = 0;
    for (const CodePoints& text : train) characters += double(text.size());
    require(characters > 0, "texts must hold at least one character");
    std::vector<std::uint32_t> kept;
    double kept_characters = 0;
    for (const auto& [cp, count] : character_counts(train)) {
        if (count >= double(min_count)) {
            kept.push_back(cp);
            kept_characters += double(count);
        } else {
            folded_ += 1;
        }
    }
    coverage_ = kept_characters / characters;
    has_unknown_ = folded_ > 0;
    for (const CodePoints& text : held)
        for (std::uint32_t cp : text)
            if (!std::binary_search(kept.begin(), kept.end(), cp)) has_unknown_ = true;
    code_points_.assign(1, 0);  // the boundary
    if (has_unknown_) code_points_.push_back(0xFFFD);
    first_char_ = Index(code_points_.size());
    code_points_.insert(code_points_.end(), kept.begin(), kept.end());
    vocab_ = Index(code_points_.size());
    require_argument(vocab_ - first_char_ >= 1, "min_count",
                     "texts must hold at least one character seen min_count times or more");
}

std::int32_t LanguageModel::token_of(std::uint32_t cp) const {
    const auto it = std::lower_bound(code_points_.begin() + first_char_, code_points_.end(), cp);
    if (it != code_points_.end() && *it == cp) return std::int32_t(it - code_points_.begin());
    return 1;  // the unknown token (it exists whenever a character is missing)
}

// Every buffer, counted before one is allocated: over the limit is an error.
void LanguageModel::check_memory(const std::vector<CodePoints>& train, const std::vector<CodePoints>& held) const {
    double train_tokens = 0, held_tokens = 0;
    for (const CodePoints& t : train) train_tokens += double(t.size()) + 2;
    for (const CodePoints& t : held) held_tokens += std::ceil((double(t.size()) + 1) / double(n_)) * double(n_);
    double params = 0;
    for (Index i = 0; i < lm_tensor_count(layers_); ++i) {
        const TensorShape shape = lm_tensor_shape(config_, i);
        params += double(shape.rows) * double(shape.cols);
    }
    const Sizes s{layers_, heads_, d_, n_, batch_, config_.position, config_.kv(), config_.window, config_.sinks};
    const double floats = floats_needed(s, double(vocab_), params, train_tokens, held_tokens, cache_capacity());
    if (!(floats <= kMaxFloats))
        fail("these sizes and texts need " + number(std::ceil(floats * 4 / 1048576)) +
                 " MB of buffers, more than the limit of " + number(kMaxFloats * 4 / 1048576) + " MB",
             Code::out_of_memory);
}

// The training texts as [0] + tokens + [0], one after another; the held-out
// texts cut into windows of context targets, shortest first; the held-out loss
// of the add-one unigram model of the training texts.
void LanguageModel::encode_texts(const std::vector<CodePoints>& train, const std::vector<CodePoints>& held) {
    std::vector<double> unigram(size_t(vocab_), 1.0);  // add-one
    double unigram_total = double(vocab_);
    train_start_.assign(1, 0);
    for (const CodePoints& t : train) {
        train_tokens_.push_back(kBoundary);
        for (std::uint32_t cp : t) {
            const std::int32_t token = token_of(cp);
            train_tokens_.push_back(token);
            unigram[size_t(token)] += 1;
        }
        train_tokens_.push_back(kBoundary);
        unigram[0] += 1;  // each text's end is a target
        unigram_total += double(t.size()) + 1;
        train_start_.push_back(Index(train_tokens_.size()));
    }
    std::vector<std::vector<std::int32_t>> windows;  // [0] + text + [0] cut into windows of n + 1 tokens
    for (const CodePoints& t : held) {
        std::vector<std::int32_t> seq(1, kBoundary);
        for (std::uint32_t cp : t) seq.push_back(token_of(cp));
        held_texts_.emplace_back(seq.begin() + 1, seq.end());
        seq.push_back(kBoundary);
        const Index targets = Index(seq.size()) - 1;
        for (Index start = 0; start < targets; start += n_)
            windows.emplace_back(seq.begin() + start, seq.begin() + std::min(start + n_, targets) + 1);
    }
    // shortest first (stable: the order of the texts otherwise), so that evaluate()
    // pads each chunk of windows to its longest only
    std::stable_sort(windows.begin(), windows.end(),
                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
    double unigram_sum = 0;
    for (const auto& w : windows) {
        const Index targets = Index(w.size()) - 1;
        for (Index i = 0; i < n_; ++i) {
            const bool real = i < targets;
            held_tokens_.push_back(real ? w[size_t(i)] : kBoundary);
            held_targets_.push_back(real ? w[size_t(i) + 1] : -1);
            if (real) {
                unigram_sum -= log_det(unigram[size_t(w[size_t(i) + 1])] / unigram_total);
                held_count_ += 1;
            }
        }
        held_lengths_.push_back(targets);
        ++held_windows_;
    }
    unigram_loss_ = held_count_ > 0 ? unigram_sum / held_count_ : 0;
}

// The tensors in store order, each from its own seeded stream: embeddings
// uniform in +-0.5, layer-norm gains 1, maps Xavier-uniform, the two maps that
// write into the residual stream (Wo, W2) shrunk by 1 / sqrt(2 layers); biases 0.
void LanguageModel::init_parameters() {
    const std::vector<std::string> names = lm_tensor_names(layers_);
    for (Index i = 0; i < lm_tensor_count(layers_); ++i) {
        const TensorShape shape = lm_tensor_shape(config_, i);
        store_.add(names[size_t(i)], shape.rows, shape.cols);
    }
    store_.allocate();
    const Index d = d_;
    const double shrink = 1 / std::sqrt(2.0 * double(layers_));
    auto stream = [](Index i) { return kInitStream + std::uint64_t(i); };
    auto xavier = [&](Index i) {
        const TensorShape shape = lm_tensor_shape(config_, i);
        return init_xavier(shape.rows, shape.cols, seed_, stream(i));
    };
    auto shrunk = [&](Index i) {
        const TensorShape shape = lm_tensor_shape(config_, i);
        const double limit = std::sqrt(6.0 / (double(shape.rows) + double(shape.cols)));
        return init_uniform(shape.rows, shape.cols, seed_, stream(i), Scalar(limit * shrink));
    };
    store_.set(kEmbedding, init_uniform(vocab_, d, seed_, stream(kEmbedding), 0.5f));
    if (config_.position == LmPosition::learned)
        store_.set(kPositions, init_uniform(n_, d, seed_, stream(kPositions), 0.5f));
    for (Index l = 0; l < layers_; ++l) {
        for (LmBlockTensor gain : {kLn1Gain, kLn2Gain}) store_.set(lm_tensor(l, gain), Mat::Ones(1, d));
        for (LmBlockTensor map : {kWq, kWk, kWv, kW1}) store_.set(lm_tensor(l, map), xavier(lm_tensor(l, map)));
        for (LmBlockTensor map : {kWo, kW2}) store_.set(lm_tensor(l, map), shrunk(lm_tensor(l, map)));
    }
    store_.set(last(kLnfGain), Mat::Ones(1, d));
    store_.set(last(kWout), xavier(last(kWout)));
}

// The layers, and every activation buffer carved from one allocation, for
// sequences of up to length_cap rows.
void LanguageModel::carve_arena(Index length_cap) {
    const Index d = d_, v = vocab_, dh = d_ / heads_, kvw = config_.kv_width(), cache = cache_capacity();
    const ArenaSizes sizes = arena_sizes(batch_, n_, heads_, length_cap);
    const Index rows = sizes.rows, A_size = sizes.weights, len = length_cap;
    length_cap_ = length_cap, rows_cap_ = rows, a_cap_ = A_size;
    embedding_ = Embedding{v, d, n_};
    qkv_ = Linear{d, d}, kv_proj_ = Linear{d, kvw}, out_ = Linear{d, d}, up_ = Linear{d, 4 * d}, down_ = Linear{4 * d, d};
    unembed_ = Linear{d, v};
    bias_d_ = Bias{d}, bias_kv_ = Bias{kvw}, bias_4d_ = Bias{4 * d}, bias_vocab_ = Bias{v};
    norm_ = LayerNorm{d};
    attention_ = MultiHeadAttention{n_, d, heads_, true, config_.kv(), config_.window, config_.sinks,
                                    slopes_.empty() ? nullptr : slopes_.data()};
    loss_ = SoftmaxCrossEntropy{v};
    const Index block_floats = 8 * rows * d + 3 * rows * 4 * d + A_size + 4 * rows;
    const Index total = layers_ * block_floats + 2 * rows * d + 2 * rows + 2 * rows * d + 2 * rows * v +
                        6 * rows * d + rows * 4 * d + len * len + len * d + len * dh + 2 * layers_ * cache * kvw +
                        5 * d + 3 * 4 * d + cache + v + 2 * cache * dh + 2 * dh;
    arena_.assign(size_t(total), 0.0f);
    float* at = arena_.data();
    auto take = [&at](Index count) {
        float* p = at;
        at += count;
        return p;
    };
    blocks_.resize(size_t(layers_));
    for (Block& b : blocks_) {
        b.X = take(rows * d), b.Y1 = take(rows * d), b.Q = take(rows * d), b.K = take(rows * d);
        b.V = take(rows * d), b.Z = take(rows * d), b.H = take(rows * d), b.Y2 = take(rows * d);
        b.U = take(rows * 4 * d), b.T = take(rows * 4 * d), b.G = take(rows * 4 * d);
        b.A = take(A_size);
        b.mean1 = take(rows), b.rstd1 = take(rows), b.mean2 = take(rows), b.rstd2 = take(rows);
    }
    Xf_ = take(rows * d), Yf_ = take(rows * d), meanf_ = take(rows), rstdf_ = take(rows);
    Yc_ = take(rows * d), dYc_ = take(rows * d), logits_ = take(rows * v), dlogits_ = take(rows * v);
    dX_ = take(rows * d), dY_ = take(rows * d), dZ_ = take(rows * d), dQ_ = take(rows * d), dK_ = take(rows * d),
    dV_ = take(rows * d), dU_ = take(rows * 4 * d), scratch_ = take(len * len);
    pe_ = take(len * d), rot_cos_ = take(len * dh / 2), rot_sin_ = take(len * dh / 2);
    Kc_ = take(layers_ * cache * kvw), Vc_ = take(layers_ * cache * kvw);
    x1_ = take(d), y1_ = take(d), q1_ = take(d), z1_ = take(d), h1_ = take(d);
    u1_ = take(4 * d), t1_ = take(4 * d), g1_ = take(4 * d), s1_ = take(cache), step_logits_ = take(v);
    q2_ = take(dh), kg_ = take(cache * dh), vg_ = take(cache * dh), cs_ = take(dh);
    if (config_.position == LmPosition::sinusoidal) {
        const Mat table = positional_encoding(len, d);
        std::copy(table.data(), table.data() + len * d, pe_);
    }
    if (config_.position == LmPosition::rotary) rotary_tables(len, dh, kRotaryBase, rot_cos_, rot_sin_);
    rotary_q_ = rotary_layer(d, n_);
    rotary_k_ = rotary_layer(kvw, n_);
    tokens_.assign(size_t(rows), 0);
    targets_.assign(size_t(rows), -1);
    kept_rows_.assign(size_t(rows), 0);
    kept_targets_.assign(size_t(rows), 0);
    draw_start_.assign(size_t(batch_), 0);
    draw_count_.assign(size_t(batch_), 0);
    sample_.assign(size_t(v), 0.0f);
    order_.assign(size_t(v), 0);
    read_keys_.reserve(size_t(cache));
    read_slots_.reserve(size_t(cache));
    read_positions_.reserve(size_t(cache));
    decoding_.live = false;  // the cache was in the old arena
}

double LanguageModel::arena_floats(Index length_cap) const {
    const Sizes s{layers_, heads_, d_, n_, batch_, config_.position, config_.kv(), config_.window, config_.sinks};
    return attn::train::arena_floats(s, double(vocab_), length_cap, cache_capacity());
}

const float* LanguageModel::position_table() const {
    if (config_.position == LmPosition::learned) return store_.value(kPositions);
    return config_.position == LmPosition::sinusoidal ? pe_ : nullptr;
}

// ---- batches ------------------------------------------------------------------

Index LanguageModel::fill_batch(Rng& rng, std::int32_t* tokens, std::int32_t* targets, bool compact) const {
    const Index texts = Index(train_start_.size()) - 1;
    // 1. draw every sequence: a text, and a window of it if it is too long
    Index length = 1;
    for (Index b = 0; b < batch_; ++b) {
        const Index i = Index(rng.next() % std::uint64_t(texts));
        const Index size = train_start_[size_t(i) + 1] - train_start_[size_t(i)];  // [0] + text + [0]
        Index start = train_start_[size_t(i)], count = size - 1;                      // count: targets
        if (size > n_ + 1) {
            start += Index(rng.next() % std::uint64_t(size - n_));
            count = n_;
        }
        draw_start_[size_t(b)] = start;
        draw_count_[size_t(b)] = count;
        length = std::max(length, count);
    }
    // 2. the rows: each sequence padded to the longest of the batch (compact) or to context
    if (!compact) length = n_;
    for (Index b = 0; b < batch_; ++b) {
        const std::int32_t* seq = train_tokens_.data() + draw_start_[size_t(b)];
        const Index count = draw_count_[size_t(b)];
        std::int32_t* x = tokens + b * length;
        std::int32_t* y = targets + b * length;
        for (Index k = 0; k < length; ++k) {
            x[k] = k < count ? seq[k] : kBoundary;
            y[k] = k < count ? seq[k + 1] : -1;
        }
    }
    return length;
}

void LanguageModel::set_parameters(const std::vector<std::string>& names, const std::vector<Mat>& values) {
    require(names.size() == values.size(), "set_parameters: as many values as names");
    std::vector<Index> which;
    for (size_t k = 0; k < names.size(); ++k) {
        Index i = 0;
        while (i < store_.count() && store_.tensor(i).name != names[k]) ++i;
        require(i < store_.count(), "no tensor \"" + names[k] + "\" in this model (parameters() names them)");
        store_.require_shape(i, values[k]);
        require_finite(values[k], names[k]);
        which.push_back(i);
    }
    for (size_t k = 0; k < names.size(); ++k) store_.set(which[k], values[k]);
    decoding_.live = false;  // the cache holds keys and values of the old weights
    divergence_.clear();     // finite parameters, checked above: the next forward says whether they work
}

void LanguageModel::peek_batch(std::vector<std::int32_t>& tokens, std::vector<std::int32_t>& targets) {
    Rng copy = batches_;
    tokens.assign(size_t(batch_ * n_), 0);
    targets.assign(size_t(batch_ * n_), 0);
    fill_batch(copy, tokens.data(), targets.data(), false);
}

}  // namespace attn::train
