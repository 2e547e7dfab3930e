#include "attention/types.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace attn {

void fail(const std::string& message) { throw invalid_argument(message); }

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

bool all_finite(const MatRef& m) { return m.allFinite(); }

void require_finite_result(const MatRef& m, const std::string& what) {
    if (m.allFinite()) return;  // one vectorised pass first
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j)
            if (!std::isfinite(m(i, j)))  // the message is built only on failure
                fail(what + " overflows float32 (an entry is not finite); use smaller inputs or parameters");
}

void require_finite(const MatRef& m, const std::string& name) {
    // first a pass with no branch per entry (the compiler vectorises it): a
    // quarter of a small attention call was this check, one entry at a time
    int bad = 0;
    for (Index i = 0; i < m.rows(); ++i) {
        const Scalar* row = m.data() + i * m.outerStride();
        for (Index j = 0; j < m.cols(); ++j) bad |= !(std::abs(row[j]) <= std::numeric_limits<Scalar>::max());
    }
    if (!bad) return;
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
