#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/raw.hpp"

#include <emscripten/bind.h>

#include <malloc.h>

namespace attn::js {

using emscripten::typed_memory_view;

Mat to_mat(const val& m) {
    Mat out(m["rows"].as<int>(), m["cols"].as<int>());
    val(typed_memory_view(size_t(out.size()), out.data())).call<void>("set", m["data"]);
    return out;
}

Vec to_vec(const val& v) {
    Vec out(v["length"].as<int>());
    val(typed_memory_view(size_t(out.size()), out.data())).call<void>("set", v);
    return out;
}

std::vector<std::uint8_t> to_bytes(const val& v) { return emscripten::convertJSArrayToNumberVector<std::uint8_t>(v); }

std::vector<std::string> to_strings(const val& xs) {
    const int n = xs["length"].as<int>();
    std::vector<std::string> out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) out[size_t(i)] = xs[i].as<std::string>();
    return out;
}

std::uint64_t to_seed(const val& v) { return std::uint64_t(v.as<double>()); }

ScoreParams to_score_params(const val& p) {
    ScoreParams out;
    if (p.isUndefined()) return out;
    if (has(p, "W")) out.W = to_mat(p["W"]);
    if (has(p, "U")) out.U = to_mat(p["U"]);
    if (has(p, "v")) out.v = to_vec(p["v"]);
    if (has(p, "sigma")) out.sigma = p["sigma"].as<float>();
    return out;
}

AttentionOptions to_attention_options(const val& o, Index n_queries, Index n_keys) {
    AttentionOptions out;
    if (has(o, "score")) out.score = score_from_name(o["score"].as<std::string>());
    if (has(o, "scale")) out.scale = o["scale"].as<float>();
    const val p = o["params"];
    out.params = to_score_params(p);
    if (!p.isUndefined() && has(p, "seed")) out.seed = to_seed(p["seed"]);
    if (!p.isUndefined() && has(p, "hidden")) out.hidden = p["hidden"].as<int>();
    if (has(o, "mask")) out.mask = mask_from_bytes(to_bytes(o["mask"]), n_queries, n_keys);
    if (has(o, "causal")) out.causal = o["causal"].as<bool>();
    if (has(o, "validLength")) out.valid_length = o["validLength"].as<int>();
    if (has(o, "window")) out.window = o["window"].as<int>();
    if (has(o, "sinks")) out.sinks = o["sinks"].as<int>();
    if (has(o, "bias")) out.bias = to_mat(o["bias"]);
    return out;
}

Projections to_projections(const val& p) {
    Projections out;
    if (p.isUndefined()) return out;
    if (has(p, "Wq")) out.Wq = to_mat(p["Wq"]);
    if (has(p, "Wk")) out.Wk = to_mat(p["Wk"]);
    if (has(p, "Wv")) out.Wv = to_mat(p["Wv"]);
    return out;
}

static val float32_array(const Scalar* data, Index size) {
    return val::global("Float32Array").new_(typed_memory_view(size_t(size), data));
}

val from_mat(const Mat& m) {
    val out = val::object();
    out.set("rows", int(m.rows()));
    out.set("cols", int(m.cols()));
    out.set("data", float32_array(m.data(), m.size()));
    return out;
}

val from_vec(const Vec& v) { return float32_array(v.data(), v.size()); }

val from_mask(const Mask& m) {
    std::vector<std::uint8_t> bytes(size_t(m.size()));
    for (Index i = 0; i < m.size(); ++i) bytes[size_t(i)] = m.data()[i] ? 1 : 0;
    val out = val::object();
    out.set("rows", int(m.rows()));
    out.set("cols", int(m.cols()));
    out.set("data", val::global("Uint8Array").new_(typed_memory_view(bytes.size(), bytes.data())));
    return out;
}

val float64_array(const std::vector<double>& xs) {
    return val::global("Float64Array").new_(typed_memory_view(xs.size(), xs.data()));
}

