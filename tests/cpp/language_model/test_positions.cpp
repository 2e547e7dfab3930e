// The language model as attention is run today (model.hpp, "Positions, shared
// keys, windows"): every position scheme, shared key/value heads, windows and
// sinks, each against the double reference (its gradients checked by finite
// differences), the cache against the full forward bit for bit (the ring
// buffer too, past the context), held-out loss at lengths past the context,
// and the options refused with the argument named.
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

struct Variant {
    const char* name;
    const char* position;
    double kv_heads, window, sinks;
};

// heads 4 of width 2 (rotary needs an even width), context 6
const Variant kVariants[] = {
    {"sinusoidal", "sinusoidal", 0, 0, 0}, {"rotary", "rotary", 0, 0, 0},   {"alibi", "alibi", 0, 0, 0},
    {"none", "none", 0, 0, 0},             {"kv_heads 2", "learned", 2, 0, 0}, {"kv_heads 1 rotary", "rotary", 1, 0, 0},
    {"window 2", "learned", 0, 2, 0},      {"window 3, 1 sink, alibi, kv_heads 2", "alibi", 2, 3, 1},
};

LanguageModelOptions options_of(const Variant& v) {
    LanguageModelOptions o = small_lm_options({"abcab", "bcabc", "cabca", "ab", "abcabcabc", "cbacba"}, {"abca", "cab"});
    o.heads = 4;
    o.d_model = 8;
    o.warmup = 0;
    o.clip = 0;
    o.position = v.position;
    o.kv_heads = v.kv_heads;
    o.window = v.window;
    o.sinks = v.sinks;
    return o;
}

}  // namespace

TEST_CASE("language model today: each variant's gradients agree with finite differences of the double model") {
    for (const Variant& v : kVariants) {
        CAPTURE(v.name);
        LanguageModel model(options_of(v));
        model.step(3);
        std::vector<std::int32_t> tokens, targets;
        model.peek_batch(tokens, targets);
        tokens.resize(size_t(model.context()));
        targets.resize(size_t(model.context()));
        // 8 entries spread over every tensor, on one sequence of the model's context
        std::vector<std::pair<Index, Index>> entries;
        for (Index t = 0; t < model.parameters().count(); ++t) {
            const Index size = model.parameters().tensor(t).size();
            for (Index i = 0; i < std::min<Index>(8, size); ++i) entries.push_back({t, i * size / std::min<Index>(8, size)});
        }
        const GradientCheck some =
            lm_gradient_check_reference(model.config(), model.parameters_double(), tokens, targets, entries);
        CAPTURE(some.worst);
        CHECK(some.checked == double(entries.size()));
        CHECK(some.max_relative_error <= 1e-6);
        const GradientCheck slice = model.gradient_check();  // the model's own: 3 a tensor, 6 positions
        CHECK(slice.max_relative_error <= 1e-6);
    }
}

TEST_CASE("language model today: each variant's float forward, loss and gradients agree with the double reference") {
    for (const Variant& v : kVariants) {
        CAPTURE(v.name);
        LanguageModel model(options_of(v));
        model.step(4);
        check_gradients_against_reference(model);
    }
}

TEST_CASE("language model today: the parameters shrink with shared keys and lose the position table") {
    const Variant learned{"learned", "learned", 0, 0, 0}, shared{"kv 1", "learned", 1, 0, 0},
        rotary{"rotary", "rotary", 0, 0, 0};
    LanguageModel full(options_of(learned)), one(options_of(shared)), turned(options_of(rotary));
    const double d = 8, kv_width = 2;  // one key/value head of width 8 / 4
    // per layer Wk, Wv: (d, d) -> (d, kv_width), bk, bv: (d) -> (kv_width)
    CHECK(full.info().parameters - one.info().parameters == 2 * (2 * (d * d - d * kv_width) + 2 * (d - kv_width)));
    CHECK(full.info().parameters - turned.info().parameters == 6 * d);  // the (context, d) table
    CHECK(turned.parameters().tensor(kPositions).rows == 0);
    CHECK(one.info().kv_heads == 1);
    CHECK(full.info().kv_heads == 4);
    CHECK(turned.info().position == "rotary");
    // kv_heads = heads is the default model, bit for bit
    Variant same = learned;
    same.kv_heads = 4;
    LanguageModel explicit_heads(options_of(same));
    std::vector<double> a, b;
    full.step(5, &a);
    explicit_heads.step(5, &b);
    CHECK(a == b);
}

