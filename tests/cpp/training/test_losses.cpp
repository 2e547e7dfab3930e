// Each step's loss, as the JS API's step(n).losses returns it: the same
// numbers one step at a time gives, for the trainer and the width trainer;
// and the width trainer's loss curve L(w) against the plain-loop loss.
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

TEST_CASE("trainer: step(n, losses) records each step's loss, as n single steps give") {
    TrainerOptions o;
    o.task = "shift";
    Trainer a(o), b(o);
    std::vector<double> losses;
    const StepResult r = a.step(12, &losses);
    REQUIRE(losses.size() == 12);
    for (double recorded : losses) CHECK(recorded == b.step(1).loss);
    CHECK(r.loss == losses.back());
    CHECK(r.step == 12);
    a.step(3, &losses);  // resized to the new n
    CHECK(losses.size() == 3);
    CHECK(contains(error_of([&] { a.step(0, &losses); }), "steps must be an integer from 1"));
    CHECK(losses.size() == 3);  // untouched by a rejected call
}

TEST_CASE("nw trainer: step(n, losses) records each step's loss; losses_at is the plain-loop loss") {
    NwTrainer a(NwOptions{}), b(NwOptions{});
    std::vector<double> losses;
    const NwStep r = a.step(7, &losses);
    REQUIRE(losses.size() == 7);
    for (double recorded : losses) CHECK(recorded == b.step(1).loss);
    CHECK(r.loss == losses.back());
    VecD widths(4);
    widths << 0.01, 0.1, 0.3, 1.5;
    const VecD curve = a.losses_at(widths);
    for (Index i = 0; i < widths.size(); ++i) {
        const double reference = nw_loss_reference(a.heights(), a.weights(), widths(i));
        CHECK(std::abs(curve(i) - reference) <= 1e-12 * reference);
    }
    CHECK(curve(0) > curve(1));  // a nearly flat kernel predicts the mean: far worse
    VecD bad(2);
    bad << 0.1, -1;
    CHECK(error_of([&] { a.losses_at(bad); }) == "widths must be finite numbers greater than 0, got -1 at 1");
    CHECK(error_of([&] { a.losses_at(VecD(0)); }) == "widths must not be empty");
}

TEST_CASE("trainer: a gradient check too large for one call is refused, naming its size") {
    TrainerOptions o;
    o.d_model = 256;
    o.vocab = 1000;
    const Trainer t(o);
    const std::string message = error_of([&] { t.gradient_check(); });
    CHECK(contains(message, "the gradient check of 708608 parameters is too large: about "));
    CHECK(contains(message, "check a smaller model"));
}
