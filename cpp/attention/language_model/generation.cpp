// The language model's generation one token at a time through the key-value
// cache (model.hpp): which cached keys a token sees (with a window, the sinks
// and a ring of the last `window` positions), the token's forward from them,
// sampling, and what each token costs.
#include "attention/language_model/model.hpp"

#include "attention/measures/cost_model.hpp"
#include "attention/mechanism/positional.hpp"
#include "attention/training/products.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::train {

// ---- generation through the key-value cache -------------------------------------

bool LanguageModel::position_fits(Index t) const {
    return t < n_ || (config_.window > 0 && config_.position != LmPosition::learned);
}

Index LanguageModel::visible_keys(Index t) const {
    if (config_.window == 0) return t + 1;
    const Index from = std::max<Index>(0, t - config_.window + 1);
    return t - from + 1 + std::min(config_.sinks, from);
}

// The keys token t sees, oldest first: each one's slot in the cache (a sink
// keeps its own; the others take turns in a ring of `window` slots after the
// sinks) and the position it is read at (its own, or its rank: slot positions).
void LanguageModel::cache_slots(Index t, bool slot_positions) {
    const Index window = config_.window, sinks = config_.sinks;
    read_slots_.clear();
    read_positions_.clear();
    read_keys_.clear();
    auto read = [&](Index j) {
        read_keys_.push_back(j);
        read_slots_.push_back(window == 0 || j < sinks ? j : sinks + (j - sinks) % window);
        read_positions_.push_back(slot_positions ? Index(read_positions_.size()) : j);
    };
    const Index from = window == 0 ? 0 : std::max<Index>(0, t - window + 1);
    for (Index j = 0; j < std::min(sinks, from); ++j) read(j);  // the sinks the window has left
    for (Index j = from; j <= t; ++j) read(j);
    read_query_position_ = read_positions_.back();
}

void LanguageModel::rotary_angles_at(Index p, const float*& cos, const float*& sin) {
    const Index half = d_ / heads_ / 2;
    if (p < length_cap_) {
        cos = rot_cos_ + p * half, sin = rot_sin_ + p * half;
    } else {
        rotary_angles_row(p, d_ / heads_, kRotaryBase, cs_, cs_ + half);
        cos = cs_, sin = cs_ + half;
    }
}

