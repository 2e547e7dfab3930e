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
// Bytes asked for so far by those allocations (whatever was freed since).
long long allocated_bytes();
// Whether allocations() sees Eigen's mallocs as well (true under AddressSanitizer).
bool all_mallocs_counted();

// The allocations made while f runs.
template <class F>
long allocations_during(F&& f) {
    const long before = allocations();
    f();
    return allocations() - before;
}

// The bytes allocated while f runs (a sum over its allocations, freed or not:
// at least its peak).
template <class F>
long long allocated_bytes_during(F&& f) {
    const long long before = allocated_bytes();
    f();
    return allocated_bytes() - before;
}

}  // namespace attn::test
