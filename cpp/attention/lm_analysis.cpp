// What a trained language model has learned, measured: the roles of its heads
// (head_roles), its loss over each half of texts written twice (halves), and
// the counting models it is measured against (baselines). The definitions are
// in language_model.hpp, beside the structs.
#include "attention/language_model.hpp"

#include "attention/train_products.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::train {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
constexpr double kBaselineK[] = {1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001};
constexpr Index kOrders = 4;

// the 1-based length of a text's first line: up to and including its first
// punctuation mark, when a second line follows and the first has 2 characters
// or more; 0 otherwise
Index first_line(const std::vector<std::int32_t>& tokens, const std::vector<bool>& punctuation) {
    for (Index i = 0; i < Index(tokens.size()); ++i)
        if (punctuation[size_t(tokens[size_t(i)])]) return i + 1 >= 2 && i + 1 < Index(tokens.size()) ? i + 1 : 0;
    return 0;
}

const char* const kRoleNames[5] = {"previous", "self", "first", "induction", "line"};

}  // namespace

std::vector<std::vector<std::int32_t>> LanguageModel::tokens_of(const std::vector<std::string>& texts,
                                                                const std::string& what) const {
    std::vector<std::vector<std::int32_t>> out;
    for (size_t i = 0; i < texts.size(); ++i) out.push_back(encode(texts[i], what + "[" + std::to_string(i) + "]"));
    return out;
}

std::vector<std::vector<std::int32_t>> LanguageModel::train_texts() const {
    std::vector<std::vector<std::int32_t>> out;
    for (size_t i = 0; i + 1 < train_start_.size(); ++i)  // [0] + text + [0]
        out.emplace_back(train_tokens_.begin() + train_start_[i] + 1, train_tokens_.begin() + train_start_[i + 1] - 1);
    return out;
}

Index LanguageModel::forward_texts(const std::vector<const std::vector<std::int32_t>*>& texts, bool with_targets) {
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
    return length;
}

// ---- head roles ---------------------------------------------------------------

HeadRole head_role(const std::vector<Mat>& maps, const std::vector<std::vector<std::int32_t>>& texts,
                   const std::vector<bool>& punctuation, std::int32_t unknown) {
    require(maps.size() == texts.size(), "head_role: " + std::to_string(maps.size()) + " maps for " +
                                             std::to_string(texts.size()) + " texts");
    double sum[5] = {0, 0, 0, 0, 0}, count[5] = {0, 0, 0, 0, 0};
    auto add = [&](int role, double weight) { sum[role] += weight, count[role] += 1; };
    for (size_t k = 0; k < maps.size(); ++k) {
        const Mat& A = maps[k];
        const std::vector<std::int32_t>& t = texts[k];
        const Index m = A.rows();
        require(A.cols() == m && m <= Index(t.size()) + 1,
                "head_role: map " + std::to_string(k) + " is not square over [boundary] + its text");
        const Index p = first_line(t, punctuation);
        for (Index i = 1; i < m; ++i) {
            add(1, A(i, i));
            if (i >= 2) add(0, A(i, i - 1)), add(2, A(i, 0));
            // the keys right after the earlier occurrences j (1 <= j <= i - 2) of the token at i
            const std::int32_t token = t[size_t(i - 1)];
            double on = 0;
            bool any = false;
            for (Index j = 1; token != unknown && j <= i - 2; ++j)
                if (t[size_t(j - 1)] == token) on += A(i, j + 1), any = true;
            if (any) add(3, on);
            if (p >= 2 && i >= p + 1) add(4, A(i, i - p));
        }
    }
    double score[5];
    int best = -1;
    for (int r = 0; r < 5; ++r) {
        score[r] = count[r] > 0 ? sum[r] / count[r] : kNone;
        if (count[r] > 0 && (best < 0 || score[r] > score[best])) best = r;
    }
    return HeadRole{score[0], score[1], score[2], score[3], score[4], best >= 0 ? kRoleNames[best] : "",
                    best >= 0 ? score[best] : kNone};
}

