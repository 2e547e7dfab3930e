// The language model (model.hpp; its layers in test_layers.cpp):
// the whole model's gradient check, the float forward and gradients
// against the double reference, determinism, the key-value cache against the
// full forward, the vocabulary and its unknown token, bad options named, and a
// tiny corpus learned below the unigram baseline.
#include "train_helpers.hpp"

#include <cstdio>
#include <limits>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

// a tiny corpus with structure: words of a few letters, each a pattern
std::vector<std::string> tiny_corpus(Index count, std::uint64_t seed) {
    const char* const words[8] = {"abab", "baba", "cdcd", "abcd", "dcba", "aabb", "bbaa", "cddc"};
    Rng rng(seed, 5);
    std::vector<std::string> out;
    for (Index i = 0; i < count; ++i) out.push_back(words[rng.next() % 8]);
    return out;
}

LanguageModelOptions small_options() {
    LanguageModelOptions o = small_lm_options({"abcab", "bcabc", "cabca", "ab", "abcabcabc"}, {"abca"});
    o.warmup = 0;
    o.clip = 0;
    return o;
}

}  // namespace

// ---- the model ----------------------------------------------------------------------

TEST_CASE("language model: the gradient check of the whole double model, every entry, relative error <= 1e-6") {
    LanguageModel model(small_options());
    model.step(3);  // away from the initialisation (gains and biases no longer 1 and 0)
    std::vector<std::int32_t> tokens, targets;
    model.peek_batch(tokens, targets);  // its first sequence (the check runs 4 forwards per entry)
    tokens.resize(size_t(model.context()));
    targets.resize(size_t(model.context()));
    const GradientCheck check =
        lm_gradient_check_reference(model.config(), model.parameters_double(), tokens, targets, {});
    CAPTURE(check.worst);
    CHECK(check.checked == model.parameters().total());
    CHECK(check.max_relative_error <= 1e-6);
    // the model's own slice check
    const GradientCheck slice = model.gradient_check();
    CHECK(slice.checked == 3 * model.parameters().count());
    CHECK(slice.max_relative_error <= 1e-6);
}

TEST_CASE("language model: the float forward, loss and gradients agree with the double reference") {
    LanguageModel model(small_options());
    model.step(4);
    const std::vector<std::int32_t> tokens = check_gradients_against_reference(model);
    // the logits of one sequence, every position
    std::vector<std::int32_t> one(tokens.begin(), tokens.begin() + model.context());
    const Mat logits = model.logits(one, false);
    TokenIds none(size_t(model.context()), 0);
    const LmReference r1 = lm_reference(model.config(), model.parameters_double(), one, none, nullptr);
    CHECK(max_error(logits, r1.logits) < 1e-5);
}

TEST_CASE("language model: the key-value cache gives the full forward's logits, bit for bit") {
    LanguageModelOptions o = small_options();
    o.texts = tiny_corpus(40, 3);
    o.heads = 2;
    o.d_model = 16;
    o.context = 7;
    LanguageModel model(o);
    model.step(10);
    const std::vector<std::int32_t> tokens = {0, 2, 3, 2, 3, 0, 1};
    const Mat full = model.logits(tokens, false), cached = model.logits(tokens, true);
    CHECK(max_error(cached, full.cast<double>()) == 0);
    for (Index m = 1; m <= 7; ++m) {
        const std::vector<std::int32_t> prefix(tokens.begin(), tokens.begin() + m);
        CHECK(model.logits(prefix, true) == full.topRows(m));
    }
}

TEST_CASE("language model: the same options give the same losses; another seed others") {
    // tests/node/language-model.test.mjs trains the same model in WASM and checks these bits
    LanguageModelOptions o = small_options();
    o.warmup = 5;
    o.clip = 1;
    std::vector<double> a, b, c;
    LanguageModel(o).step(12, &a);
    LanguageModel(o).step(12, &b);
    o.seed = 2;
    LanguageModel(o).step(12, &c);
    CHECK(a == b);
    CHECK(a != c);
    std::string bits;
    for (double x : a) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "%a", x);
        bits += std::string(bits.empty() ? "" : " ") + hex;
    }
    CHECK(bits ==
          "0x1.0920f20029cacp+1 0x1.eb38f5b713d6bp+0 0x1.d2dd8b6775dc7p+0 0x1.d04b25cdf7968p+0 0x1.65919705e88b5p+0 "
          "0x1.8eed7a16db43cp+0 0x1.50b8fe873e80ap+0 0x1.501bf6ba9ca1cp+0 0x1.6f574e77e06afp+0 0x1.2d0fda4f623a2p+0 "
          "0x1.3d7a503965797p+0 0x1.2abd32e27236dp+0");
}

