#include "attention/measures/word_order.hpp"

#include "attention/mechanism/positional.hpp"

#include <cmath>

namespace attn {

Mat add_positional_encoding(const MatRef& X, Scalar base) {
    require_nonempty(X, "input");
    require_finite(X, "input");
    // |PE| <= 1: the sum cannot overflow a finite float32
    return X + positional_encoding(X.rows(), X.cols(), base);
}

Mat permute_map(const MatRef& A, const std::vector<Index>& order) {
    require_nonempty(A, "map");
    require(A.rows() == A.cols(), "map must be square (one row and one column per word), got shape " + shape(A));
    const Index n = A.rows();
    require(Index(order.size()) == n, "order has " + std::to_string(order.size()) + " entries but the map has " +
                                          std::to_string(n) + " words");
    // a permutation: every index 0..n-1 exactly once
    std::vector<bool> seen(size_t(n), false);
    for (size_t i = 0; i < order.size(); ++i) {
        const Index k = order[i];
        require(k >= 0 && k < n, "order[" + std::to_string(i) + "] = " + std::to_string(k) + " is outside 0.." +
                                     std::to_string(n - 1));
        require(!seen[size_t(k)], "order[" + std::to_string(i) + "] = " + std::to_string(k) +
                                      " repeats an earlier entry; order must be a permutation");
        seen[size_t(k)] = true;
    }
    Mat out(n, n);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < n; ++j) out(i, j) = A(order[size_t(i)], order[size_t(j)]);
    return out;
}

double max_abs_difference(const MatRef& a, const MatRef& b) {
    require(a.rows() == b.rows() && a.cols() == b.cols(),
            "a has shape " + shape(a) + " but b has shape " + shape(b) + "; they must be equal");
    double worst = 0;
    for (Index i = 0; i < a.rows(); ++i)
        for (Index j = 0; j < a.cols(); ++j) {
            const double x = a(i, j), y = b(i, j);
            require(!std::isnan(x) && !std::isnan(y), std::string(std::isnan(x) ? "a" : "b") + " has NaN at row " +
                                                          std::to_string(i) + ", column " + std::to_string(j));
            if (x == y) continue;  // also equal infinities
            worst = std::max(worst, std::abs(x - y));
        }
    return worst;
}

}  // namespace attn
