// The language model's training: the forward and backward passes over a
// batch, Adam steps, the held-out evaluation and the gradient check (its
// options, construction and batches are in model.cpp; the layers'
// loops in training/layers.cpp and training/products.cpp).
#include "attention/language_model/model.hpp"

#include "attention/training/products.hpp"
#include "attention/training/step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attn::train {

// ---- forward and backward -----------------------------------------------------

void LanguageModel::forward(Index sequences, Index length, const std::int32_t* tokens, const std::int32_t* targets) {
    divergence_.require_none();
    // every layer sees sequences of `length` rows (<= context): a batch of short
    // texts costs what its longest needs
    length_ = length;
    embedding_.length = length;
    attention_.length = length;
    rotary_q_.length = rotary_k_.length = length;
    const bool rotary = config_.position == LmPosition::rotary;
    const Index rows = sequences * length, d = d_;
    float* X = blocks_[0].X;
    embedding_.forward(rows, tokens, store_.value(kEmbedding), position_table(), X);  // X = E[token] (+ P[position])
    for (Index l = 0; l < layers_; ++l) {
        Block& b = blocks_[size_t(l)];
        auto W = [&](LmBlockTensor k) { return store_.value(lm_tensor(l, k)); };
        // H = X + Attn(LN1(X))
        norm_.forward(rows, b.X, W(kLn1Gain), W(kLn1Bias), b.Y1, b.mean1, b.rstd1);
        qkv_.forward(rows, b.Y1, W(kWq), b.Q), bias_d_.forward(rows, W(kBq), b.Q);
        kv_proj_.forward(rows, b.Y1, W(kWk), b.K), bias_kv_.forward(rows, W(kBk), b.K);
        kv_proj_.forward(rows, b.Y1, W(kWv), b.V), bias_kv_.forward(rows, W(kBv), b.V);
        if (rotary) rotary_q_.forward(rows, b.Q), rotary_k_.forward(rows, b.K);  // Q and K kept turned
        attention_.forward(sequences, nullptr, b.Q, b.K, b.V, b.A, b.Z);
        out_.forward(rows, b.Z, W(kWo), b.H), bias_d_.forward(rows, W(kBo), b.H);
        Residual::forward(rows * d, b.X, b.H, b.H);
        // X = H + MLP(LN2(H))
        norm_.forward(rows, b.H, W(kLn2Gain), W(kLn2Bias), b.Y2, b.mean2, b.rstd2);
        up_.forward(rows, b.Y2, W(kW1), b.U), bias_4d_.forward(rows, W(kB1), b.U);
        Gelu::forward(rows * 4 * d, b.U, b.T, b.G);
        float* next = l + 1 < layers_ ? blocks_[size_t(l) + 1].X : Xf_;
        down_.forward(rows, b.G, W(kW2), next), bias_d_.forward(rows, W(kB2), next);
        Residual::forward(rows * d, b.H, next, next);
    }
    norm_.forward(rows, Xf_, store_.value(last(kLnfGain)), store_.value(last(kLnfBias)), Yf_, meanf_, rstdf_);
    // the rows with a target, compacted, through the unembedding
    kept_ = 0;
    for (Index r = 0; r < rows; ++r)
        if (targets[r] >= 0) {
            std::copy(Yf_ + r * d, Yf_ + (r + 1) * d, Yc_ + kept_ * d);
            kept_rows_[size_t(kept_)] = std::int32_t(r);
            kept_targets_[size_t(kept_)] = targets[r];
            ++kept_;
        }
    unembed_.forward(kept_, Yc_, store_.value(last(kWout)), logits_);
    bias_vocab_.forward(kept_, store_.value(last(kBout)), logits_);
    // parameters the last update left too large overflow here (softmax_row
    // passes an overflowed score on as NaN)
    if (!all_finite(logits_, kept_ * vocab_)) divergence_.found(steps_);
}

void LanguageModel::check_update() {
    const Index m = std::min(n_, train_start_[1] - train_start_[0] - 1);  // [0] + the first text, cut to context
    for (Index i = 0; i < m; ++i) {
        tokens_[size_t(i)] = train_tokens_[size_t(train_start_[0] + i)];
        targets_[size_t(i)] = train_tokens_[size_t(train_start_[0] + i + 1)];
    }
    forward(1, m, tokens_.data(), targets_.data());
}

