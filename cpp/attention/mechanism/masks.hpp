// Attention masks: which keys each query may attend to (true = allowed).
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <vector>

namespace attn {

// Keys at index >= valid_length are padding (sentences of different lengths
// padded to one width).   -> (n_queries, n_keys)
Mask mask_padding(Index n_queries, Index n_keys, Index valid_length);

// Query i may see keys 0..i only: a decoder must not look ahead.
//   -> (n_queries, n_keys), lower triangle including the diagonal
Mask mask_causal(Index n_queries, Index n_keys);

// An arbitrary mask given row-major, one byte per entry (non-zero = allowed).
//   values: n_queries * n_keys bytes   -> (n_queries, n_keys)
Mask mask_from_bytes(const std::vector<std::uint8_t>& values, Index n_queries, Index n_keys);

}  // namespace attn
