// Every module answers its memory statistics (the leak tests read them):
// linked into each of the three (CMakeLists.txt), its own registration block.
#include "bindings/raw.hpp"

#include <emscripten/bind.h>

using namespace emscripten;
using namespace attn::js;

EMSCRIPTEN_BINDINGS(memory_stats) {
    value_object<MemoryStats>("MemoryStats")
        .field("heapBytes", &MemoryStats::heap_bytes)
        .field("allocatedBytes", &MemoryStats::allocated_bytes);
    function("raw_memory_stats", &raw_memory_stats);
}