HeadRoles LanguageModel::head_roles(const std::vector<std::string>& texts) {
    const std::vector<std::vector<std::int32_t>> given = tokens_of(texts, "texts");
    std::vector<const std::vector<std::int32_t>*> measured;
    if (texts.empty()) {
        require(!held_texts_.empty(), "headRoles needs texts: none given and held_out is empty");
        Index total = 0;
        for (const auto& t : held_texts_) {
            const Index m = std::min(n_, Index(t.size()) + 1);
            if (!measured.empty() && total + m > kRoleTokens) break;
            measured.push_back(&t);
            total += m;
        }
    } else {
        for (const auto& t : given) measured.push_back(&t);
    }
    std::vector<bool> punctuation(size_t(vocab_), false);
    for (Index v = first_char_; v < vocab_; ++v) punctuation[size_t(v)] = is_punctuation(code_points_[size_t(v)]);

    // every head's maps, text by text
    std::vector<std::vector<Mat>> maps(size_t(layers_ * heads_));
    std::vector<std::vector<std::int32_t>> measured_texts;
    HeadRoles out;
    out.texts = double(measured.size());
    out.queries = 0;
    for (size_t first = 0; first < measured.size(); first += size_t(batch_)) {
        const std::vector<const std::vector<std::int32_t>*> chunk(
            measured.begin() + Index(first), measured.begin() + Index(std::min(measured.size(), first + size_t(batch_))));
        const Index length = forward_texts(chunk, false);
        for (Index b = 0; b < Index(chunk.size()); ++b) {
            const Index m = std::min(n_, Index(chunk[size_t(b)]->size()) + 1);
            measured_texts.push_back(*chunk[size_t(b)]);
            out.queries += double(m - 1);
            for (Index lh = 0; lh < layers_ * heads_; ++lh) {
                const float* A = blocks_[size_t(lh / heads_)].A + (b * heads_ + lh % heads_) * length * length;
                const Mat map = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>(A, m, m, Eigen::OuterStride<>(length));
                if (!map.allFinite()) divergence_.found(steps_);
                maps[size_t(lh)].push_back(map);
            }
        }
    }
    for (Index l = 0; l < layers_; ++l) {
        std::vector<HeadRole> layer;
        for (Index h = 0; h < heads_; ++h)
            layer.push_back(head_role(maps[size_t(l * heads_ + h)], measured_texts, punctuation, has_unknown_ ? 1 : -1));
        out.heads.push_back(std::move(layer));
    }
    return out;
}

// ---- halves -------------------------------------------------------------------

Halves LanguageModel::halves(const std::vector<std::string>& texts) {
    std::vector<std::vector<std::int32_t>> given = tokens_of(texts, "texts");
    const auto& all = texts.empty() ? held_texts_ : given;
    require(!all.empty(), "halves needs texts: none given and held_out is empty");
    for (size_t i = 0; i < all.size(); ++i)
        require(Index(all[i].size()) + 1 <= n_, (texts.empty() ? "held_out[" : "texts[") + std::to_string(i) +
                                                    "] has " + std::to_string(all[i].size()) +
                                                    " characters; the halves need the whole text in the context: at most " +
                                                    std::to_string(n_ - 1));
    double loss[2] = {0, 0}, right[2] = {0, 0}, count[2] = {0, 0};
    std::vector<std::int32_t> best(size_t(batch_ * n_));
    for (size_t first = 0; first < all.size(); first += size_t(batch_)) {
        std::vector<const std::vector<std::int32_t>*> chunk;
        for (size_t i = first; i < std::min(all.size(), first + size_t(batch_)); ++i) chunk.push_back(&all[i]);
        const Index length = forward_texts(chunk, true);
        argmax_rows(kept_, vocab_, logits_, best.data());
        for (Index k = 0; k < kept_; ++k) {
            const Index row = kept_rows_[size_t(k)], b = row / length, target = row % length;  // target x(target)
            const Index c = Index(chunk[size_t(b)]->size()), h = c / 2;
            const int half = target < h ? 0 : target > h ? 1 : -1;
            if (half < 0) continue;
            const double nll = loss_.forward_backward(1, logits_ + k * vocab_, kept_targets_.data() + k, dlogits_);
            loss[half] += nll;
            right[half] += best[size_t(k)] == kept_targets_[size_t(k)];
            count[half] += 1;
        }
    }
    auto score = [&](int half) {
        if (count[half] == 0) return HalfScore{kNone, kNone, 0};
        if (!std::isfinite(loss[half])) divergence_.found(steps_);
        return HalfScore{loss[half] / count[half], right[half] / count[half], count[half]};
    };
    return {score(0), score(1)};
}

