#include "attention/types.hpp"

#include "attention/simd.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace attn {

// (one function makes the exception: each that does costs a few hundred bytes of WASM)
void fail(const std::string& message, Code code, const char* argument) {
    throw invalid_argument(message, code, argument);
}
void fail(const std::string& message) { fail(message, Code::bad_argument, ""); }
void fail_argument(const char* argument, const std::string& message) { fail(message, Code::bad_argument, argument); }

const char* code_name(Code code) {
    switch (code) {
#define ATTN_CODE_NAME(name, text) \
    case Code::name: return text;
        ATTN_ERROR_CODES(ATTN_CODE_NAME)
#undef ATTN_CODE_NAME
    }
    return "BAD_ARGUMENT";
}

std::string shape(Index rows, Index cols) {
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}
std::string shape(const MatRef& m) { return shape(m.rows(), m.cols()); }

std::string number(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    char text[32];
    std::snprintf(text, sizeof text, "%.7g", x);
    return text;
}

static std::string describe(Scalar x) { return number(x); }

void require_work(double work, const std::string& what) {
    if (!(work <= kMaxWork))  // if/fail: number() formats with snprintf, only on failure
        fail(what + " is too large: about " + number(work) + " multiply-adds, more than one call may take (" +
             std::to_string(std::int64_t(kMaxWork)) + ")");
}

// x * 0 is 0 for a finite x and NaN for an infinity or a NaN, and a NaN stays
// in a sum: one pass with no branch, four entries at a time (Eigen's
// allFinite has no WebAssembly SIMD code; it was a tenth of an attention call
// at n = 1024 with its three input checks).
bool all_finite(const MatRef& m) {
    using namespace simd;
    const f32x4 zero = splat(0);
    f32x4 a = zero, b = zero;
    float rest = 0;
    for (Index i = 0; i < m.rows(); ++i) {
        const Scalar* row = m.data() + i * m.outerStride();
        Index j = 0;
        for (; j + 8 <= m.cols(); j += 8) {
            a = add(a, mul(load(row + j), zero));
            b = add(b, mul(load(row + j + 4), zero));
        }
        for (; j < m.cols(); ++j) rest += row[j] * 0.0f;
    }
    a = add(a, b);
    return all_equal(a, a) && rest == rest;
}

void require_finite_result(const MatRef& m, const std::string& what) {
    if (all_finite(m)) return;  // one vectorised pass first
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j)
            if (!std::isfinite(m(i, j)))  // the message is built only on failure
                fail(what + " overflows float32 (an entry is not finite); use smaller inputs or parameters");
}

void require_finite(const MatRef& m, const std::string& name) {
    if (all_finite(m)) return;  // the pass with no branch first; the bad entry found only on failure
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j)
            if (!std::isfinite(m(i, j)))
                fail(name + " has " + describe(m(i, j)) + " at row " + std::to_string(i) + ", column " +
                     std::to_string(j) + " (every entry must be a finite float32)");
}

void require_finite(const VecRef& v, const std::string& name) {
    for (Index i = 0; i < v.size(); ++i)
        if (!std::isfinite(v(i)))
            fail(name + " has " + describe(v(i)) + " at index " + std::to_string(i) +
                 " (every entry must be a finite float32)");
}

void require_finite(Scalar x, const std::string& name) {
    if (!std::isfinite(x)) fail(name + " must be a finite number, got " + describe(x));
}

void require_nonempty(const MatRef& m, const std::string& name) {
    if (m.rows() <= 0 || m.cols() <= 0)
        fail(name + " must have at least one row and one column, got shape " + shape(m));
}

}  // namespace attn
