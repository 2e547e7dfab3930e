#include "attention/measures/dot_kernel.hpp"

#include "attention/mechanism/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn {
namespace {

// the checks both paths share: shapes, finite entries, a key to scale by
void check(const VecRef& query, const MatRef& keys, bool equal_length) {
    require(keys.rows() >= 1, "dotAndKernel: keys must have at least one row");
    require(query.size() >= 1, "dotAndKernel: the query is empty");
    require(keys.cols() == query.size(), "dotAndKernel: the keys have " + std::to_string(keys.cols()) +
                                             " columns but the query has " + std::to_string(query.size()) +
                                             " entries; q·k needs equal widths");
    require_work(double(keys.rows()) * double(keys.cols()), "dotAndKernel");
    require_finite(query, "query");
    require_finite(keys, "keys");
    bool any = false;
    for (Index i = 0; i < keys.rows() && !any; ++i)
        for (Index c = 0; c < keys.cols(); ++c) any = any || keys(i, c) != 0;
    require(!equal_length || any, "dotAndKernel: every key is zero; equalLength has no length to give them");
}

// softmax of one vector: one row of softmax_rows
Vec softmax_of(const Vec& x) {
    const Mat row = softmax_rows(x.transpose());
    return row.row(0).transpose();
}

}  // namespace

DotKernel dot_and_kernel(const VecRef& query, const MatRef& keys, bool equal_length) {
    check(query, keys, equal_length);
    const Index n = keys.rows();
    DotKernel out;
    out.keys = keys;
    out.lengths = Vec(n);
    out.dot = Vec(n);
    out.kernel = Vec(n);
    // (n) the lengths as given; with equal_length each key rescaled to their mean
    Scalar mean = 0;
    for (Index i = 0; i < n; ++i) {
        out.lengths(i) = out.keys.row(i).norm();
        mean += out.lengths(i) / Scalar(n);
    }
    for (Index i = 0; equal_length && i < n; ++i)
        if (out.lengths(i) > 0) {
            out.keys.row(i) *= mean / out.lengths(i);
            out.lengths(i) = out.keys.row(i).norm();
        }
    out.query_length = query.norm();
    for (Index i = 0; i < n; ++i) {
        out.dot(i) = out.keys.row(i).dot(query.transpose());                       // q·k
        out.kernel(i) = out.dot(i) - out.query_length * out.query_length / 2 -    // q·k − |q|²/2 − |k|²/2
                        out.lengths(i) * out.lengths(i) / 2;
    }
    out.dot_weights = softmax_of(out.dot);
    out.kernel_weights = softmax_of(out.kernel);
    out.max_difference = 0;
    for (Index i = 0; i < n; ++i)
        out.max_difference = std::max(out.max_difference, std::abs(out.dot_weights(i) - out.kernel_weights(i)));
    return out;
}

DotKernel dot_and_kernel_reference(const VecRef& query, const MatRef& keys, bool equal_length) {
    check(query, keys, equal_length);
    const Index n = keys.rows(), d = keys.cols();
    std::vector<double> length(n);
    for (Index i = 0; i < n; ++i) {
        double s = 0;
        for (Index c = 0; c < d; ++c) s += double(keys(i, c)) * keys(i, c);
        length[i] = std::sqrt(s);
    }
    double mean = 0;
    for (double l : length) mean += l / double(n);
    DotKernel out;
    out.keys = keys;
    out.lengths = Vec(n);
    out.dot = Vec(n);
    out.kernel = Vec(n);
    for (Index i = 0; i < n; ++i) {
        const double factor = equal_length && length[i] > 0 ? mean / length[i] : 1;
        double dot = 0, distance = 0, norm = 0;
        for (Index c = 0; c < d; ++c) {
            const double k = factor * keys(i, c), q = query(c);
            out.keys(i, c) = Scalar(k);
            dot += q * k;
            distance += (q - k) * (q - k);  // straight from the definition, not the identity
            norm += k * k;
        }
        out.lengths(i) = Scalar(std::sqrt(norm));
        out.dot(i) = Scalar(dot);
        out.kernel(i) = Scalar(-distance / 2);
    }
    double q2 = 0;
    for (Index c = 0; c < d; ++c) q2 += double(query(c)) * query(c);
    out.query_length = Scalar(std::sqrt(q2));
    auto softmax = [n](const Vec& x) {
        double top = x(0), sum = 0;
        for (Index i = 1; i < n; ++i) top = std::max(top, double(x(i)));
        Vec w(n);
        for (Index i = 0; i < n; ++i) sum += std::exp(double(x(i)) - top);
        for (Index i = 0; i < n; ++i) w(i) = Scalar(std::exp(double(x(i)) - top) / sum);
        return w;
    };
    out.dot_weights = softmax(out.dot);
    out.kernel_weights = softmax(out.kernel);
    double most = 0;
    for (Index i = 0; i < n; ++i) most = std::max(most, std::abs(double(out.dot_weights(i)) - out.kernel_weights(i)));
    out.max_difference = Scalar(most);
    return out;
}

}  // namespace attn
