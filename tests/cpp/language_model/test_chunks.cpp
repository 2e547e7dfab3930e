// A step in chunks (model.hpp, "a step in chunks"): the chunks computed by
// copies of the model, as the JS API's workers do, give step()'s losses and
// parameters bit for bit whatever the number of copies; the chunks' gradients
// add up to the whole batch's; bad chunks, counts and sizes are refused.
#include "train_helpers.hpp"

#include <memory>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

LanguageModelOptions chunked_options() {
    LanguageModelOptions o = small_lm_options({"abcab", "bcabc", "cabca", "ab", "abcabcabc", "cab", "bca"}, {"abca"});
    o.batch = 11;  // 8 chunks of 1 or 2 sequences
    o.warmup = 2;
    o.clip = 0.5;  // the summed gradient is clipped once
    return o;
}

// one step of `main` from chunks computed by `workers` copies, chunk c by copy c % workers
LmStep step_by_copies(LanguageModel& main, std::vector<std::unique_ptr<LanguageModel>>& copies) {
    const Index total = main.parameters().total(), chunks = main.chunks();
    std::vector<std::vector<float>> gradients(static_cast<size_t>(chunks), std::vector<float>(static_cast<size_t>(total)));
    std::vector<double> losses(static_cast<size_t>(chunks));
    for (size_t w = 0; w < copies.size(); ++w) {
        LanguageModel& copy = *copies[w];
        copy.set_values(main.values(), total);
        copy.set_batch_state(main.batch_state());
        std::vector<Index> mine;
        for (Index c = Index(w); c < chunks; c += Index(copies.size())) mine.push_back(c);
        std::vector<float> out(mine.size() * size_t(total));
        const std::vector<double> sums = copy.chunk_gradients(mine, out.data());
        for (size_t k = 0; k < mine.size(); ++k) {
            std::copy(out.begin() + std::ptrdiff_t(k) * total, out.begin() + std::ptrdiff_t(k + 1) * total,
                      gradients[size_t(mine[k])].begin());
            losses[size_t(mine[k])] = sums[k];
        }
    }
    std::vector<const float*> pointers;
    for (const std::vector<float>& g : gradients) pointers.push_back(g.data());
    return main.apply_chunks(pointers, losses);
}

std::vector<float> values_of(const LanguageModel& model) {
    return std::vector<float>(model.values(), model.values() + model.parameters().total());
}

}  // namespace

TEST_CASE("step in chunks: 1, 2, 3 and 8 copies computing the chunks give step()'s losses and parameters, bit for bit") {
    const LanguageModelOptions o = chunked_options();
    LanguageModel alone(o);
    CHECK(alone.chunks() == 8);
    std::vector<double> expected;
    alone.step(2);  // the copies start from a model that has already stepped
    alone.step(6, &expected);
    for (size_t workers : {size_t(1), size_t(2), size_t(3), size_t(8)}) {
        LanguageModel main(o);
        main.step(2);
        std::vector<std::unique_ptr<LanguageModel>> copies;
        for (size_t w = 0; w < workers; ++w) copies.push_back(std::make_unique<LanguageModel>(o));
        std::vector<double> losses;
        for (int s = 0; s < 6; ++s) losses.push_back(step_by_copies(main, copies).loss);
        CAPTURE(workers);
        CHECK(losses == expected);
        CHECK(values_of(main) == values_of(alone));
        CHECK(main.steps() == alone.steps());
        // and it goes on as one model: its next step alone is alone's
        std::vector<double> next, next_alone;
        LanguageModel again(o);
        again.step(8);
        again.step(1, &next_alone);
        main.step(1, &next);
        CHECK(next == next_alone);
    }
}

TEST_CASE("step in chunks: the chunks' gradients add up to the whole batch's (compute_gradients), to rounding") {
    LanguageModelOptions o = chunked_options();
    o.batch = 5;  // 5 chunks of one sequence
    LanguageModel model(o);
    model.step(3);
    LanguageModel whole(o);
    whole.step(3);
    std::vector<std::int32_t> tokens, targets;
    whole.peek_batch(tokens, targets);  // the batch chunk_gradients draws, padded to context
    const double loss = whole.compute_gradients(whole.batch(), tokens.data(), targets.data());
    const Index total = model.parameters().total();
    std::vector<float> out(size_t(5 * total));
    const std::vector<double> sums = model.chunk_gradients({0, 1, 2, 3, 4}, out.data());
    double loss_sum = 0, targets_count = 0;
    for (double s : sums) loss_sum += s;
    for (std::int32_t t : targets) targets_count += t >= 0;
    CHECK(loss_sum / targets_count == doctest::Approx(loss).epsilon(1e-6));
    double worst = 0;
    for (Index i = 0; i < total; ++i) {
        double sum = 0;
        for (Index c = 0; c < 5; ++c) sum += out[size_t(c * total + i)];
        const double g = whole.parameters().grad(0)[i];  // tensor 0 starts the buffer
        worst = std::max(worst, std::abs(sum - g) / (1e-3 + std::abs(g)));
    }
    CHECK(worst < 1e-4);
}

TEST_CASE("step in chunks: a chunk out of range, a missing chunk, values of another size are refused; nothing moves") {
    const LanguageModelOptions o = chunked_options();
    LanguageModel model(o);
    const Index total = model.parameters().total();
    std::vector<float> out(static_cast<size_t>(total));
    CHECK_THROWS_WITH(model.chunk_gradients({8}, out.data()), "a chunk must be from 0 to 7, got 8");
    CHECK_THROWS_WITH(model.chunk_gradients({-1}, out.data()), "a chunk must be from 0 to 7, got -1");
    const std::vector<float> before = values_of(model);
    const std::uint64_t state = model.batch_state();
    std::vector<const float*> seven(7, out.data());
    CHECK_THROWS_WITH(model.apply_chunks(seven, std::vector<double>(7, 1.0)),
                      "a step needs the gradients and loss sums of all 8 chunks, got 7 and 7");
    CHECK(values_of(model) == before);
    CHECK(model.batch_state() == state);
    CHECK(model.steps() == 0);
    CHECK_THROWS_WITH(model.set_values(out.data(), total - 1),
                      ("values must hold every parameter: " + std::to_string(total) + " numbers, got " +
                       std::to_string(total - 1)).c_str());
}