void LanguageModel::backward(Index sequences, const std::int32_t* tokens) {
    const Index rows = sequences * length_, d = d_;
    zero(store_.grads(), store_.total());
    // logits = Yc W_out + b_out, scattered back to the rows they came from
    zero(dYc_, kept_ * d);
    unembed_.backward(kept_, Yc_, store_.value(last(kWout)), dlogits_, store_.grad(last(kWout)), dYc_);
    bias_vocab_.backward(kept_, dlogits_, store_.grad(last(kBout)));
    zero(dY_, rows * d);
    for (Index k = 0; k < kept_; ++k)
        std::copy(dYc_ + k * d, dYc_ + (k + 1) * d, dY_ + Index(kept_rows_[size_t(k)]) * d);
    zero(dX_, rows * d);
    norm_.backward(rows, Xf_, store_.value(last(kLnfGain)), meanf_, rstdf_, dY_, store_.grad(last(kLnfGain)),
                   store_.grad(last(kLnfBias)), dX_);
    for (Index l = layers_ - 1; l >= 0; --l) {
        Block& b = blocks_[size_t(l)];
        auto W = [&](LmBlockTensor k) { return store_.value(lm_tensor(l, k)); };
        auto dW = [&](LmBlockTensor k) { return store_.grad(lm_tensor(l, k)); };
        // X_next = H + MLP(LN2(H)): dX_ is d(X_next); the residual passes it to dH unchanged
        bias_d_.backward(rows, dX_, dW(kB2));
        zero(dU_, rows * 4 * d);
        down_.backward(rows, b.G, W(kW2), dX_, dW(kW2), dU_);  // dG
        Gelu::backward(rows * 4 * d, b.U, b.T, dU_, dU_);     // dU
        bias_4d_.backward(rows, dU_, dW(kB1));
        zero(dY_, rows * d);
        up_.backward(rows, b.Y2, W(kW1), dU_, dW(kW1), dY_);  // dY2
        norm_.backward(rows, b.H, W(kLn2Gain), b.mean2, b.rstd2, dY_, dW(kLn2Gain), dW(kLn2Bias), dX_);  // dX_ is now dH
        // H = X + Attn(LN1(X)): dO = dH
        bias_d_.backward(rows, dX_, dW(kBo));
        zero(dZ_, rows * d);
        out_.backward(rows, b.Z, W(kWo), dX_, dW(kWo), dZ_);
        attention_.backward(sequences, b.Q, b.K, b.V, b.A, dZ_, dQ_, dK_, dV_, scratch_);
        if (config_.position == LmPosition::rotary) rotary_q_.backward(rows, dQ_), rotary_k_.backward(rows, dK_);
        bias_d_.backward(rows, dQ_, dW(kBq));
        bias_kv_.backward(rows, dK_, dW(kBk));
        bias_kv_.backward(rows, dV_, dW(kBv));
        zero(dY_, rows * d);
        qkv_.backward(rows, b.Y1, W(kWq), dQ_, dW(kWq), dY_);
        kv_proj_.backward(rows, b.Y1, W(kWk), dK_, dW(kWk), dY_);
        kv_proj_.backward(rows, b.Y1, W(kWv), dV_, dW(kWv), dY_);                        // dY1
        norm_.backward(rows, b.X, W(kLn1Gain), b.mean1, b.rstd1, dY_, dW(kLn1Gain), dW(kLn1Bias), dX_);  // dX_ is now dX
    }
    embedding_.backward(rows, tokens, dX_, store_.grad(kEmbedding));
    if (config_.position == LmPosition::learned) embedding_.backward_positions(rows, dX_, store_.grad(kPositions));
}

double LanguageModel::compute_gradients(Index sequences, const std::int32_t* tokens, const std::int32_t* targets) {
    require(sequences >= 1 && sequences <= batch_,
            "sequences must be from 1 to batch (" + std::to_string(batch_) + "), got " + std::to_string(sequences));
    const Index rows = sequences * n_;
    for (Index r = 0; r < rows; ++r)
        if (tokens[r] < 0 || tokens[r] >= vocab_ || targets[r] >= vocab_)
            fail("tokens and targets must be in [0, vocab), got " + std::to_string(tokens[r]) + " -> " +
                 std::to_string(targets[r]));
    forward(sequences, n_, tokens, targets);
    const double loss = loss_.forward_backward(kept_, logits_, kept_targets_.data(), dlogits_);
    backward(sequences, tokens);
    return loss;
}

