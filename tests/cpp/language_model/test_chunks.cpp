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

// one step of `main` from chunks computed by copies, each a run of them (as even as they go);
// with `itself`, main computes the first run and the copies the others (as the JS API's
// threads: this one and threads - 1 workers)
LmStep step_by_copies(LanguageModel& main, std::vector<std::unique_ptr<LanguageModel>>& copies, bool itself = false) {
    const Index total = main.parameters().total(), chunks = main.chunks();
    const Index count = Index(copies.size()) + (itself ? 1 : 0);
    const auto run = [&](Index w) { return std::make_pair((w * chunks + count - 1) / count, ((w + 1) * chunks + count - 1) / count); };
    std::vector<std::vector<float>> outs(static_cast<size_t>(count));
    std::vector<LanguageModel::ChunkSum> nodes;
    for (Index w = 0; w < count; ++w) {
        const auto [first, end] = run(w);
        if (first == end) continue;
        LanguageModel& model = itself && w == 0 ? main : *copies[size_t(w - (itself ? 1 : 0))];
        if (&model != &main) {
            model.set_values(main.values(), total);
            model.set_batch_state(main.batch_state());  // (main's draw, if it drew first, moves nothing here)
        }
        outs[size_t(w)].resize(model.nodes_within(first, end).size() * size_t(total));
        for (const LanguageModel::ChunkSum& node : model.chunk_sums(first, end, outs[size_t(w)].data()))
            nodes.push_back(node);
    }
    return main.apply_chunks(nodes);
}

std::vector<float> values_of(const LanguageModel& model) {
    return std::vector<float>(model.values(), model.values() + model.parameters().total());
}

}  // namespace

TEST_CASE("step in chunks: the tree's nodes inside a run of chunks") {
    LanguageModel model(chunked_options());
    using Nodes = std::vector<std::pair<Index, Index>>;
    CHECK(model.nodes_within(0, 8) == Nodes{{0, 8}});
    CHECK(model.nodes_within(0, 3) == Nodes{{0, 2}, {2, 3}});
    CHECK(model.nodes_within(3, 6) == Nodes{{3, 4}, {4, 6}});
    CHECK(model.nodes_within(6, 8) == Nodes{{6, 8}});
    CHECK(model.nodes_within(1, 7) == Nodes{{1, 2}, {2, 4}, {4, 6}, {6, 7}});
}

