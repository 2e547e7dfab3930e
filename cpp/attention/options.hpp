// Checks of the numeric options a JS caller gives (every number arrives as a
// double), with messages naming the option.
#pragma once

#include "attention/types.hpp"

#include <string>

namespace attn {

// x as an integer in [lo, hi]; throws invalid_argument naming `name` otherwise.
Index integer_option(double x, const std::string& name, double lo, double hi);

}  // namespace attn