// As forward() computes row t, from the cache: the scores of the visible keys
// gathered oldest first, so that every sum runs in the full forward's order
// (its masked keys add exact zeros) and the logits are the same, bit for bit.
void LanguageModel::cached_token(std::int32_t token, Index t, std::vector<std::vector<std::vector<float>>>* rows,
                                 bool slot_positions) {
    divergence_.require_none();
    const Index d = d_, dh = d_ / heads_, kvw = config_.kv_width(), kv = config_.kv(), cap = cache_capacity();
    const float scale = float(1.0 / std::sqrt(double(dh)));
    const bool rotary = config_.position == LmPosition::rotary;
    cache_slots(t, slot_positions);
    const Index count = Index(read_slots_.size()), slot = read_slots_.back();
    // x = E[token] (+ P[t])
    const float* e = store_.value(kEmbedding) + Index(token) * d;
    for (Index c = 0; c < d; ++c) x1_[c] = e[c];
    if (config_.position == LmPosition::learned) add_to(x1_, store_.value(kPositions) + t * d, d);
    if (config_.position == LmPosition::sinusoidal) {
        positional_encoding_row(t, d, 10000, y1_);
        for (Index c = 0; c < d; ++c) x1_[c] = e[c] + y1_[c];
    }
    if (rows) rows->assign(size_t(layers_), {});
    for (Index l = 0; l < layers_; ++l) {
        auto W = [&](LmBlockTensor k) { return store_.value(lm_tensor(l, k)); };
        float* Kc = Kc_ + l * cap * kvw;  // (capacity, kv_width), keys before their turns
        float* Vc = Vc_ + l * cap * kvw;
        norm_.forward(1, x1_, W(kLn1Gain), W(kLn1Bias), y1_, &mean1_, &rstd1_);
        qkv_.forward(1, y1_, W(kWq), q1_), bias_d_.forward(1, W(kBq), q1_);
        kv_proj_.forward(1, y1_, W(kWk), Kc + slot * kvw), bias_kv_.forward(1, W(kBk), Kc + slot * kvw);
        kv_proj_.forward(1, y1_, W(kWv), Vc + slot * kvw), bias_kv_.forward(1, W(kBv), Vc + slot * kvw);
        zero(z1_, d);
        for (Index h = 0; h < heads_; ++h) {
            const Index g = h * kv / heads_;  // its key/value head
            const float *cos = nullptr, *sin = nullptr;
            std::copy(q1_ + h * dh, q1_ + (h + 1) * dh, q2_);
            if (rotary) rotary_angles_at(read_query_position_, cos, sin), rotary_turn(q2_, dh, dh, cos, sin);
            for (Index m = 0; m < count; ++m) {
                const Index at = read_slots_[size_t(m)] * kvw + g * dh;
                std::copy(Kc + at, Kc + at + dh, kg_ + m * dh);
                std::copy(Vc + at, Vc + at + dh, vg_ + m * dh);
                if (rotary) rotary_angles_at(read_positions_[size_t(m)], cos, sin), rotary_turn(kg_ + m * dh, dh, dh, cos, sin);
            }
            zero(s1_, count);
            matmul_nt_acc(1, count, dh, q2_, dh, kg_, dh, s1_, count);
            for (Index m = 0; m < count; ++m)
                s1_[m] = slopes_.empty() ? s1_[m] * scale
                                         : s1_[m] * scale - slopes_[size_t(h)] *
                                                                float(read_query_position_ - read_positions_[size_t(m)]);
            softmax_row(s1_, count);
            if (rows) {  // the row over keys 0..t, zeros where the window hides them
                std::vector<float> row(size_t(t + 1), 0.0f);
                for (Index m = 0; m < count; ++m) row[size_t(read_keys_[size_t(m)])] = s1_[m];
                (*rows)[size_t(l)].push_back(std::move(row));
            }
            matmul_acc(1, dh, count, s1_, count, vg_, dh, z1_ + h * dh, d);
        }
        out_.forward(1, z1_, W(kWo), h1_), bias_d_.forward(1, W(kBo), h1_);
        Residual::forward(d, x1_, h1_, h1_);
        norm_.forward(1, h1_, W(kLn2Gain), W(kLn2Bias), y1_, &mean1_, &rstd1_);
        up_.forward(1, y1_, W(kW1), u1_), bias_4d_.forward(1, W(kB1), u1_);
        Gelu::forward(4 * d, u1_, t1_, g1_);
        down_.forward(1, g1_, W(kW2), x1_), bias_d_.forward(1, W(kB2), x1_);
        Residual::forward(d, h1_, x1_, x1_);
    }
    norm_.forward(1, x1_, store_.value(last(kLnfGain)), store_.value(last(kLnfBias)), y1_, &mean1_, &rstd1_);
    unembed_.forward(1, y1_, store_.value(last(kWout)), step_logits_);
    bias_vocab_.forward(1, store_.value(last(kBout)), step_logits_);
    if (!all_finite(step_logits_, vocab_)) divergence_.found(steps_);
}

Mat LanguageModel::logits(const std::vector<std::int32_t>& tokens, bool cached, bool slot_positions) {
    const Index m = Index(tokens.size());
    const Index most = cached ? (position_fits(n_) ? Index(1) << 20 : n_)
                              : (config_.position == LmPosition::learned ? n_ : 4 * n_);
    require(m >= 1 && m <= most, "logits needs 1 to " + std::to_string(most) + " tokens, got " + std::to_string(m));
    for (std::int32_t t : tokens) require(t >= 0 && t < vocab_, "token " + std::to_string(t) + " is not in [0, vocab)");
    Mat out(m, vocab_);
    if (cached) {
        decoding_.live = false;  // the cache is overwritten
        for (Index t = 0; t < m; ++t) {
            cached_token(tokens[size_t(t)], t, nullptr, slot_positions);
            out.row(t) = Eigen::Map<const Eigen::Matrix<float, 1, Eigen::Dynamic>>(step_logits_, vocab_);
        }
        return out;
    }
    reserve_length(m);
    std::copy(tokens.begin(), tokens.end(), tokens_.begin());
    std::fill(targets_.begin(), targets_.begin() + m, 0);
    forward(1, m, tokens_.data(), targets_.data());
    return Eigen::Map<const Mat>(logits_, m, vocab_);
}

