// The loss of every next token along one text (analysis.hpp,
// position_losses): the model's logits for [⏎] + text, through its key-value
// cache or by the full forward (model.hpp, logits), each row's cross-entropy
// as the training loss computes it (training/layers.cpp, SoftmaxCrossEntropy).
// What the windows section plots: a model read with a sliding window and 0, 1
// or 4 sinks along a text many times its context (StreamingLLM's experiment).
#include "attention/language_model/analysis.hpp"

#include "attention/training/products.hpp"

#include <cmath>
#include <vector>

namespace attn::train {

namespace {

// the tokens the model may read for this text, the way it reads them (the message names the limit)
void require_length(const LanguageModel& model, Index m, bool cached) {
    const LmConfig& c = model.config();
    const bool learned = c.position == LmPosition::learned;
    const Index context = model.context();
    Index most = context;
    std::string why = "context = " + std::to_string(context);
    if (cached && c.window > 0 && !learned) {
        most = kMaxPositionLossTokens;
        why = "a windowed cache reads up to " + std::to_string(most);
    } else if (!cached && !learned) {
        most = 4 * context;
        why = "the full forward reads up to 4 context = " + std::to_string(most);
    } else if (cached) {
        why += (learned ? " (learned positions end there)" : " (a cache without a window keeps at most context positions)");
    }
    require_argument(m <= most, "text", "text has " + std::to_string(m - 1) + " characters; with the boundary token " +
                                            "at most " + std::to_string(most - 1) + " fit: " + why);
}

}  // namespace

PositionLosses position_losses(LanguageModel& model, const std::string& text, const PositionLossOptions& o) {
    require_argument(o.cache_positions == "absolute" || o.cache_positions == "slot", "cache_positions",
                     "cache_positions must be \"absolute\" or \"slot\", got \"" + o.cache_positions + "\"");
    const bool slot = o.cache_positions == "slot";
    const LmPosition position = model.config().position;
    require_argument(!slot || (o.cached && (position == LmPosition::rotary || position == LmPosition::alibi)),
                     "cache_positions",
                     std::string("cache_positions \"slot\" renumbers the cached keys when they are read: it needs "
                                 "cached reading and rotary or alibi positions, not ") +
                         (o.cached ? lm_position_name(position) : "the full forward"));
    // [⏎] + text + [⏎]: the model reads all but the last, and predicts all but the first
    std::vector<std::int32_t> seq(1, LanguageModel::kBoundary);
    for (std::int32_t t : model.encode(text, "text")) seq.push_back(t);
    const Index m = Index(seq.size());
    require_length(model, m, o.cached);
    seq.push_back(LanguageModel::kBoundary);
    const Mat logits = model.logits(std::vector<std::int32_t>(seq.begin(), seq.end() - 1), o.cached, slot);  // (m, vocab)
    PositionLosses out;
    for (std::int32_t t : seq) out.tokens.push_back(model.token_text(t));
    const Index vocab = logits.cols();
    std::vector<float> row(static_cast<size_t>(vocab));
    double sum = 0;
    for (Index i = 0; i < m; ++i) {
        // -log softmax(x)_t = log(sum exp(x - max)) - (x_t - max), as the training loss
        float top = logits(i, 0);
        for (Index c = 0; c < vocab; ++c) row[size_t(c)] = logits(i, c), top = row[size_t(c)] > top ? row[size_t(c)] : top;
        const float exps = softmax_row(row.data(), vocab);
        const double loss = log_det(double(exps)) - double(logits(i, seq[size_t(i + 1)]) - top);
        if (!std::isfinite(loss)) model.diverged();
        out.losses.push_back(loss);
        sum += loss;
    }
    out.mean = sum / double(m);
    return out;
}

}  // namespace attn::train
