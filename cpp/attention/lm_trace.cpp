// The language model's forward on one text, stage by stage (language_model.hpp
// trace()): the same layers as training's forward, on local buffers, with the
// residual connections or the layer norms optionally removed.
#include "attention/language_model.hpp"

#include "attention/train_products.hpp"
#include "attention/train_step.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::train {

namespace {

constexpr Index kTraceTop = 10;

double rms_of(const std::vector<float>& x) {
    double sum = 0;
    for (float v : x) sum += double(v) * double(v);
    return x.empty() ? 0.0 : std::sqrt(sum / double(x.size()));
}

// the mean loss of the text's own characters, each predicted from the
// positions before it; logits (m, vocab) row-major
double text_loss(const std::vector<float>& logits, const std::vector<std::int32_t>& seq, Index vocab) {
    const Index m = Index(seq.size());
    double loss = 0;
    std::vector<float> row(static_cast<size_t>(vocab));
    for (Index i = 0; i + 1 < m; ++i) {
        std::copy(logits.begin() + i * vocab, logits.begin() + (i + 1) * vocab, row.begin());
        softmax_row(row.data(), vocab);
        loss -= std::log(std::max(double(row[size_t(seq[size_t(i + 1)])]), 1e-30));
    }
    return m > 1 ? loss / double(m - 1) : 0.0;
}

// -sum p log p, in nats
double entropy_of(const std::vector<float>& p) {
    double entropy = 0;
    for (float x : p)
        if (x > 0) entropy -= double(x) * std::log(double(x));
    return entropy;
}

}  // namespace

Trace LanguageModel::trace(const std::string& text, const TraceOptions& o) {
    require(std::isfinite(o.temperature) && o.temperature > 0,
            "temperature must be a finite number > 0, got " + number(o.temperature));
    divergence_.require_none();
    const std::vector<std::int32_t> seq = sequence_of(text, "text");
    const Index m = Index(seq.size()), d = d_;
    Trace out;
    for (std::int32_t t : seq) out.tokens.push_back(token_text(t));
    auto record = [&](const char* name, Index layer, const std::vector<float>& x, Index cols) {
        for (float v : x)
            if (!std::isfinite(v)) fail_diverged(std::max<Index>(steps_, 1));  // (not kept: the stages' options may be the cause)
        out.stages.push_back({name, double(layer), Eigen::Map<const Mat>(x.data(), m, cols), rms_of(x)});
    };
    // (m, d) buffers unless said; the layer norm's mean and rstd are not kept
    std::vector<float> X(static_cast<size_t>(m * d)), Y(X.size()), Q(X.size()), K(X.size()), V(X.size()), Z(X.size()),
        F(X.size()), H(X.size()), U(static_cast<size_t>(m * 4 * d)), T(U.size()), G(U.size()), A(static_cast<size_t>(heads_ * m * m)),
        mean(static_cast<size_t>(m)), rstd(mean.size()), logits(static_cast<size_t>(m * vocab_));
    // LN(x), or x itself without layer norms
    auto norm = [&](const std::vector<float>& in, const float* gain, const float* bias, std::vector<float>& y) {
        if (o.layer_norm) norm_.forward(m, in.data(), gain, bias, y.data(), mean.data(), rstd.data());
        else y = in;
    };
    embedding_.length = m;
    attention_.length = m;
    embedding_.forward(m, seq.data(), store_.value(kEmbedding), store_.value(kPositions), X.data());
    record("embedding", 0, X, d);
    for (Index l = 0; l < layers_; ++l) {
        auto W = [&](LmBlockTensor k) { return store_.value(lm_tensor(l, k)); };
        // H = X + Attn(LN1(X))
        norm(X, W(kLn1Gain), W(kLn1Bias), Y);
        record("ln1", l + 1, Y, d);
        qkv_.forward(m, Y.data(), W(kWq), Q.data()), bias_d_.forward(m, W(kBq), Q.data());
        qkv_.forward(m, Y.data(), W(kWk), K.data()), bias_d_.forward(m, W(kBk), K.data());
        qkv_.forward(m, Y.data(), W(kWv), V.data()), bias_d_.forward(m, W(kBv), V.data());
        attention_.forward(1, nullptr, Q.data(), K.data(), V.data(), A.data(), Z.data());
        out_.forward(m, Z.data(), W(kWo), F.data()), bias_d_.forward(m, W(kBo), F.data());
        record("attention", l + 1, F, d);
        if (o.residual) Residual::forward(m * d, X.data(), F.data(), H.data());
        else H = F;
        record("residual1", l + 1, H, d);
        // X = H + MLP(LN2(H))
        norm(H, W(kLn2Gain), W(kLn2Bias), Y);
        record("ln2", l + 1, Y, d);
        up_.forward(m, Y.data(), W(kW1), U.data()), bias_4d_.forward(m, W(kB1), U.data());
        Gelu::forward(m * 4 * d, U.data(), T.data(), G.data());
        record("hidden", l + 1, G, 4 * d);
        down_.forward(m, G.data(), W(kW2), F.data()), bias_d_.forward(m, W(kB2), F.data());
        record("mlp", l + 1, F, d);
        if (o.residual) Residual::forward(m * d, H.data(), F.data(), X.data());
        else X = F;
        record("residual2", l + 1, X, d);
    }
    norm(X, store_.value(last(kLnfGain)), store_.value(last(kLnfBias)), Y);
    record("lnf", 0, Y, d);
    unembed_.forward(m, Y.data(), store_.value(last(kWout)), logits.data());
    bias_vocab_.forward(m, store_.value(last(kBout)), logits.data());
    record("logits", 0, logits, vocab_);

    out.loss = text_loss(logits, seq, vocab_);
    // the next token after the last position: softmax(logits / temperature)
    std::vector<float> p(logits.end() - vocab_, logits.end());
    const float inv = float(1.0 / o.temperature);
    for (float& x : p) x *= inv;
    softmax_row(p.data(), vocab_);
    std::vector<std::int32_t> order(static_cast<size_t>(vocab_));
    std::iota(order.begin(), order.end(), 0);
    const Index top = std::min(kTraceTop, vocab_);
    std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](std::int32_t a, std::int32_t b) {
        return p[size_t(a)] > p[size_t(b)] || (p[size_t(a)] == p[size_t(b)] && a < b);
    });
    for (Index i = 0; i < top; ++i) {
        out.next.tokens.push_back(token_text(order[size_t(i)]));
        out.next.probabilities.push_back(p[size_t(order[size_t(i)])]);
    }
    out.entropy = entropy_of(p);
    return out;
}

}  // namespace attn::train
