#include "attention/measures/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace attn {

Histogram histogram(const VecRef& values, Index bins, Scalar from, Scalar to) {
    require(values.size() >= 1, "values is empty: give at least one value");
    require(values.size() <= Index(INT32_MAX), "values has too many entries");
    require_finite(values, "values");
    require(bins >= 1 && bins <= 10000, "bins must be between 1 and 10000, got " + std::to_string(bins));
    require_finite(from, "from");
    require_finite(to, "to");
    require(from < to, "from must be less than to, got from = " + number(from) + ", to = " + number(to));

    Histogram h;
    h.counts.assign(size_t(bins), 0);
    // the edges and the bin of each value in double: a float32 (to - from) / bins
    // could put a value on an edge into the neighbouring bin
    const double lo = from, hi = to, width = (hi - lo) / double(bins);
    h.edges.resize(bins + 1);
    for (Index b = 0; b <= bins; ++b) h.edges(b) = Scalar(b == bins ? hi : lo + double(b) * width);
    for (Index i = 0; i < values.size(); ++i) {
        const double x = values(i);
        if (x < lo) {
            ++h.below;
        } else if (x > hi) {
            ++h.above;
        } else {
            // floor((x - from) / width), clamped: x == to falls in the last bin
            const Index b = std::min(Index(std::floor((x - lo) / width)), bins - 1);
            ++h.counts[size_t(b)];
        }
    }
    return h;
}

}  // namespace attn
