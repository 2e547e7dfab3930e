// Counting heap allocations, to show that a call allocates nothing.
//
// The global operator new of the whole test binary is replaced by a counting
// wrapper around malloc (allocations.cpp): that counts every container's
// allocation, in every build. Eigen's matrices call malloc itself; those are
// counted too where AddressSanitizer runs (the native suite), through its
// malloc hook, which sees every malloc of the process.
#pragma once

namespace attn::test {

// Allocations so far: operator new, plus every malloc when all_mallocs_counted().
long allocations();
// Whether allocations() sees Eigen's mallocs as well (true under AddressSanitizer).
bool all_mallocs_counted();

// The allocations made while f runs.
template <class F>
long allocations_during(F&& f) {
    const long before = allocations();
    f();
    return allocations() - before;
}

}  // namespace attn::test
