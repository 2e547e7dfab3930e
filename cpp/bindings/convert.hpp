// Conversions between the canonical JS objects that the facade (cpp/facade/)
// hands over (types checked) and the core's types, and back. No maths, no
// defaults: an option left out of a core options struct keeps the core's
// default (with_defaults). The files of cpp/bindings/ are the only ones that
// include an Emscripten header.
#pragma once

#include "attention/attention_all.hpp"

#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn::js {

using emscripten::val;

// ---- JS -> C++ (types are already checked by the facade) ------------------

inline bool has(const val& o, const char* key) { return !o[key].isUndefined(); }

Mat to_mat(const val& m);                  // { rows, cols, data: Float32Array }
Vec to_vec(const val& v);                  // Float32Array
std::vector<std::uint8_t> to_bytes(const val& v);
std::vector<std::string> to_strings(const val& xs);  // an array of strings
std::uint64_t to_seed(const val& v);       // a safe non-negative integer
ScoreParams to_score_params(const val& p);
Projections to_projections(const val& p);
// The options shared by every function that ends in attention().
AttentionOptions to_attention_options(const val& o, Index n_queries, Index n_keys);

// The options of a core options struct registered as a value_object
// (attention.cpp, training.cpp): the fields o gives over Options{}, whose defaults are the
// core's, written there once. -> every field, by its JS name
val with_defaults(val defaults, const val& o);  // defaults with o's fields over them (convert.cpp)
template <class Options>
val with_defaults(const val& o) {
    return with_defaults(val(Options{}), o);
}

// A struct's number fields by their JS names: { "dModel", &Options::d_model }
template <class Options>
using NumberFields = std::initializer_list<std::pair<const char*, double Options::*>>;
// the fields o gives, read onto out (the others keep the core's defaults)
template <class Options>
void read_fields(Options& out, const val& o, NumberFields<Options> fields) {
    for (const auto& [name, member] : fields)
        if (has(o, name)) out.*member = o[name].template as<double>();
}
// every field of in: { name: value }
template <class Options>
val fields_of(const Options& in, NumberFields<Options> fields) {
    val out = val::object();
    for (const auto& [name, member] : fields) out.set(name, in.*member);
    return out;
}

// ---- C++ -> JS: copies, never views of the heap ---------------------------

val from_mat(const Mat& m);                // { rows, cols, data: Float32Array }
val from_vec(const Vec& v);                // Float32Array
val from_mask(const Mask& m);              // { rows, cols, data: Uint8Array }, row-major
val from_indices(const std::vector<Index>& xs);  // Int32Array
val float64_array(const std::vector<double>& xs);  // Float64Array
// a training step's result (a value_object, training.cpp) with the loss of each
// step of the call: { step, loss, ..., losses: Float64Array }
template <class Step>
val step_result(const Step& r, const std::vector<double>& losses) {
    val out(r);
    out.set("losses", float64_array(losses));
    return out;
}
val from_strings(const std::vector<std::string>& xs);
// an object of named values: object_of("dots", from_vec(d), "mean", m), set in that order
inline void set_fields(val&) {}
template <class T, class... Rest>
void set_fields(val& out, const char* name, T&& value, Rest&&... rest) {
    out.set(name, std::forward<T>(value));
    set_fields(out, std::forward<Rest>(rest)...);
}
template <class... Fields>
val object_of(Fields&&... fields) {
    val out = val::object();
    set_fields(out, std::forward<Fields>(fields)...);
    return out;
}
val from_score_params(const ScoreParams& p, Score score);
val from_projections(const Projections& W);
// [head] -> Matrix
val from_map_list(const std::vector<Mat>& maps);
// [layer][head] -> Matrix
val from_maps(const std::vector<std::vector<Mat>>& per_layer);
// scores -> scaled -> masked -> weights -> output, into out
void set_attention(val& out, const AttentionResult& r);
void set_projected(val& out, const ProjectedAttention& r, Score score);

// Runs f; an exception becomes the failure the facade throws as an
// AttentionError (cpp/facade/core.js): a JS Error with the core's message,
// code ("BAD_ARGUMENT", ...: ATTN_ERROR_CODES) and argument (the core's name
// of the argument it is about, "" if none); bad_alloc is OUT_OF_MEMORY.
// Nothing throws across the boundary, so every C++ destructor runs and the
// module keeps working after bad input. The catching is one function
// (guard_call, convert.cpp) for every raw function, not a copy in each.
val guard_call(val (*body)(void* f), void* f);
template <class F>
val guarded(F&& f) {
    return guard_call([](void* g) -> val { return (*static_cast<std::remove_reference_t<F>*>(g))(); }, &f);
}

}  // namespace attn::js