std::int32_t LanguageModel::sample_next(Rng& rng, const SamplingOptions& sampling, NextTokens* kept) {
    float* x = step_logits_;  // finite: cached_token() checked them
    // the unknown token stands for many characters, none of which it can write
    if (has_unknown_) x[1] = -std::numeric_limits<float>::infinity();
    const Index count = sampling_filter(x, vocab_, sampling, order_.data(), sample_.data());
    if (kept) {
        kept->tokens.clear();
        for (Index i = 0; i < count; ++i) kept->tokens.push_back(token_text(order_[size_t(i)]));
        kept->probabilities.assign(sample_.begin(), sample_.begin() + count);
    }
    if (sampling.temperature == 0) return order_[0];
    return sampling_draw(order_.data(), sample_.data(), count, float(rng.uniform()));
}

namespace {
struct Generation {
    Index max_tokens;
    SamplingOptions sampling;
    bool slot_positions;
};
Generation checked(const GenerateOptions& o, LmPosition position) {
    const Index max_tokens = integer_option(o.max_tokens, "max_tokens", 0, 1e9);
    const SamplingOptions sampling = sampling_options(o.temperature, o.top_k, o.top_p, o.min_p);
    integer_option(o.seed, "seed", 0, 9007199254740992.0);
    require_argument(o.cache_positions == "absolute" || o.cache_positions == "slot", "cache_positions",
                     "cache_positions must be \"absolute\" or \"slot\", got \"" + o.cache_positions + "\"");
    const bool slot = o.cache_positions == "slot";
    require_argument(!slot || position == LmPosition::rotary || position == LmPosition::alibi, "cache_positions",
                     std::string("cache_positions \"slot\" renumbers the cached keys when they are read, which only "
                                 "rotary and alibi positions allow; ") + lm_position_name(position) +
                         " positions are part of a key from the moment it is made");
    return {max_tokens, sampling, slot};
}
constexpr std::uint64_t kSampleStream = 71;
}  // namespace

std::string LanguageModel::generate(const GenerateOptions& o) {
    const Generation s = checked(o, config_.position);
    if (position_fits(n_))  // a window lets it write past the context: bounded by its work
        require_work(double(s.max_tokens) * cached_multiply_adds(cache_capacity()),
                     std::to_string(s.max_tokens) + " tokens of generation");
    const std::vector<std::int32_t> seq = sequence_of(o.prompt, "prompt", true);
    decoding_.live = false;  // the cache is overwritten
    Rng rng(std::uint64_t(o.seed), kSampleStream);
    std::string out = o.prompt;
    Index t = 0;
    for (; t < Index(seq.size()); ++t) cached_token(seq[size_t(t)], t, nullptr, s.slot_positions);
    for (Index written = 0; written < s.max_tokens; ++written) {
        const std::int32_t next = sample_next(rng, s.sampling);
        if (next == kBoundary) break;
        out += token_text(next);
        if (!position_fits(t)) break;  // the context is full: no position for the next input
        cached_token(next, t, nullptr, s.slot_positions);
        ++t;
    }
    return out;
}

// the projections and the MLP (10 d^2 + 2 d kv_width a position: 12 d^2 with a
// key/value head per query head) and the unembedding of the last position,
// around one layer's attention over the keys each position sees
// (decode_attention_cost: 2 d a key with the cache)
double LanguageModel::cached_multiply_adds(Index t) const {
    const double d = double(d_), maps = 10 * d * d + 2 * d * double(config_.kv_width());
    return double(layers_) * (maps + decode_attention_cost(visible_keys(t), d_).cached) + d * double(vocab_);
}

