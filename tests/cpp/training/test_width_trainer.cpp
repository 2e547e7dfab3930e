// The learnable-width Nadaraya-Watson trainer (width_trainer.hpp): the closed-form
// gradient against finite differences of the plain-loop loss, training moving
// w toward the minimiser, the sharpening weights of the height -> weight example.
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

TEST_CASE("nw trainer: the loss agrees with the reference and the gradient with finite differences") {
    const NwTrainer t(NwOptions{});
    const VecD &x = t.heights(), &y = t.weights();
    for (double w : {0.02, 0.05, 0.1, 0.3, 0.8}) {
        double grad = 0;
        const double loss = nw_loss(x, y, w, &grad);
        CHECK(std::abs(loss - nw_loss_reference(x, y, w)) <= 1e-12 * loss);
        const double h = 1e-6 * w;
        const double numeric = (nw_loss_reference(x, y, w + h) - nw_loss_reference(x, y, w - h)) / (2 * h);
        CAPTURE(w);
        CHECK(relative_error(grad, numeric) <= 1e-6);
    }
}

TEST_CASE("nw trainer: training lowers the loss and moves w toward the minimiser; held-out error falls") {
    NwTrainer t(NwOptions{});
    // the minimiser on a fine grid of the plain-loop loss
    double best_w = 0, best = 1e300;
    for (double w = 0.01; w < 2; w *= 1.02) {
        const double l = nw_loss_reference(t.heights(), t.weights(), w);
        if (l < best) best = l, best_w = w;
    }
    const double w0 = t.width(), loss0 = t.loss(), held0 = t.held_out_loss();
    const NwStep r = t.step(100);
    MESSAGE("w " << w0 << " -> " << r.width << " (minimiser " << best_w << "), loss " << loss0 << " -> " << t.loss());
    CHECK(r.step == 100);
    CHECK(t.loss() < loss0 / 4);
    CHECK(t.held_out_loss() < held0 / 4);
    CHECK(std::abs(t.width() - best_w) < std::abs(w0 - best_w));
    CHECK(t.loss() >= best);
}

TEST_CASE("nw trainer: the article's example sharpens as w is learned") {
    NwTrainer t(NwOptions{});
    const Vec keys = vec({160, 165, 170, 175}), values = vec({55, 60, 65, 70}), query = vec({172});
    const NwEstimate before = t.estimate(keys, values, query);
    t.step(60);
    const NwEstimate after = t.estimate(keys, values, query);
    check_rows_sum_to_one_or_zero(before.weights);
    check_rows_sum_to_one_or_zero(after.weights);
    CHECK(after.weights.maxCoeff() > before.weights.maxCoeff());
    Index top = 0;
    after.weights.row(0).maxCoeff(&top);
    CHECK(top == 2);  // 170 is the nearest key to 172
    CHECK(after.estimates(0) > 60);
    CHECK(after.estimates(0) < 70);
}

TEST_CASE("nw trainer: the same seed gives the same steps; bad options and calls are named") {
    NwTrainer a(NwOptions{}), b(NwOptions{});
    CHECK(a.step(5).loss == b.step(5).loss);
    auto message = [](auto change) {
        NwOptions o;
        change(o);
        return error_of([&] { NwTrainer t(o); });
    };
    CHECK(message([](NwOptions& o) { o.samples = 2; }) == "samples must be an integer from 3 to 10000, got 2");
    CHECK(message([](NwOptions& o) { o.width = 0; }) == "width must be a finite number greater than 0, got 0");
    CHECK(message([](NwOptions& o) { o.noise = -1; }) == "noise must be a finite number at least 0, got -1");
    CHECK(contains(message([](NwOptions& o) { o.learning_rate = std::nan(""); }), "learning_rate"));
    CHECK(contains(message([](NwOptions& o) { o.seed = 0.5; }), "seed must be an integer"));
    CHECK(contains(error_of([&] { a.step(-1); }), "steps must be an integer"));
    CHECK(contains(error_of([&] { a.estimate(vec({1, 2}), vec({1}), vec({1})); }), "values must have as many"));
}
