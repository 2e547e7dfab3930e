// The language model stage by stage (trace) and one token at a time
// (begin_generation / next_token): the trace's logits are the model's forward,
// each stage is what the block's formula makes of the one before (with and
// without the residual connections and the layer norms); the generation's rows
// are the full forward's attention maps, its text is generate()'s, its counts
// are the written formulas, worked out by hand for one size.
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

LanguageModelOptions trained_options() {
    LanguageModelOptions o = small_lm_options({"abcab", "bcabc", "cabca", "ab", "abcabcabc", "cab", "bca"}, {"abca"});
    o.heads = 2;
    o.d_model = 8;
    o.context = 8;
    o.layers = 2;
    return o;
}

const TraceStage& stage(const Trace& t, const std::string& name, Index layer) {
    for (const TraceStage& s : t.stages)
        if (s.name == name && s.layer == double(layer)) return s;
    FAIL("no stage " << name << " in layer " << layer);
    return t.stages.front();
}

double rms(const Mat& x) { return std::sqrt(x.cast<double>().array().square().mean()); }

// (x - mean) / sqrt(var + eps) row by row (gain 1, bias 0: a fresh model's)
Mat normalized(const Mat& x) {
    Mat out(x.rows(), x.cols());
    for (Index i = 0; i < x.rows(); ++i) {
        const auto r = x.row(i).cast<double>();
        const double mean = r.mean(), var = (r.array() - mean).square().mean();
        out.row(i) = ((r.array() - mean) / std::sqrt(var + kLayerNormEpsilon)).cast<float>();
    }
    return out;
}

}  // namespace

TEST_CASE("trace: the stages in order, their shapes and RMS, and the logits of the model's own forward") {
    LanguageModel model(trained_options());
    model.step(15);
    const Trace t = trace(model, "abca", {});
    CHECK(t.tokens == std::vector<std::string>{"\u23CE", "a", "b", "c", "a"});
    const std::vector<std::string> block = {"ln1", "attention", "residual1", "ln2", "hidden", "mlp", "residual2"};
    std::vector<std::string> names = {"embedding"};
    for (int l = 0; l < 2; ++l) names.insert(names.end(), block.begin(), block.end());
    names.push_back("lnf");
    names.push_back("logits");
    REQUIRE(t.stages.size() == names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        CHECK(t.stages[i].name == names[i]);
        CHECK(t.stages[i].values.rows() == 5);
        CHECK(t.stages[i].values.cols() == (names[i] == "hidden" ? 32 : names[i] == "logits" ? model.vocab() : 8));
        CHECK(t.stages[i].rms == doctest::Approx(rms(t.stages[i].values)).epsilon(1e-9));
    }
    CHECK(stage(t, "ln1", 2).layer == 2);
    // the logits are the training forward's, bit for bit
    std::vector<std::int32_t> tokens = model.encode("abca", "text");
    tokens.insert(tokens.begin(), LanguageModel::kBoundary);
    const Mat full = model.logits(tokens, false);
    CHECK(max_error(stage(t, "logits", 0).values, full.cast<double>()) == 0);
    // the residual stream: H = X + attention, X' = H + mlp
    const Mat& x0 = stage(t, "embedding", 0).values;
    CHECK(max_error(stage(t, "residual1", 1).values, (x0 + stage(t, "attention", 1).values).cast<double>()) < 1e-6);
    CHECK(max_error(stage(t, "residual2", 1).values,
                    (stage(t, "residual1", 1).values + stage(t, "mlp", 1).values).cast<double>()) < 1e-6);
    // the next token: the softmax of the last row of the logits, most likely first
    double sum = 0;
    for (float p : t.next.probabilities) sum += p;
    CHECK(sum == doctest::Approx(1).epsilon(1e-5));  // the whole (tiny) vocabulary is in the top 10
    CHECK(t.entropy > 0);
    CHECK(t.entropy <= std::log(double(model.vocab())) + 1e-9);
    // the text's loss: each character's cross-entropy from the logits of the position before
    double loss = 0;
    const Mat& L = stage(t, "logits", 0).values;
    for (Index i = 0; i + 1 < 5; ++i) {
        const Eigen::VectorXd r = L.row(i).cast<double>().transpose();
        const double log_sum = std::log((r.array() - r.maxCoeff()).exp().sum()) + r.maxCoeff();
        loss += log_sum - r(tokens[size_t(i + 1)]);
    }
    CHECK(t.loss == doctest::Approx(loss / 4).epsilon(1e-5));
}

TEST_CASE("trace: without the residual or the layer norm each stage follows from the one before") {
    LanguageModel model(trained_options());  // untrained: layer-norm gains 1, biases 0
    TraceOptions no_residual;
    no_residual.residual = false;
    const Trace a = trace(model, "abc", no_residual);
    CHECK(stage(a, "residual1", 1).values == stage(a, "attention", 1).values);
    CHECK(stage(a, "residual2", 2).values == stage(a, "mlp", 2).values);
    CHECK(max_error(stage(a, "ln2", 1).values, normalized(stage(a, "attention", 1).values).cast<double>()) < 1e-4);
    TraceOptions no_norm;
    no_norm.layer_norm = false;
    const Trace b = trace(model, "abc", no_norm);
    CHECK(stage(b, "ln1", 1).values == stage(b, "embedding", 0).values);
    CHECK(stage(b, "ln2", 2).values == stage(b, "residual1", 2).values);
    CHECK(stage(b, "lnf", 0).values == stage(b, "residual2", 2).values);
    // with both on, the first layer norm normalizes each row
    const Trace c = trace(model, "abc", {});
    CHECK(max_error(stage(c, "ln1", 1).values, normalized(stage(c, "embedding", 0).values).cast<double>()) < 1e-4);
    // a temperature divides the logits: higher, flatter (more entropy)
    TraceOptions hot;
    hot.temperature = 4;
    CHECK(trace(model, "abc", hot).entropy > c.entropy);
    TraceOptions bad;
    bad.temperature = 0;
    CHECK(contains(error_of([&] { trace(model, "abc", bad); }), "temperature must be a finite number > 0"));
    CHECK(contains(error_of([&] { trace(model, "abcabcabc", {}); }), "at most context - 1 = 7"));
}