TEST_CASE("language model today: the cache gives the full forward's logits bit for bit, past the context with a window") {
    for (const Variant& v : kVariants) {
        CAPTURE(v.name);
        LanguageModelOptions o = options_of(v);
        LanguageModel model(o);
        model.step(6);
        const std::vector<std::int32_t> tokens = {0, 2, 3, 2, 3, 1};
        CHECK(model.logits(tokens, true) == model.logits(tokens, false));
    }
    // with a window the cache is a ring: 20 tokens, context 6, window 3 and one sink
    for (const char* position : {"rotary", "alibi", "sinusoidal", "none"}) {
        CAPTURE(position);
        LanguageModelOptions o = options_of({"ring", position, 2, 3, 1});
        LanguageModel model(o);
        model.step(6);
        CHECK(model.cache_capacity() == 4);
        std::vector<std::int32_t> tokens;
        for (Index t = 0; t < 20; ++t) tokens.push_back(std::int32_t(t * 7 % 4));  // the vocabulary: ⏎ a b c
        const Mat full = model.logits(tokens, false), cached = model.logits(tokens, true);
        CHECK(cached == full);
    }
}

TEST_CASE("language model today: generation keeps the sinks and the last window positions, and says what it holds") {
    LanguageModelOptions o = options_of({"ring", "rotary", 2, 3, 1});
    LanguageModel model(o);
    model.step(10);
    GenerateOptions g;
    g.prompt = "abcabcabcab";  // 12 positions with the boundary, twice the context, read through the ring
    g.temperature = 0;
    std::vector<DecodeStep> steps = model.begin_generation(g);
    while (!steps.back().done && steps.size() < 16) steps.push_back(model.next_token());
    REQUIRE(steps.size() >= 12);
    for (const DecodeStep& s : steps) {
        const Index t = Index(s.position);
        CAPTURE(t);
        // the cache: the sink (position 0) and the last 3 positions, at most 4 entries of kv_width 4 in 2 layers
        const Index entries = std::min<Index>(t + 1, 4);
        CHECK(s.cache_entries == double(entries));
        CHECK(s.cache_numbers == 2.0 * 2 * double(entries) * 4);
        for (const auto& layer : s.rows)
            for (const auto& row : layer) {
                REQUIRE(Index(row.size()) == t + 1);
                double sum = 0;
                for (Index j = 0; j <= t; ++j) {
                    const bool seen = j == 0 || t - j < 3;
                    if (!seen) CHECK(row[size_t(j)] == 0);
                    sum += row[size_t(j)];
                }
                CHECK(std::abs(sum - 1) < 1e-5);
            }
        // one layer's attention with the cache: 2 d a key seen
        CHECK(s.attention_cached == 2.0 * double(std::min<Index>(t + 1, 4)) * 8);
    }
}

TEST_CASE("language model today: slot positions equal absolute ones until the ring turns, then differ") {
    for (const char* position : {"rotary", "alibi"}) {
        CAPTURE(position);
        LanguageModel model(options_of({"ring", position, 0, 3, 1}));
        model.step(10);
        GenerateOptions g;
        g.prompt = "abcabcab";  // 9 positions with the boundary: the ring turns at position 4
        g.temperature = 0;
        g.cache_positions = "absolute";
        const std::vector<DecodeStep> absolute = model.begin_generation(g);
        g.cache_positions = "slot";
        const std::vector<DecodeStep> slot = model.begin_generation(g);
        REQUIRE(absolute.size() == slot.size());
        for (size_t t = 0; t < absolute.size(); ++t) {
            CAPTURE(t);
            if (t < 4) CHECK(slot[t].rows == absolute[t].rows);
            else CHECK(slot[t].rows != absolute[t].rows);
        }
    }
}

