// Sampling the next token: temperature, top-k, top-p, min-p, one draw
// (sampling.hpp), and the plain reference the doctest compares it with.
#include "attention/language_model/sampling.hpp"

#include "attention/options.hpp"
#include "attention/training/products.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::train {

SamplingOptions sampling_options(double temperature, double top_k, double top_p, double min_p) {
    SamplingOptions o;
    require(std::isfinite(temperature) && temperature >= 0,
            "temperature must be a finite number >= 0, got " + number(temperature));
    o.temperature = temperature;
    o.top_k = integer_option(top_k, "top_k", 0, 1e9);
    require_argument(std::isfinite(top_p) && top_p > 0 && top_p <= 1, "top_p",
                     "top_p must be a number greater than 0 and at most 1 (1: no nucleus filter), got " + number(top_p));
    o.top_p = top_p;
    require_argument(std::isfinite(min_p) && min_p >= 0 && min_p <= 1, "min_p",
                     "min_p must be a number from 0 to 1 (0: no minimum), got " + number(min_p));
    o.min_p = min_p;
    return o;
}

Index sampling_filter(const float* x, Index vocab, const SamplingOptions& o, std::int32_t* order, float* p) {
    // pass 1: the top k by logit (ties: the lower id), most likely first
    const Index k = o.top_k == 0 ? vocab : std::min(o.top_k, vocab);
    std::iota(order, order + vocab, std::int32_t(0));
    std::partial_sort(order, order + k, order + vocab, [x](std::int32_t a, std::int32_t b) {
        return x[a] > x[b] || (x[a] == x[b] && a < b);
    });
    if (o.temperature == 0) {  // the most likely token, certain
        p[0] = 1;
        return 1;
    }
    // pass 2: softmax(logits / T) over the k; sorted logits give non-increasing probabilities
    const float inv = float(1.0 / o.temperature);
    for (Index i = 0; i < k; ++i) p[i] = x[order[i]] * inv;
    softmax_row(p, k);
    Index n = k;
    while (n > 1 && !(p[n - 1] > 0)) --n;  // probability 0: never drawn
    const Index positive = n;
    // pass 3: top-p, the fewest most likely reaching top_p (1: all; the float sum could stop short of 1)
    if (o.top_p < 1) {
        double cumulative = 0;
        Index m = 0;
        while (m < n && cumulative < o.top_p) cumulative += double(p[m++]);
        n = m;
    }
    // pass 4: min-p, at least min_p times the most likely (a prefix: p is sorted)
    if (o.min_p > 0) {
        const double floor = o.min_p * double(p[0]);
        while (n > 1 && double(p[n - 1]) < floor) --n;
    }
    // pass 5: renormalise what a filter cut (nothing cut: the probabilities as they are)
    if (n < positive) {
        double sum = 0;
        for (Index i = 0; i < n; ++i) sum += double(p[i]);
        for (Index i = 0; i < n; ++i) p[i] = float(double(p[i]) / sum);
    }
    return n;
}

std::int32_t sampling_draw(const std::int32_t* order, const float* p, Index count, float u) {
    std::int32_t next = order[0];
    float cumulative = 0;
    for (Index i = 0; i < count; ++i) {
        next = order[i];
        cumulative += p[i];
        if (u < cumulative) break;
    }
    return next;
}

// ---- the plain reference -----------------------------------------------------

KeptTokens sampling_reference(const std::vector<float>& logits, const SamplingOptions& o) {
    const Index vocab = Index(logits.size());
    std::vector<std::int32_t> ids(size_t(vocab), 0);
    for (Index i = 0; i < vocab; ++i) ids[size_t(i)] = std::int32_t(i);
    std::sort(ids.begin(), ids.end(), [&](std::int32_t a, std::int32_t b) {
        return logits[size_t(a)] > logits[size_t(b)] || (logits[size_t(a)] == logits[size_t(b)] && a < b);
    });
    KeptTokens out;
    if (o.temperature == 0) {
        out.tokens = {ids[0]};
        out.probabilities = {1.0};
        return out;
    }
    const Index k = o.top_k == 0 ? vocab : std::min(o.top_k, vocab);
    // softmax of the top k in double
    const double top = double(logits[size_t(ids[0])]) / o.temperature;
    std::vector<double> w;
    double total = 0;
    for (Index i = 0; i < k; ++i) {
        w.push_back(std::exp(double(logits[size_t(ids[size_t(i)])]) / o.temperature - top));
        total += w.back();
    }
    for (double& x : w) x /= total;
    // the filters, one token at a time
    double before = 0;
    for (Index i = 0; i < k; ++i) {
        const double q = w[size_t(i)];
        const bool nucleus = o.top_p >= 1 || before < o.top_p;
        const bool above = q >= o.min_p * w[0];
        before += q;
        if (q > 0 && (i == 0 || (nucleus && above))) {
            out.tokens.push_back(ids[size_t(i)]);
            out.probabilities.push_back(q);
        }
    }
    double kept = 0;
    for (double q : out.probabilities) kept += q;
    for (double& q : out.probabilities) q /= kept;
    return out;
}

std::int32_t sampling_draw_reference(const KeptTokens& kept, double u) {
    double cumulative = 0;
    for (size_t i = 0; i < kept.tokens.size(); ++i) {
        cumulative += kept.probabilities[i];
        if (u < cumulative) return kept.tokens[i];
    }
    return kept.tokens.back();
}

}  // namespace attn::train
