// The language model's text: UTF-8 to code points and back, the punctuation
// its form check knows, the quatrain form, and how the two special tokens read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

inline const char* const kBoundaryText = "\u23CE";  // ⏎: the boundary token, before and after every text
inline const char* const kUnknownText = "\uFFFD";   // �: the unknown token, for every folded character

// Every UTF-8 sequence as code points; an invalid byte becomes U+FFFD.
std::vector<std::uint32_t> code_points_of(const std::string& text);
std::string utf8_of(std::uint32_t code_point);
// One of the punctuation marks ，。！？、；：,.!?;: ?
bool is_punctuation(std::uint32_t code_point);

// The five-character quatrain form: a text passes when it has exactly 24
// characters, with punctuation at 1-based positions 6, 12, 18, 24 and nowhere else.
struct FormCheck {
    double passed, total, share;  // share = passed / total (0 for no texts)
};
FormCheck quatrain_form(const std::vector<std::string>& texts);

}  // namespace attn::train
