// softmax (plain, masked, with temperature), entropy and sigmoid: finite
// results, rows summing to 1 or 0, agreement with the plain-loop reference.
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    const Index rows = in.size(1, 8), cols = in.size(1, 8);
    const Scalar temperature = in.flag() ? in.number() : 1;
    Mask mask = Mask::Constant(rows, cols, true);
    if (in.flag())
        for (Index i = 0; i < mask.size(); ++i) mask.data()[i] = in.flag();
    const Mat x = in.matrix(rows, cols);

    Mat w;
    if (accepted([&] { w = masked_softmax_rows(x, mask, temperature); })) {
        check_weights(w);
        if (!close(w, masked_softmax_rows_reference(x, mask, temperature), 1e-4)) __builtin_trap();
        Vec h;
        if (accepted([&] { h = entropy_rows(w); }) && !h.allFinite()) __builtin_trap();
    }
    if (accepted([&] { w = softmax_rows(x, temperature); })) check_weights(w);
    if (accepted([&] { w = sigmoid(x); }) && ((w.array() < 0).any() || (w.array() > 1).any())) __builtin_trap();
    return 0;
}
