// The language model on one text: encoding a prompt, the next token's
// distribution, the attention maps, what the model holds, and the texts and
// forward its analysis reads (model.hpp); generation is in generation.cpp.
#include "attention/language_model/model.hpp"

#include "attention/training/products.hpp"
#include "attention/training/step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::train {

// ---- the model on one text ------------------------------------------------------

std::vector<std::int32_t> LanguageModel::encode(const std::string& text, const std::string& what) const {
    std::vector<std::int32_t> out;
    for (std::uint32_t cp : code_points_of(text)) {
        const auto it = std::lower_bound(code_points_.begin() + first_char_, code_points_.end(), cp);
        if (it != code_points_.end() && *it == cp) {
            out.push_back(std::int32_t(it - code_points_.begin()));
        } else if (has_unknown_) {
            out.push_back(1);
        } else {
            char hex[16];
            std::snprintf(hex, sizeof hex, "U+%04X", unsigned(cp));
            fail(what + " has the character \"" + utf8_of(cp) + "\" (" + hex +
                 ") that is not in the vocabulary (the model has no unknown token)");
        }
    }
    return out;
}

std::vector<std::int32_t> LanguageModel::sequence_of(const std::string& text, const std::string& what,
                                                     bool past_context) const {
    std::vector<std::int32_t> seq(1, kBoundary);
    for (std::int32_t t : encode(text, what)) seq.push_back(t);
    // a prompt read through a windowed cache may pass the context, up to 4 context
    const bool longer = past_context && position_fits(n_);
    const Index most = longer ? 4 * n_ : n_;
    if (Index(seq.size()) > most)
        fail(what + " has " + std::to_string(seq.size() - 1) + " characters; with the boundary token at most " +
             (longer ? "4 context - 1 = " : "context - 1 = ") + std::to_string(most - 1) + " fit");
    return seq;
}

NextTokens LanguageModel::next(const std::string& prefix) {
    std::vector<std::int32_t> seq(1, kBoundary);
    for (std::int32_t t : encode(prefix, "prefix")) seq.push_back(t);
    if (Index(seq.size()) > n_) seq.erase(seq.begin(), seq.end() - n_);  // the last context tokens
    const Index m = Index(seq.size());
    std::copy(seq.begin(), seq.end(), tokens_.begin());
    std::fill(targets_.begin(), targets_.begin() + m, -1);
    targets_[size_t(m - 1)] = 0;  // only the last row goes through the unembedding
    forward(1, m, tokens_.data(), targets_.data());
    std::vector<float> p(logits_, logits_ + vocab_);
    for (float x : p)
        if (!std::isfinite(x)) divergence_.found(steps_);  // (a NaN would also break the sort below)
    softmax_row(p.data(), vocab_);
    return most_likely(p, kTop);
}

NextTokens LanguageModel::most_likely(const std::vector<float>& p, Index top) const {
    std::vector<std::int32_t> order(static_cast<size_t>(vocab_));
    for (Index i = 0; i < vocab_; ++i) order[size_t(i)] = std::int32_t(i);
    top = std::min(top, vocab_);
    std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](std::int32_t a, std::int32_t b) {
        return p[size_t(a)] > p[size_t(b)] || (p[size_t(a)] == p[size_t(b)] && a < b);
    });
    NextTokens out;
    for (Index i = 0; i < top; ++i) {
        const std::int32_t t = order[size_t(i)];
        out.tokens.push_back(token_text(t));
        out.probabilities.push_back(p[size_t(t)]);
    }
    return out;
}

AttentionMaps LanguageModel::attention(const std::string& text) {
    const std::vector<std::int32_t> seq = sequence_of(text, "text");
    const Index m = Index(seq.size());
    std::copy(seq.begin(), seq.end(), tokens_.begin());
    std::fill(targets_.begin(), targets_.begin() + m, -1);  // no unembedding needed
    forward(1, m, tokens_.data(), targets_.data());
    AttentionMaps out;
    for (std::int32_t t : seq) out.tokens.push_back(token_text(t));
    for (Index l = 0; l < layers_; ++l) {
        std::vector<Mat> heads;
        for (Index h = 0; h < heads_; ++h) {
            heads.push_back(Eigen::Map<const Mat>(blocks_[size_t(l)].A + h * m * m, m, m));
            // every row sees its own key, so it sums to 1, unless the scores overflowed
            // float32 (parameters blown up by too high a learning rate)
            const Mat& A = heads.back();
            for (Index i = 0; i < m; ++i)
                if (!A.row(i).allFinite() || std::abs(A.row(i).cast<double>().sum() - 1) > 1e-3)
                    divergence_.found(steps_);
        }
        out.weights.push_back(std::move(heads));
    }
    return out;
}

// ---- inspection -----------------------------------------------------------------

std::string LanguageModel::token_text(std::int32_t t) const {
    if (t == kBoundary) return kBoundaryText;
    if (has_unknown_ && t == 1) return kUnknownText;
    return utf8_of(code_points_[size_t(t)]);
}

VocabularyInfo LanguageModel::vocabulary() const {
    VocabularyInfo v;
    for (Index i = 0; i < vocab_; ++i) v.tokens.push_back(token_text(std::int32_t(i)));
    v.unknown = folded_;
    v.coverage = coverage_;
    return v;
}

LmInfo LanguageModel::info() const {
    return {double(store_.total()), double(vocab_), double(batch_ * n_), double(steps_),
            lm_position_name(config_.position), double(config_.kv()), double(config_.window), double(config_.sinks),
            double(chunks())};
}

// ---- what the analysis reads (analysis.hpp) ------------------------------------

std::vector<std::vector<std::int32_t>> LanguageModel::encode_all(const std::vector<std::string>& texts,
                                                                 const std::string& what) const {
    std::vector<std::vector<std::int32_t>> out;
    for (size_t i = 0; i < texts.size(); ++i) out.push_back(encode(texts[i], what + "[" + std::to_string(i) + "]"));
    return out;
}

std::vector<std::vector<std::int32_t>> LanguageModel::training_tokens() const {
    std::vector<std::vector<std::int32_t>> out;
    for (size_t i = 0; i + 1 < train_start_.size(); ++i)  // [0] + text + [0]
        out.emplace_back(train_tokens_.begin() + train_start_[i] + 1, train_tokens_.begin() + train_start_[i + 1] - 1);
    return out;
}

LanguageModel::TextsForward LanguageModel::forward_texts(const std::vector<const std::vector<std::int32_t>*>& texts,
                                                         bool with_targets) {
    const Index count = Index(texts.size());
    Index length = 1;
    for (const auto* t : texts) length = std::max(length, std::min(n_, Index(t->size()) + 1));
    for (Index b = 0; b < count; ++b) {
        const std::vector<std::int32_t>& t = *texts[size_t(b)];
        const Index size = Index(t.size());  // [0] + t: size + 1 tokens, size + 1 targets with the closing [0]
        for (Index k = 0; k < length; ++k) {
            const bool real = k <= size && k < n_;
            tokens_[size_t(b * length + k)] = k == 0 || !real ? kBoundary : t[size_t(k - 1)];
            targets_[size_t(b * length + k)] = with_targets && real ? (k < size ? t[size_t(k)] : kBoundary) : -1;
        }
    }
    forward(count, length, tokens_.data(), targets_.data());
    TextsForward out{length, {}, kept_, logits_, kept_rows_.data(), kept_targets_.data()};
    for (const Block& b : blocks_) out.weights.push_back(b.A);
    return out;
}

}  // namespace attn::train
