#include "allocations.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ATTN_ASAN 1
#endif

#ifdef ATTN_ASAN
#include <sanitizer/allocator_interface.h>
#endif

namespace {

std::atomic<long> g_news{0};     // operator new calls
std::atomic<long> g_mallocs{0};  // malloc calls seen by the sanitizer's hook
std::atomic<long long> g_new_bytes{0};     // bytes asked of operator new
std::atomic<long long> g_malloc_bytes{0};  // bytes of the mallocs the hook saw

void* counted(std::size_t size) {
    ++g_news;
    g_new_bytes += static_cast<long long>(size);
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}

#ifdef ATTN_ASAN
void on_malloc(const volatile void*, std::size_t size) {
    ++g_mallocs;
    g_malloc_bytes += static_cast<long long>(size);
}
void on_free(const volatile void*) {}
const bool g_hooked = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
#else
const bool g_hooked = false;
#endif

}  // namespace

// every non-aligned form, so each allocation is freed by its own kind
void* operator new(std::size_t size) { return counted(size); }
void* operator new[](std::size_t size) { return counted(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    ++g_news;
    g_new_bytes += static_cast<long long>(size);
    return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    ++g_news;
    g_new_bytes += static_cast<long long>(size);
    return std::malloc(size ? size : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace attn::test {

// (each operator new is also a malloc: counted once)
long allocations() { return g_hooked ? g_mallocs.load() : g_news.load(); }
long long allocated_bytes() { return g_hooked ? g_malloc_bytes.load() : g_new_bytes.load(); }
bool all_mallocs_counted() { return g_hooked; }

}  // namespace attn::test