namespace {
// one layer's attention recomputing positions 0..m - 1, each over the keys it sees:
// sum 2 keys(i) d (m (m + 1) d without a window, decode_attention_cost's uncached)
template <class Keys>
double recomputed_attention(Index m, Index d, Keys keys) {
    double sum = 0;
    for (Index i = 0; i < m; ++i) sum += 2 * double(keys(i)) * double(d);
    return sum;
}
}  // namespace

double LanguageModel::uncached_multiply_adds(Index t) const {
    const double d = double(d_), m = double(t + 1), maps = 10 * d * d + 2 * d * double(config_.kv_width());
    const double a = recomputed_attention(t + 1, d_, [this](Index i) { return visible_keys(i); });
    return double(layers_) * (maps * m + a) + d * double(vocab_);
}

double LanguageModel::prefill_multiply_adds(Index m) const {
    const double d = double(d_), rows = double(m), maps = 10 * d * d + 2 * d * double(config_.kv_width());
    const double a = recomputed_attention(m, d_, [this](Index i) { return visible_keys(i); });
    return double(layers_) * (maps * rows + a) + d * double(vocab_);
}

// token at position t through the cache, then (sample) the next one sampled
DecodeStep LanguageModel::decode(std::int32_t token, Index t, bool sample) {
    DecodeStep step;
    step.token = token_text(token);
    step.position = double(t);
    cached_token(token, t, &step.rows, decoding_.slot_positions);
    step.cached_multiply_adds = cached_multiply_adds(t);
    step.uncached_multiply_adds = uncached_multiply_adds(t);
    step.attention_cached = decode_attention_cost(visible_keys(t), d_).cached;
    step.attention_uncached = recomputed_attention(t + 1, d_, [this](Index i) { return visible_keys(i); });
    // the positions held: the sinks, and a ring of the last `window` (all of 0..t without a window)
    const Index window = config_.window, sinks = config_.sinks;
    const Index entries =
        window == 0 ? t + 1 : std::min(sinks, t + 1) + std::min(window, std::max<Index>(0, t + 1 - sinks));
    step.cache_entries = double(entries);
    step.cache_numbers = 2.0 * double(layers_) * double(entries) * double(config_.kv_width());
    if (t >= decoding_.t) decoding_.decoded += step.cached_multiply_adds;  // a written token, not the prompt's
    step.prefill_multiply_adds = decoding_.prefill;
    step.decode_multiply_adds = decoding_.decoded;
    step.done = false;
    if (!sample) return step;
    const std::int32_t next = sample_next(decoding_.rng, decoding_.sampling, &step.kept);
    decoding_.t = t + 1;
    decoding_.pending = next;
    // as generate(): the boundary ends the text; a full context has no position for it
    step.done = next == kBoundary || !position_fits(t + 1);
    step.next = step.done ? std::string() : token_text(next);
    decoding_.live = !step.done;
    return step;
}

std::vector<DecodeStep> LanguageModel::begin_generation(const GenerateOptions& o) {
    const Generation s = checked(o, config_.position);
    const std::vector<std::int32_t> seq = sequence_of(o.prompt, "prompt", true);
    decoding_ = Decoding{};
    decoding_.rng = Rng(std::uint64_t(o.seed), kSampleStream);
    decoding_.sampling = s.sampling;
    decoding_.slot_positions = s.slot_positions;
    // the prompt's tokens are read, not sampled: the sample after the last one starts the text
    const Index m = Index(seq.size());
    decoding_.t = m;  // the first written token's position (decode() counts from there)
    decoding_.prefill = prefill_multiply_adds(m);
    std::vector<DecodeStep> steps;
    for (Index t = 0; t < m; ++t) {
        steps.push_back(decode(seq[size_t(t)], t, t + 1 == m));
        if (t + 1 < m) steps.back().next = token_text(seq[size_t(t + 1)]);
    }
    return steps;
}

DecodeStep LanguageModel::next_token() {
    require(decoding_.live, "no generation in progress: call begin_generation first (it ends when the text does, "
                            "and training, generate() and logits() reuse the cache)");
    return decode(decoding_.pending, decoding_.t);
}

}  // namespace attn::train