// ---- the n-gram ladder --------------------------------------------------------

namespace {

// Counts of one order over texts, as sorted keys (a key appears once per time
// it was seen): the target at position i of [0] + text + [0] (i >= 1), and its
// context, the N - 1 tokens before it, ⏎ before the text's start.
struct NgramCounts {
    Index order;
    std::vector<std::uint64_t> joint, context;  // (context, x) keys and context keys, sorted

    // position i of [0] + t + [0], and ⏎ before it
    static std::uint64_t token_at(const std::vector<std::int32_t>& t, Index i) {
        return i <= 0 || i > Index(t.size()) ? 0 : std::uint64_t(t[size_t(i - 1)]);
    }
    // the context of position i in 16 bits per token, and (joint) the target after it
    std::uint64_t key(const std::vector<std::int32_t>& t, Index i, bool joint) const {
        std::uint64_t k = 0;
        for (Index j = i - (order - 1); j < i; ++j) k = (k << 16) | token_at(t, j);
        return joint ? (k << 16) | token_at(t, i) : k;
    }
    NgramCounts(Index n, const std::vector<std::vector<std::int32_t>>& texts) : order(n) {
        for (const auto& t : texts)
            for (Index i = 1; i <= Index(t.size()) + 1; ++i) joint.push_back(key(t, i, true)), context.push_back(key(t, i, false));
        std::sort(joint.begin(), joint.end());
        std::sort(context.begin(), context.end());
    }
    static double count(const std::vector<std::uint64_t>& keys, std::uint64_t k) {
        const auto [lo, hi] = std::equal_range(keys.begin(), keys.end(), k);
        return double(hi - lo);
    }
};

double mean_loss(const std::vector<std::pair<double, double>>& counts, double k, double vocab) {
    double sum = 0;
    for (const auto& [joint, context] : counts) sum -= std::log((joint + k) / (context + k * vocab));
    return counts.empty() ? 0.0 : sum / double(counts.size());
}

std::vector<std::pair<double, double>> counted(Index order, const std::vector<std::vector<std::int32_t>>& from,
                                               const std::vector<std::vector<std::int32_t>>& texts) {
    const NgramCounts counts(order, from);
    std::vector<std::pair<double, double>> out;  // (count(context, x), count(context)) of every target
    for (const auto& t : texts)
        for (Index i = 1; i <= Index(t.size()) + 1; ++i)
            out.push_back({NgramCounts::count(counts.joint, counts.key(t, i, true)),
                           NgramCounts::count(counts.context, counts.key(t, i, false))});
    return out;
}

}  // namespace

const Baselines& LanguageModel::baselines() {
    if (!baselines_.empty()) return baselines_[0];
    require(!held_texts_.empty(), "baselines needs held-out texts: held_out is empty");
    require(vocab_ <= 65536, "baselines count at most 65536 tokens, the vocabulary has " + std::to_string(vocab_));
    const std::vector<std::vector<std::int32_t>> train = train_texts();
    // k from the last tenth of the training texts (at least one), counted on the rest
    // (all of them when there is only one text)
    const size_t tune = std::max<size_t>(1, train.size() / 10);
    const std::vector<std::vector<std::int32_t>> rest(train.begin(), train.end() - Index(train.size() > 1 ? tune : 0));
    const std::vector<std::vector<std::int32_t>> slice(train.end() - Index(tune), train.end());
    Baselines out;
    out.tokens = 0;
    for (Index order = 1; order <= kOrders; ++order) {
        const auto tuning = counted(order, rest, slice);
        double k = kBaselineK[0], low = mean_loss(tuning, k, double(vocab_));
        for (double candidate : kBaselineK) {
            const double loss = mean_loss(tuning, candidate, double(vocab_));
            if (loss < low) low = loss, k = candidate;
        }
        const auto held = counted(order, train, held_texts_);
        double unseen = 0;
        for (const auto& counts : held) unseen += counts.second == 0;
        out.ladder.push_back({double(order), mean_loss(held, k, double(vocab_)), k, held.empty() ? 0.0 : unseen / double(held.size())});
        out.tokens = double(held.size());
    }
    baselines_.push_back(out);
    return baselines_[0];
}

}  // namespace attn::train
