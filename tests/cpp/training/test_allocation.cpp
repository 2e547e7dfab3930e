// A trainer's step allocates nothing: every buffer comes from its
// constructor. Counted with allocations.hpp.
#include "allocations.hpp"
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::train;
using attn::test::allocations;

TEST_CASE("trainer: a step allocates nothing (counted allocations)") {
    for (bool residual : {false, true}) {
        TrainerOptions o;
        o.heads = residual ? 2 : 1;
        o.residual = residual;
        Trainer t(o);
        t.step(1);
        const long before = allocations();
        t.step(20);
        const long after = allocations();
        CHECK(after == before);
        // the counter counts: constructing a trainer allocates
        Trainer u(o);
        CHECK(allocations() > after);
    }
    NwTrainer nw(NwOptions{});
    nw.step(1);
    const long before = allocations();
    nw.step(5);
    CHECK(allocations() == before);
}

TEST_CASE("language model: a step allocates nothing (counted allocations)") {
    // one text longer than context + 1: windows
    LanguageModel lm(test::small_lm_options({"abcab", "bcabcabcabca", "ab", "cabcabc"}, {"abc"}));
    std::vector<double> losses;
    lm.step(1, &losses);
    lm.step(20, &losses);  // the losses buffer grows once, here
    const long before = allocations();
    lm.step(20, &losses);
    lm.step(5);
    CHECK(allocations() == before);
}
