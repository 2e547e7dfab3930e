// A trainer's step allocates nothing: every buffer comes from its
// constructor. Checked by counting calls of the global operator new, replaced
// here for the whole test binary by a counting wrapper around malloc (every
// non-aligned form, so each allocation is freed by its own kind).
#include "train_helpers.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
void* counted(std::size_t size) {
    ++g_allocations;
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted(size); }
void* operator new[](std::size_t size) { return counted(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    ++g_allocations;
    return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    ++g_allocations;
    return std::malloc(size ? size : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace attn;
using namespace attn::train;

TEST_CASE("trainer: a step allocates nothing (counted operator new)") {
    for (bool residual : {false, true}) {
        TrainerOptions o;
        o.heads = residual ? 2 : 1;
        o.residual = residual;
        Trainer t(o);
        t.step(1);
        const long before = g_allocations.load();
        t.step(20);
        const long after = g_allocations.load();
        CHECK(after == before);
        // the counter counts: constructing a trainer allocates
        Trainer u(o);
        CHECK(g_allocations.load() > after);
    }
    NwTrainer nw(NwOptions{});
    nw.step(1);
    const long before = g_allocations.load();
    nw.step(5);
    CHECK(g_allocations.load() == before);
}

TEST_CASE("language model: a step allocates nothing (counted operator new)") {
    // one text longer than context + 1: windows
    LanguageModel lm(test::small_lm_options({"abcab", "bcabcabcabca", "ab", "cabcabc"}, {"abc"}));
    std::vector<double> losses;
    lm.step(1, &losses);
    lm.step(20, &losses);  // the losses buffer grows once, here
    const long before = g_allocations.load();
    lm.step(20, &losses);
    lm.step(5);
    CHECK(g_allocations.load() == before);
}
