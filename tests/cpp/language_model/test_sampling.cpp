// Sampling the next token (sampling.hpp): the filters (top-k, top-p, min-p)
// and the draw against the plain double reference on random logits; a case
// worked by hand; top_p = 1 and min_p = 0 keep top-k's probabilities bit for
// bit; every bad option named; and through the language model, the kept set
// beside each sampled token, generate()'s text, and the same text for a seed.
#include "train_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

struct FilteredTokens {
    std::vector<std::int32_t> order;
    std::vector<float> p;
    Index count;
};
FilteredTokens run_filter(const std::vector<float>& logits, const SamplingOptions& o) {
    FilteredTokens f{std::vector<std::int32_t>(logits.size()), std::vector<float>(logits.size()), 0};
    f.count = sampling_filter(logits.data(), Index(logits.size()), o, f.order.data(), f.p.data());
    return f;
}

SamplingOptions sampling_of(double temperature, Index top_k, double top_p, double min_p) {
    SamplingOptions o;
    o.temperature = temperature;
    o.top_k = top_k;
    o.top_p = top_p;
    o.min_p = min_p;
    return o;
}

// the reference's cut lies within eps of a top-p or min-p threshold: float and
// double may then decide it differently, and either is right
bool near_a_cut(const std::vector<float>& logits, const SamplingOptions& o, double eps) {
    SamplingOptions open = o;
    open.top_p = 1;
    open.min_p = 0;
    const KeptTokens all = sampling_reference(logits, open);
    double before = 0;
    for (size_t i = 0; i < all.probabilities.size(); ++i) {
        const double q = all.probabilities[i];
        if (o.top_p < 1 && std::abs(before - o.top_p) < eps) return true;
        if (i > 0 && o.min_p > 0 && std::abs(q - o.min_p * all.probabilities[0]) < eps) return true;  // the first is always kept
        before += q;
    }
    return false;
}

}  // namespace

TEST_CASE("sampling: the filters and the draw against the plain reference on random logits") {
    Rng rng(5, 1);
    const double temperatures[] = {0.3, 0.8, 1, 1.7};
    const Index top_ks[] = {0, 1, 3, 10, 100};
    const double top_ps[] = {0.05, 0.3, 0.9, 1};
    const double min_ps[] = {0, 0.05, 0.2, 1};
    int compared = 0, near = 0, draws = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const Index vocab = 1 + Index(rng.next() % 60);
        std::vector<float> logits(static_cast<size_t>(vocab), 0.0f);
        for (float& x : logits) x = float(12 * rng.uniform() - 6);
        if (vocab > 2 && trial % 3 == 0) logits[1] = -std::numeric_limits<float>::infinity();  // a banned token
        const SamplingOptions o = sampling_of(temperatures[rng.next() % 4], top_ks[rng.next() % 5], top_ps[rng.next() % 4],
                                          min_ps[rng.next() % 4]);
        const KeptTokens want = sampling_reference(logits, o);
        if (near_a_cut(logits, o, 1e-5)) {
            ++near;
            continue;
        }
        const FilteredTokens got = run_filter(logits, o);
        REQUIRE(got.count == Index(want.tokens.size()));
        double sum = 0;
        for (Index i = 0; i < got.count; ++i) {
            CHECK(got.order[size_t(i)] == want.tokens[size_t(i)]);
            CHECK(double(got.p[size_t(i)]) == doctest::Approx(want.probabilities[size_t(i)]).epsilon(1e-5));
            CHECK(got.p[size_t(i)] > 0);
            sum += double(got.p[size_t(i)]);
        }
        CHECK(sum == doctest::Approx(1).epsilon(1e-5));
        ++compared;
        // draws: the same token wherever u is not within rounding of a boundary
        for (int d = 0; d < 5; ++d) {
            const float u = float(rng.uniform());
            double cumulative = 0;
            bool edge = false;
            for (double q : want.probabilities) {
                cumulative += q;
                edge = edge || std::abs(cumulative - double(u)) < 1e-5;
            }
            if (edge) continue;
            CHECK(sampling_draw(got.order.data(), got.p.data(), got.count, u) == sampling_draw_reference(want, u));
            ++draws;
        }
    }
    CHECK(compared > 1900);  // the cuts near a threshold are few
    CHECK(draws > 9000);
    MESSAGE(compared << " logit vectors compared, " << near << " near a cut skipped, " << draws << " draws");
}

