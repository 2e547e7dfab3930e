#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

namespace {

// A toy vocabulary: 3 control symbols, then pieces with log-probability scores.
Vocabulary toy_vocabulary() {
    return Vocabulary({"�", "<s>", "</s>",                       // 0 unknown, 1, 2 reserved
                       "▁the", "▁t", "he", "h", "e",  // 3..7  ▁the ▁t he h e
                       "▁", "t", "▁cat", "c", "a",    // 8..12 ▁ t ▁cat c a
                       "s", "at", "été", "he", "é", "zq"},    // 13..18 s at été he(again) é zq
                      {0, 0, 0, -1, -3, -2.5, -4, -4, -5, -4, -2, -5, -5, -3, -3, -2, -2.25, -6, -1}, 3);
}

std::vector<Index> ids(const Tokens& t) { return t.ids; }

}  // namespace

TEST_CASE("tokenizer: the highest-scoring segmentation, ▁ for spaces, words from ▁ to ▁") {
    const Vocabulary v = toy_vocabulary();
    const Tokens t = tokenize(v, "the cat");
    CHECK(ids(t) == std::vector<Index>{3, 10});
    CHECK(t.pieces == std::vector<std::string>{"▁the", "▁cat"});
    CHECK(t.words == std::vector<std::string>{"the", "cat"});
    CHECK(t.word_of_piece == std::vector<Index>{0, 1});

    // a word split into pieces: ▁the + c + at (-1 -5 -3) beats ▁the + c + a + t
    const Tokens split = tokenize(v, "thecat");
    CHECK(ids(split) == std::vector<Index>{3, 11, 14});
    CHECK(split.words == std::vector<std::string>{"thecat"});
    CHECK(split.word_of_piece == std::vector<Index>{0, 0, 0});

    // ▁t + he (-3 - 2.25, the repeated "he": the later id wins) beats ▁t + h + e; ▁the is still best
    CHECK(ids(tokenize(v, "the")) == std::vector<Index>{3});
    CHECK(ids(tokenize(v, "t he")) == std::vector<Index>{4, 8, 16});
    // multi-byte pieces match whole code points
    CHECK(ids(tokenize(v, "été")) == std::vector<Index>{8, 15});
}

TEST_CASE("tokenizer: unknown characters become piece 0, a run of them one piece") {
    const Vocabulary v = toy_vocabulary();
    const Tokens t = tokenize(v, "the xyz cat");
    CHECK(ids(t) == std::vector<Index>{3, 8, 0, 10});
    CHECK(t.pieces[2] == "xyz");  // the text it covers, not the unknown symbol
    CHECK(t.words == std::vector<std::string>{"the", "xyz", "cat"});
    // a character outside the BMP and a lone surrogate (as Embind passes one) are unknown too
    CHECK(ids(tokenize(v, "the \xF0\x9F\x98\x80")) == std::vector<Index>{3, 8, 0});
    CHECK(ids(tokenize(v, "\xED\xA0\x80")) == std::vector<Index>{8, 0});
    // control symbols never match text
    CHECK(ids(tokenize(v, "<s>")) == std::vector<Index>{8, 0, 13, 0});
}

TEST_CASE("tokenizer: a position no piece ends at restarts the search from 0, as published") {
    const Vocabulary v = toy_vocabulary();
    // "q" is no piece, so nothing ends after the z of "zq": that position is
    // reached with total 0, and from there the unknown "q" (score 0) beats
    // the piece "zq" (-1 after ▁'s -5). The published tokenizer does the same.
    CHECK(ids(tokenize(v, "zq")) == std::vector<Index>{8, 0});
    CHECK(ids(tokenize(v, "zzq")) == std::vector<Index>{8, 0});
    CHECK(ids(tokenize(v, "ézq")) == std::vector<Index>{8, 17, 0});
}

TEST_CASE("tokenizer: empty text, limits, bad UTF-8") {
    const Vocabulary v = toy_vocabulary();
    CHECK(tokenize(v, "").ids.empty());
    CHECK(contains(error_of([&] { tokenize(v, "ab\xFF"); }), "text is not valid UTF-8 (byte 2)"));
    CHECK(contains(error_of([&] { tokenize(v, "\xC0\x80"); }), "not valid UTF-8"));        // overlong
    CHECK(contains(error_of([&] { tokenize(v, "\xE2\x96"); }), "not valid UTF-8"));        // cut short
    CHECK(contains(error_of([&] { tokenize(v, std::string(kMaxTextBytes + 1, 'a')); }), "text is too long"));
    CHECK(ids(tokenize(v, std::string(kMaxTextBytes, 'x'))) == std::vector<Index>{8, 0});  // ▁, one unknown run
    CHECK(contains(error_of([] { Vocabulary({"a", ""}, {0, -1}, 1); }), "piece 1 is empty"));
    CHECK(contains(error_of([] { Vocabulary({"a", "b"}, {0, NAN}, 1); }), "piece 1 has score NaN"));
    CHECK(contains(error_of([] { Vocabulary({"a"}, {0, 1}, 1); }), "1 pieces but 2 scores"));
}

TEST_CASE("tokenizer: the lattice search equals the plain search over every segmentation") {
    const Vocabulary v = toy_vocabulary();
    const std::string alphabet[] = {"t", "h", "e", "c", "a", "s", " ", "x", "é", "z", "q"};
    Rng rng(7, 0);
    for (int trial = 0; trial < 300; ++trial) {
        std::string text;
        const int length = int(rng.next() % 12);
        for (int i = 0; i < length; ++i) text += alphabet[rng.next() % 11];
        CAPTURE(text);
        CHECK(ids(tokenize(v, text)) == tokenize_reference(v, text));
    }
}

TEST_CASE("tokenizer: keep_pieces cuts the pieces and the words they make") {
    const Vocabulary v = toy_vocabulary();
    Tokens t = tokenize(v, "the thecat cat");
    REQUIRE(ids(t) == std::vector<Index>{3, 3, 11, 14, 10});
    keep_pieces(t, 3);
    CHECK(ids(t) == std::vector<Index>{3, 3, 11});
    CHECK(t.words == std::vector<std::string>{"the", "thec"});
    CHECK(t.word_of_piece == std::vector<Index>{0, 1, 1});
}
