// The language model (language_model.hpp) and its new layers: each layer's
// double backward against finite differences and its float forward and
// backward against the double reference (lm_reference.hpp); Adam's warm-up and
// clipping; the whole model's gradient check, the float forward and gradients
// against the double reference, determinism, the key-value cache against the
// full forward, the vocabulary and its unknown token, bad options named, and a
// tiny corpus learned below the unigram baseline.
#include "train_helpers.hpp"

#include <cstdio>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

// the five-point central difference of a scalar function of one entry of M
template <class F>
double numeric_derivative(MatD& M, Index i, Index j, F loss) {
    const double h = 1e-3, x = M(i, j);
    double L[4];
    const double steps[4] = {h, -h, 2 * h, -2 * h};
    for (int s = 0; s < 4; ++s) {
        M(i, j) = x + steps[s];
        L[s] = loss();
    }
    M(i, j) = x;
    return (8 * (L[0] - L[1]) - (L[2] - L[3])) / (12 * h);
}

// sum of W .* Y: a loss whose gradient with respect to Y is W
double weighted(const MatD& Y, const MatD& W) { return (Y.array() * W.array()).sum(); }

// a tiny corpus with structure: words of a few letters, each a pattern
std::vector<std::string> tiny_corpus(Index count, std::uint64_t seed) {
    const char* const words[8] = {"abab", "baba", "cdcd", "abcd", "dcba", "aabb", "bbaa", "cddc"};
    Rng rng(seed, 5);
    std::vector<std::string> out;
    for (Index i = 0; i < count; ++i) out.push_back(words[rng.next() % 8]);
    return out;
}

LanguageModelOptions small_options() {
    LanguageModelOptions o;
    o.texts = {"abcab", "bcabc", "cabca", "ab", "abcabcabc"};
    o.held_out = {"abca"};
    o.layers = 2;
    o.heads = 2;
    o.d_model = 8;
    o.context = 6;
    o.batch = 3;
    o.warmup = 0;
    o.clip = 0;
    return o;
}

}  // namespace

// ---- the new layers ---------------------------------------------------------------

TEST_CASE("lm layers: layer norm, its double backward against finite differences and the float path against both") {
    const Index rows = 5, d = 7;
    MatD X = random_double(rows, d, 11, 2), gain = random_double(1, d, 12), bias = random_double(1, d, 13);
    const MatD W = random_double(rows, d, 14);  // dY
    MatD dX, dgain, dbias;
    layer_norm_backward_reference(X, gain, W, dX, dgain, dbias);
    double worst = 0;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < d; ++j)
            worst = std::max(worst, relative_error(dX(i, j), numeric_derivative(X, i, j, [&] {
                                                       return weighted(layer_norm_reference(X, gain, bias), W);
                                                   })));
    for (Index j = 0; j < d; ++j) {
        worst = std::max(worst, relative_error(dgain(0, j), numeric_derivative(gain, 0, j, [&] {
                                                   return weighted(layer_norm_reference(X, gain, bias), W);
                                               })));
        worst = std::max(worst, relative_error(dbias(0, j), numeric_derivative(bias, 0, j, [&] {
                                                   return weighted(layer_norm_reference(X, gain, bias), W);
                                               })));
    }
    CHECK(worst <= 1e-8);

    const Mat x = to_float(X), g = to_float(gain), b = to_float(bias), w = to_float(W);
    Mat Y(rows, d), fdX = Mat::Zero(rows, d), fdg = Mat::Zero(1, d), fdb = Mat::Zero(1, d);
    std::vector<float> mean(rows), rstd(rows);
    LayerNorm layer{d};
    layer.forward(rows, x.data(), g.data(), b.data(), Y.data(), mean.data(), rstd.data());
    layer.backward(rows, x.data(), g.data(), mean.data(), rstd.data(), w.data(), fdg.data(), fdb.data(), fdX.data());
    CHECK(max_error(Y, layer_norm_reference(X, gain, bias)) < 1e-5);
    CHECK(max_error(fdX, dX) < 1e-5);
    CHECK(max_error(fdg, dgain) < 1e-5);
    CHECK(max_error(fdb, dbias) < 1e-5);
}