TEST_CASE("language model: set_parameters carries a trained model into another, or refuses and changes nothing") {
    LanguageModelOptions o = small_options();
    o.texts = tiny_corpus(40, 3);
    LanguageModel trained(o);
    trained.step(10);
    LanguageModel fresh(o);  // the same options: step 0
    const std::vector<std::int32_t> tokens = {0, 2, 3, 2, 3};
    CHECK(fresh.logits(tokens, false) != trained.logits(tokens, false));
    std::vector<std::string> names;
    std::vector<Mat> values;
    const ParameterStore& store = trained.parameters();
    for (Index i = 0; i < store.count(); ++i) {
        names.push_back(store.tensor(i).name);
        values.push_back(store.get(i));
    }
    fresh.set_parameters(names, values);
    CHECK(fresh.logits(tokens, false) == trained.logits(tokens, false));
    CHECK(fresh.logits(tokens, true) == trained.logits(tokens, true));
    CHECK(fresh.evaluate().loss == trained.evaluate().loss);

    // refused, naming what is wrong; a bad entry anywhere in the list writes nothing
    LanguageModel other(o);
    const Mat before = other.parameters().get(0);
    const Mat embedding = store.get(0);
    const std::string first = store.tensor(0).name, second = store.tensor(1).name;
    auto refused = [&](const std::vector<std::string>& names, const std::vector<Mat>& values, const std::string& message) {
        CHECK_THROWS_WITH_AS(other.set_parameters(names, values), message.c_str(), attn::invalid_argument);
        CHECK(other.parameters().get(0) == before);
    };
    refused({first, "layer9.wq"}, {embedding, Mat::Zero(2, 2)}, "no tensor \"layer9.wq\" in this model (parameters() names them)");
    refused({first, second}, {embedding, Mat::Zero(1, 1)},
            second + " must have shape " + shape(store.tensor(1).rows, store.tensor(1).cols) + ", got (1, 1)");
    Mat bad = embedding;
    bad(0, 1) = std::numeric_limits<float>::quiet_NaN();
    CHECK_THROWS_AS(other.set_parameters({first}, {bad}), attn::invalid_argument);
    CHECK(other.parameters().get(0) == before);
}

TEST_CASE("language model: the vocabulary, min_count folding, the unknown token, encoding prompts") {
    LanguageModelOptions o = small_options();
    o.texts = {"aab", "abz", "ba"};
    o.held_out = {};
    o.min_count = 2;  // z seen once folds
    LanguageModel model(o);
    const VocabularyInfo v = model.vocabulary();
    CHECK(v.tokens == std::vector<std::string>{"\u23CE", "\uFFFD", "a", "b"});
    CHECK(v.unknown == 1);
    CHECK(v.coverage == doctest::Approx(7.0 / 8));
    CHECK(model.encode("abzq", "prompt") == std::vector<std::int32_t>{2, 3, 1, 1});

    o.min_count = 1;
    LanguageModel plain(o);
    CHECK(plain.vocabulary().tokens == std::vector<std::string>{"\u23CE", "a", "b", "z"});
    CHECK(plain.vocabulary().unknown == 0);
    CHECK(contains(error_of([&] { plain.encode("aq", "prompt"); }), "prompt has the character \"q\" (U+0071)"));
    // a held-out character missing from the training texts folds into the unknown token
    o.held_out = {"abc"};
    LanguageModel held(o);
    CHECK(held.vocabulary().tokens.size() == 5);
    CHECK(held.vocabulary().unknown == 0);
    // code points, not bytes; invalid UTF-8 becomes U+FFFD
    CHECK(code_points_of("白日\xff") == std::vector<std::uint32_t>{0x767D, 0x65E5, 0xFFFD});
    CHECK(utf8_of(0x1F600) == "\xF0\x9F\x98\x80");
}

