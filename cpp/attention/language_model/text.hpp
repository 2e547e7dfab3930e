// The language model's text: UTF-8 to code points and back, the punctuation
// its form check knows, the quatrain form, and how the two special tokens read.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attn::train {

inline const char* const kBoundaryText = "\u23CE";  // ⏎: the boundary token, before and after every text
inline const char* const kUnknownText = "\uFFFD";   // �: the unknown token, for every folded character

// Every UTF-8 sequence as code points; an invalid byte becomes U+FFFD.
std::vector<std::uint32_t> code_points_of(const std::string& text);
std::string utf8_of(std::uint32_t code_point);
// How often each character occurs in the texts, by code point in increasing
// order: the count the vocabulary keeps a character by (min_count).
std::vector<std::pair<std::uint32_t, double>> character_counts(const std::vector<std::vector<std::uint32_t>>& texts);
// One of the punctuation marks ，。！？、；：,.!?;: ?
bool is_punctuation(std::uint32_t code_point);

// The five-character quatrain form: a text passes when it has exactly 24
// characters, with punctuation at 1-based positions 6, 12, 18, 24 and nowhere else.
struct FormCheck {
    double passed, total, share;  // share = passed / total (0 for no texts)
};
FormCheck quatrain_form(const std::vector<std::string>& texts);

// The repeats corpus: each text a random string of distinct characters written
// twice ("qfzk" -> "qfzkqfzk"), so that its second half can be predicted only by
// finding where the current character appeared and copying what followed it.
// Lengths uniform in [min_length, max_length]; characters drawn without
// replacement from the alphabet; the held-out texts drawn after the training
// ones from the same seeded stream.
struct RepeatsOptions {
    double train = 4000;       // training texts, integer 1..100000
    double held_out = 200;     // held-out texts, integer 0..100000
    double min_length = 4;     // characters of the string written twice, integer >= 1
    double max_length = 10;    // integer, min_length..the alphabet's size, at most 60
    std::string alphabet = "abcdefghijklmnopqrstuvwxyz";  // UTF-8, distinct characters
    double seed = 1;           // integer in [0, 2^53]
};
struct TextCorpus {
    std::vector<std::string> train, held_out;
};
TextCorpus repeats_corpus(const RepeatsOptions& options);

// The reader's own text as a corpus: its lines, each line longer than
// context - 1 characters cut into windows of that many (a text and its two
// boundaries fit the context); blank lines dropped, "\r" and surrounding
// spaces trimmed; a text equal to an earlier one dropped (a repeated line, a
// chorus, a file pasted twice: left in, its copies would fall on both sides of
// the split, and the held-out loss would measure recall of training texts);
// then every tenth text (the 10th, 20th, ...) held out. Refused,
// with a message saying why: an empty text; a binary one (a NUL byte, or more
// than 1% of its characters invalid UTF-8, U+FFFD, or control characters); fewer than
// kOwnMinCharacters characters besides spaces and line breaks, in all or once
// the repeats are dropped; more than kOwnMaxVocab
// distinct characters seen min_count times or more in the training texts
// (the rarer ones fold into the unknown token, as the language model does);
// more than kOwnMaxBytes bytes.
struct OwnOptions {
    double context = 32;   // the language model's, integer 2..128
    double min_count = 3;  // the language model's, integer >= 1
};
constexpr double kOwnMinCharacters = 2000;
constexpr double kOwnMaxVocab = 4000;
constexpr double kOwnMaxBytes = 2000000;
struct OwnCorpus : TextCorpus {
    double repeats = 0;  // texts dropped as equal to an earlier one
};
OwnCorpus own_corpus(const std::string& text, const OwnOptions& options);

}  // namespace attn::train
