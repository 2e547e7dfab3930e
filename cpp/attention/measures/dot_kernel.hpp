// q·k as geometry: one query among a few keys, scored two ways.
//
// The dot product q·k and the Gaussian kernel −|q − k|²/2 (σ = 1) differ by
// terms of the lengths alone:
//   −|q − k|²/2 = q·k − |q|²/2 − |k|²/2.
// The |q|² term is the same for every key and softmax cancels it, so when
// every key has the same length the two weightings are the same; otherwise
// the kernel favours the near keys and the dot product the long ones.
#pragma once

#include "attention/types.hpp"

namespace attn {

struct DotKernel {
    Mat keys;             // (n, d) the keys scored: as given, or rescaled to one length
    Vec lengths;          // (n) |k|
    Scalar query_length;  // |q|
    Vec dot;              // (n) q·k
    Vec kernel;           // (n) −|q − k|²/2
    Vec dot_weights;      // (n) softmax(q·k)
    Vec kernel_weights;   // (n) softmax(−|q − k|²/2)
    Scalar max_difference;  // max over keys of |dot_weights − kernel_weights|
};

// query: (d); keys: (n, d), n >= 1. equal_length: first rescale every key to
// the keys' mean length (a zero key stays zero; all zero is an error then).
DotKernel dot_and_kernel(const VecRef& query, const MatRef& keys, bool equal_length = false);
// Plain loops in double precision, for the tests.
DotKernel dot_and_kernel_reference(const VecRef& query, const MatRef& keys, bool equal_length = false);

}  // namespace attn
