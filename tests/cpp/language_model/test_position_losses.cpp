// The loss of every next token along one text (analysis.hpp, position_losses):
// through the cache and by the full forward, against a plain log-softmax of
// the full forward's logits in double and against evaluate_texts; a windowed
// reading equal to the full one until its first eviction; slot positions; the
// limits and bad options refused with the argument named.
#include "train_helpers.hpp"

#include <cmath>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

// heads 4 of width 2, context 6, on the letters a b c; trained 8 steps
LanguageModelOptions options(const char* position, double window, double sinks) {
    LanguageModelOptions o = small_lm_options({"abcab", "bcabc", "cabca", "ab", "abcabcabc", "cbacba"}, {"abca", "cab"});
    o.heads = 4;
    o.d_model = 8;
    o.position = position;
    o.window = window;
    o.sinks = sinks;
    return o;
}

// the plain reference: -log softmax of the full forward's logits in double, row by row
std::vector<double> reference_losses(LanguageModel& model, const std::string& text) {
    std::vector<std::int32_t> seq(1, 0);
    for (std::int32_t t : model.encode(text, "text")) seq.push_back(t);
    const Mat logits = model.logits(seq, false);
    seq.push_back(0);
    std::vector<double> out;
    for (Index i = 0; i < logits.rows(); ++i) {
        double sum = 0;
        for (Index c = 0; c < logits.cols(); ++c) sum += std::exp(double(logits(i, c)));
        out.push_back(std::log(sum) - double(logits(i, seq[size_t(i + 1)])));
    }
    return out;
}

// the texts' parameters set into a model of other options (a window, sinks)
void copy_parameters(const LanguageModel& from, LanguageModel& to) {
    std::vector<std::string> names;
    std::vector<Mat> values;
    for (Index i = 0; i < from.parameters().count(); ++i)
        names.push_back(from.parameters().tensor(i).name), values.push_back(from.parameters().get(i));
    to.set_parameters(names, values);
}

std::string letters(Index n) {
    std::string s;
    for (Index i = 0; i < n; ++i) s += "abcbca"[i % 6];
    return s;
}

}  // namespace

TEST_CASE("position losses: through the cache, the full forward's, a plain log-softmax's and evaluate's") {
    for (const char* position : {"learned", "rotary", "alibi"}) {
        CAPTURE(position);
        LanguageModel model(options(position, 0, 0));
        model.step(8);
        const std::string text = "abca";  // 5 positions read, within the context of 6
        const PositionLosses cached = position_losses(model, text, {});
        const PositionLosses full = position_losses(model, text, {false, "absolute"});
        REQUIRE(cached.losses.size() == 5);
        CHECK(cached.tokens == std::vector<std::string>{"⏎", "a", "b", "c", "a", "⏎"});
        CHECK(cached.losses == full.losses);
        const std::vector<double> plain = reference_losses(model, text);
        double sum = 0;
        for (size_t i = 0; i < plain.size(); ++i) {
            CHECK(cached.losses[i] == doctest::Approx(plain[i]).epsilon(1e-6));
            CHECK(cached.losses[i] > 0);
            sum += cached.losses[i];
        }
        CHECK(cached.mean == sum / 5);
        CHECK(cached.mean == doctest::Approx(model.evaluate_texts({text}, 5).loss).epsilon(1e-12));
    }
}

TEST_CASE("position losses: a window read through its ring equals its full forward, and the full model's until it evicts") {
    for (const char* position : {"rotary", "alibi"}) {
        CAPTURE(position);
        LanguageModel full(options(position, 0, 0));
        full.step(8);
        LanguageModel windowed(options(position, 3, 1));
        copy_parameters(full, windowed);
        const std::string text = letters(20);  // 21 positions, past 3 contexts
        const PositionLosses ring = position_losses(windowed, text, {});
        CHECK(ring.losses == position_losses(windowed, text, {false, "absolute"}).losses);
        CHECK(ring.mean == doctest::Approx(windowed.evaluate_texts({text}, 21).loss).epsilon(1e-12));
        // positions 0..3 see every key (the sink and a window of 3): the full model's losses, bit for bit
        const PositionLosses all = position_losses(full, text, {false, "absolute"});
        for (size_t i = 0; i < 4; ++i) CHECK(ring.losses[i] == all.losses[i]);
        bool differs = false;
        for (size_t i = 4; i < 21; ++i) differs = differs || ring.losses[i] != all.losses[i];
        CHECK(differs);
        // a text far past 4 contexts through the ring: every loss finite and positive
        const PositionLosses longer = position_losses(windowed, letters(300), {});
        CHECK(longer.losses.size() == 301);
        for (double l : longer.losses) CHECK((std::isfinite(l) && l > 0));
    }
}

TEST_CASE("position losses: slot positions move only the sinks' distance under rotary") {
    LanguageModel full(options("rotary", 0, 0));
    full.step(8);
    const std::string text = letters(20);
    for (double sinks : {0.0, 1.0}) {
        CAPTURE(sinks);
        LanguageModel windowed(options("rotary", 3, sinks));
        copy_parameters(full, windowed);
        const PositionLosses absolute = position_losses(windowed, text, {}), slot = position_losses(windowed, text, {true, "slot"});
        const size_t fits = size_t(3 + sinks);  // positions read before the first eviction: ranks are positions
        for (size_t i = 0; i < fits; ++i) CHECK(slot.losses[i] == absolute.losses[i]);
        double most = 0;
        for (size_t i = fits; i < absolute.losses.size(); ++i) most = std::max(most, std::abs(slot.losses[i] - absolute.losses[i]));
        // no sink: the window's keys keep their distances to the query (rotary is relative); a sink's changes
        if (sinks == 0) CHECK(most < 1e-4);
        if (sinks == 1) CHECK(most > 1e-3);
    }
}

TEST_CASE("position losses: the lengths each reading takes, and bad options, refused with the argument named") {
    LanguageModel rotary(options("rotary", 0, 0)), learned(options("learned", 2, 0));
    CHECK(error_of([&] { position_losses(rotary, "abcabc", {}); }) ==
          "text has 6 characters; with the boundary token at most 5 fit: context = 6 (a cache without a window keeps "
          "at most context positions)");
    CHECK(position_losses(rotary, letters(23), {false, "absolute"}).losses.size() == 24);
    CHECK(error_of([&] { position_losses(rotary, letters(24), {false, "absolute"}); }) ==
          "text has 24 characters; with the boundary token at most 23 fit: the full forward reads up to 4 context = 24");
    CHECK(error_of([&] { position_losses(learned, "abcabc", {}); }) ==
          "text has 6 characters; with the boundary token at most 5 fit: context = 6 (learned positions end there)");
    CHECK(error_of([&] { position_losses(rotary, "ab", {true, "ring"}); }) ==
          "cache_positions must be \"absolute\" or \"slot\", got \"ring\"");
    CHECK(error_of([&] { position_losses(learned, "ab", {true, "slot"}); }) ==
          "cache_positions \"slot\" renumbers the cached keys when they are read: it needs cached reading and rotary "
          "or alibi positions, not learned");
    CHECK(error_of([&] { position_losses(rotary, "ab", {false, "slot"}); }) ==
          "cache_positions \"slot\" renumbers the cached keys when they are read: it needs cached reading and rotary "
          "or alibi positions, not the full forward");
    CHECK(error_of([&] { position_losses(rotary, "abz", {}); }) ==
          "text has the character \"z\" (U+007A) that is not in the vocabulary (the model has no unknown token)");
    CHECK(position_losses(rotary, "", {}).losses.size() == 1);  // ⏎ predicts ⏎
}
