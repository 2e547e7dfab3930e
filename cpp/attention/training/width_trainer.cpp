#include "attention/training/width_trainer.hpp"

#include "attention/init.hpp"
#include "attention/training/products.hpp"

#include <cmath>
#include <limits>

namespace attn::train {

namespace {

namespace streams {
constexpr std::uint64_t train = 61, held_out = 62;
}

void draw(Rng& rng, Index count, double noise, VecD& x, VecD& y) {
    x.resize(count);
    y.resize(count);
    for (Index i = 0; i < count; ++i) {
        x(i) = 150 + 45 * rng.uniform();
        double z = -6;  // about N(0, 1): no transcendental function, the same bits everywhere
        for (int k = 0; k < 12; ++k) z += rng.uniform();
        y(i) = 22 * (x(i) / 100) * (x(i) / 100) + noise * z;
    }
}

// estimate at q from keys x, values y, leaving out index skip (or -1);
// dq (if not null) = d estimate / dw
double pool(const VecD& x, const VecD& y, double q, double w, Index skip, double* dq) {
    // 1. the largest score, for stability
    double top = -std::numeric_limits<double>::infinity();
    for (Index j = 0; j < x.size(); ++j)
        if (j != skip) top = std::max(top, -0.5 * ((q - x(j)) * w) * ((q - x(j)) * w));
    // 2. weights and estimate
    double sum = 0, num = 0;
    for (Index j = 0; j < x.size(); ++j) {
        if (j == skip) continue;
        const double e = exp_det(-0.5 * ((q - x(j)) * w) * ((q - x(j)) * w) - top);
        sum += e;
        num += e * y(j);
    }
    const double estimate = num / sum;
    if (dq) {
        // d estimate/dw = sum_j alpha_j (y_j - estimate) ds_j/dw
        double g = 0;
        for (Index j = 0; j < x.size(); ++j) {
            if (j == skip) continue;
            const double alpha = exp_det(-0.5 * ((q - x(j)) * w) * ((q - x(j)) * w) - top) / sum;
            g += alpha * (y(j) - estimate) * (-(q - x(j)) * (q - x(j)) * w);
        }
        *dq = g;
    }
    return estimate;
}

double finite_option(double x, const std::string& name, double lo, bool open_lo) {
    require(std::isfinite(x) && (open_lo ? x > lo : x >= lo),
            name + " must be a finite number " + (open_lo ? "greater than " : "at least ") + number(lo) + ", got " +
                number(x));
    return x;
}

}  // namespace

double nw_loss(const VecD& x, const VecD& y, double w, double* gradient) {
    const Index n = x.size();
    double loss = 0, grad = 0;
    for (Index i = 0; i < n; ++i) {
        double d = 0;
        const double r = pool(x, y, x(i), w, i, gradient ? &d : nullptr) - y(i);
        loss += r * r;
        grad += 2 * r * d;
    }
    if (gradient) *gradient = grad / double(n);
    return loss / double(n);
}

double nw_loss_reference(const VecD& x, const VecD& y, double w) {
    double loss = 0;
    for (Index i = 0; i < x.size(); ++i) {
        double sum = 0, num = 0;
        for (Index j = 0; j < x.size(); ++j)
            if (j != i) {
                const double e = std::exp(-0.5 * std::pow((x(i) - x(j)) * w, 2));
                sum += e;
                num += e * y(j);
            }
        loss += std::pow(num / sum - y(i), 2);
    }
    return loss / double(x.size());
}

NwTrainer::NwTrainer(const NwOptions& o) : adam_(AdamOptions{o.learning_rate, 0.9, 0.999, 1e-8}) {
    require(std::isfinite(o.seed) && o.seed == std::floor(o.seed) && o.seed >= 0 && o.seed <= 9007199254740992.0,
            "seed must be an integer from 0 to 9007199254740992, got " + number(o.seed));
    require(std::isfinite(o.samples) && o.samples == std::floor(o.samples) && o.samples >= 3 && o.samples <= 10000,
            "samples must be an integer from 3 to 10000, got " + number(o.samples));
    finite_option(o.noise, "noise", 0, false);
    width_ = float(finite_option(o.width, "width", 0, true));
    Rng train(std::uint64_t(o.seed), streams::train), held(std::uint64_t(o.seed), streams::held_out);
    draw(train, Index(o.samples), o.noise, x_, y_);
    draw(held, kHeldOut, o.noise, held_x_, held_y_);
}

NwStep NwTrainer::step(double n, std::vector<double>* losses) {
    if (!(std::isfinite(n) && n == std::floor(n) && n >= 1 && n <= 1e6))
        fail("steps must be an integer from 1 to 1000000, got " + number(n));
    const double work = n * double(x_.size()) * double(x_.size()) * 2;
    if (!(work <= kMaxWork)) require_work(work, std::to_string(Index(n)) + " training steps");
    if (losses) losses->resize(size_t(n));  // (n)
    double loss = 0;
    for (Index s = 0; s < Index(n); ++s) {
        double g = 0;
        loss = nw_loss(x_, y_, double(width_), &g);
        grad_ = float(g);
        // if/fail: the message is built only on failure
        if (!std::isfinite(loss) || !std::isfinite(g))
            fail("training diverged at step " + std::to_string(steps_ + 1) + ": the loss is no longer finite",
                 Code::diverged);
        adam_.step(&width_, &grad_, &m_, &v_, 1);
        ++steps_;
        if (!std::isfinite(width_))
            fail("training diverged at step " + std::to_string(steps_) +
                     ": w is no longer finite; try a smaller learning_rate",
                 Code::diverged, "learning_rate");
        if (losses) (*losses)[size_t(s)] = loss;
    }
    return {double(steps_), loss, double(width_)};
}

VecD NwTrainer::losses_at(const VecD& widths) const {
    require(widths.size() >= 1, "widths must not be empty");
    for (Index i = 0; i < widths.size(); ++i)
        if (!(std::isfinite(widths(i)) && widths(i) > 0))
            fail("widths must be finite numbers greater than 0, got " + number(widths(i)) + " at " + std::to_string(i));
    require_work(double(widths.size()) * double(x_.size()) * double(x_.size()) * 2,
                 "the loss at " + std::to_string(widths.size()) + " widths");
    VecD out(widths.size());
    for (Index i = 0; i < widths.size(); ++i) out(i) = nw_loss(x_, y_, widths(i), nullptr);
    return out;
}

double NwTrainer::loss() const { return nw_loss(x_, y_, double(width_), nullptr); }

double NwTrainer::held_out_loss() const {
    double total = 0;
    for (Index i = 0; i < held_x_.size(); ++i) {
        const double r = pool(x_, y_, held_x_(i), double(width_), -1, nullptr) - held_y_(i);
        total += r * r;
    }
    return total / double(held_x_.size());
}

NwEstimate NwTrainer::estimate(const VecRef& keys, const VecRef& values, const VecRef& queries) const {
    require(keys.size() >= 1, "keys must not be empty");
    require(values.size() == keys.size(), "values must have as many entries as keys (" +
                                              std::to_string(keys.size()) + "), got " +
                                              std::to_string(values.size()));
    require_finite(keys, "keys");
    require_finite(values, "values");
    require_finite(queries, "queries");
    const VecD x = keys.cast<double>(), y = values.cast<double>();
    NwEstimate out{Mat(queries.size(), keys.size()), Vec(queries.size())};
    for (Index i = 0; i < queries.size(); ++i) {
        const double q = queries(i), w = double(width_);
        double top = -std::numeric_limits<double>::infinity(), sum = 0;
        for (Index j = 0; j < x.size(); ++j) top = std::max(top, -0.5 * ((q - x(j)) * w) * ((q - x(j)) * w));
        VecD e(x.size());
        for (Index j = 0; j < x.size(); ++j) sum += e(j) = exp_det(-0.5 * ((q - x(j)) * w) * ((q - x(j)) * w) - top);
        double estimate = 0;
        for (Index j = 0; j < x.size(); ++j) {
            out.weights(i, j) = Scalar(e(j) / sum);
            estimate += e(j) / sum * y(j);
        }
        out.estimates(i) = Scalar(estimate);
    }
    return out;
}

}  // namespace attn::train
