#include "attention/options.hpp"

#include <cmath>
#include <cstdint>

namespace attn {

Index integer_option(double x, const std::string& name, double lo, double hi) {
    require_argument(std::isfinite(x) && x == std::floor(x), name.c_str(), name + " must be an integer, got " + number(x));
    require_argument(x >= lo && x <= hi, name.c_str(), name + " must be an integer from " + std::to_string(std::int64_t(lo)) +
                                                   " to " + std::to_string(std::int64_t(hi)) + ", got " + number(x));
    return Index(x);
}

}  // namespace attn
