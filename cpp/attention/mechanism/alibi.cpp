#include "attention/mechanism/alibi.hpp"

#include <cmath>

namespace attn {

std::vector<double> alibi_power_slopes(Index p) {
    require(p >= 1 && (p & (p - 1)) == 0, "alibi_power_slopes needs a power of two, got " + std::to_string(p));
    std::vector<double> m(size_t(p), 0.0);  // (p)
    for (Index k = 0; k < p; ++k) m[size_t(k)] = std::exp2(-8.0 * double(k + 1) / double(p));
    return m;
}

Vec alibi_slopes(Index heads) {
    require_argument(heads >= 1, "heads", "heads must be at least 1, got " + std::to_string(heads));
    require_argument(heads <= 65536, "heads", "heads must be at most 65536, got " + std::to_string(heads));
    Index p = 1;  // the largest power of two <= heads
    while (2 * p <= heads) p *= 2;
    const std::vector<double> first = alibi_power_slopes(p);
    Vec m(heads);  // (heads)
    for (Index k = 0; k < p; ++k) m(k) = Scalar(first[size_t(k)]);
    if (heads > p) {
        const std::vector<double> between = alibi_power_slopes(2 * p);  // every other one falls between the first
        for (Index k = p; k < heads; ++k) m(k) = Scalar(between[size_t(2 * (k - p))]);
    }
    return m;
}

}  // namespace attn
