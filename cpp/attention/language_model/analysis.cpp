// What a trained language model has learned, measured (analysis.hpp): the
// roles of its heads (head_roles), their weight one period back and on
// punctuation (head_scores), its loss over each half of texts written twice
// (halves), and the counting models it is measured against (baselines). The
// forward stage by stage (trace) is in trace.cpp.
#include "attention/language_model/analysis.hpp"

#include "attention/training/products.hpp"

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

HeadRoles head_roles(LanguageModel& model, const std::vector<std::string>& texts) {
    const std::vector<std::vector<std::int32_t>> given = model.encode_all(texts, "texts");
    const std::vector<std::vector<std::int32_t>>& held = model.held_out_tokens();
    const Index n = model.context(), batch = model.batch();
    const Index layers = model.config().layers, heads = model.config().heads;
    std::vector<const std::vector<std::int32_t>*> measured;
    if (texts.empty()) {
        require_argument(!held.empty(), "held_out", "headRoles needs texts: none given and held_out is empty");
        Index total = 0;
        for (const auto& t : held) {
            const Index m = std::min(n, Index(t.size()) + 1);
            if (!measured.empty() && total + m > kRoleTokens) break;
            measured.push_back(&t);
            total += m;
        }
    } else {
        for (const auto& t : given) measured.push_back(&t);
    }
    // the boundary (0) and the unknown token (U+FFFD) are no punctuation marks
    std::vector<bool> punctuation;
    for (std::uint32_t cp : model.code_points()) punctuation.push_back(is_punctuation(cp));

    // every head's maps, text by text
    std::vector<std::vector<Mat>> maps(size_t(layers * heads));
    std::vector<std::vector<std::int32_t>> measured_texts;
    HeadRoles out;
    out.texts = double(measured.size());
    out.queries = 0;
    for (size_t first = 0; first < measured.size(); first += size_t(batch)) {
        const std::vector<const std::vector<std::int32_t>*> chunk(
            measured.begin() + Index(first), measured.begin() + Index(std::min(measured.size(), first + size_t(batch))));
        const LanguageModel::TextsForward f = model.forward_texts(chunk, false);
        const Index length = f.length;
        for (Index b = 0; b < Index(chunk.size()); ++b) {
            const Index m = std::min(n, Index(chunk[size_t(b)]->size()) + 1);
            measured_texts.push_back(*chunk[size_t(b)]);
            out.queries += double(m - 1);
            for (Index lh = 0; lh < layers * heads; ++lh) {
                const float* A = f.weights[size_t(lh / heads)] + (b * heads + lh % heads) * length * length;
                const Mat map = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>(A, m, m, Eigen::OuterStride<>(length));
                if (!map.allFinite()) model.diverged();
                maps[size_t(lh)].push_back(map);
            }
        }
    }
    for (Index l = 0; l < layers; ++l) {
        std::vector<HeadRole> layer;
        for (Index h = 0; h < heads; ++h)
            layer.push_back(head_role(maps[size_t(l * heads + h)], measured_texts, punctuation, model.unknown_token()));
        out.heads.push_back(std::move(layer));
    }
    return out;
}

// ---- head scores --------------------------------------------------------------

HeadScores head_scores(LanguageModel& model, const std::string& text, double period) {
    const Index p = integer_option(period, "period", 1, double(model.context() - 1));
    const AttentionMaps maps = model.attention(text);
    const std::vector<std::uint32_t> cps = code_points_of(text);
    const Index m = Index(maps.tokens.size());
    std::vector<bool> punct(size_t(m), false);  // key 0 is the boundary
    for (Index j = 1; j < m; ++j) punct[size_t(j)] = is_punctuation(cps[size_t(j - 1)]);
    HeadScores out;
    for (const auto& layer : maps.weights) {
        std::vector<double> previous, punctuation;
        for (const Mat& A : layer) {
            double back = 0, on_punct = 0;
            for (Index i = p; i < m; ++i) back += double(A(i, i - p));
            for (Index i = 0; i < m; ++i)
                for (Index j = 0; j <= i; ++j)
                    if (punct[size_t(j)]) on_punct += double(A(i, j));
            previous.push_back(m > p ? back / double(m - p) : 0.0);
            punctuation.push_back(on_punct / double(m));
        }
        out.previous_line.push_back(std::move(previous));
        out.punctuation.push_back(std::move(punctuation));
    }
    return out;
}

