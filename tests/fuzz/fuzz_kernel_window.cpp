// The masks of today's models on whatever the bytes say: causal with a
// sliding window, sinks, padding, a bias; lengths that cross the fused
// kernel's 256-key tiles. attention() must give finite rows summing to 1 (or
// 0), and the fused kernel (with its log-sum-exp), the tiled online softmax
// (flash_attention) and the weights from the log-sum-exp must agree with it.
#include "fuzz_input.hpp"

#include <limits>

using namespace attn;
using namespace attn::fuzz;

namespace {

// the log-sum-exps of two runs agree (both -inf for a row that sees no key)
bool close_lse(const Vec& a, const Vec& b, double tolerance) {
    for (Index i = 0; i < a.size(); ++i) {
        if (std::isinf(a(i)) || std::isinf(b(i))) {
            if (a(i) != b(i)) return false;
        } else if (std::abs(double(a(i)) - b(i)) > tolerance * (1 + std::abs(double(b(i))))) {
            return false;
        }
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    // mostly short; one input in four long enough to cross a tile of keys
    const bool longer = in.byte() % 4 == 0;
    const Index n_q = longer ? in.size(1, 40) * 8 : in.size(1, 12), n_k = longer ? in.size(1, 40) * 8 : in.size(1, 12);
    const Index d = in.size(1, 5), d_v = in.size(1, 4);
    AttentionOptions o;
    o.causal = in.byte() % 4 != 0;  // a window without causal is refused
    if (in.flag()) o.window = in.size(-1, longer ? 300 : 14);
    if (in.flag()) o.sinks = in.size(-1, longer ? 260 : 6);
    if (in.flag()) o.valid_length = in.size(-1, n_k + 1);
    if (in.flag()) o.scale = in.number();
    const bool biased = in.byte() % 4 == 0;
    const Mat Q = in.matrix(n_q, d), K = in.matrix(n_k, d), V = in.matrix(n_k, d_v);
    if (biased) o.bias = in.matrix(n_q, n_k);

    AttentionResult r;
    if (!accepted([&] { r = attention(Q, K, V, o); })) return 0;
    check_weights(r.weights);
    if (!finite(r.output)) __builtin_trap();
    // past these, float32 rounding is the only difference: of large scores,
    // and of values that cancel (1e30 - 1e30 + 0.06: attention()'s float sum
    // loses the 0.06 that the kernel's order of summing keeps)
    if (Q.cwiseAbs().maxCoeff() > 8 || K.cwiseAbs().maxCoeff() > 8 || (biased && o.bias.cwiseAbs().maxCoeff() > 8) ||
        V.cwiseAbs().maxCoeff() > 1e6)
        return 0;
    const Vec lse = (r.row_sums.array() > 0).select(r.row_max.array() + r.row_sums.array().log(),
                                                   -std::numeric_limits<Scalar>::infinity());
    // a weight under the smallest normal float may be lost by the kernel's exp
    const double lost = double(n_k) * V.cwiseAbs().maxCoeff() * std::numeric_limits<Scalar>::min();
    Vec kernel_lse;
    Mat fused;
    if (!accepted([&] { fused = attention_output(Q, K, V, o, &kernel_lse); })) __builtin_trap();
    if (!close(fused, r.output, 1e-3, lost) || !close_lse(kernel_lse, lse, 1e-4)) __builtin_trap();
    FlashResult f;
    const FlashOptions tiles{in.size(1, 9), in.size(1, 9), false};
    if (!accepted([&] { f = flash_attention(Q, K, V, o, tiles); })) __builtin_trap();
    if (!close(f.output, r.output, 1e-3, lost) || !close_lse(f.log_sum_exp, lse, 1e-4)) __builtin_trap();
    // the weights from the log-sum-exp: exact while float32 holds lse to well
    // under 1 (|lse| < 1000: a step of 6e-5); at 1e28 a step is 1e21
    for (Index i = 0; i < n_q; ++i)
        if (std::isfinite(lse(i)) && std::abs(lse(i)) >= 1000) return 0;
    std::vector<Index> rows;
    for (Index i = 0; i < n_q; i += 1 + n_q / 4) rows.push_back(i);
    Mat W;
    if (!accepted([&] { W = weights_from_log_sum_exp(Q, K, f.log_sum_exp, rows, o); })) __builtin_trap();
    for (size_t k = 0; k < rows.size(); ++k)
        for (Index j = 0; j < n_k; ++j)
            if (std::abs(double(W(Index(k), j)) - r.weights(rows[k], j)) > 1e-4) __builtin_trap();
    return 0;
}
