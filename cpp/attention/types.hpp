// Shared types and argument checks for the attention core.
//
// Every matrix is row-major float32, as the JS side sees it: element (i, j)
// of an (rows, cols) matrix lives at data[i * cols + j].
#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace attn {

using Scalar = float;
using Index = Eigen::Index;
using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
// true = this query may attend to this key.
using Mask = Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatRef = Eigen::Ref<const Mat>;
using VecRef = Eigen::Ref<const Vec>;

// The one exception type of the core. Its message names the argument and
// what is wrong with it, in words a user of the JS API understands.
struct invalid_argument : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

[[noreturn]] void fail(const std::string& message);
inline void require(bool ok, const std::string& message) {
    if (!ok) fail(message);
}

// "(3, 4)"
std::string shape(Index rows, Index cols);
std::string shape(const MatRef& m);

// Throws unless every entry of m is finite, naming the first bad entry.
void require_finite(const MatRef& m, const std::string& name);
void require_finite(const VecRef& v, const std::string& name);
void require_finite(Scalar x, const std::string& name);
// exact-type overloads: a Mat could otherwise bind to both references above
inline void require_finite(const Mat& m, const std::string& name) { require_finite(MatRef(m), name); }
inline void require_finite(const Vec& v, const std::string& name) { require_finite(VecRef(v), name); }
// Throws unless m has at least one row and one column.
void require_nonempty(const MatRef& m, const std::string& name);

}  // namespace attn
