#include "attention/measures/arithmetic.hpp"

#include <cmath>
#include <string>

namespace attn {

// Preconditions shared by the functions of this file: a non-empty matrix
// without NaN (infinities are allowed where the result stays defined).
static void check_no_nan(const MatRef& m, const char* name) {
    require_nonempty(m, name);
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j)
            if (std::isnan(m(i, j)))
                fail(std::string(name) + " has NaN at row " + std::to_string(i) + ", column " + std::to_string(j));
}

Vec row_sums(const MatRef& m) {
    require_finite(m, "m");
    require_nonempty(m, "m");
    const Eigen::VectorXd sums = m.cast<double>().rowwise().sum();  // (rows) in double: no drift over long rows
    Vec out = sums.cast<Scalar>();
    require_finite_result(out.transpose(), "the row sums");
    return out;
}

Vec row_sums_reference(const MatRef& m) {
    require_finite(m, "m");
    require_nonempty(m, "m");
    Vec out(m.rows());
    for (Index i = 0; i < m.rows(); ++i) {
        double sum = 0;
        for (Index j = 0; j < m.cols(); ++j) sum += double(m(i, j));
        out(i) = Scalar(sum);
    }
    require_finite_result(out.transpose(), "the row sums");
    return out;
}

static void check_scale(const MatRef& m, Scalar factor) {
    require_nonempty(m, "m");
    require_finite(m, "m");
    require_finite(factor, "factor");
}

Mat scale(const MatRef& m, Scalar factor) {
    check_scale(m, factor);
    Mat out = m * factor;  // (rows, cols)
    require_finite_result(out, "m * factor");
    return out;
}

Mat scale_reference(const MatRef& m, Scalar factor) {
    check_scale(m, factor);
    Mat out(m.rows(), m.cols());
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j) out(i, j) = Scalar(double(m(i, j)) * double(factor));
    require_finite_result(out, "m * factor");
    return out;
}

static void check_dot_products(const MatRef& a, const MatRef& b) {
    require_nonempty(a, "a");
    require_nonempty(b, "b");
    require_finite(a, "a");
    require_finite(b, "b");
    if (a.cols() != b.cols())
        fail("b has " + std::to_string(b.cols()) + " columns but a has " + std::to_string(a.cols()) +
             "; a dot product needs equal widths");
}

Mat dot_products(const MatRef& a, const MatRef& b) {
    check_dot_products(a, b);
    const Eigen::MatrixXd products = a.cast<double>() * b.cast<double>().transpose();  // (n_a, n_b)
    Mat out = products.cast<Scalar>();
    require_finite_result(out, "a bᵀ");
    return out;
}

Mat dot_products_reference(const MatRef& a, const MatRef& b) {
    check_dot_products(a, b);
    Mat out(a.rows(), b.rows());
    for (Index i = 0; i < a.rows(); ++i)
        for (Index j = 0; j < b.rows(); ++j) {
            double sum = 0;
            for (Index k = 0; k < a.cols(); ++k) sum += double(a(i, k)) * double(b(j, k));
            out(i, j) = Scalar(sum);
        }
    require_finite_result(out, "a bᵀ");
    return out;
}

RowTop top_rows(const MatRef& m) {
    check_no_nan(m, "m");
    RowTop top;
    top.index.resize(size_t(m.rows()));
    top.value.resize(m.rows());
    for (Index i = 0; i < m.rows(); ++i) {
        Index at = 0;
        top.value(i) = m.row(i).maxCoeff(&at);  // the first largest entry
        top.index[size_t(i)] = at;
    }
    return top;
}

RowTop top_rows_reference(const MatRef& m) {
    check_no_nan(m, "m");
    RowTop top;
    top.index.assign(size_t(m.rows()), 0);
    top.value.resize(m.rows());
    for (Index i = 0; i < m.rows(); ++i) {
        double best = double(m(i, 0));
        for (Index j = 1; j < m.cols(); ++j)
            if (double(m(i, j)) > best) {
                best = double(m(i, j));
                top.index[size_t(i)] = j;
            }
        top.value(i) = Scalar(best);
    }
    return top;
}

Scalar max_entropy(Index n) {
    if (n < 1) fail("n must be at least 1, got " + std::to_string(n));
    return Scalar(std::log(double(n)));
}

}  // namespace attn