// ---- halves -------------------------------------------------------------------

Halves halves(LanguageModel& model, const std::vector<std::string>& texts) {
    std::vector<std::vector<std::int32_t>> given = model.encode_all(texts, "texts");
    const auto& all = texts.empty() ? model.held_out_tokens() : given;
    const Index n = model.context(), batch = model.batch(), vocab = model.vocab();
    const char* const named = texts.empty() ? "held_out" : "texts";
    require_argument(!all.empty(), "held_out", "halves needs texts: none given and held_out is empty");
    for (size_t i = 0; i < all.size(); ++i)
        require_argument(Index(all[i].size()) + 1 <= n, named,
                         named + ("[" + std::to_string(i)) + "] has " + std::to_string(all[i].size()) +
                             " characters; the halves need the whole text in the context: at most " +
                             std::to_string(n - 1));
    double loss[2] = {0, 0}, right[2] = {0, 0}, count[2] = {0, 0};
    std::vector<std::int32_t> best(size_t(batch * n));
    const SoftmaxCrossEntropy cross_entropy{vocab};
    std::vector<float> dlogits(static_cast<size_t>(vocab));  // (vocab) what cross_entropy writes, unread
    for (size_t first = 0; first < all.size(); first += size_t(batch)) {
        std::vector<const std::vector<std::int32_t>*> chunk;
        for (size_t i = first; i < std::min(all.size(), first + size_t(batch)); ++i) chunk.push_back(&all[i]);
        const LanguageModel::TextsForward f = model.forward_texts(chunk, true);
        const Index length = f.length;
        argmax_rows(f.kept, vocab, f.logits, best.data());
        for (Index k = 0; k < f.kept; ++k) {
            const Index row = f.rows[k], b = row / length, target = row % length;  // target x(target)
            const Index c = Index(chunk[size_t(b)]->size()), h = c / 2;
            const int half = target < h ? 0 : target > h ? 1 : -1;
            if (half < 0) continue;
            const double nll = cross_entropy.forward_backward(1, f.logits + k * vocab, f.targets + k, dlogits.data());
            loss[half] += nll;
            right[half] += best[size_t(k)] == f.targets[k];
            count[half] += 1;
        }
    }
    auto score = [&](int half) {
        if (count[half] == 0) return HalfScore{kNone, kNone, 0};
        if (!std::isfinite(loss[half])) model.diverged();
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

Baselines baselines(const LanguageModel& model) {
    const std::vector<std::vector<std::int32_t>>& held_texts = model.held_out_tokens();
    const Index vocab = model.vocab();
    require_argument(!held_texts.empty(), "held_out", "baselines needs held-out texts: held_out is empty");
    require(vocab <= 65536, "baselines count at most 65536 tokens, the vocabulary has " + std::to_string(vocab));
    const std::vector<std::vector<std::int32_t>> train = model.training_tokens();
    // k from the last tenth of the training texts (at least one), counted on the rest
    // (all of them when there is only one text)
    const size_t tune = std::max<size_t>(1, train.size() / 10);
    const std::vector<std::vector<std::int32_t>> rest(train.begin(), train.end() - Index(train.size() > 1 ? tune : 0));
    const std::vector<std::vector<std::int32_t>> slice(train.end() - Index(tune), train.end());
    Baselines out;
    out.tokens = 0;
    for (Index order = 1; order <= kOrders; ++order) {
        const auto tuning = counted(order, rest, slice);
        double k = kBaselineK[0], low = mean_loss(tuning, k, double(vocab));
        for (double candidate : kBaselineK) {
            const double loss = mean_loss(tuning, candidate, double(vocab));
            if (loss < low) low = loss, k = candidate;
        }
        const auto held = counted(order, train, held_texts);
        double unseen = 0;
        for (const auto& counts : held) unseen += counts.second == 0;
        out.ladder.push_back({double(order), mean_loss(held, k, double(vocab)), k, held.empty() ? 0.0 : unseen / double(held.size())});
        out.tokens = double(held.size());
    }
    return out;
}

}  // namespace attn::train
