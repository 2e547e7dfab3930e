// Token vectors for sentences a learner types.
//
// Each distinct token gets its own vector, drawn from the seeded initialiser
// with a stream derived from the token's bytes, so the same word always gets
// the same vector (in every runtime) and a repeated word attends like itself.
// The vectors carry no meaning: maps built on them show how attention
// computes, not what a trained model attends to.
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// FNV-1a hash of the token's UTF-8 bytes, ASCII letters lower-cased first
// ("The" and "the" are one token).
std::uint64_t token_hash(const std::string& token);

// One row per token, entries uniform on [-sqrt(3), sqrt(3)]: zero mean and unit
// variance, the assumption behind the 1/sqrt(d) scaling.
//   tokens: 1..4096 non-empty strings   d: width >= 1   -> (n, d)
Mat embed_tokens(const std::vector<std::string>& tokens, Index d, std::uint64_t seed);

}  // namespace attn
