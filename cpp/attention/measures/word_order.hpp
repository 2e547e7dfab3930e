// Word order. Self-attention compares every query with every key wherever
// they stand: give it the same words in another order and its map is the old
// map with rows and columns moved (same numbers), so on its own it cannot see
// order. Adding the positional encoding to the word vectors gives every
// position its own signature, and the maps of the two orders differ.
#pragma once

#include "attention/types.hpp"

#include <vector>

namespace attn {

// X + PE(n, d): the input of self-attention with each row's position in it.
//   X: (n, d), finite   -> (n, d)
Mat add_positional_encoding(const MatRef& X, Scalar base = 10000);

// B(i, j) = A(order[i], order[j]): the map of A's words read in a new order.
// If sentence' = [word[order[0]], word[order[1]], ...], then without
// positional encoding map(sentence') = permute_map(map(sentence), order).
//   A: (n, n)   order: a permutation of 0..n-1   -> (n, n)
Mat permute_map(const MatRef& A, const std::vector<Index>& order);

// max |a(i, j) - b(i, j)| over every entry (0 when equal; equal infinities,
// a masked -inf in both, count as equal).   a, b: the same shape, no NaN
double max_abs_difference(const MatRef& a, const MatRef& b);

}  // namespace attn
