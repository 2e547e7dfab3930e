// Conditional attention: a condition vector c (a label, a style, an auxiliary
// variable) changes which tokens attend to which, by being fused into the
// inputs of Q and K. V stays a projection of X alone.
//
//   concat: F = [X | 1 c^T]                    (n, d_in + d_c)
//   add:    F = X + 1 (c P)                    (n, d_in), P: (d_c, d_in)
//   fc:     F = tanh([X | 1 c^T] W_f + 1 b^T)  (n, d_in), W_f: (d_in + d_c, d_in)
//   Q = F W^Q,  K = F W^K,  V = X W^V
#pragma once

#include "attention/mechanism/self_attention.hpp"

#include <cstdint>
#include <string>

namespace attn {

enum class Fusion { concat, add, fc };
Fusion fusion_from_name(const std::string& name);
const char* fusion_name(Fusion fusion);

struct ConditionalResult {
    Mat fused;               // F: the input of Q and K (see above)
    Mat P;                   // add: (d_c, d_in); empty otherwise
    Mat Wf;                  // fc: (d_in + d_c, d_in); empty otherwise
    Vec bf;                  // fc: (d_in); empty otherwise
    ProjectedAttention attn; // Q, K from F; V from X
};

//   X: (n, d_in)   c: (d_c)   d_k, d_v: projection widths
ConditionalResult conditional_attention(const MatRef& X, const VecRef& c, Fusion fusion, Index d_k, Index d_v,
                                        std::uint64_t seed, const AttentionOptions& options = {});

}  // namespace attn