// ---- a step in chunks ------------------------------------------------------------

void LanguageModel::begin_step() {
    divergence_.require_none();
    if (drawn_) return;
    drawn_ = true;
    drawn_from_ = batches_.state();
    step_length_ = fill_batch(batches_, tokens_.data(), targets_.data(), true);
    step_targets_ = 0;
    for (Index r = 0; r < batch_ * step_length_; ++r) step_targets_ += targets_[size_t(r)] >= 0;
}

double LanguageModel::chunk_gradient(Index c) {
    const Index first = c * batch_ / chunks(), count = (c + 1) * batch_ / chunks() - first;
    const std::int32_t* tokens = tokens_.data() + first * step_length_;
    forward(count, step_length_, tokens, targets_.data() + first * step_length_);
    const double loss = loss_.forward_backward_sum(kept_, logits_, kept_targets_.data(), dlogits_, step_targets_);
    backward(count, tokens);
    return loss;
}

LanguageModel::ChunkSum LanguageModel::tree_sum(Index first, Index end, float* out, const std::vector<ChunkSum>* given,
                                                Index depth) {
    if (given)
        for (const ChunkSum& node : *given)
            if (node.first == first && node.end == end) return node;
    if (end - first == 1) {
        // the backward writes the chunk's gradient into out itself (set back however it ends)
        struct Into {
            ParameterStore& store;
            ~Into() { store.write_grads_into(nullptr); }
        } into{store_};
        store_.write_grads_into(out);
        return {first, end, chunk_gradient(first), out};
    }
    const Index mid = (first + end) / 2, total = store_.total();
    const ChunkSum left = tree_sum(first, mid, out, given, depth + 1);
    const ChunkSum right = tree_sum(mid, end, tree_[size_t(depth)].data(), given, depth + 1);
    for (Index i = 0; i < total; ++i) out[i] = left.gradient[i] + right.gradient[i];
    return {first, end, left.loss + right.loss, out};
}

void LanguageModel::end_step(const ChunkSum& root) {
    last_loss_ = root.loss / step_targets_;
    // if/fail, not require: the message is built only on failure (no allocation per step)
    if (!std::isfinite(last_loss_)) divergence_.found(steps_);
    adam_update(adam_, store_, steps_ + 1, divergence_, root.gradient);
    ++steps_;
    drawn_ = false;
}

void LanguageModel::train_step() {
    begin_step();
    end_step(tree_sum(0, chunks(), grad_sum_.data(), nullptr));
}

void LanguageModel::set_values(const float* values, Index count) {
    require(count == store_.total(), "values must hold every parameter: " + std::to_string(store_.total()) +
                                         " numbers, got " + std::to_string(count));
    std::copy(values, values + count, store_.values());
    decoding_.live = false;
}

void LanguageModel::set_batch_state(std::uint64_t state) {
    batches_.set_state(state);
    drawn_ = false;
}

float* LanguageModel::values_to_set() {
    decoding_.live = false;
    return store_.values();
}

std::vector<std::pair<Index, Index>> LanguageModel::nodes_within(Index first, Index end) const {
    std::vector<std::pair<Index, Index>> nodes;
    // node [a, b): taken whole when inside [first, end), else its halves where they meet it
    auto visit = [&](auto&& self, Index a, Index b) -> void {
        if (b <= first || a >= end) return;
        if (first <= a && b <= end) {
            nodes.push_back({a, b});
            return;
        }
        self(self, a, (a + b) / 2);
        self(self, (a + b) / 2, b);
    };
    visit(visit, 0, chunks());
    return nodes;
}

std::vector<LanguageModel::ChunkSum> LanguageModel::chunk_sums(Index first, Index end, float* out) {
    require(0 <= first && first < end && end <= chunks(), "the chunks must be a run from 0 to " +
                                                              std::to_string(chunks()) + ", got " +
                                                              std::to_string(first) + " .. " + std::to_string(end));
    decoding_.live = false;
    begin_step();
    std::vector<ChunkSum> sums;
    for (const auto& [a, b] : nodes_within(first, end)) {
        float* gradient = out + Index(sums.size()) * store_.total();
        sums.push_back(tree_sum(a, b, gradient, nullptr));
    }
    return sums;
}