TEST_CASE("generation one token at a time: the full forward's rows, generate()'s text, the counts by hand") {
    LanguageModel model(trained_options());
    model.step(20);
    GenerateOptions g = sampled_from("ab", 4, 1);
    const std::string whole = model.generate(g);
    std::vector<DecodeStep> steps = model.begin_generation(g);
    REQUIRE(steps.size() == 3);  // ⏎ a b
    CHECK(steps[0].token == "\u23CE");
    CHECK(steps[0].next == "a");
    CHECK(steps[1].next == "b");
    std::string text = "ab";
    while (!steps.back().done) {
        text += steps.back().next;
        steps.push_back(model.next_token());
    }
    CHECK(text == whole);
    CHECK(contains(error_of([&] { model.next_token(); }), "no generation in progress"));
    // each step's row is the full forward's row at its position, in every layer and head
    std::string read;  // the text read so far (without the boundary)
    for (size_t k = 1; k < steps.size(); ++k) read += steps[k].token;
    const AttentionMaps maps = model.attention(read);
    for (const DecodeStep& s : steps) {
        const Index t = Index(s.position);
        REQUIRE(s.rows.size() == 2);
        for (Index l = 0; l < 2; ++l)
            for (Index h = 0; h < 2; ++h) {
                REQUIRE(Index(s.rows[size_t(l)][size_t(h)].size()) == t + 1);
                for (Index j = 0; j <= t; ++j)
                    CHECK(s.rows[size_t(l)][size_t(h)][size_t(j)] ==
                          doctest::Approx(maps.weights[size_t(l)][size_t(h)](t, j)).epsilon(1e-5));
            }
        CHECK(s.cache_numbers == 2 * 2 * (t + 1) * 8);
    }
    // by hand, d = 8, L = 2, at position t = 3 (4 keys): with the cache
    // 2 (12 * 64 + 2 * 4 * 8) + 8 * vocab; without, 2 (12 * 64 * 4 + 4 * 5 * 8) + 8 * vocab
    const double unembedding = 8.0 * double(model.vocab());
    CHECK(model.cached_multiply_adds(3) == 1664 + unembedding);
    CHECK(model.uncached_multiply_adds(3) == 6464 + unembedding);
    CHECK(steps[3].cached_multiply_adds == 1664 + unembedding);
    // their attention terms: the core's one count of a decoding step (measures/cost_model.hpp), that of the complexity table
    CHECK(steps[3].attention_cached == decode_attention_cost(4, 8).cached);
    CHECK(steps[3].attention_uncached == decode_attention_cost(4, 8).uncached);
    CHECK(steps[3].attention_uncached == generation_cost(4, 8).token_uncached);
    CHECK(steps[3].uncached_multiply_adds == 2 * (12 * 64 * 4 + steps[3].attention_uncached) + unembedding);
    // training ends a generation (the cache holds the old weights' keys)
    model.begin_generation(g);
    model.step(1);
    CHECK(contains(error_of([&] { model.next_token(); }), "no generation in progress"));
}

TEST_CASE("generation's two phases: the prefill of the prompt in one pass, the decode steps through the cache") {
    LanguageModel model(trained_options());
    model.step(5);
    GenerateOptions g = sampled_from("abc", 1, 1, GenerateOptions{}.max_tokens);
    std::vector<DecodeStep> steps;
    for (g.seed = 1; g.seed < 50; ++g.seed) {  // a seed whose first sample is not ⏎: something is decoded
        steps = model.begin_generation(g);
        if (!steps.back().done) break;
    }
    REQUIRE(steps.size() == 4);  // ⏎ a b c: m = 4
    REQUIRE(!steps.back().done);
    while (!steps.back().done) steps.push_back(model.next_token());
    // by hand, d = 8, L = 2, m = 4: 2 (12 * 64 * 4 + 4 * 5 * 8) + 8 vocab: every position's
    // cached cost, but the logits of the last position only
    const double unembedding = 8.0 * double(model.vocab());
    CHECK(model.prefill_multiply_adds(4) == 2 * (3072 + 160) + unembedding);
    double prompt = 0;
    for (Index t = 0; t < 4; ++t) prompt += model.cached_multiply_adds(t);
    CHECK(model.prefill_multiply_adds(4) == prompt - 3 * unembedding);
    double decoded = 0;
    for (size_t k = 0; k < steps.size(); ++k) {
        CHECK(steps[k].prefill_multiply_adds == model.prefill_multiply_adds(4));
        if (k >= 4) decoded += steps[k].cached_multiply_adds;
        CHECK(steps[k].decode_multiply_adds == decoded);  // 0 while the prompt is read
    }
    CHECK(steps.size() > 4);
    CHECK(decoded > 0);
}
