// A straight line through points, by least squares: y ≈ slope x + intercept.
// The speed panel fits log(time) against log(n) with it: the slope of that
// line is the exponent of the growth (2 for attention: quadratic, not
// exponential), so the exponent the page shows comes from the core.
#pragma once

#include "attention/types.hpp"

namespace attn {

struct LineFit {
    double slope = 0;
    double intercept = 0;
    double r_squared = 1;  // share of the variance of y the line explains; 1 when every y is equal
};

// xs, ys: (n) finite, n >= 2, the same length, not every x equal.
// Sums in double, about the means (no cancellation when x is far from 0).
LineFit fit_line(const VecRef& xs, const VecRef& ys);

}  // namespace attn
