// Multi-head attention with seeded or given projections, any head count (and
// key/value head count) and mask: finite outputs, every head's rows summing to 1 or 0.
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    const Index n = in.size(1, 7), m = in.flag() ? in.size(1, 7) : n, d_in = in.size(1, 6);
    const Index d_model = in.size(1, 8), heads = in.size(0, 5);
    const std::uint64_t seed = in.byte();
    AttentionOptions o;
    o.causal = in.flag();
    if (in.flag()) o.valid_length = in.size(-1, m + 1);
    if (in.flag()) o.scale = in.number();
    MultiHeadParams given;
    if (in.flag()) given.Wo = in.matrix(in.size(1, 8), in.size(1, 8));
    if (in.flag()) given.W.Wq = in.matrix(in.size(1, 6), d_model);
    const Mat X = in.matrix(n, d_in), M = in.matrix(m, d_in);
    const Index kv_heads = in.flag() ? in.size(0, 5) : heads;  // grouped keys and values, read last

    MultiHeadParams p;
    if (!accepted([&] { p = multi_head_params_complete(given, d_in, d_in, d_model, heads, kv_heads, seed); })) return 0;
    MultiHeadResult r;
    if (!accepted([&] { r = multi_head_attention(X, M, heads, kv_heads, p, o); })) return 0;
    for (const AttentionResult& head : r.heads) check_weights(head.weights);
    if (!finite(r.output)) __builtin_trap();
    return 0;
}
