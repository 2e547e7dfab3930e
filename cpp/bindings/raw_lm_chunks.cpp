// The step in chunks of a language model (attention/language_model/model.hpp)
// behind the facade's parallel.js: the model's state a worker needs, a run of
// chunks computed by a worker's copy or by the model itself, and the step
// taken from every run's nodes.
#include "bindings/live_model.hpp"
#include "bindings/raw.hpp"

#include <emscripten/bind.h>

#include <cstdio>
#include <string>

namespace attn::js {

using emscripten::typed_memory_view;
using train::LanguageModel;

namespace {

// a Float32Array (or the numbers given) copied into out
void copy_floats(const val& v, std::vector<float>& out) {
    out.resize(size_t(v["length"].as<int>()));
    val(typed_memory_view(out.size(), out.data())).call<void>("set", v);
}

// the nodes of a run as [{ first, end, loss }]
val nodes_of(const std::vector<LanguageModel::ChunkSum>& sums) {
    val nodes = val::array();
    for (const LanguageModel::ChunkSum& node : sums)
        nodes.call<void>("push", object_of("first", double(node.first), "end", double(node.end), "loss", node.loss));
    return nodes;
}

// the batch generator's state as 16 hex digits (JS numbers hold 53 bits)
std::string hex_state(std::uint64_t state) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(state));
    return text;
}

}  // namespace

// -> { chunks, values: Float32Array (every parameter), state }: what a worker needs for the next step
// (values, and chunk_sums' gradients, are views of the heap: to be copied before the next call)
val raw_lm_step_state(val o) {
    return guarded([&] {
        const LanguageModel& model = *live_of(o).model;
        const Index total = model.parameters().total();
        return object_of("chunks", double(model.chunks()),
                         "values", val(typed_memory_view(size_t(total), model.values())),
                         "state", hex_state(model.batch_state()));
    });
}

// a worker's: { values, state, first, end } -> { nodes: [{ first, end, loss }], gradients: Float32Array (nodes, parameters) };
// the model's own run of the step it is on: { first, end } -> { nodes }, the sums kept here for apply_chunks({ kept: true })
val raw_lm_chunk_sums(val o) {
    return guarded([&] {
        LiveModel& live = live_of(o);
        LanguageModel& model = *live.model;
        const Index first = Index(o["first"].as<double>()), end = Index(o["end"].as<double>());
        const size_t total = size_t(model.parameters().total());
        if (o["values"].isUndefined()) {
            live.kept.resize(model.nodes_within(first, end).size() * total);
            live.kept_nodes = model.chunk_sums(first, end, live.kept.data());
            return object_of("nodes", nodes_of(live.kept_nodes));
        }
        const val values = o["values"];
        const double given = values["length"].as<double>();
        require(given == double(total), "values must hold every parameter: " + std::to_string(total) +
                                            " numbers, got " + number(given));
        val(typed_memory_view(total, model.values_to_set())).call<void>("set", values);
        model.set_batch_state(std::stoull(o["state"].as<std::string>(), nullptr, 16));
        live.sums.resize(1);
        std::vector<float>& buffer = live.sums[0];
        buffer.resize(model.nodes_within(first, end).size() * total);
        const val nodes = nodes_of(model.chunk_sums(first, end, buffer.data()));
        return object_of("nodes", nodes,
                         "gradients", val(typed_memory_view(buffer.size(), buffer.data())));
    });
}

// { nodes: [{ first, end, loss }], gradients: Float32Array[] (one per node), kept: with the model's own run's } ->
// { step, loss, tokens }
val raw_lm_apply_chunks(val o) {
    return guarded([&] {
        LiveModel& live = live_of(o);
        LanguageModel& model = *live.model;
        const int count = o["nodes"]["length"].as<int>();
        require(o["gradients"]["length"].as<int>() == count, "one gradient per node");
        live.sums.resize(size_t(count));
        std::vector<LanguageModel::ChunkSum> nodes;
        if (has(o, "kept") && o["kept"].as<bool>()) nodes = live.kept_nodes;
        live.kept_nodes.clear();
        for (int k = 0; k < count; ++k) {
            std::vector<float>& gradient = live.sums[size_t(k)];
            copy_floats(o["gradients"][k], gradient);
            require(Index(gradient.size()) == model.parameters().total(),
                    "node " + std::to_string(k) + "'s gradient must hold " +
                        std::to_string(model.parameters().total()) + " numbers, got " + std::to_string(gradient.size()));
            const val node = o["nodes"][k];
            nodes.push_back({Index(node["first"].as<double>()), Index(node["end"].as<double>()),
                             node["loss"].as<double>(), gradient.data()});
        }
        const train::LmStep s = model.apply_chunks(nodes);
        return object_of("step", s.step, "loss", s.loss, "tokens", s.tokens);
    });
}

}  // namespace attn::js
