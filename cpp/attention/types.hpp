// Shared types and argument checks for the attention core.
//
// Every matrix is row-major float32, as the JS side sees it: element (i, j)
// of an (rows, cols) matrix lives at data[i * cols + j].
#pragma once

#include <Eigen/Dense>

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
// a number as a user would write it: "0.5", "1e-50", "Infinity", "NaN"
std::string number(double x);

// Limits that keep one call within memory and a few seconds of work.
constexpr double kMaxMapEntries = 16777216;  // n_queries * n_keys: a 4096 x 4096 map
constexpr double kMaxWork = 17179869184.0;   // 2^34 multiply-adds
// Throws unless work (multiply-adds) is within kMaxWork; what names the computation.
void require_work(double work, const std::string& what);

// Throws unless every entry of m is finite, naming the first bad entry.
void require_finite(const MatRef& m, const std::string& name);
void require_finite(const VecRef& v, const std::string& name);
void require_finite(Scalar x, const std::string& name);
// exact-type overloads: a Mat could otherwise bind to both references above
inline void require_finite(const Mat& m, const std::string& name) { require_finite(MatRef(m), name); }
inline void require_finite(const Vec& v, const std::string& name) { require_finite(VecRef(v), name); }
// Throws unless every entry of a computed result is finite: inputs that are
// finite can still overflow float32 in a product.   what: "Q = input Wq"
void require_finite_result(const MatRef& m, const std::string& what);
// Whether every entry is finite: one pass with no branch, four entries at a
// time; the check alone, for a caller that builds its message only on failure.
bool all_finite(const MatRef& m);
// The first n elements of buf, a buffer kept between calls that only grows:
// after the first call of a size, no allocation.
template <class Buffer>
auto* room(Buffer& buf, std::size_t n) {
    if (buf.size() < n) buf.resize(n);
    return buf.data();
}

// Throws unless m has at least one row and one column.
void require_nonempty(const MatRef& m, const std::string& name);

}  // namespace attn
