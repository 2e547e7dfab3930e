#include "attention/measures/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

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

// sum over rows i = 1..m of 2 min(i, w) d: the rows of the causal map up to m, each meeting at most w keys
static double window_rows(double M, double W, double D) {
    if (M <= W) return M * (M + 1) * D;
    return W * (W + 1) * D + 2 * (M - W) * W * D;
}

DecodeAttentionCost decode_attention_cost(Index m, Index d, Index window) {
    require_sizes(m, d);
    require_argument(window >= 0, "window", "window must be at least 0 (0: no window), got " + std::to_string(window));
    if (window == 0 || window >= m) return decode_attention_cost(m, d);
    const double M = double(m), W = double(window), D = double(d);
    return {2 * W * D, window_rows(M, W, D)};
}

static void require_generation(Index d, const GenerationOptions& o) {
    require_argument(o.heads >= 1 && d % o.heads == 0, "heads",
                     "heads (" + std::to_string(o.heads) + ") must be at least 1 and divide d (" + std::to_string(d) + ")");
    require_argument(o.kv_heads >= 0 && (o.kv_heads == 0 || o.heads % o.kv_heads == 0), "kv_heads",
                     "kv_heads (" + std::to_string(o.kv_heads) + ") must be at least 1 and divide heads (" +
                         std::to_string(o.heads) + ")");
}

GenerationCost generation_cost(Index n, Index d, const GenerationOptions& o) {
    const DecodeAttentionCost last = decode_attention_cost(n, d, o.window);  // checks n, d and the window
    require_generation(d, o);
    const double N = double(n), D = double(d);
    const double K = o.window == 0 ? N : std::min(N, double(o.window));  // the tokens the cache keeps
    double total_cached = N * (N + 1) * D, total_uncached = N * (N + 1) * (N + 2) * D / 3;
    if (K < N) {  // a window shorter than the text: rows 1..w grow, then every row meets w keys
        total_cached = window_rows(N, K, D);
        total_uncached = K * (K + 1) * (K + 2) * D / 3 + (N - K) * K * (K + 1) * D + (N - K) * (N - K + 1) * K * D;
    }
    const Index kv_heads = o.kv_heads == 0 ? o.heads : o.kv_heads;
    const double width = D * double(kv_heads) / double(o.heads);  // exact: heads divides d
    const double cache = 2 * K * width;
    return {last.cached, last.uncached, total_cached, total_uncached, cache, K, width, cache / (2 * N * D)};
}

double kv_cache_bytes(Index layers, Index kv_heads, Index head_dim, Index tokens, Index bytes_per_number) {
    const std::pair<Index, const char*> args[] = {{layers, "layers"},
                                                  {kv_heads, "kv_heads"},
                                                  {head_dim, "head_dim"},
                                                  {tokens, "tokens"},
                                                  {bytes_per_number, "bytes_per_number"}};
    double bytes = 2;  // a key and a value
    for (const auto& [value, name] : args) {
        require_argument(value >= 1, name, std::string(name) + " must be at least 1, got " + std::to_string(value));
        bytes *= double(value);
    }
    require(bytes <= 9007199254740992.0, "the cache would be " + number(bytes) + " bytes, beyond 2^53: not exact");
    return bytes;
}

ProjectionParameters attention_projection_parameters(Index layers, Index heads, Index kv_heads, Index head_dim,
                                                     Index d_model) {
    const std::pair<Index, const char*> args[] = {{layers, "layers"}, {heads, "heads"}, {kv_heads, "kv_heads"},
                                                  {head_dim, "head_dim"}};
    for (const auto& [value, name] : args)
        require_argument(value >= 1, name, std::string(name) + " must be at least 1, got " + std::to_string(value));
    require_argument(d_model >= 0, "d_model", "d_model must be at least 0 (0: heads times the head width), got " + std::to_string(d_model));
    require_argument(heads % kv_heads == 0, "kv_heads",
                     "kv_heads (" + std::to_string(kv_heads) + ") must divide heads (" + std::to_string(heads) + ")");
    const double q_width = double(heads) * double(head_dim), kv_width = double(kv_heads) * double(head_dim);
    const double d = d_model == 0 ? q_width : double(d_model);
    ProjectionParameters p{d * q_width, d * kv_width, d * kv_width, q_width * d, 0, 0};
    p.per_layer = p.wq + p.wk + p.wv + p.wo;
    p.total = double(layers) * p.per_layer;
    require(p.total <= 9007199254740992.0, "the projections would hold " + number(p.total) + " parameters, beyond 2^53: not exact");
    return p;
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
