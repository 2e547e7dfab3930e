// Nadaraya-Watson regression with the Gaussian or dot score, and hand-chosen
// weights: finite estimates within the range of the values.
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    const Index n = in.size(0, 8), m = in.size(0, 6);
    AttentionOptions o;
    o.score = in.flag() ? Score::gaussian : Score(in.size(0, 4));
    if (in.flag()) o.params.sigma = in.number();
    if (in.flag()) o.scale = in.number();
    const Vec keys = in.vector(n), values = in.vector(in.flag() ? n : in.size(0, 8)), queries = in.vector(m);

    KernelRegressionResult r;
    if (accepted([&] { r = kernel_regression(keys, values, queries, o); })) {
        check_weights(r.weights);
        if (!r.estimates.allFinite()) __builtin_trap();
        const Scalar lo = values.minCoeff(), hi = values.maxCoeff(), slack = 1e-3f * (1 + std::max(std::abs(lo), std::abs(hi)));
        for (Index i = 0; i < r.estimates.size(); ++i)
            if (r.weights.row(i).sum() > 0 && (r.estimates(i) < lo - slack || r.estimates(i) > hi + slack)) __builtin_trap();
    }
    const Vec weights = in.vector(n);
    if (accepted([&] { r = kernel_regression_weights(keys, values, weights); }) && !r.estimates.allFinite())
        __builtin_trap();
    return 0;
}
