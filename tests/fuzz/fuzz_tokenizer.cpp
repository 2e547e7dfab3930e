// The tokenizer on any bytes: an error for bytes that are not UTF-8, else
// pieces that cover the text exactly, words from ▁ to ▁, and (for short texts)
// the same ids as the plain search over every segmentation.
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;

namespace {

const Vocabulary& vocabulary() {
    static const Vocabulary v({"�", "<s>", "▁the", "▁t", "he", "h", "e", "▁", "t", "▁cat", "c", "a", "s", "at", "été",
                               "he", "é", "zq", "▁▁", "日本", "本"},
                              {0, 0, -1, -3, -2.5, -4, -4, -5, -4, -2, -5, -5, -3, -3, -2, -2.25, -6, -1, -7, -3, -4},
                              2);
    return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    Tokens t;
    if (!accepted([&] { t = tokenize(vocabulary(), text); })) return 0;
    const std::u32string code_points = utf8_decode(text);
    if (code_points.empty() != t.ids.empty()) __builtin_trap();
    // the pieces, put together, are "▁" + the text with spaces as ▁
    std::string joined, expected = code_points.empty() ? "" : "▁";
    for (const std::string& p : t.pieces) joined += p;
    for (char32_t c : code_points) expected += c == U' ' ? std::string("▁") : utf8_encode(std::u32string(1, c));
    if (joined != expected) __builtin_trap();
    if (t.word_of_piece.size() != t.ids.size() || (!t.ids.empty() && Index(t.words.size()) != t.word_of_piece.back() + 1))
        __builtin_trap();
    if (code_points.size() <= 16 && t.ids != tokenize_reference(vocabulary(), text)) __builtin_trap();
    return 0;
}