TEST_CASE("language model: bad options and calls are named") {
    auto with = [](auto change) {
        LanguageModelOptions o = small_options();
        change(o);
        return error_of([&] { LanguageModel m(o); });
    };
    CHECK(contains(with([](auto& o) { o.layers = 5; }), "layers must be an integer from 1 to 4, got 5"));
    CHECK(contains(with([](auto& o) { o.heads = 3; }), "d_model 8 is not divisible by heads 3"));
    CHECK(contains(with([](auto& o) { o.d_model = 512; }), "d_model must be an integer from 1 to 256"));
    CHECK(contains(with([](auto& o) { o.context = 1; }), "context must be an integer from 2 to 128"));
    CHECK(contains(with([](auto& o) { o.batch = 0.5; }), "batch must be an integer"));
    CHECK(contains(with([](auto& o) { o.learning_rate = -1; }), "learning_rate"));
    CHECK(contains(with([](auto& o) { o.warmup = -1; }), "warmup"));
    CHECK(contains(with([](auto& o) { o.clip = NAN; }), "clip"));
    CHECK(contains(with([](auto& o) { o.min_count = 0; }), "min_count"));
    CHECK(contains(with([](auto& o) { o.seed = -1; }), "seed"));
    CHECK(contains(with([](auto& o) { o.texts = {}; }), "texts must hold at least one text"));
    CHECK(contains(with([](auto& o) { o.texts = {"", ""}; }), "texts must hold at least one character"));
    CHECK(contains(with([](auto& o) { o.min_count = 100; }), "min_count"));
    CHECK(contains(with([](auto& o) {
                       o.d_model = 256, o.context = 128, o.batch = 512, o.layers = 4, o.heads = 4;
                   }),
                   "MB of buffers, more than the limit of 256 MB"));

    LanguageModel model(small_options());
    CHECK(contains(error_of([&] { model.step(0); }), "steps must be an integer from 1 to 1000000, got 0"));
    CHECK(contains(error_of([&] { model.attention("abcabcabc"); }), "text has 9 characters"));
    CHECK(contains(error_of([&] { head_scores(model, "abc", 0); }), "period must be an integer from 1 to 5"));
    GenerateOptions g;
    g.temperature = -1;
    CHECK(contains(error_of([&] { model.generate(g); }), "temperature"));
    g = GenerateOptions{};
    g.top_k = 1.5;
    CHECK(contains(error_of([&] { model.generate(g); }), "top_k"));
    g = GenerateOptions{};
    g.max_tokens = -1;
    CHECK(contains(error_of([&] { model.generate(g); }), "max_tokens"));
    LanguageModelOptions none = small_options();
    none.held_out = {};
    LanguageModel blind(none);
    CHECK(contains(error_of([&] { blind.evaluate(); }), "held_out is empty"));
}

TEST_CASE("language model: next, attention, head scores and generation have their documented shapes") {
    LanguageModelOptions o = small_options();
    o.texts = tiny_corpus(60, 2);
    o.texts.push_back("ab,cd.");
    o.context = 8;
    LanguageModel model(o);
    model.step(20);
    const NextTokens next = model.next("ab");
    CHECK(next.tokens.size() == 7);  // ⏎ , . a b c d: fewer than 20
    double sum = 0;
    for (size_t i = 0; i < next.probabilities.size(); ++i) {
        sum += next.probabilities[i];
        if (i > 0) CHECK(next.probabilities[i] <= next.probabilities[i - 1]);
    }
    CHECK(sum == doctest::Approx(1).epsilon(1e-5));
    const AttentionMaps maps = model.attention("abcd");
    CHECK(maps.tokens == std::vector<std::string>{"\u23CE", "a", "b", "c", "d"});
    REQUIRE(maps.weights.size() == 2);
    REQUIRE(maps.weights[0].size() == 2);
    for (const auto& layer : maps.weights)
        for (const Mat& A : layer) {
            CHECK(A.rows() == 5);
            check_rows_sum_to_one_or_zero(A);
            for (Index i = 0; i < 5; ++i)
                for (Index j = i + 1; j < 5; ++j) CHECK(A(i, j) == 0);
        }
    const HeadScores scores = head_scores(model, "ab,cd.", 3);
    CHECK(scores.previous_line.size() == 2);
    CHECK(scores.punctuation[1].size() == 2);
    for (const auto& layer : scores.punctuation)
        for (double x : layer) CHECK((x >= 0 && x <= 1));
    GenerateOptions g;
    g.seed = 3;
    const std::string a = model.generate(g), b = model.generate(g);
    CHECK(a == b);
    CHECK(code_points_of(a).size() <= 7);
    g.prompt = "ab";
    g.temperature = 0;
    CHECK(model.generate(g).substr(0, 2) == "ab");
}

