// Shared types and argument checks for the attention core.
//
// Every matrix is row-major float32, as the JS side sees it: element (i, j)
// of an (rows, cols) matrix lives at data[i * cols + j].
#pragma once

#include <Eigen/Dense>

#include <stdexcept>
#include <string>
#include <utility>

namespace attn {

using Scalar = float;
using Index = Eigen::Index;
using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
// true = this query may attend to this key.
using Mask = Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatRef = Eigen::Ref<const Mat>;
using VecRef = Eigen::Ref<const Vec>;

// The kinds of failure the core reports, one list: X(enumerator, the code the
// JS API's AttentionError says). The bindings give each failure's code to the
// facade as it is; no message is read to find it.
#define ATTN_ERROR_CODES(X)                                                                         \
    X(bad_argument, "BAD_ARGUMENT")      /* an argument or option the function refuses */         \
    X(out_of_memory, "OUT_OF_MEMORY")    /* the inputs or the model do not fit in memory */       \
    X(diverged, "DIVERGED")              /* training produced a non-finite loss or parameter */   \
    X(bad_model_file, "BAD_MODEL_FILE")  /* bytes that are not a model file this version reads */ \
    X(deleted, "DELETED")                /* a handle used after delete() (the bindings' tables) */
enum class Code {
#define ATTN_ENUMERATOR(name, code) name,
    ATTN_ERROR_CODES(ATTN_ENUMERATOR)
#undef ATTN_ENUMERATOR
};
// "BAD_ARGUMENT", ...
const char* code_name(Code code);

// The one exception type of the core. Its message names the argument and
// what is wrong with it, in words a user of the JS API understands; its code
// says what kind of failure it is, and argument which argument it is about,
// by the core's name for it as the message spells it ("d_model"; "" when no
// one argument is): the JS facade says that name as its option's ("dModel").
struct invalid_argument : std::invalid_argument {
    explicit invalid_argument(const std::string& message, Code code = Code::bad_argument, std::string argument = "")
        : std::invalid_argument(message), code(code), argument(std::move(argument)) {}
    Code code;
    std::string argument;
};

// BAD_ARGUMENT, about no one argument. (Overloads and a const char* argument
// rather than default strings: each of the core's few hundred checks would
// build them inline, kilobytes of each module.)
[[noreturn]] void fail(const std::string& message);
inline void require(bool ok, const std::string& message) {
    if (!ok) fail(message);
}
// Another kind of failure: fail("training diverged …", Code::diverged, "learning_rate")
[[noreturn]] void fail(const std::string& message, Code code, const char* argument = "");
// BAD_ARGUMENT, naming the argument at fault
[[noreturn]] void fail_argument(const char* argument, const std::string& message);
inline void require_argument(bool ok, const char* argument, const std::string& message) {
    if (!ok) fail_argument(argument, message);
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