LmStep LanguageModel::apply_chunks(const std::vector<ChunkSum>& nodes) {
    // every node one of the tree's, together tiling the chunks: checked before anything moves
    std::vector<ChunkSum> sorted = nodes;
    std::sort(sorted.begin(), sorted.end(), [](const ChunkSum& a, const ChunkSum& b) { return a.first < b.first; });
    Index next = 0;
    for (const ChunkSum& node : sorted) {
        const auto inside = nodes_within(node.first, node.end);
        require(inside.size() == 1 && inside[0] == std::make_pair(node.first, node.end),
                "chunks " + std::to_string(node.first) + " .. " + std::to_string(node.end - 1) +
                    " are no node of the chunks' tree");
        require(node.first == next, "the nodes given must tile the chunks 0 .. " + std::to_string(chunks() - 1) +
                                        ": chunk " + std::to_string(next) + " is missing or given twice");
        next = node.end;
    }
    require(next == chunks(), "the nodes given must tile the chunks 0 .. " + std::to_string(chunks() - 1) +
                                  ": chunk " + std::to_string(next) + " is missing");
    decoding_.live = false;
    begin_step();
    end_step(tree_sum(0, chunks(), grad_sum_.data(), &sorted));
    return {double(steps_), last_loss_, step_targets_};
}

LmStep LanguageModel::step(double n, std::vector<double>* losses) {
    require_steps(n);
    decoding_.live = false;  // the cache holds keys and values of the old weights
    // multiply-adds of one step: forward, and backward about twice that
    const double d = double(d_), rows = double(batch_ * n_);
    const double kvw = double(config_.kv_width());
    const double work = 3 * (rows * (double(layers_) * (10 * d * d + 2 * d * kvw) + d * double(vocab_)) +
                             double(layers_) * 2 * double(batch_) * double(n_) * double(n_) * d);
    if (!(work * n <= kMaxWork)) require_work(work * n, std::to_string(Index(n)) + " training steps");
    if (losses) losses->resize(size_t(n));
    double tokens = 0;
    for (Index s = 0; s < Index(n); ++s) {
        train_step();
        tokens += step_targets_;
        if (losses) (*losses)[size_t(s)] = last_loss_;
    }
    check_update();  // one window's forward: 1 / (3 batch) of a step's work
    return {double(steps_), last_loss_, tokens};
}

LmEvaluation LanguageModel::evaluate() {
    require_argument(held_windows_ > 0, "held_out", "evaluate needs held-out texts: held_out is empty");
    double total = 0, counted = 0;
    for (Index first = 0; first < held_windows_; first += batch_) {
        // windows sorted by length: each chunk padded to its longest only
        const Index count = std::min(batch_, held_windows_ - first);
        Index length = 1;
        for (Index w = first; w < first + count; ++w) length = std::max(length, held_lengths_[size_t(w)]);
        for (Index w = 0; w < count; ++w)
            for (Index k = 0; k < length; ++k) {
                tokens_[size_t(w * length + k)] = held_tokens_[size_t((first + w) * n_ + k)];
                targets_[size_t(w * length + k)] = held_targets_[size_t((first + w) * n_ + k)];
            }
        forward(count, length, tokens_.data(), targets_.data());
        total += loss_.forward_backward(kept_, logits_, kept_targets_.data(), dlogits_) * double(kept_);
        counted += double(kept_);
    }
    if (!std::isfinite(total)) divergence_.found(steps_);
    return {total / counted, unigram_loss_, counted};
}

void LanguageModel::reserve_length(Index length) {
    if (length <= length_cap_) return;
    const double floats = 8 * double(store_.total()) + arena_floats(length);
    if (!(floats <= kMaxFloats))
        fail("reading " + std::to_string(length) + " positions needs " + number(std::ceil(floats * 4 / 1048576)) +
                 " MB of buffers, more than the limit of " + number(kMaxFloats * 4 / 1048576) + " MB",
             Code::out_of_memory);
    carve_arena(length);
}