val from_indices(const std::vector<Index>& xs) {
    std::vector<std::int32_t> narrow(xs.begin(), xs.end());
    return val::global("Int32Array").new_(typed_memory_view(narrow.size(), narrow.data()));
}

val from_strings(const std::vector<std::string>& xs) {
    val out = val::array();
    for (const std::string& x : xs) out.call<void>("push", x);
    return out;
}

val from_score_params(const ScoreParams& p, Score score) {
    val out = val::object();
    if (p.W.size()) out.set("W", from_mat(p.W));
    if (p.U.size()) out.set("U", from_mat(p.U));
    if (p.v.size()) out.set("v", from_vec(p.v));
    if (score == Score::gaussian) out.set("sigma", p.sigma);
    return out;
}

val from_projections(const Projections& W) {
    val out = val::object();
    out.set("Wq", from_mat(W.Wq));
    out.set("Wk", from_mat(W.Wk));
    out.set("Wv", from_mat(W.Wv));
    return out;
}

val from_map_list(const std::vector<Mat>& maps) {
    val out = val::array();
    for (const Mat& m : maps) out.call<void>("push", from_mat(m));
    return out;
}

val from_maps(const std::vector<std::vector<Mat>>& per_layer) {
    val out = val::array();
    for (const auto& heads : per_layer) out.call<void>("push", from_map_list(heads));
    return out;
}

void set_attention(val& out, const AttentionResult& r) {
    out.set("scores", from_mat(r.scores));
    out.set("scale", r.scale);
    out.set("scaled", from_mat(r.scaled));
    out.set("mask", from_mask(r.mask));
    out.set("masked", from_mat(r.masked));
    out.set("rowMax", from_vec(r.row_max));
    out.set("exps", from_mat(r.exps));
    out.set("rowSums", from_vec(r.row_sums));
    out.set("weights", from_mat(r.weights));
    out.set("output", from_mat(r.output));
}

void set_projected(val& out, const ProjectedAttention& r, Score score) {
    out.set("Q", from_mat(r.Q));
    out.set("K", from_mat(r.K));
    out.set("V", from_mat(r.V));
    out.set("projections", from_projections(r.W));
    set_attention(out, r.attention);
    out.set("params", from_score_params(r.attention.params, score));
}

val created(int handle, const val& options) {
    val out = handle_object(handle);
    out.set("options", options);
    return out;
}

val with_defaults(val defaults, const val& o) {
    val::global("Object").call<void>("assign", defaults, o);
    return defaults;
}

void fail_deleted(const char* kind) { fail(std::string("this ") + kind + " was deleted", Code::deleted); }

// The core's failure as the facade reads it (cpp/facade/core.js): a
// CoreFailure (the facade's class, Module.CoreFailure) holding the core's
// code, the argument it names and its message. Not an Error: making one
// captures a stack, which the facade's AttentionError captures again. The
// message goes over as a std::string, read as UTF-8 ("白"); a C string would
// be read as Latin-1. The code and the argument are ASCII.
static val failure(Code code, const char* argument, const char* message) {
    return val::module_property("CoreFailure").new_(val(code_name(code)), val(argument), val(std::string(message)));
}

// (one catch clause: each clause of a try costs half a kilobyte of WASM)
val guard_call(val (*body)(void* f), void* f) {
    try {
        return body(f);
    } catch (const std::exception& e) {
        if (const auto* core = dynamic_cast<const invalid_argument*>(&e))
            return failure(core->code, core->argument.c_str(), e.what());
        if (dynamic_cast<const std::bad_alloc*>(&e))
            return failure(Code::out_of_memory, "", "out of memory: the inputs are too large for this module");
        return failure(Code::bad_argument, "", e.what());
    }
}

// a MemoryStats (a value_object): this module's own heap (each module has one)
val raw_memory_stats() {
    const struct mallinfo info = mallinfo();
    MemoryStats out;
    out.heap_bytes = double(__builtin_wasm_memory_size(0)) * 65536;
    out.allocated_bytes = double(info.uordblks);
    return val(out);
}

}  // namespace attn::js