TEST_CASE("lm layers: GELU (tanh form), bias and residual against finite differences and the float path") {
    const Index rows = 3, cols = 9;  // 27 entries: the vector loop and its tail
    MatD U = random_double(rows, cols, 21, 4);
    const MatD W = random_double(rows, cols, 22);
    const MatD dU = gelu_backward_reference(U, W);
    double worst = 0;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j)
            worst = std::max(worst, relative_error(dU(i, j), numeric_derivative(U, i, j, [&] {
                                                       return weighted(gelu_reference(U), W);
                                                   })));
    CHECK(worst <= 1e-8);
    // known values: gelu(0) = 0, gelu(1) = 0.841192, gelu(-1) = -0.158808
    MatD probe(1, 3);
    probe << 0, 1, -1;
    const MatD known = gelu_reference(probe);
    CHECK(known(0, 0) == 0);
    CHECK(known(0, 1) == doctest::Approx(0.8411919906).epsilon(1e-9));
    CHECK(known(0, 2) == doctest::Approx(-0.1588080094).epsilon(1e-9));

    const Mat u = to_float(U), w = to_float(W);
    Mat T(rows, cols), G(rows, cols), fdU(rows, cols);
    Gelu::forward(rows * cols, u.data(), T.data(), G.data());
    Gelu::backward(rows * cols, u.data(), T.data(), w.data(), fdU.data());
    CHECK(max_error(G, gelu_reference(U)) < 1e-6);
    CHECK(max_error(fdU, dU) < 1e-6);

    // bias: Y = X + b on every row; db = the column sums of dY
    MatD X = random_double(rows, cols, 23), b = random_double(1, cols, 24);
    const MatD db = bias_backward_reference(W);
    worst = 0;
    for (Index j = 0; j < cols; ++j)
        worst = std::max(worst, relative_error(db(0, j), numeric_derivative(b, 0, j, [&] {
                                                   return weighted(bias_reference(X, b), W);
                                               })));
    CHECK(worst <= 1e-8);
    Mat y = to_float(X), fdb = Mat::Zero(1, cols);
    const Mat fb = to_float(b);
    Bias layer{cols};
    layer.forward(rows, fb.data(), y.data());
    layer.backward(rows, w.data(), fdb.data());
    CHECK(max_error(y, bias_reference(X, b)) < 1e-6);
    CHECK(max_error(fdb, db) < 1e-6);

    // residual: Y = X + F; both branches get dY
    MatD F = random_double(rows, cols, 25);
    worst = 0;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j) {
            worst = std::max(worst, relative_error(W(i, j), numeric_derivative(X, i, j, [&] {
                                                       return weighted(residual_reference(X, F), W);
                                                   })));
            worst = std::max(worst, relative_error(W(i, j), numeric_derivative(F, i, j, [&] {
                                                       return weighted(residual_reference(X, F), W);
                                                   })));
        }
    CHECK(worst <= 1e-8);
    const Mat fx = to_float(X), ff = to_float(F);
    Mat fy(rows, cols), fdx = Mat::Zero(rows, cols);
    Residual::forward(rows * cols, fx.data(), ff.data(), fy.data());
    Residual::backward(rows * cols, w.data(), fdx.data());
    CHECK(max_error(fy, residual_reference(X, F)) < 1e-6);
    CHECK(max_error(fdx, W) < 1e-6);
}

TEST_CASE("lm layers: learned positions get the gradient of every row at their position") {
    const Index n = 3, d = 4, rows = 9;
    const MatD dX = random_double(rows, d, 31);
    Mat dP = Mat::Zero(n, d);
    const Mat dx = to_float(dX);
    Embedding{5, d, n}.backward_positions(rows, dx.data(), dP.data());
    MatD expected = MatD::Zero(n, d);
    for (Index r = 0; r < rows; ++r) expected.row(r % n) += dX.row(r);
    CHECK(max_error(dP, expected) < 1e-6);
}

