// Rotary position embedding (RoPE; Su et al. 2021, "RoFormer"): a position is
// not added to a vector but turns it. Row r of X (n, d), d even, is cut into
// d/2 pairs of columns (2i, 2i + 1), and pair i turns by the angle
//   theta(r, i) = (r + offset) base^(-2i/d)
//   y[2i]     = x[2i] cos theta - x[2i + 1] sin theta
//   y[2i + 1] = x[2i] sin theta + x[2i + 1] cos theta
// Why: a turn keeps lengths, and the turns of two positions compose, so the
// score of a query turned for position a and a key turned for position b,
// R(a) q . R(b) k = q . R(b - a) k, depends on the positions through b - a
// alone. The first pairs turn fast (one radian a position), the last ones
// slowly (base^(-(d-2)/d) radians): near and far offsets both leave a trace.
#pragma once

#include "attention/types.hpp"

namespace attn {

struct RotaryOptions {
    double base = 10000;  // > 1 and finite: the wavelengths run from 2 pi to 2 pi base^((d-2)/d)
    Index offset = 0;     // >= 0: the position of row 0 (a decoder's next token: the cache's length)
};

// The angles, one per row and pair: theta(r, i) = (r + offset) base^(-2i/d).
//   -> (n, d/2)
Mat rotary_angles(Index n, Index d, const RotaryOptions& options = {});

//   X: (n, d), d even, finite  ->  (n, d): each row's pairs turned by its angles
Mat rotary(const MatRef& X, const RotaryOptions& options = {});

// The same with plain loops in double precision (each angle from its formula), for the tests.
Mat rotary_reference(const MatRef& X, const RotaryOptions& options = {});

}  // namespace attn
