// The trainers behind the facade's trainer.js: the attention model trained on
// a sequence task (attention/training/trainer.hpp) and the learnable-width
// Nadaraya-Watson model (attention/training/width_trainer.hpp). JS holds a
// handle, never a pointer; a deleted handle is an error. Each live trainer
// keeps a buffer for the losses of step(n), reused from call to call.
#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/raw.hpp"

#include <emscripten/bind.h>

#include <memory>

namespace attn::js {

using emscripten::typed_memory_view;
using train::NwTrainer;
using train::Trainer;

namespace {

template <class T>
struct Live {
    std::unique_ptr<T> trainer;
    std::vector<double> losses;  // (n) of the last step(n)
};

template <class T>
Handles<Live<T>>& table() {
    static Handles<Live<T>> live("trainer");
    return live;
}

template <class T>
Live<T>& live_of(const val& o) { return table<T>().get(o); }

val float64_array(const train::VecD& v) {
    return val::global("Float64Array").new_(typed_memory_view(size_t(v.size()), v.data()));
}
val int32_array(const std::vector<std::int32_t>& xs) {
    return val::global("Int32Array").new_(typed_memory_view(xs.size(), xs.data()));
}
train::VecD to_vec_double(const val& v) {
    train::VecD out(v["length"].as<int>());
    val(typed_memory_view(size_t(out.size()), out.data())).call<void>("set", v);
    return out;
}

template <class T>
val erase(const val& o) {
    table<T>().remove(o);
    return val(true);
}

// a trainer of type T from the options given over the core's Options (a
// value_object, training.cpp): { handle, options: every option as used }
template <class T, class Options>
val create(const val& o) {
    return guarded([&] {
        const val options = with_defaults<Options>(o);
        return created(table<T>().add(Live<T>{std::make_unique<T>(options.as<Options>()), {}}), options);
    });
}

// o.steps steps: { step, loss, ..., losses }
template <class T>
val steps(const val& o) {
    return guarded([&] {
        Live<T>& live = live_of<T>(o);
        return step_result(live.trainer->step(o["steps"].as<double>(), &live.losses), live.losses);
    });
}

}  // namespace

// ---- the attention trainer ------------------------------------------------

val raw_trainer_create(val o) { return create<Trainer, train::TrainerOptions>(o); }
val raw_trainer_step(val o) { return steps<Trainer>(o); }

val raw_trainer_evaluate(val o) { return guarded([&] { return val(live_of<Trainer>(o).trainer->evaluate()); }); }

val raw_trainer_probe(val o) {
    return guarded([&] {
        const train::Probe p = live_of<Trainer>(o).trainer->probe();
        return object_of("input", int32_array(p.input), "target", int32_array(p.target),
                         "prediction", int32_array(p.prediction), "weights", from_map_list(p.weights),
                         "needed", from_mat(p.needed));
    });
}

val raw_trainer_parameters(val o) {
    return guarded([&] {
        const train::Parameters p = live_of<Trainer>(o).trainer->parameters();
        return object_of("embedding", from_mat(p.embedding), "Wq", from_mat(p.Wq), "Wk", from_mat(p.Wk),
                         "Wv", from_mat(p.Wv), "Wo", from_mat(p.Wo));
    });
}

val gradient_check_result(const train::GradientCheck& check) {
    val out = val(check);  // the scalar fields (training.cpp declares them)
    val tensors = val::array();
    for (const train::TensorCheck& t : check.tensors)
        tensors.call<void>("push", object_of("name", t.name, "checked", double(t.checked),
                                             "maxRelativeError", t.max_relative_error));
    out.set("tensors", tensors);
    return out;
}

val raw_trainer_gradient_check(val o) {
    return guarded([&] { return gradient_check_result(live_of<Trainer>(o).trainer->gradient_check()); });
}

val raw_trainer_delete(val o) {
    return guarded([&] { return erase<Trainer>(o); });
}

// ---- the learnable-width Nadaraya-Watson trainer ------------------------------

val raw_width_trainer_create(val o) { return create<NwTrainer, train::NwOptions>(o); }
val raw_width_trainer_step(val o) { return steps<NwTrainer>(o); }

val raw_width_trainer_evaluate(val o) {
    return guarded([&] {
        const NwTrainer& t = *live_of<NwTrainer>(o).trainer;
        val out = val::object();
        out.set("loss", t.loss());
        out.set("heldOutLoss", t.held_out_loss());
        out.set("width", t.width());
        out.set("sigma", t.sigma());
        return out;
    });
}

val raw_width_trainer_samples(val o) {
    return guarded([&] {
        const NwTrainer& t = *live_of<NwTrainer>(o).trainer;
        val out = val::object();
        out.set("heights", float64_array(t.heights()));
        out.set("weights", float64_array(t.weights()));
        return out;
    });
}

// attention pooling with the current w over the given keys and values, or the
// training samples when keys is absent
val raw_width_trainer_pool(val o) {
    return guarded([&] {
        const NwTrainer& t = *live_of<NwTrainer>(o).trainer;
        const bool samples = !has(o, "keys");
        const Vec keys = samples ? Vec(t.heights().cast<Scalar>()) : to_vec(o["keys"]);
        const Vec values = samples ? Vec(t.weights().cast<Scalar>()) : to_vec(o["values"]);
        const train::NwEstimate e = t.estimate(keys, values, to_vec(o["queries"]));
        val out = val::object();
        out.set("estimates", from_vec(e.estimates));
        if (!samples) out.set("weights", from_mat(e.weights));
        return out;
    });
}

val raw_width_trainer_losses(val o) {
    return guarded([&] {
        return float64_array(live_of<NwTrainer>(o).trainer->losses_at(to_vec_double(o["widths"])));
    });
}

val raw_width_trainer_delete(val o) {
    return guarded([&] { return erase<NwTrainer>(o); });
}

}  // namespace attn::js
