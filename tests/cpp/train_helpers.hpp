// Helpers of the training tests: seeded random shapes and tensors in float and
// double, and comparison of a float result with a double reference.
#pragma once

#include "helpers.hpp"

#include <string>
#include <utility>
#include <vector>

namespace attn::test {

using train::GenerateOptions;
using train::LanguageModelOptions;
using train::MatD;
using train::TokenIds;

// entries uniform on [-limit, limit], the same in float and double
inline MatD random_double(Index rows, Index cols, std::uint64_t seed, double limit = 1) {
    return (init_uniform(rows, cols, seed, stream::input, Scalar(limit))).cast<double>();
}
inline Mat to_float(const MatD& m) { return m.cast<float>(); }

inline TokenIds random_tokens(Index count, Index vocab, std::uint64_t seed) {
    Rng rng(seed, 7);
    TokenIds t(size_t(count), 0);
    for (auto& x : t) x = std::int32_t(rng.next() % std::uint64_t(vocab));
    return t;
}

// a small language model of these texts: 2 layers, 2 heads, d_model 8, context 6, batch 3
inline LanguageModelOptions small_lm_options(std::vector<std::string> texts, std::vector<std::string> held_out) {
    LanguageModelOptions o;
    o.texts = std::move(texts);
    o.held_out = std::move(held_out);
    o.layers = 2;
    o.heads = 2;
    o.d_model = 8;
    o.context = 6;
    o.batch = 3;
    return o;
}

// generation from prompt, drawn with this seed and temperature (the other options the core's defaults)
inline GenerateOptions sampled_from(std::string prompt, double seed, double temperature, double max_tokens = 100) {
    GenerateOptions g;
    g.prompt = std::move(prompt);
    g.seed = seed;
    g.temperature = temperature;
    g.max_tokens = max_tokens;
    return g;
}

// largest |a - b| / (1 + |b|), a float result against a double reference
inline double max_error(const MatRef& a, const MatD& b) { return max_rel_error_of(a, b); }

// The float forward, loss and gradients of the model's next batch against the
// double reference's (lm_reference); returns the batch's tokens.
inline std::vector<std::int32_t> check_gradients_against_reference(train::LanguageModel& model) {
    std::vector<std::int32_t> tokens, targets;
    model.peek_batch(tokens, targets);
    const Index sequences = Index(tokens.size()) / model.context();
    const double loss = model.compute_gradients(sequences, tokens.data(), targets.data());
    train::ParamsD grads;
    const train::LmReference ref = train::lm_reference(model.config(), model.parameters_double(), tokens, targets, &grads);
    CHECK(std::abs(loss - ref.loss) < 1e-5 * (1 + ref.loss));
    const std::vector<std::string> names = train::lm_tensor_names(model.config().layers);
    for (Index i = 0; i < model.parameters().count(); ++i) {
        CAPTURE(names[size_t(i)]);
        CHECK(max_error(model.parameters().get_grad(i), grads[size_t(i)]) < 2e-5);
    }
    return tokens;
}

}  // namespace attn::test
