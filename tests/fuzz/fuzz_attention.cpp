// attention() with every score and every kind of mask on whatever the bytes
// say; the result, when there is one, must be finite with rows summing to 1
// (or 0), and the fused kernel must agree with it.
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    const Score score = Score(in.size(0, 4));
    const Index n_q = in.size(1, 9), n_k = in.size(1, 9), d_q = in.size(1, 6);
    const Index d_k = score == Score::additive || score == Score::general ? in.size(1, 6) : d_q;
    const Index d_v = in.size(1, 5);
    AttentionOptions o;
    o.score = score;
    if (in.flag()) o.scale = in.number();
    o.seed = in.byte();
    switch (in.byte() % 4) {
        case 1: o.causal = true; break;
        case 2: o.valid_length = in.size(-1, n_k + 1); break;
        case 3: {
            std::vector<std::uint8_t> bytes(size_t(n_q * n_k) + (in.flag() ? 1 : 0));
            for (auto& b : bytes) b = in.byte() & 1;
            if (accepted([&] { o.mask = mask_from_bytes(bytes, n_q, n_k); })) break;
            return 0;
        }
        default: break;
    }
    if (score == Score::gaussian && in.flag()) o.params.sigma = in.number();
    if (score == Score::concat && in.flag()) o.params.v = in.vector(in.size(1, 12));
    const Mat Q = in.matrix(n_q, d_q), K = in.matrix(n_k, d_k), V = in.matrix(n_k, d_v);

    AttentionResult r;
    if (!accepted([&] { r = attention(Q, K, V, o); })) return 0;
    check_weights(r.weights);
    if (!finite(r.output)) __builtin_trap();
    // the plain-loop reference and, for the dot score, the fused kernel agree
    if ((Q.cwiseAbs().maxCoeff() <= 8 && K.cwiseAbs().maxCoeff() <= 8)) {
        const AttentionResult ref = attention_reference(Q, K, V, o);
        if (!close(r.weights, ref.weights, 1e-3)) __builtin_trap();
        if (score == Score::dot && o.mask.size() == 0) {
            // the kernel's exp returns 0 below the smallest normal float
            // (e^-87.3): a weight that small may be lost, which only shows
            // when a value is near the float32 maximum
            const double lost = double(n_k) * V.cwiseAbs().maxCoeff() * std::numeric_limits<Scalar>::min();
            Mat fused;
            // attention()'s own float sums may lose what cancels (1e30 - 1e30 + 0.06): the
            // kernel agrees with it or with the float64 reference
            if (accepted([&] { fused = attention_output(Q, K, V, o); }) && !close(fused, r.output, 1e-3, lost) &&
                !close(fused, ref.output, 1e-3, lost))
                __builtin_trap();
        }
    }
    return 0;
}
