#include "attention/measures/cost_model.hpp"

#include <cmath>

namespace attn {

// smallest L with k^L >= n
static double log_ceil(double n, double k) {
    double L = 0, reach = 1;
    while (reach < n) reach *= k, ++L;
    return L;
}

// The table for n, without the doubling columns.
static std::vector<LayerCost> cost_rows(Index n, Index d, Index k) {
    const double N = double(n), D = double(d), K = double(k);
    return {
        {"self-attention", "O(n^2 d)", "O(1)", "O(1)", 2 * N * N * D, 1, 1, 3 * D * D},
        {"recurrent", "O(n d^2)", "O(n)", "O(n)", 2 * N * D * D, N, N - 1, 2 * D * D},
        {"convolutional", "O(k n d^2)", "O(1)", "O(n/k)", K * N * D * D, 1,
         n == 1 ? 0 : std::ceil((N - 1) / (K - 1)), K * D * D},
        {"convolutional (dilated)", "O(k n d^2)", "O(1)", "O(log_k n)", K * N * D * D, 1, log_ceil(N, K),
         K * D * D},
        {"fully connected", "O(n^2 d^2)", "O(1)", "O(1)", N * N * D * D, 1, 1, N * N * D * D},
    };
}

// the sizes both counts below accept (their sums stay far inside the range of a double)
static void require_sizes(Index n, Index d) {
    require(n >= 1, "n must be at least 1, got " + std::to_string(n));
    require(d >= 1, "d must be at least 1, got " + std::to_string(d));
    require(n <= 100000000 && d <= 1000000, "n or d is too large");
}

DecodeAttentionCost decode_attention_cost(Index m, Index d) {
    require_sizes(m, d);
    const double M = double(m), D = double(d);
    return {2 * M * D, M * (M + 1) * D};
}

GenerationCost generation_cost(Index n, Index d) {
    const DecodeAttentionCost last = decode_attention_cost(n, d);
    const double N = double(n), D = double(d);
    return {last.cached, last.uncached, N * (N + 1) * D, N * (N + 1) * (N + 2) * D / 3, 2 * N * D};
}

std::vector<LayerCost> cost_model(Index n, Index d, Index k) {
    require(n >= 1, "n must be at least 1, got " + std::to_string(n));
    require(d >= 1, "d must be at least 1, got " + std::to_string(d));
    require(k >= 2, "k (kernel width) must be at least 2, got " + std::to_string(k));
    require(n <= 100000000 && d <= 1000000 && k <= 1000000, "n, d or k is too large");
    std::vector<LayerCost> rows = cost_rows(n, d, k);
    const std::vector<LayerCost> doubled = cost_rows(2 * n, d, k);
    for (size_t i = 0; i < rows.size(); ++i) {
        rows[i].doubling = doubled[i].multiply_adds / rows[i].multiply_adds;  // multiply_adds >= 2 > 0
        rows[i].doubling_exponent = std::log2(rows[i].doubling);
    }
    return rows;
}

}  // namespace attn