TEST_CASE("step in chunks: 1, 2, 3, 5 and 8 copies computing the chunks give step()'s losses and parameters, bit for bit") {
    const LanguageModelOptions o = chunked_options();
    LanguageModel alone(o);
    CHECK(alone.chunks() == 8);
    std::vector<double> expected;
    alone.step(2);  // the copies start from a model that has already stepped
    alone.step(6, &expected);
    for (size_t workers : {size_t(1), size_t(2), size_t(3), size_t(5), size_t(8)}) {
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

TEST_CASE("step in chunks: the model computing the first run itself, with 1, 2 and 4 copies, gives step()'s bits; its batch is drawn once a step") {
    const LanguageModelOptions o = chunked_options();
    LanguageModel alone(o);
    std::vector<double> expected;
    alone.step(1);
    alone.step(5, &expected);
    for (size_t workers : {size_t(1), size_t(2), size_t(4)}) {
        LanguageModel main(o);
        main.step(1);
        std::vector<std::unique_ptr<LanguageModel>> copies;
        for (size_t w = 0; w < workers; ++w) copies.push_back(std::make_unique<LanguageModel>(o));
        std::vector<double> losses;
        for (int s = 0; s < 5; ++s) losses.push_back(step_by_copies(main, copies, true).loss);
        CAPTURE(workers);
        CHECK(losses == expected);
        CHECK(values_of(main) == values_of(alone));
    }
    // a run computed, then the step abandoned (a worker failed): the generator stands where
    // the step began, and step() takes that batch, as a model that never drew it would
    LanguageModel main(o), plain(o);
    main.step(1), plain.step(1);
    const std::uint64_t state = main.batch_state();
    std::vector<float> out(static_cast<size_t>(main.parameters().total()));
    main.chunk_sums(0, 1, out.data());
    CHECK(main.batch_state() == state);
    main.chunk_sums(1, 2, out.data());  // the same step's batch, not a new one
    CHECK(main.batch_state() == state);
    std::vector<double> after, after_plain;
    main.step(2, &after);
    plain.step(2, &after_plain);
    CHECK(after == after_plain);
    CHECK(values_of(main) == values_of(plain));
    CHECK(main.batch_state() == plain.batch_state());
}

TEST_CASE("step in chunks: the chunks' gradients add up to the whole batch's (compute_gradients), to rounding") {
    LanguageModelOptions o = chunked_options();
    o.batch = 5;  // 5 chunks of one sequence
    LanguageModel model(o);
    model.step(3);
    LanguageModel whole(o);
    whole.step(3);
    std::vector<std::int32_t> tokens, targets;
    whole.peek_batch(tokens, targets);  // the batch chunk_sums draws, padded to context
    const double loss = whole.compute_gradients(whole.batch(), tokens.data(), targets.data());
    const Index total = model.parameters().total();
    std::vector<float> out(static_cast<size_t>(total));
    const std::vector<LanguageModel::ChunkSum> root = model.chunk_sums(0, 5, out.data());
    REQUIRE(root.size() == 1);
    double targets_count = 0;
    for (std::int32_t t : targets) targets_count += t >= 0;
    CHECK(root[0].loss / targets_count == doctest::Approx(loss).epsilon(1e-6));
    double worst = 0;
    for (Index i = 0; i < total; ++i) {
        const double g = whole.parameters().grad(0)[i];  // tensor 0 starts the buffer
        worst = std::max(worst, std::abs(double(out[size_t(i)]) - g) / (1e-3 + std::abs(g)));
    }
    CHECK(worst < 1e-4);
}

TEST_CASE("step in chunks: runs out of range, nodes that are none of the tree's or leave a chunk out, values of another size are refused; nothing moves") {
    const LanguageModelOptions o = chunked_options();
    LanguageModel model(o);
    const Index total = model.parameters().total();
    std::vector<float> out(static_cast<size_t>(8 * total));
    CHECK_THROWS_WITH(model.chunk_sums(0, 9, out.data()), "the chunks must be a run from 0 to 8, got 0 .. 9");
    CHECK_THROWS_WITH(model.chunk_sums(3, 3, out.data()), "the chunks must be a run from 0 to 8, got 3 .. 3");
    const std::vector<float> before = values_of(model);
    const std::uint64_t state = model.batch_state();
    const float* g = out.data();
    CHECK_THROWS_WITH(model.apply_chunks({{0, 4, 1.0, g}, {4, 6, 1.0, g}}),
                      "the nodes given must tile the chunks 0 .. 7: chunk 6 is missing");
    CHECK_THROWS_WITH(model.apply_chunks({{0, 4, 1.0, g}, {4, 8, 1.0, g}, {4, 6, 1.0, g}}),
                      "the nodes given must tile the chunks 0 .. 7: chunk 8 is missing or given twice");
    CHECK_THROWS_WITH(model.apply_chunks({{0, 1, 1.0, g}, {1, 3, 1.0, g}, {3, 4, 1.0, g}, {4, 8, 1.0, g}}),
                      "chunks 1 .. 2 are no node of the chunks' tree");
    CHECK(values_of(model) == before);
    CHECK(model.batch_state() == state);
    CHECK(model.steps() == 0);
    CHECK_THROWS_WITH(model.set_values(out.data(), total - 1),
                      ("values must hold every parameter: " + std::to_string(total) + " numbers, got " +
                       std::to_string(total - 1)).c_str());
}