TEST_CASE("language model today: held-out loss at lengths past the context equals the double model's") {
    for (const char* position : {"sinusoidal", "rotary", "alibi", "none"}) {
        CAPTURE(position);
        LanguageModel model(options_of({"long", position, 2, 0, 0}));
        model.step(8);
        const std::vector<std::string> texts = {"abcabcab", "cab", "bcabcabca"};
        for (Index length : {3, 6, 12, 24}) {
            CAPTURE(length);
            const LmEvaluation e = model.evaluate_texts(texts, double(length));
            // the same stream, cut the same way, through the double model
            TokenIds stream = {0};
            for (const std::string& t : texts) {
                for (std::int32_t x : model.encode(t, "t")) stream.push_back(x);
                stream.push_back(0);
            }
            const Index targets = Index(stream.size()) - 1, windows = (targets + length - 1) / length;
            TokenIds tokens, next;
            for (Index i = 0; i < windows * length; ++i) {
                tokens.push_back(i < targets ? stream[size_t(i)] : 0);
                next.push_back(i < targets ? stream[size_t(i) + 1] : -1);
            }
            LmConfig c = model.config();
            c.context = length;
            const LmReference ref = lm_reference(c, model.parameters_double(), tokens, next, nullptr);
            CHECK(e.tokens == double(targets));
            CHECK(std::abs(e.loss - ref.loss) < 1e-5 * (1 + ref.loss));
        }
    }
    LanguageModel learned(options_of({"learned", "learned", 0, 0, 0}));
    const invalid_argument e = thrown_by([&] { learned.evaluate_texts({"abc"}, 7); });
    CHECK(e.code == Code::bad_argument);
    CHECK(e.argument == "length");
    CHECK(contains(e.what(), "learned positions are a table of context = 6 rows"));
    CHECK(contains(thrown_by([&] { learned.evaluate_texts({"abc"}, 25); }).what(), "length must be an integer from 1 to 24"));
}

TEST_CASE("language model today: bad options are refused, naming the argument") {
    auto with = [](const Variant& v) { return thrown_by([&] { LanguageModel m(options_of(v)); }); };
    const invalid_argument rope = with({"", "rope", 0, 0, 0});
    CHECK(rope.argument == "position");
    CHECK(contains(rope.what(), "position must be \"learned\", \"sinusoidal\", \"rotary\", \"alibi\" or \"none\", got \"rope\""));
    const invalid_argument three = with({"", "learned", 3, 0, 0});
    CHECK(three.argument == "kv_heads");
    CHECK(contains(three.what(), "kv_heads 3 does not divide heads 4"));
    CHECK(with({"", "learned", 5, 0, 0}).argument == "kv_heads");
    CHECK(with({"", "learned", 0, 7, 0}).argument == "window");
    const invalid_argument sinks = with({"", "learned", 0, 0, 1});
    CHECK(sinks.argument == "sinks");
    CHECK(contains(sinks.what(), "give a window too"));
    LanguageModelOptions odd = options_of({"", "rotary", 0, 0, 0});
    odd.heads = 2, odd.d_model = 6;  // heads of width 3
    CHECK(thrown_by([&] { LanguageModel m(odd); }).argument == "position");

    LanguageModel learned(options_of({"", "learned", 0, 0, 0}));
    GenerateOptions g;
    g.cache_positions = "slot";
    const invalid_argument slot = thrown_by([&] { learned.begin_generation(g); });
    CHECK(slot.argument == "cache_positions");
    CHECK(contains(slot.what(), "learned positions are part of a key from the moment it is made"));
    g.cache_positions = "ring";
    CHECK(thrown_by([&] { learned.generate(g); }).argument == "cache_positions");
}

TEST_CASE("language model today: the stage-by-stage trace runs each variant's layers, its logits the forward's bit for bit") {
    for (const Variant& v : kVariants) {
        CAPTURE(v.name);
        LanguageModel model(options_of(v));
        model.step(4);
        const Trace t = trace(model, "abca", {});
        std::vector<std::int32_t> tokens = model.encode("abca", "text");
        tokens.insert(tokens.begin(), LanguageModel::kBoundary);
        const Mat full = model.logits(tokens, false);
        CHECK(t.stages.back().name == "logits");
        CHECK(t.stages.back().values == full);
    }
}