TEST_CASE("adam: warm-up scales the rate linearly, clipping caps the global norm, both off change nothing") {
    // warm-up over 4 steps: rates 1/4, 2/4, 3/4, 1, 1 of learning_rate
    Adam warm(AdamOptions{0.1, 0.9, 0.999, 1e-8, 4, 0});
    CHECK(warm.rate_at(1) == doctest::Approx(0.025));
    CHECK(warm.rate_at(3) == doctest::Approx(0.075));
    CHECK(warm.rate_at(4) == 0.1);
    CHECK(warm.rate_at(9) == 0.1);
    // the first Adam step moves p by about the rate (m_hat / sqrt(v_hat) = sign g)
    float p = 1, m = 0, v = 0, g = 0.5f;
    warm.step(&p, &g, &m, &v, 1);
    CHECK(p == doctest::Approx(1 - 0.025).epsilon(1e-6));

    // clipping at 1: g = (3, 4) has norm 5 -> (0.6, 0.8); m after one step = 0.1 g
    Adam clipped(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, 1});
    float q[2] = {0, 0}, gq[2] = {3, 4}, mq[2] = {0, 0}, vq[2] = {0, 0};
    clipped.step(q, gq, mq, vq, 2);
    CHECK(clipped.last_norm() == doctest::Approx(5));
    CHECK(mq[0] == doctest::Approx(0.06).epsilon(1e-6));
    CHECK(mq[1] == doctest::Approx(0.08).epsilon(1e-6));
    // under the clip: unchanged
    float r[2] = {0, 0}, gr[2] = {0.3f, 0.4f}, mr[2] = {0, 0}, vr[2] = {0, 0};
    Adam loose(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, 1});
    loose.step(r, gr, mr, vr, 2);
    CHECK(mr[0] == doctest::Approx(0.03).epsilon(1e-6));

    // off (the defaults): bit for bit the plain update
    Adam plain(AdamOptions{0.1, 0.9, 0.999, 1e-8}), off(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, 0});
    float a = 1, ma = 0, va = 0, b = 1, mb = 0, vb = 0, ga = 0.37f;
    for (int i = 0; i < 3; ++i) plain.step(&a, &ga, &ma, &va, 1), off.step(&b, &ga, &mb, &vb, 1);
    CHECK(a == b);

    CHECK(contains(error_of([] { Adam(AdamOptions{0.1, 0.9, 0.999, 1e-8, 1.5, 0}); }), "warmup"));
    CHECK(contains(error_of([] { Adam(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, -1}); }), "clip"));
}

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
    std::vector<std::int32_t> tokens, targets;
    model.peek_batch(tokens, targets);
    const Index sequences = Index(tokens.size()) / model.context();
    const double loss = model.compute_gradients(sequences, tokens.data(), targets.data());
    ParamsD grads;
    const LmReference ref = lm_reference(model.config(), model.parameters_double(), tokens, targets, &grads);
    CHECK(std::abs(loss - ref.loss) < 1e-5 * (1 + ref.loss));
    const std::vector<std::string> names = lm_tensor_names(model.config().layers);
    for (Index i = 0; i < model.parameters().count(); ++i) {
        CAPTURE(names[size_t(i)]);
        CHECK(max_error(model.parameters().get_grad(i), grads[size_t(i)]) < 2e-5);
    }
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
          "0x1.0920f20029cacp+1 0x1.eb38f42eece47p+0 0x1.d2dd8dcb4efbdp+0 0x1.d04b274307ed1p+0 0x1.659196946aa9p+0 "
          "0x1.8eed7afc9deb5p+0 0x1.50b8feda267f1p+0 0x1.501bf5f53d624p+0 0x1.6f574e407701cp+0 0x1.2d0fd9577a39p+0 "
          "0x1.3d7a506865462p+0 0x1.2abd32961bffp+0");
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
    CHECK(contains(error_of([&] { model.head_scores("abc", 0); }), "period must be an integer from 1 to 5"));
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
    const HeadScores scores = model.head_scores("ab,cd.", 3);
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
