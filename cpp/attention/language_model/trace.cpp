// The language model's forward on one text, stage by stage (analysis.hpp
// trace()): the same layers as training's forward, made from the model's sizes
// and run on its parameters in local buffers, with the residual connections or
// the layer norms optionally removed.
#include "attention/language_model/analysis.hpp"

#include "attention/training/products.hpp"
#include "attention/training/step.hpp"

#include <algorithm>
#include <cmath>

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

Trace trace(LanguageModel& model, const std::string& text, const TraceOptions& o) {
    require(std::isfinite(o.temperature) && o.temperature > 0,
            "temperature must be a finite number > 0, got " + number(o.temperature));
    model.require_not_diverged();
    const std::vector<std::int32_t> seq = model.sequence_of(text, "text");
    const LmConfig& c = model.config();
    const Index m = Index(seq.size()), d = c.d_model, vocab = c.vocab, layers = c.layers, heads = c.heads;
    const ParameterStore& store = model.parameters();
    // the model's layers, for one sequence of m rows
    const Embedding embedding{vocab, d, m};
    const MultiHeadAttention attention = model.attention_layer(m);
    const Index kvw = c.kv_width();
    const bool rotary = c.position == LmPosition::rotary;
    const Rotary turn_q = model.rotary_layer(d, m), turn_k = model.rotary_layer(kvw, m);
    const Linear qkv{d, d}, kv_map{d, kvw}, out_map{d, d}, up{d, 4 * d}, down{4 * d, d}, unembed{d, vocab};
    const Bias bias_d{d}, bias_kv{kvw}, bias_4d{4 * d}, bias_vocab{vocab};
    const LayerNorm layer_norm{d};
    Trace out;
    for (std::int32_t t : seq) out.tokens.push_back(model.token_text(t));
    auto record = [&](const char* name, Index layer, const std::vector<float>& x, Index cols) {
        for (float v : x)
            if (!std::isfinite(v)) fail_diverged(std::max<Index>(model.steps(), 1));  // (not kept: the stages' options may be the cause)
        out.stages.push_back({name, double(layer), Eigen::Map<const Mat>(x.data(), m, cols), rms_of(x)});
    };
    // (m, d) buffers unless said; the layer norm's mean and rstd are not kept
    std::vector<float> X(static_cast<size_t>(m * d)), Y(X.size()), Q(X.size()), K(X.size()), V(X.size()), Z(X.size()),
        F(X.size()), H(X.size()), U(static_cast<size_t>(m * 4 * d)), T(U.size()), G(U.size()), A(static_cast<size_t>(heads * m * m)),
        mean(static_cast<size_t>(m)), rstd(mean.size()), logits(static_cast<size_t>(m * vocab));
    // LN(x), or x itself without layer norms
    auto norm = [&](const std::vector<float>& in, const float* gain, const float* bias, std::vector<float>& y) {
        if (o.layer_norm) layer_norm.forward(m, in.data(), gain, bias, y.data(), mean.data(), rstd.data());
        else y = in;
    };
    embedding.forward(m, seq.data(), store.value(kEmbedding), model.position_table(), X.data());
    record("embedding", 0, X, d);
    for (Index l = 0; l < layers; ++l) {
        auto W = [&](LmBlockTensor k) { return store.value(lm_tensor(l, k)); };
        // H = X + Attn(LN1(X))
        norm(X, W(kLn1Gain), W(kLn1Bias), Y);
        record("ln1", l + 1, Y, d);
        qkv.forward(m, Y.data(), W(kWq), Q.data()), bias_d.forward(m, W(kBq), Q.data());
        kv_map.forward(m, Y.data(), W(kWk), K.data()), bias_kv.forward(m, W(kBk), K.data());
        kv_map.forward(m, Y.data(), W(kWv), V.data()), bias_kv.forward(m, W(kBv), V.data());
        if (rotary) turn_q.forward(m, Q.data()), turn_k.forward(m, K.data());
        attention.forward(1, nullptr, Q.data(), K.data(), V.data(), A.data(), Z.data());
        out_map.forward(m, Z.data(), W(kWo), F.data()), bias_d.forward(m, W(kBo), F.data());
        record("attention", l + 1, F, d);
        if (o.residual) Residual::forward(m * d, X.data(), F.data(), H.data());
        else H = F;
        record("residual1", l + 1, H, d);
        // X = H + MLP(LN2(H))
        norm(H, W(kLn2Gain), W(kLn2Bias), Y);
        record("ln2", l + 1, Y, d);
        up.forward(m, Y.data(), W(kW1), U.data()), bias_4d.forward(m, W(kB1), U.data());
        Gelu::forward(m * 4 * d, U.data(), T.data(), G.data());
        record("hidden", l + 1, G, 4 * d);
        down.forward(m, G.data(), W(kW2), F.data()), bias_d.forward(m, W(kB2), F.data());
        record("mlp", l + 1, F, d);
        if (o.residual) Residual::forward(m * d, H.data(), F.data(), X.data());
        else X = F;
        record("residual2", l + 1, X, d);
    }
    norm(X, store.value(lm_final_tensor(layers, kLnfGain)), store.value(lm_final_tensor(layers, kLnfBias)), Y);
    record("lnf", 0, Y, d);
    unembed.forward(m, Y.data(), store.value(lm_final_tensor(layers, kWout)), logits.data());
    bias_vocab.forward(m, store.value(lm_final_tensor(layers, kBout)), logits.data());
    record("logits", 0, logits, vocab);

    out.loss = text_loss(logits, seq, vocab);
    // the next token after the last position: softmax(logits / temperature)
    std::vector<float> p(logits.end() - vocab, logits.end());
    const float inv = float(1.0 / o.temperature);
    for (float& x : p) x *= inv;
    softmax_row(p.data(), vocab);
    out.next = model.most_likely(p, kTraceTop);
    out.entropy = entropy_of(p);
    return out;
}

}  // namespace attn::train