TEST_CASE("sampling: a case by hand, p = 0.5, 0.3, 0.15, 0.05") {
    const std::vector<float> logits = {float(std::log(0.15)), float(std::log(0.5)), float(std::log(0.05)),
                                       float(std::log(0.3))};
    auto kept = [&](Index top_k, double top_p, double min_p) {
        const FilteredTokens f = run_filter(logits, sampling_of(1, top_k, top_p, min_p));
        std::vector<std::pair<std::int32_t, double>> out;
        for (Index i = 0; i < f.count; ++i) out.emplace_back(f.order[size_t(i)], double(f.p[size_t(i)]));
        return out;
    };
    // top-p 0.7: 0.5 falls short, 0.5 + 0.3 reaches it: tokens 1 and 3, as 0.625 and 0.375
    auto a = kept(0, 0.7, 0);
    REQUIRE(a.size() == 2);
    CHECK(a[0].first == 1);
    CHECK(a[1].first == 3);
    CHECK(a[0].second == doctest::Approx(0.625).epsilon(1e-6));
    CHECK(a[1].second == doctest::Approx(0.375).epsilon(1e-6));
    // top-p 0.4: the first alone reaches it
    CHECK(kept(0, 0.4, 0).size() == 1);
    // min-p 0.2: at least 0.1, three tokens, 0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95
    auto b = kept(0, 1, 0.2);
    REQUIRE(b.size() == 3);
    CHECK(b[2].first == 0);
    CHECK(b[0].second == doctest::Approx(0.5 / 0.95).epsilon(1e-6));
    CHECK(b[2].second == doctest::Approx(0.15 / 0.95).epsilon(1e-6));
    // top-k 3 first (0.526, 0.316, 0.158), then top-p 0.8: 0.526 + 0.316 = 0.842 reaches it, two tokens
    CHECK(kept(3, 0.8, 0).size() == 2);
    // min-p 1: only the most likely
    CHECK(kept(0, 1, 1).size() == 1);
    // temperature 0: the most likely, certain
    const FilteredTokens cold = run_filter(logits, sampling_of(0, 0, 0.3, 0.5));
    CHECK(cold.count == 1);
    CHECK(cold.order[0] == 1);
    CHECK(cold.p[0] == 1);
}

TEST_CASE("sampling: top_p = 1 and min_p = 0 keep top-k's probabilities bit for bit") {
    Rng rng(8, 1);
    for (int trial = 0; trial < 300; ++trial) {
        const Index vocab = 2 + Index(rng.next() % 40), top_k = Index(rng.next() % 12);
        std::vector<float> logits(static_cast<size_t>(vocab), 0.0f);
        for (float& x : logits) x = float(10 * rng.uniform() - 5);
        const FilteredTokens f = run_filter(logits, sampling_of(0.9, top_k, 1, 0));
        // softmax over the top k alone, as sampling did before the two filters
        const Index k = top_k == 0 ? vocab : std::min(top_k, vocab);
        std::vector<float> p(static_cast<size_t>(k), 0.0f);
        for (Index i = 0; i < k; ++i) p[size_t(i)] = logits[size_t(f.order[size_t(i)])] * float(1.0 / 0.9);
        softmax_row(p.data(), k);
        Index positive = k;
        while (positive > 1 && !(p[size_t(positive - 1)] > 0)) --positive;
        REQUIRE(f.count == positive);
        for (Index i = 0; i < f.count; ++i) CHECK(f.p[size_t(i)] == p[size_t(i)]);
    }
}

