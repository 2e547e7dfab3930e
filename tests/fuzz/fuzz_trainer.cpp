// The trainer with random options and steps: valid options never crash and
// give finite losses, an accuracy in [0, 1] and maps whose rows sum to 1;
// invalid ones (sizes out of range or not integers, heads not dividing
// d_model, a bad learning rate or task, a bad step count) throw with a
// message. The learnable-width Nadaraya-Watson trainer likewise, and its loss
// curve L(w) at random widths. Each step's recorded loss ends with the last.
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;
using namespace attn::train;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    TrainerOptions o;
    o.task = in.flag() ? "reverse" : (in.flag() ? "shift" : "copy");
    o.seed = double(in.byte());
    o.length = size_option(in, 2, 6);
    o.vocab = size_option(in, 2, 8);
    o.heads = size_option(in, 1, 3);
    o.d_model = double(in.size(1, 3)) * (std::isfinite(o.heads) ? std::max(1.0, std::abs(o.heads)) : 1) +
                (in.byte() % 8 == 0 ? 1 : 0);  // sometimes not a multiple of heads
    o.batch = size_option(in, 1, 4);
    o.learning_rate = in.flag() ? double(in.number()) : 0.01 * double(in.size(1, 50));
    o.causal = in.flag();
    o.residual = in.flag();
    const double steps = in.byte() % 8 == 0 ? double(in.number()) : double(in.size(1, 3));

    accepted([&] {
        Trainer t(o);
        std::vector<double> losses;  // each step's loss, as step(n).losses in JS
        const StepResult r = t.step(steps, &losses);
        if (!std::isfinite(r.loss) || r.loss < 0) __builtin_trap();
        if (losses.size() != size_t(steps) || losses.back() != r.loss) __builtin_trap();
        const Evaluation e = t.evaluate();
        if (!std::isfinite(e.loss) || !(e.accuracy >= 0 && e.accuracy <= 1)) __builtin_trap();
        const Probe p = t.probe();
        if (Index(p.weights.size()) != t.config().heads) __builtin_trap();
        for (const Mat& w : p.weights) {
            // causal rows see at least their own key, so every row sums to 1
            check_weights(w);
            for (Index i = 0; i < w.rows(); ++i)
                if (std::abs(w.row(i).cast<double>().sum() - 1) > 1e-4) __builtin_trap();
        }
        for (std::int32_t x : p.prediction)
            if (x < 0 || x >= t.config().vocab) __builtin_trap();
    });

    NwOptions nw;
    nw.samples = size_option(in, 3, 12);
    nw.width = in.flag() ? double(in.number()) : 0.01 * double(in.size(1, 100));
    nw.noise = in.flag() ? double(in.number()) : double(in.size(0, 5));
    nw.learning_rate = in.flag() ? double(in.number()) : 0.01;
    accepted([&] {
        NwTrainer t(nw);
        std::vector<double> losses;
        const NwStep r = t.step(double(in.size(1, 3)), &losses);
        if (losses.empty() || losses.back() != r.loss) __builtin_trap();
        // the loss curve L(w) at random widths: finite where accepted (widths finite and > 0)
        VecD widths(in.size(1, 3));
        for (Index i = 0; i < widths.size(); ++i)
            widths(i) = in.flag() ? double(in.number()) : 0.01 * double(in.size(1, 100));
        accepted([&] {
            const VecD curve = t.losses_at(widths);
            if (!curve.allFinite()) __builtin_trap();
        });
        // the loss is finite; w may run off to extremes with a huge learning rate, and
        // then the estimates are still averages of the values
        if (!std::isfinite(r.loss) || !std::isfinite(t.held_out_loss())) __builtin_trap();
    });
    return 0;
}
