#include "attention/training/trainer.hpp"

#include "attention/options.hpp"
#include "attention/mechanism/positional.hpp"
#include "attention/training/products.hpp"
#include "attention/training/step.hpp"

#include <cmath>

namespace attn::train {

namespace {

// the generator streams of this model's parameters and data
namespace streams {
constexpr std::uint64_t E = 41, Wq = 42, Wk = 43, Wv = 44, Wo = 45, batches = 51, held_out = 52, probe = 53;
}

// floats of every buffer a trainer holds
double floats_needed(const ModelConfig& c, Index batch) {
    const double d = double(c.d_model), v = double(c.vocab), n = double(c.length), rows = double(batch) * n;
    const double params = 2 * v * d + 3 * d * d;
    return 4 * params + rows * ((c.cross ? 11 : 10) * d + 2 * v) + double(batch) * double(c.heads) * n * n + n * n + n * d +
           3 * rows + 2 * double(Trainer::kHeldOut) * n;
}

ModelConfig validated(const TrainerOptions& o) {
    const Task task = parse_task(o.task);
    integer_option(o.seed, "seed", 0, 9007199254740992.0);
    ModelConfig c;
    c.length = integer_option(o.length, "length", 2, 256);
    require(task != Task::date || c.length == 8,
            "the date task needs length 8 (YYYYMMDD to DDMMYYYY), got " + std::to_string(c.length));
    c.vocab = integer_option(o.vocab, "vocab", 2, 4096);
    c.d_model = integer_option(o.d_model, "d_model", 1, 512);
    c.heads = integer_option(o.heads, "heads", 1, double(c.d_model));
    require_argument(c.d_model % c.heads == 0, "d_model",
                     "d_model " + std::to_string(c.d_model) + " is not divisible by heads " + std::to_string(c.heads));
    const Index batch = integer_option(o.batch, "batch", 1, 4096);
    require_argument(std::isfinite(o.learning_rate) && o.learning_rate > 0, "learning_rate",
                     "learning_rate must be a finite number greater than 0, got " + number(o.learning_rate));
    c.causal = o.causal;
    c.residual = o.residual;
    c.cross = o.cross;
    const double floats = floats_needed(c, batch);
    if (!(floats <= Trainer::kMaxFloats))
        fail("these sizes need " + number(std::ceil(floats * 4 / 1048576)) + " MB of buffers, more than the limit of " +
                 number(Trainer::kMaxFloats * 4 / 1048576) + " MB",
             Code::out_of_memory);
    return c;
}

}  // namespace

Trainer::Trainer(const TrainerOptions& options)
    : config_(validated(options)),
      task_(parse_task(options.task)),
      batch_(Index(options.batch)),
      seed_(std::uint64_t(options.seed)),
      batches_(seed_, streams::batches),
      adam_(AdamOptions{options.learning_rate, 0.9, 0.999, 1e-8}),
      embedding_{config_.vocab, config_.d_model, config_.length},
      project_{config_.d_model, config_.d_model},
      unembed_{config_.d_model, config_.vocab},
      attention_{config_.length, config_.d_model, config_.heads, config_.causal},
      loss_{config_.vocab} {
    const Index d = config_.d_model, v = config_.vocab, n = config_.length, rows = batch_ * n;
    // parameters: E, Wq, Wk, Wv, Wo (the order of ParamsD)
    store_.add("embedding", v, d);
    store_.add("Wq", d, d);
    store_.add("Wk", d, d);
    store_.add("Wv", d, d);
    store_.add("Wo", d, v);
    store_.allocate();
    store_.set(0, init_uniform(v, d, seed_, streams::E, 1));
    store_.set(1, init_xavier(d, d, seed_, streams::Wq));
    store_.set(2, init_xavier(d, d, seed_, streams::Wk));
    store_.set(3, init_xavier(d, d, seed_, streams::Wv));
    store_.set(4, init_xavier(d, v, seed_, streams::Wo));
    pe_ = positional_encoding(n, d);

    // activations and their gradients, carved from one buffer
    const Index A_size = batch_ * config_.heads * n * n;
    arena_.assign(size_t(2 * (5 * rows * d + rows * v) + A_size + n * n + (config_.cross ? rows * d : 0)), 0.0f);
    float* at = arena_.data();
    auto take = [&at](Index count) {
        float* p = at;
        at += count;
        return p;
    };
    X_ = take(rows * d), Q_ = take(rows * d), K_ = take(rows * d), V_ = take(rows * d), Z_ = take(rows * d);
    dX_ = take(rows * d), dQ_ = take(rows * d), dK_ = take(rows * d), dV_ = take(rows * d), dZ_ = take(rows * d);
    logits_ = take(rows * v), dlogits_ = take(rows * v);
    A_ = take(A_size), scratch_ = take(n * n);
    if (config_.cross) {
        // cross-attention's queries read the positions alone: P = PE tiled over the batch
        P_ = take(rows * d);
        for (Index r = 0; r < rows; ++r) std::copy(pe_.data() + (r % n) * d, pe_.data() + (r % n + 1) * d, P_ + r * d);
    }
    tokens_.assign(size_t(rows), 0);
    targets_.assign(size_t(rows), 0);
    predicted_.assign(size_t(rows), 0);

    held_tokens_.assign(size_t(kHeldOut * n), 0);
    held_targets_.assign(size_t(kHeldOut * n), 0);
    Rng held(seed_, streams::held_out);
    task_fill(task_, held, kHeldOut, n, v, held_tokens_.data(), held_targets_.data());
    probe_tokens_.assign(size_t(n), 0);
    probe_targets_.assign(size_t(n), 0);
    Rng probe(seed_, streams::probe);
    task_fill(task_, probe, 1, n, v, probe_tokens_.data(), probe_targets_.data());
}

void Trainer::forward(Index sequences, const std::int32_t* tokens) {
    divergence_.require_none();
    const Index rows = sequences * config_.length;
    embedding_.forward(rows, tokens, store_.value(0), pe_.data(), X_);  // X = E[tokens] + PE
    project_.forward(rows, config_.cross ? P_ : X_, store_.value(1), Q_); // Q = X Wq (cross: P Wq)
    project_.forward(rows, X_, store_.value(2), K_);                     // K = X Wk
    project_.forward(rows, X_, store_.value(3), V_);                     // V = X Wv
    attention_.forward(sequences, nullptr, Q_, K_, V_, A_, Z_);          // Z = concat_h A_h V_h
    if (config_.residual) add_to(Z_, X_, rows * config_.d_model);        // Z + X
    unembed_.forward(rows, Z_, store_.value(4), logits_);                // logits = Z Wo
    // parameters the last update left too large overflow here (softmax_row
    // passes an overflowed score on as NaN)
    if (!all_finite(logits_, rows * config_.vocab)) divergence_.found(steps_);
}

void Trainer::backward(Index sequences, const std::int32_t* tokens) {
    const Index rows = sequences * config_.length, d = config_.d_model;
    zero(store_.grads(), store_.total());
    zero(dZ_, rows * d);
    unembed_.backward(rows, Z_, store_.value(4), dlogits_, store_.grad(4), dZ_);
    attention_.backward(sequences, Q_, K_, V_, A_, dZ_, dQ_, dK_, dV_, scratch_);
    if (config_.residual)
        std::copy(dZ_, dZ_ + rows * d, dX_);
    else
        zero(dX_, rows * d);
    if (config_.cross)
        project_.backward(rows, P_, store_.value(1), dQ_, store_.grad(1), nullptr);  // P is no parameter
    else
        project_.backward(rows, X_, store_.value(1), dQ_, store_.grad(1), dX_);
    project_.backward(rows, X_, store_.value(2), dK_, store_.grad(2), dX_);
    project_.backward(rows, X_, store_.value(3), dV_, store_.grad(3), dX_);
    embedding_.backward(rows, tokens, dX_, store_.grad(0));
}

double Trainer::compute_gradients(Index sequences, const std::int32_t* tokens, const std::int32_t* targets) {
    require(sequences >= 1 && sequences <= batch_,
            "sequences must be from 1 to batch (" + std::to_string(batch_) + "), got " + std::to_string(sequences));
    const Index rows = sequences * config_.length;
    for (Index r = 0; r < rows; ++r)
        if (tokens[r] < 0 || tokens[r] >= config_.vocab || targets[r] >= config_.vocab)
            fail("tokens and targets must be in [0, vocab), got " + std::to_string(tokens[r]) + " -> " +
                 std::to_string(targets[r]));
    forward(sequences, tokens);
    const double loss = loss_.forward_backward(rows, logits_, targets, dlogits_);
    backward(sequences, tokens);
    return loss;
}

Mat Trainer::gradient(Index i) const {
    require(i >= 0 && i < store_.count(), "parameter index must be from 0 to 4, got " + std::to_string(i));
    return store_.get_grad(i);
}

void Trainer::train_step() {
    const Index rows = batch_ * config_.length;
    task_fill(task_, batches_, batch_, config_.length, config_.vocab, tokens_.data(), targets_.data());
    forward(batch_, tokens_.data());
    last_loss_ = loss_.forward_backward(rows, logits_, targets_.data(), dlogits_);
    backward(batch_, tokens_.data());
    // if/fail, not require: the message is built only on failure (no allocation per step)
    if (!std::isfinite(last_loss_)) divergence_.found(steps_);
    adam_update(adam_, store_, steps_ + 1, divergence_);
    ++steps_;
}

StepResult Trainer::step(double n, std::vector<double>* losses) {
    require_steps(n);
    const double d = double(config_.d_model), rows = double(batch_ * config_.length);
    // multiply-adds of one step: forward, and backward about twice that
    const double work = 3 * (rows * (3 * d * d + d * double(config_.vocab)) +
                             2 * double(batch_) * double(config_.length) * double(config_.length) * d);
    if (!(work * n <= kMaxWork)) require_work(work * n, std::to_string(Index(n)) + " training steps");
    if (losses) losses->resize(size_t(n));  // (n)
    for (Index s = 0; s < Index(n); ++s) {
        train_step();
        if (losses) (*losses)[size_t(s)] = last_loss_;
    }
    // the last update is checked now, not by whatever reads the model next:
    // a forward of one sequence (1 / (3 batch) of a step's work)
    forward(1, probe_tokens_.data());
    return {double(steps_), last_loss_};
}

Evaluation Trainer::evaluate() {
    const Index n = config_.length;
    double total = 0;
    Index correct = 0;
    for (Index first = 0; first < kHeldOut; first += batch_) {
        const Index count = std::min(batch_, kHeldOut - first);
        const std::int32_t* tokens = held_tokens_.data() + first * n;
        const std::int32_t* targets = held_targets_.data() + first * n;
        forward(count, tokens);
        total += loss_.forward_backward(count * n, logits_, targets, dlogits_) * double(count);
        argmax_rows(count * n, config_.vocab, logits_, predicted_.data());
        for (Index r = 0; r < count * n; ++r) correct += predicted_[size_t(r)] == targets[r];
    }
    if (!std::isfinite(total)) divergence_.found(steps_);
    return {total / double(kHeldOut), double(correct) / double(kHeldOut * n)};
}

Probe Trainer::probe() {
    const Index n = config_.length;
    forward(1, probe_tokens_.data());
    Probe p;
    p.input = probe_tokens_;
    p.target = probe_targets_;
    p.prediction.assign(size_t(n), 0);
    argmax_rows(n, config_.vocab, logits_, p.prediction.data());
    for (Index h = 0; h < config_.heads; ++h) p.weights.push_back(Eigen::Map<const Mat>(A_ + h * n * n, n, n));
    p.needed = Mat::Zero(n, n);
    for (Index i = 0; i < n; ++i) p.needed(i, task_source(task_, i, n)) = 1;
    for (const Mat& w : p.weights)
        if (!w.allFinite()) divergence_.found(steps_);
    return p;
}

Parameters Trainer::parameters() const {
    return {store_.get(0), store_.get(1), store_.get(2), store_.get(3), store_.get(4)};
}

GradientCheck Trainer::gradient_check() const {
    divergence_.require_none();
    const Index n = config_.length, count = 2;
    // 4 double forwards of `count` sequences per parameter entry, in plain loops
    // (about 4 ns per multiply-add in WASM: the default model's 3712 entries
    // take 3.4 s); past kMaxCheckWork a call would hang a page for minutes
    const double d = double(config_.d_model), rows = double(count * n);
    const double forward = rows * (3 * d * d + d * double(config_.vocab)) + 2 * double(count) * double(n * n) * d;
    const double work = 4 * double(store_.total()) * forward;
    if (!(work <= kMaxCheckWork))
        fail("the gradient check of " + std::to_string(store_.total()) + " parameters is too large: about " +
             number(work) + " multiply-adds, more than " + std::to_string(std::int64_t(kMaxCheckWork)) +
             "; check a smaller model");
    const TokenIds tokens(held_tokens_.begin(), held_tokens_.begin() + count * n);
    const TokenIds targets(held_targets_.begin(), held_targets_.begin() + count * n);
    return gradient_check_reference(config_, parameters_double(), pe_.cast<double>(), tokens, targets, {});
}

}  // namespace attn::train