TEST_CASE("sampling: every bad option is named") {
    CHECK(error_of([] { sampling_options(0.8, 20, 0, 0); }) ==
          "top_p must be a number greater than 0 and at most 1 (1: no nucleus filter), got 0");
    CHECK(contains(error_of([] { sampling_options(0.8, 20, 1.5, 0); }), "top_p must be a number greater than 0 and at most 1"));
    CHECK(contains(error_of([] { sampling_options(0.8, 20, std::nan(""), 0); }), "got NaN"));
    CHECK(error_of([] { sampling_options(0.8, 20, 1, -0.1); }) == "min_p must be a number from 0 to 1 (0: no minimum), got -0.1");
    CHECK(contains(error_of([] { sampling_options(0.8, 20, 1, 2); }), "min_p must be a number from 0 to 1"));
    CHECK(contains(error_of([] { sampling_options(-1, 20, 1, 0); }), "temperature must be a finite number >= 0"));
    CHECK(contains(error_of([] { sampling_options(1, 1.5, 1, 0); }), "top_k must be an integer"));
}

TEST_CASE("sampling in the language model: each token drawn from the kept set, generate()'s text, one text per seed") {
    LanguageModelOptions lo = small_lm_options({"abcab", "bcabc", "cabca", "ab", "abcabcabc", "cab", "bca"}, {"abca"});
    lo.context = 8;
    LanguageModel model(lo);
    model.step(20);
    GenerateOptions g = sampled_from("a", 3, 1.3);
    g.top_k = 0;
    g.top_p = 0.8;
    g.min_p = 0.1;
    const std::string whole = model.generate(g);
    CHECK(model.generate(g) == whole);
    std::vector<DecodeStep> steps = model.begin_generation(g);
    CHECK(steps[0].kept.tokens.empty());  // ⏎: the prompt's next token is read, not sampled
    std::string text = g.prompt;
    while (!steps.back().done) {
        text += steps.back().next;
        steps.push_back(model.next_token());
    }
    CHECK(text == whole);
    for (size_t k = 1; k < steps.size(); ++k) {
        const NextTokens& kept = steps[k].kept;
        REQUIRE(!kept.tokens.empty());
        double sum = 0;
        for (size_t i = 0; i < kept.tokens.size(); ++i) {
            sum += double(kept.probabilities[i]);
            CHECK(kept.probabilities[i] >= 0.1f * kept.probabilities[0]);  // min-p
            if (i > 0) CHECK(kept.probabilities[i] <= kept.probabilities[i - 1]);
        }
        CHECK(sum == doctest::Approx(1).epsilon(1e-5));
        const bool boundary = steps[k].done && steps[k].next.empty();
        if (!boundary) CHECK(std::find(kept.tokens.begin(), kept.tokens.end(), steps[k].next) != kept.tokens.end());
    }
    // the kept set of a step is the reference's on the model's logits at that position
    const std::vector<std::int32_t> read = {0, 1};  // ⏎ a: the vocabulary is ⏎ a b c
    const Mat logits = model.logits(read, false);
    std::vector<float> last(static_cast<size_t>(logits.cols()), 0.0f);
    for (Index j = 0; j < logits.cols(); ++j) last[size_t(j)] = logits(1, j);
    const KeptTokens want = sampling_reference(last, sampling_options(1.3, 0, 0.8, 0.1));
    std::vector<DecodeStep> again = model.begin_generation(g);
    REQUIRE(again.back().kept.tokens.size() == want.tokens.size());
    for (size_t i = 0; i < want.tokens.size(); ++i)
        CHECK(double(again.back().kept.probabilities[i]) == doctest::Approx(want.probabilities[i]).epsilon(1e-4));
    g.top_p = 0;
    CHECK(contains(error_of([&] { model.generate(g); }), "top_p must be a number greater than 0"));
    g.top_p = 1;
    g.min_p = 1.5;
    CHECK(contains(error_of([&] { model.begin_generation(g); }), "min_p must be a number from 0 to 1"));
}
