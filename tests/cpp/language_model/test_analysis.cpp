// What a language model has learned, measured (analysis.cpp): head roles on
// hand-made maps with known answers and on a model's own maps, the halves of
// texts written twice against the model's logits, the n-gram ladder against a
// plain count in the test, and the repeats corpus.
#include "train_helpers.hpp"

#include <cmath>
#include <map>
#include <set>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

using Ids = std::vector<std::int32_t>;

// an (m, m) map with row i all on key key(i)
template <class F>
Mat one_key_map(Index m, F key) {
    Mat A = Mat::Zero(m, m);
    for (Index i = 0; i < m; ++i) A(i, key(i)) = 1;
    return A;
}

// tokens: a = 2, b = 3, c = 4, d = 5, "," = 6
const std::vector<bool> kPunctuation = {false, false, false, false, false, false, true};

}  // namespace

TEST_CASE("head roles: each hand-made map scores 1 on its own role, the others as counted by hand") {
    const Ids abcab = {2, 3, 4, 2, 3};  // [⏎ a b c a b]: m = 6
    SUBCASE("previous") {
        const HeadRole r = head_role({one_key_map(6, [](Index i) { return std::max<Index>(0, i - 1); })}, {abcab},
                                     kPunctuation);
        CHECK(r.previous == 1);
        CHECK(r.self == 0);    // row 1 looks at key 0
        CHECK(r.first == 0);   // rows >= 2
        CHECK(r.induction == 0);
        CHECK(std::isnan(r.line));  // no punctuation: no line
        CHECK(r.best == "previous");
        CHECK(r.score == 1);
    }
    SUBCASE("induction: the key after where the current token was last seen") {
        // row 4 is a (seen at 1: key 2), row 5 is b (seen at 2: key 3); the others look at themselves
        const HeadRole r = head_role({one_key_map(6, [](Index i) { return i == 4 ? 2 : i == 5 ? 3 : i; })}, {abcab},
                                     kPunctuation);
        CHECK(r.induction == 1);
        CHECK(r.self == doctest::Approx(3.0 / 5));  // rows 1, 2, 3 of 1..5
        CHECK(r.previous == 0);
        CHECK(r.best == "induction");
    }
    SUBCASE("first: the boundary, an attention sink") {
        const HeadRole r = head_role({one_key_map(6, [](Index) { return 0; })}, {abcab}, kPunctuation);
        CHECK(r.first == 1);
        CHECK(r.previous == 0);
        CHECK(r.self == 0);
        CHECK(r.best == "first");
    }
    SUBCASE("line: one line back, the line ending at its first punctuation mark") {
        const Ids two_lines = {2, 3, 6, 4, 5, 6};  // "ab,cd,": p = 3, queries 4..6
        const HeadRole r = head_role({one_key_map(7, [](Index i) { return i >= 4 ? i - 3 : i; })}, {two_lines},
                                     kPunctuation);
        CHECK(r.line == 1);
        CHECK(r.self == doctest::Approx(3.0 / 6));
        CHECK(r.best == "line");
    }
    SUBCASE("uniform rows: each role the mean of 1 / (i + 1) over its queries") {
        Mat A = Mat::Zero(6, 6);
        for (Index i = 0; i < 6; ++i) A.row(i).head(i + 1).setConstant(Scalar(1.0 / double(i + 1)));
        const HeadRole r = head_role({A}, {abcab}, kPunctuation);
        const double rows25 = (1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 4;
        CHECK(r.previous == doctest::Approx(rows25));
        CHECK(r.first == doctest::Approx(rows25));
        CHECK(r.self == doctest::Approx((1.0 / 2 + 4 * rows25) / 5));
        CHECK(r.induction == doctest::Approx((1.0 / 5 + 1.0 / 6) / 2));
        CHECK(r.best == "self");  // the highest: row 1 gives it 1/2
    }
    SUBCASE("several texts pool their queries; a token never repeated leaves induction undefined") {
        const Ids abcd = {2, 3, 4, 5};
        const HeadRole r = head_role({one_key_map(5, [](Index i) { return i; })}, {abcd}, kPunctuation);
        CHECK(std::isnan(r.induction));
        CHECK(r.best == "self");
        const HeadRole both = head_role({one_key_map(5, [](Index i) { return i; }), one_key_map(6, [](Index i) {
                                             return std::max<Index>(0, i - 1);
                                         })},
                                        {abcd, abcab}, kPunctuation);
        CHECK(both.self == doctest::Approx(4.0 / 9));      // 4 of the 9 queries
        CHECK(both.previous == doctest::Approx(4.0 / 7));  // rows 2..4 and 2..5
    }
    SUBCASE("the unknown token is never an occurrence") {
        const Ids folded = {1, 3, 1, 3};  // [⏎ � b � b]
        const Mat A = one_key_map(5, [](Index i) { return i == 3 ? 2 : i == 4 ? 3 : i; });
        CHECK(head_role({A}, {folded}, kPunctuation, 1).induction == 1);  // only b's: row 4 -> key 3
        CHECK(head_role({A}, {folded}, kPunctuation, -1).induction == 1);
        const Mat B = one_key_map(5, [](Index i) { return i; });
        CHECK(head_role({B}, {folded}, kPunctuation, 1).induction == 0);
    }
    CHECK(contains(error_of([&] { head_role({Mat::Zero(3, 3)}, {}, kPunctuation); }), "1 maps for 0 texts"));
}

TEST_CASE("head roles of a model: its own maps, the held-out texts by default, bad texts named") {
    LanguageModel model(small_lm_options({"abcab", "bcabc", "cabca", "ab,ca", "abcabcabc"}, {"abca", "cab", "b,c"}));
    model.step(5);
    const std::vector<std::string> texts = {"abcab", "ca,bc"};
    const HeadRoles roles = head_roles(model, texts);
    CHECK(roles.texts == 2);
    CHECK(roles.queries == 5 + 5);  // each cut to context 6: [⏎] + 5 characters
    REQUIRE(roles.heads.size() == 2);
    REQUIRE(roles.heads[0].size() == 2);
    std::vector<bool> punctuation(size_t(model.vocab()), false);
    const VocabularyInfo v = model.vocabulary();
    for (size_t t = 0; t < v.tokens.size(); ++t) punctuation[t] = v.tokens[t] == ",";
    std::vector<Ids> ids;
    std::vector<AttentionMaps> maps;
    for (const std::string& t : texts) ids.push_back(model.encode(t, "t")), maps.push_back(model.attention(t));
    for (Index l = 0; l < 2; ++l)
        for (Index h = 0; h < 2; ++h) {
            const HeadRole want = head_role({maps[0].weights[size_t(l)][size_t(h)], maps[1].weights[size_t(l)][size_t(h)]},
                                            ids, punctuation);
            const HeadRole& got = roles.heads[size_t(l)][size_t(h)];
            CHECK(got.previous == doctest::Approx(want.previous).epsilon(1e-6));
            CHECK(got.induction == doctest::Approx(want.induction).epsilon(1e-6));
            CHECK(got.line == doctest::Approx(want.line).epsilon(1e-6));
            CHECK(got.best == want.best);
        }
    const HeadRoles held = head_roles(model, {});
    CHECK(held.texts == 3);
    CHECK(held.queries == 4 + 3 + 3);
    CHECK(contains(error_of([&] { head_roles(model, {"abz"}); }), "texts[0] has the character \"z\""));
    LanguageModel no_held(small_lm_options({"abc"}, {}));
    CHECK(contains(error_of([&] { head_roles(no_held, {}); }), "none given and held_out is empty"));
}

TEST_CASE("halves: the loss and accuracy over each half, as the model's logits give them") {
    LanguageModelOptions o = small_lm_options({"abab", "cdcd", "acac", "bdbd"}, {"abab", "dcdc", "aba"});
    o.context = 8;
    LanguageModel model(o);
    model.step(20);
    const std::vector<std::string> texts = {"abab", "dcdc", "aba"};
    // by hand: [⏎ x0 .. x(c-1)] predicts x0 .. x(c-1), ⏎; first half x0 .. x(h-1), second x(h+1) .. ⏎
    double loss[2] = {0, 0}, right[2] = {0, 0}, count[2] = {0, 0};
    for (const std::string& text : texts) {
        Ids seq = {0};
        for (std::int32_t t : model.encode(text, "t")) seq.push_back(t);
        const Mat logits = model.logits(seq, false);
        seq.push_back(0);
        const Index c = Index(text.size()), h = c / 2;
        for (Index k = 0; k <= c; ++k) {
            if (k == h) continue;
            const int half = k < h ? 0 : 1;
            const Eigen::VectorXd z = logits.row(k).cast<double>().transpose();
            const double lse = z.maxCoeff() + std::log((z.array() - z.maxCoeff()).exp().sum());
            loss[half] += lse - z(seq[size_t(k) + 1]);
            Eigen::Index arg;
            z.maxCoeff(&arg);
            right[half] += arg == seq[size_t(k) + 1];
            count[half] += 1;
        }
    }
    const Halves got = halves(model, {});  // the held-out texts: the same three
    CHECK(count[0] == 2 + 2 + 1);
    CHECK(got.first.tokens == count[0]);
    CHECK(got.second.tokens == count[1]);
    CHECK(got.first.loss == doctest::Approx(loss[0] / count[0]).epsilon(1e-5));
    CHECK(got.second.loss == doctest::Approx(loss[1] / count[1]).epsilon(1e-5));
    CHECK(got.first.accuracy == doctest::Approx(right[0] / count[0]));
    CHECK(got.second.accuracy == doctest::Approx(right[1] / count[1]));
    const Halves given = halves(model, texts);
    CHECK(given.second.loss == got.second.loss);
    CHECK(contains(error_of([&] { halves(model, {"abababab"}); }), "texts[0] has 8 characters; the halves need the whole text in the context: at most 7"));
}

namespace {

// The add-k n-gram loss by plain counting of strings: the contexts are the n - 1
// tokens before, ⏎ (0) before the start.
double ngram_reference(Index order, const std::vector<Ids>& from, const std::vector<Ids>& texts, double k,
                       double vocab, double* unseen = nullptr) {
    std::map<std::vector<std::int32_t>, double> joint, context;
    auto windows = [order](const Ids& text, auto&& visit) {
        Ids seq = {0};
        seq.insert(seq.end(), text.begin(), text.end());
        seq.push_back(0);
        for (Index i = 1; i < Index(seq.size()); ++i) {
            std::vector<std::int32_t> ctx;
            for (Index j = i - (order - 1); j < i; ++j) ctx.push_back(j >= 0 ? seq[size_t(j)] : 0);
            visit(ctx, seq[size_t(i)]);
        }
    };
    for (const Ids& t : from)
        windows(t, [&](std::vector<std::int32_t> ctx, std::int32_t x) {
            context[ctx] += 1;
            ctx.push_back(x);
            joint[ctx] += 1;
        });
    double sum = 0, count = 0, never = 0;
    for (const Ids& t : texts)
        windows(t, [&](std::vector<std::int32_t> ctx, std::int32_t x) {
            const double c = context[ctx];
            never += c == 0;
            ctx.push_back(x);
            sum -= std::log((joint[ctx] + k) / (c + k * vocab));
            count += 1;
        });
    if (unseen) *unseen = never / count;
    return sum / count;
}

}  // namespace

TEST_CASE("baselines: add-k n-grams as plain counting gives them, k chosen on the training texts alone") {
    // 20 training texts: the last 2 choose k
    std::vector<std::string> train;
    const char* const words[6] = {"abcabd", "abdab", "cabcab", "dabca", "bcab", "acdbca"};
    for (Index i = 0; i < 20; ++i) train.push_back(words[(i * 7) % 6]);
    const std::vector<std::string> held = {"abcab", "dabcd", "cc"};
    LanguageModel model(small_lm_options(train, held));
    const Baselines b = baselines(model);
    REQUIRE(b.ladder.size() == 4);
    std::vector<Ids> train_ids, held_ids;
    for (const auto& t : train) train_ids.push_back(model.encode(t, "t"));
    for (const auto& t : held) held_ids.push_back(model.encode(t, "t"));
    const std::vector<Ids> rest(train_ids.begin(), train_ids.end() - 2), slice(train_ids.end() - 2, train_ids.end());
    const double V = double(model.vocab());
    CHECK(b.tokens == 6 + 6 + 3);
    for (Index order = 1; order <= 4; ++order) {
        double k = 0, low = INFINITY;
        for (double candidate : {1.0, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001}) {
            const double loss = ngram_reference(order, rest, slice, candidate, V);
            if (loss < low) low = loss, k = candidate;
        }
        const NgramBaseline& got = b.ladder[size_t(order - 1)];
        CAPTURE(order);
        CHECK(got.order == order);
        CHECK(got.k == k);
        double unseen = -1;
        CHECK(got.loss == doctest::Approx(ngram_reference(order, train_ids, held_ids, k, V, &unseen)).epsilon(1e-12));
        CHECK(got.unseen == unseen);  // the share of held-out contexts no training text has
        if (order == 1) CHECK(got.unseen == 0);
    }
    CHECK(b.ladder[3].unseen > b.ladder[1].unseen);  // "cc" and "dabcd" hold runs the training texts lack
    // the same every call: the ladder reads the model's texts, not its parameters
    // (the bindings keep the first for the JS API: computed once there)
    const Baselines again = baselines(model);
    REQUIRE(again.ladder.size() == b.ladder.size());
    for (size_t i = 0; i < b.ladder.size(); ++i)
        CHECK((again.ladder[i].loss == b.ladder[i].loss && again.ladder[i].k == b.ladder[i].k &&
               again.ladder[i].unseen == b.ladder[i].unseen));
    LanguageModel no_held(small_lm_options({"abc"}, {}));
    CHECK(contains(error_of([&] { baselines(no_held); }), "held_out is empty"));
}

TEST_CASE("repeats corpus: strings of distinct characters written twice, seeded, lengths in range") {
    RepeatsOptions o;
    o.train = 300;
    o.held_out = 20;
    const TextCorpus c = repeats_corpus(o);
    REQUIRE(c.train.size() == 300);
    REQUIRE(c.held_out.size() == 20);
    std::set<size_t> lengths;
    for (const std::string& t : c.train) {
        const size_t half = t.size() / 2;
        CHECK(t.size() % 2 == 0);
        CHECK(t.substr(0, half) == t.substr(half));
        CHECK(std::set<char>(t.begin(), t.begin() + Index(half)).size() == half);
        lengths.insert(half);
    }
    CHECK(lengths == std::set<size_t>{4, 5, 6, 7, 8, 9, 10});
    CHECK(repeats_corpus(o).train == c.train);
    o.seed = 2;
    CHECK(repeats_corpus(o).train != c.train);
    RepeatsOptions zh;
    zh.alphabet = "春夏秋冬";
    zh.min_length = zh.max_length = 4;
    zh.train = 3;
    for (const std::string& t : repeats_corpus(zh).train) CHECK(code_points_of(t).size() == 8);
    RepeatsOptions bad;
    bad.alphabet = "abca";
    CHECK(contains(error_of([&] { repeats_corpus(bad); }), "alphabet must hold distinct characters"));
    bad.alphabet = "abc";
    CHECK(contains(error_of([&] { repeats_corpus(bad); }), "max_length 10 is more than the alphabet's 3 characters"));
    bad = RepeatsOptions{};
    bad.min_length = 5, bad.max_length = 4;
    CHECK(contains(error_of([&] { repeats_corpus(bad); }), "max_length must be an integer from 5 to 60"));
}

TEST_CASE("own corpus: lines trimmed, long ones in windows of the context, every tenth held out; bad texts refused") {
    // 30 lines of 90 letters, each opening with its number: with context 32, three windows of 31
    // each, no two alike; blank lines between
    std::string text;
    for (std::uint32_t line = 0; line < 30; ++line) {
        text += "  " + std::to_string(10 + line);
        std::uint32_t state = line + 1;  // letters from a small generator seeded by the line
        for (int k = 2; k < 90; ++k) {
            state = state * 1103515245u + 12345u;
            text += char('a' + (state >> 16) % 26);
        }
        text += " \r\n\n";
    }
    OwnOptions o;
    const OwnCorpus c = own_corpus(text, o);
    REQUIRE(c.train.size() + c.held_out.size() == 30 * 3);
    CHECK(c.repeats == 0);
    CHECK(c.held_out.size() == 9);
    for (const std::string& t : c.train) CHECK((t.size() == 31 || t.size() == 28));
    CHECK(c.train[0].substr(0, 2) == "10");
    CHECK(c.train[2].size() == 28);  // 90 = 31 + 31 + 28, trimmed of its spaces and \r
    // the 10th, 20th, ... texts held out: the 10th is line 3's first window
    CHECK(c.held_out[0].substr(0, 2) == "13");
    o.context = 10;
    for (const std::string& t : own_corpus(text, o).train) CHECK(t.size() <= 9);

    CHECK(contains(error_of([&] { own_corpus(" \n\t\n", {}); }), "the text is empty"));
    CHECK(contains(error_of([&] { own_corpus(std::string("abc\0def", 7), {}); }), "binary file, not text: it holds NUL bytes"));
    std::string binary = text;
    for (size_t i = 0; i < binary.size(); i += 50) binary[i] = char(0xFF);  // 2% invalid UTF-8
    CHECK(contains(error_of([&] { own_corpus(binary, {}); }), "this looks like a binary file, not text"));
    CHECK(contains(error_of([&] { own_corpus(std::string(1999, 'a'), {}); }),
                   "the text has 1999 characters besides spaces and line breaks; at least 2000 are needed"));
    std::string wide;  // 4,500 characters of CJK, each 5 times, broken into lines differently each time
    for (int k = 0; k < 5; ++k)
        for (std::uint32_t cp = 0x4E00; cp < 0x4E00 + 4500; ++cp) wide += utf8_of(cp) + ((cp + 3 * k) % 20 == 0 ? "\n" : "");
    OwnOptions plenty;
    CHECK(contains(error_of([&] { own_corpus(wide, plenty); }), "distinct characters seen 3 times or more; the model's vocabulary takes at most 4000"));
    CHECK(own_corpus(text + "\xEF\xBF\xBD", {}).train.back() == "\xEF\xBF\xBD");  // a few are text
}

TEST_CASE("own corpus: a text equal to an earlier one is dropped before the split, and counted") {
    // 40 lines of 62 characters (two windows of 31 each), a chorus after every one; the whole
    // three times over
    std::string lines;
    for (std::uint32_t line = 0; line < 40; ++line) {
        lines += std::to_string(10 + line) + ":";
        std::uint32_t state = line + 1;
        for (int k = 0; k < 59; ++k) {
            state = state * 1103515245u + 12345u;
            lines += char('a' + (state >> 16) % 26);
        }
        lines += "\nla la la, the chorus again\n";
    }
    const OwnCorpus c = own_corpus(lines + lines + "  " + lines, {});
    // 80 windows and the chorus kept, of 3 * 40 * 3 texts
    CHECK(c.train.size() + c.held_out.size() == 81);
    CHECK(c.repeats == 360 - 81);
    CHECK(c.held_out.size() == 8);
    std::set<std::string> train(c.train.begin(), c.train.end());
    CHECK(train.size() == c.train.size());
    for (const std::string& t : c.held_out) CHECK(train.count(t) == 0);
    // a text made long only by its repeats is refused, saying so
    const std::string refrain = "a line sung over and over\n";
    std::string song;
    for (int k = 0; k < 100; ++k) song += refrain;
    CHECK(contains(error_of([&] { own_corpus(song, {}); }),
                   "the text repeats itself: once its 99 repeated lines are dropped, it has 20 characters besides spaces "
                   "and line breaks; at least 2000 are needed"));
}