TEST_CASE("quatrain form: 24 characters, punctuation after every five and nowhere else") {
    const FormCheck f = quatrain_form({"白日依山盡，黃河入海流。欲窮千里目，更上一層樓。",
                                       "白日依山盡，黃河入海流。欲窮千里目，更上一層樓",   // 23
                                       "白日依山，盡黃河入海流。欲窮千里目，更上一層樓。",  // moved comma
                                       "白日依山盡！黃河入海流？欲窮千里目；更上一層樓.", ""});
    CHECK(f.passed == 2);
    CHECK(f.total == 5);
    CHECK(f.share == doctest::Approx(0.4));
    CHECK(quatrain_form({}).share == 0);
}

TEST_CASE("language model: a tiny corpus is learned below the unigram baseline") {
    LanguageModelOptions o;
    o.texts = tiny_corpus(200, 7);
    o.held_out = tiny_corpus(40, 8);
    o.layers = 1;
    o.heads = 2;
    o.d_model = 16;
    o.context = 8;
    o.batch = 16;
    o.learning_rate = 1e-2;
    o.warmup = 10;
    LanguageModel model(o);
    const LmEvaluation before = model.evaluate();
    const LmStep r = model.step(150);
    CHECK(r.tokens == 150 * 16 * 5);  // every word: 4 letters and its end
    const LmEvaluation after = model.evaluate();
    CHECK(after.tokens == 40 * 5);
    CHECK(before.unigram_loss == after.unigram_loss);
    // 8 words of 4 letters from 4: after the first letter or two a word is nearly
    // certain; the unigram model knows only letter frequencies
    CHECK(after.loss < 0.6 * after.unigram_loss);
    CHECK(after.loss < before.loss);
    std::printf("tiny corpus: loss %.4f -> %.4f, unigram %.4f\n", before.loss, after.loss, after.unigram_loss);
}

TEST_CASE("language model: a step that leaves the model unusable says so, and so does every later read") {
    LanguageModelOptions o = small_options();
    o.learning_rate = 1e15;  // one update leaves the parameters finite, near 1e15: the next forward overflows
    LanguageModel model(o);
    const std::string diverged =
        "training diverged at step 1: the loss or a parameter is no longer finite; try a smaller learning_rate";
    CHECK(error_of([&] { model.step(1); }) == diverged);
    CHECK(error_of([&] { model.evaluate(); }) == diverged);
    CHECK(error_of([&] { model.next("ab"); }) == diverged);
    CHECK(error_of([&] { model.attention("abc"); }) == diverged);
    CHECK(error_of([&] { head_roles(model, {}); }) == diverged);
    CHECK(error_of([&] { halves(model, {}); }) == diverged);
    CHECK(error_of([&] { trace(model, "abc", TraceOptions{}); }) == diverged);
    GenerateOptions g;
    g.prompt = "a";
    CHECK(error_of([&] { model.generate(g); }) == diverged);
    CHECK(error_of([&] { model.begin_generation(g); }) == diverged);
    CHECK(error_of([&] { model.logits({0, 2}, true); }) == diverged);
    CHECK(error_of([&] { model.step(1); }) == diverged);
    // new finite parameters (a fresh model's) make it usable again
    LanguageModel fresh(small_options());
    std::vector<std::string> names;
    std::vector<Mat> values;
    for (Index i = 0; i < fresh.parameters().count(); ++i) {
        names.push_back(fresh.parameters().tensor(i).name);
        values.push_back(fresh.parameters().get(i));
    }
    model.set_parameters(names, values);
    CHECK(std::isfinite(model.evaluate().loss));
}
