// Test helpers: random inputs from the core's own seeded generator, and
// element-wise comparison with a tolerance relative to the reference.
#pragma once

#include "attention/attention_all.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace attn::test {

// entries uniform on [-1, 1]
inline Mat random_matrix(Index rows, Index cols, std::uint64_t seed) {
    return init_uniform(rows, cols, seed, stream::input, 1);
}

// a vector from a list: vec({1, 2, 3})
inline Vec vec(std::initializer_list<Scalar> xs) {
    Vec v(Index(xs.size()));
    Index i = 0;
    for (Scalar x : xs) v(i++) = x;
    return v;
}

// largest |a - b| / (1 + |b|) over all entries of a result a against a
// reference b of the same shape, float or double
template <class Result, class Reference>
double max_rel_error_of(const Result& a, const Reference& b) {
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    double worst = 0;
    for (Index i = 0; i < a.rows(); ++i)
        for (Index j = 0; j < a.cols(); ++j) {
            const double x = a(i, j), y = b(i, j);
            if (std::isinf(x) && x == y) continue;  // both -inf where masked
            worst = std::max(worst, std::abs(x - y) / (1 + std::abs(y)));
        }
    return worst;
}
inline double max_rel_error(const MatRef& a, const MatRef& b) { return max_rel_error_of(a, b); }

inline void check_rows_sum_to_one_or_zero(const MatRef& w) {
    for (Index i = 0; i < w.rows(); ++i) {
        const double sum = w.row(i).cast<double>().sum();
        CHECK((std::abs(sum - 1) <= 1e-6 || (sum == 0 && (w.row(i).array() == 0).all())));
        CHECK((w.row(i).array() >= 0).all());
    }
}

// what f throws (a default invalid_argument, its message empty, if it throws none)
template <class F>
invalid_argument thrown_by(F&& f) {
    try {
        f();
    } catch (const invalid_argument& e) {
        return e;
    }
    return invalid_argument("");
}

// the message of the invalid_argument that f throws ("" if it throws none)
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const invalid_argument& e) {
        return e.what();
    }
    return "";
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace attn::test