LmEvaluation LanguageModel::evaluate_texts(const std::vector<std::string>& texts, double length_option) {
    divergence_.require_none();
    const Index length = integer_option(length_option, "length", 1, double(4 * n_));
    if (config_.position == LmPosition::learned && length > n_)
        fail_argument("length", "learned positions are a table of context = " + std::to_string(n_) +
                                    " rows: they cannot read " + std::to_string(length) +
                                    " positions (sinusoidal, rotary, alibi and none positions read up to 4 context)");
    require_argument(!texts.empty() || !held_texts_.empty(), "texts",
                     "evaluate needs texts: give some, or held-out texts when creating the model");
    // [0] + text + [0] for each text, joined: one stream of tokens
    std::vector<std::int32_t> stream(1, kBoundary);
    for (const std::vector<std::int32_t>& text : texts.empty() ? held_texts_ : encode_all(texts, "texts")) {
        stream.insert(stream.end(), text.begin(), text.end());
        stream.push_back(kBoundary);
    }
    reserve_length(length);
    // the unigram model of encode_texts(), for the same targets
    std::vector<double> unigram(size_t(vocab_), 1.0);
    for (std::int32_t t : train_tokens_) unigram[size_t(t)] += 1;
    unigram[0] -= double(train_start_.size() - 1);  // each text's opening boundary is no target
    double unigram_total = 0;
    for (double c : unigram) unigram_total += c;
    // windows of `length` targets (the last one shorter), as many at once as the buffers hold
    const Index targets = Index(stream.size()) - 1, windows = (targets + length - 1) / length;
    const Index at_once = std::max<Index>(1, std::min({batch_ * n_ / length, rows_cap_ / length,
                                                       a_cap_ / (heads_ * length * length)}));
    double total = 0, counted = 0, unigram_sum = 0;
    for (Index first = 0; first < windows; first += at_once) {
        const Index count = std::min(at_once, windows - first);
        for (Index w = 0; w < count; ++w)
            for (Index k = 0; k < length; ++k) {
                const Index i = (first + w) * length + k;  // the position in the stream
                const bool real = i < targets;
                tokens_[size_t(w * length + k)] = real ? stream[size_t(i)] : kBoundary;
                targets_[size_t(w * length + k)] = real ? stream[size_t(i) + 1] : -1;
                if (real) unigram_sum -= log_det(unigram[size_t(stream[size_t(i) + 1])] / unigram_total);
            }
        forward(count, length, tokens_.data(), targets_.data());
        total += loss_.forward_backward(kept_, logits_, kept_targets_.data(), dlogits_) * double(kept_);
        counted += double(kept_);
    }
    if (!std::isfinite(total)) divergence_.found(steps_);
    LmEvaluation out{total / counted, unigram_sum / counted, counted};
    out.length = double(std::min(length, targets));
    return out;
}

GradientCheck LanguageModel::gradient_check(Index per_tensor) const {
    divergence_.require_none();
    // one sequence of at most 6 positions: the first training text's first tokens,
    // checked on the model cut to that context (the first rows of P)
    const Index length = std::min<Index>(n_, 6);
    const Index count = std::min(length, train_start_[1] - 1);  // the first text's targets
    TokenIds tokens(size_t(length), kBoundary), targets(size_t(length), -1);
    for (Index i = 0; i < count; ++i) {
        tokens[size_t(i)] = train_tokens_[size_t(i)];
        targets[size_t(i)] = train_tokens_[size_t(i) + 1];
    }
    LmConfig config = config_;
    config.context = length;
    ParamsD params = parameters_double();
    if (config_.position == LmPosition::learned) params[kPositions] = MatD(params[kPositions].topRows(length));
    // entries: every one, or `per_tensor` spread evenly over each tensor
    std::vector<std::pair<Index, Index>> entries;
    for (Index t = 0; t < Index(params.size()); ++t) {
        const Index size = params[size_t(t)].size();
        const Index take = per_tensor == 0 ? size : std::min(per_tensor, size);
        for (Index i = 0; i < take; ++i) entries.push_back({t, (i * size) / take + (size / take) / 2});
    }
    const double d = double(d_), rows = double(length);
    const double forward = rows * (double(layers_) * (12 * d * d + d * d) + d * double(vocab_)) +
                           double(layers_) * 2 * rows * rows * d;
    const double work = 4 * double(entries.size()) * forward;
    if (!(work <= kMaxCheckWork))
        fail("the gradient check of " + std::to_string(entries.size()) + " entries is too large: about " +
             number(work) + " multiply-adds, more than " + std::to_string(std::int64_t(kMaxCheckWork)) +
             "; check a smaller model");
    return lm_gradient_check_reference(config, params, tokens, targets, entries);
}

}  // namespace attn::train
