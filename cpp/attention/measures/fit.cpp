#include "attention/measures/fit.hpp"

#include <algorithm>
#include <string>

namespace attn {

LineFit fit_line(const VecRef& xs, const VecRef& ys) {
    const Index n = xs.size();
    require(n == ys.size(),
            "xs has " + std::to_string(n) + " entries but ys has " + std::to_string(ys.size()) + "; give one y per x");
    require(n >= 2, "a line needs at least 2 points, got " + std::to_string(n));
    require_finite(xs, "xs");
    require_finite(ys, "ys");
    Index first_other = 1;
    while (first_other < n && xs(first_other) == xs(0)) ++first_other;
    require(first_other < n, "every x is " + number(xs(0)) + ": a line through them would be vertical, with no slope");

    // pass 1: the means
    double mean_x = 0, mean_y = 0;
    for (Index i = 0; i < n; ++i) {
        mean_x += xs(i);
        mean_y += ys(i);
    }
    mean_x /= double(n);
    mean_y /= double(n);
    // pass 2: sums of squares and products about the means
    double sxx = 0, sxy = 0, syy = 0;
    for (Index i = 0; i < n; ++i) {
        const double dx = double(xs(i)) - mean_x, dy = double(ys(i)) - mean_y;
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    LineFit fit;
    fit.slope = sxy / sxx;
    fit.intercept = mean_y - fit.slope * mean_x;
    // r^2 = 1 - residual / total sum of squares = sxy^2 / (sxx syy) for a least-squares line
    // (rounding could take it an ulp past 1)
    fit.r_squared = syy == 0 ? 1 : std::min(1.0, (sxy * sxy) / (sxx * syy));
    return fit;
}

}  // namespace attn
