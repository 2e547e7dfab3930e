// A histogram of sampled values: how many fall in each of `bins` equal-width
// bins on [from, to]. The page draws the distribution of q.k (variance d) and
// of q.k / sqrt(d) (variance 1) with it, so the bar heights, like every other
// number on the page, come from the core.
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <vector>

namespace attn {

struct Histogram {
    std::vector<std::int32_t> counts;  // (bins) values in [edges[b], edges[b + 1]); the last bin also holds `to`
    Vec edges;                         // (bins + 1) from, ..., to, evenly spaced
    std::int32_t below = 0;            // values < from: in no bin
    std::int32_t above = 0;            // values > to: in no bin
};

// values: (n), finite, n >= 1   bins: 1..10000   from < to, both finite
// counts sum to n - below - above.
Histogram histogram(const VecRef& values, Index bins, Scalar from, Scalar to);

}  // namespace attn
