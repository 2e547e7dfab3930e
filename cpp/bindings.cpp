// The only file that knows about Embind: converts between the canonical JS
// objects that api.js hands over (types checked, defaults filled in) and the
// core's types, and back. No maths, no defaults.
//
// Every raw_* function returns a plain JS object, or the message of the
// exception the core threw as a string; api.js turns that into an Error. Nothing
// throws across the boundary, so every C++ destructor runs and the module keeps
// working after bad input.
#include "attention/attention_all.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

using emscripten::typed_memory_view;
using emscripten::val;
using namespace attn;

namespace {

// ---- JS -> C++ (types are already checked by api.js) ----------------------

bool has(const val& o, const char* key) { return !o[key].isUndefined(); }

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

// The options shared by every function that ends in attention().
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

// ---- C++ -> JS: copies, never views of the heap ---------------------------

val float32_array(const Scalar* data, Index size) {
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
    return val::global("Uint8Array").new_(typed_memory_view(bytes.size(), bytes.data()));
}

val from_score_params(const ScoreParams& p, Score score) {
    val out = val::object();
    if (p.W.size()) out.set("W", from_mat(p.W));
    if (p.U.size()) out.set("U", from_mat(p.U));
    if (p.v.size()) out.set("v", from_vec(p.v));
    if (score == Score::gaussian) out.set("sigma", p.sigma);
    return out;
}

// scores -> scaled -> masked -> weights -> output, into out
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

val from_projections(const Projections& W) {
    val out = val::object();
    out.set("Wq", from_mat(W.Wq));
    out.set("Wk", from_mat(W.Wk));
    out.set("Wv", from_mat(W.Wv));
    return out;
}

void set_projected(val& out, const ProjectedAttention& r, Score score) {
    out.set("Q", from_mat(r.Q));
    out.set("K", from_mat(r.K));
    out.set("V", from_mat(r.V));
    out.set("projections", from_projections(r.W));
    set_attention(out, r.attention);
    out.set("params", from_score_params(r.attention.params, score));
}

// Runs f; an exception becomes its message, returned as a JS string.
template <class F>
val guarded(F&& f) {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return val(std::string("out of memory: the inputs are too large for this module"));
    } catch (const std::exception& e) {
        return val(std::string(e.what()));
    }
}

// ---- the raw functions behind api.js ---------------------------------------

val raw_softmax(val o) {
    return guarded([&] {
        const Mat x = to_mat(o["x"]);
        const Scalar temperature = o["temperature"].as<float>();
        const Mask mask = has(o, "mask") ? mask_from_bytes(to_bytes(o["mask"]), x.rows(), x.cols())
                                         : Mask::Constant(x.rows(), x.cols(), true);
        return from_mat(masked_softmax_rows(x, mask, temperature));
    });
}

val raw_attention(val o) {
    return guarded([&] {
        const Mat Q = to_mat(o["query"]), K = to_mat(o["key"]), V = to_mat(o["value"]);
        const AttentionOptions opts = to_attention_options(o, Q.rows(), K.rows());
        val out = val::object();
        const AttentionResult r = attention(Q, K, V, opts);
        set_attention(out, r);
        out.set("params", from_score_params(r.params, opts.score));
        return out;
    });
}

// attention({ ..., intermediates: false }): the output alone; for the dot
// score the fused kernel forms no (n_q, n_k) matrix
val raw_attention_output(val o) {
    return guarded([&] {
        const Mat Q = to_mat(o["query"]), K = to_mat(o["key"]), V = to_mat(o["value"]);
        val out = val::object();
        out.set("output", from_mat(attention_output(Q, K, V, to_attention_options(o, Q.rows(), K.rows()))));
        return out;
    });
}

}  // namespace

// The lean path of attention({ ..., intermediates: false }) for the dot score
// without an explicit mask: api.js copies the inputs into the heap and passes
// numbers alone, no Embind value (each of those costs a round trip through the
// handle table), so a call with n = 16 takes microseconds. scale: NaN for the
// default; valid_length: -1 for none. Returns 0, or 1 when the core rejects the
// input: api.js then takes raw_attention_output, whose message names the problem.
extern "C" EMSCRIPTEN_KEEPALIVE int raw_attention_output_lean(const float* q, const float* k, const float* v,
                                                              float* out, int n_q, int n_k, int n_v, int d_q,
                                                              int d_k, int d_v, double scale, int causal,
                                                              int valid_length) {
    try {
        using In = Eigen::Map<const Mat>;
        AttentionOptions o;
        if (!std::isnan(scale)) o.scale = Scalar(scale);
        o.causal = causal != 0;
        if (valid_length >= 0) o.valid_length = valid_length;
        Eigen::Map<Mat>(out, n_q, d_v) = attention_output(In(q, n_q, d_q), In(k, n_k, d_k), In(v, n_v, d_v), o);
        return 0;
    } catch (...) {
        return 1;
    }
}

namespace {

// self-attention when o.memory is absent, cross-attention otherwise
val raw_projected_attention(val o) {
    return guarded([&] {
        const Mat X = to_mat(o["input"]);
        const Mat M = has(o, "memory") ? to_mat(o["memory"]) : X;
        const Projections W = projections_complete(to_projections(o["projections"]), X.cols(), M.cols(),
                                                   o["dK"].as<int>(), o["dV"].as<int>(), to_seed(o["seed"]));
        const AttentionOptions opts = to_attention_options(o, X.rows(), M.rows());
        val out = val::object();
        set_projected(out, cross_attention(X, M, W, opts), opts.score);
        return out;
    });
}

val raw_multi_head_attention(val o) {
    return guarded([&] {
        const Mat X = to_mat(o["input"]);
        const Mat M = has(o, "memory") ? to_mat(o["memory"]) : X;
        MultiHeadParams given;
        given.W = to_projections(o["projections"]);
        if (has(o, "projections") && has(o["projections"], "Wo")) given.Wo = to_mat(o["projections"]["Wo"]);
        const MultiHeadParams p =
            multi_head_params_complete(given, X.cols(), M.cols(), o["dModel"].as<int>(), to_seed(o["seed"]));
        const MultiHeadResult r =
            multi_head_attention(X, M, o["heads"].as<int>(), p, to_attention_options(o, X.rows(), M.rows()));
        val out = val::object();
        out.set("Q", from_mat(r.Q));
        out.set("K", from_mat(r.K));
        out.set("V", from_mat(r.V));
        val list = val::array();
        for (const AttentionResult& head : r.heads) {
            val h = val::object();
            set_attention(h, head);
            list.call<void>("push", h);
        }
        out.set("heads", list);
        out.set("concat", from_mat(r.concat));
        out.set("output", from_mat(r.output));
        val W = from_projections(r.params.W);
        W.set("Wo", from_mat(r.params.Wo));
        out.set("projections", W);
        return out;
    });
}

val raw_positional_encoding(val o) {
    return guarded([&] { return from_mat(positional_encoding(o["n"].as<int>(), o["d"].as<int>())); });
}

val raw_add_positional_encoding(val o) {
    return guarded([&] { return from_mat(add_positional_encoding(to_mat(o["input"]))); });
}

val raw_permute_map(val o) {
    return guarded([&] {
        const std::vector<int> given = emscripten::convertJSArrayToNumberVector<int>(o["order"]);
        return from_mat(permute_map(to_mat(o["map"]), std::vector<Index>(given.begin(), given.end())));
    });
}

val raw_max_abs_difference(val o) {
    return guarded([&] { return val(max_abs_difference(to_mat(o["a"]), to_mat(o["b"]))); });
}

val raw_conditional_attention(val o) {
    return guarded([&] {
        const Mat X = to_mat(o["input"]);
        const Vec c = to_vec(o["condition"]);
        const Fusion fusion = fusion_from_name(o["fusion"].as<std::string>());
        const AttentionOptions opts = to_attention_options(o, X.rows(), X.rows());
        const ConditionalResult r =
            conditional_attention(X, c, fusion, o["dK"].as<int>(), o["dV"].as<int>(), to_seed(o["seed"]), opts);
        val out = val::object();
        out.set("fusion", std::string(fusion_name(fusion)));
        out.set("fused", from_mat(r.fused));
        if (r.P.size()) out.set("P", from_mat(r.P));
        if (r.Wf.size()) out.set("Wf", from_mat(r.Wf));
        if (r.bf.size()) out.set("bf", from_vec(r.bf));
        set_projected(out, r.attn, opts.score);
        return out;
    });
}

val from_kernel_regression(const KernelRegressionResult& r) {
    val out = val::object();
    if (r.queries.size()) out.set("queries", from_vec(r.queries));
    if (r.scores.size()) out.set("scores", from_mat(r.scores));
    if (r.scaled.size()) out.set("scaled", from_mat(r.scaled));
    out.set("weights", from_mat(r.weights));
    out.set("contributions", from_mat(r.contributions));
    out.set("estimates", from_vec(r.estimates));
    out.set("estimate", r.estimates(0));
    return out;
}

// queries given one by one or as a range
val raw_kernel_regression(val o) {
    return guarded([&] {
        const Vec keys = to_vec(o["keys"]), values = to_vec(o["values"]);
        const val range = o["range"];
        const Vec queries = has(o, "queries") ? to_vec(o["queries"])
                                              : linspace(range["from"].as<float>(), range["to"].as<float>(),
                                                         range["count"].as<int>());
        const AttentionOptions opts = to_attention_options(o, queries.size(), keys.size());
        return from_kernel_regression(kernel_regression(keys, values, queries, opts));
    });
}

// weights chosen by hand
val raw_kernel_weights(val o) {
    return guarded([&] {
        return from_kernel_regression(
            kernel_regression_weights(to_vec(o["keys"]), to_vec(o["values"]), to_vec(o["weights"])));
    });
}

val raw_cost_model(val o) {
    return guarded([&] {
        val list = val::array();
        for (const LayerCost& c : cost_model(o["n"].as<int>(), o["d"].as<int>(), o["k"].as<int>())) {
            val row = val::object();
            row.set("layer", c.layer);
            row.set("complexity", c.complexity);
            row.set("sequential", c.sequential);
            row.set("path", c.path);
            row.set("multiplyAdds", c.multiply_adds);
            row.set("sequentialOps", c.sequential_ops);
            row.set("maxPathLength", c.max_path_length);
            row.set("parameters", c.parameters);
            list.call<void>("push", row);
        }
        return list;
    });
}

val raw_entropy(val o) {
    return guarded([&] { return from_vec(entropy_rows(to_mat(o["weights"]))); });
}

val raw_sigmoid(val o) {
    return guarded([&] { return from_mat(sigmoid(to_mat(o["x"]))); });
}

val raw_embed_tokens(val o) {
    return guarded([&] {
        return from_mat(embed_tokens(emscripten::vecFromJSArray<std::string>(o["tokens"]), o["d"].as<int>(),
                                     to_seed(o["seed"])));
    });
}

val raw_dot_product_samples(val o) {
    return guarded([&] {
        const DotProductSamples s = dot_product_samples(o["d"].as<int>(), o["count"].as<int>(), to_seed(o["seed"]));
        val out = val::object();
        out.set("dots", from_vec(s.dots));
        out.set("scaled", from_vec(s.scaled));
        out.set("mean", s.mean);
        out.set("variance", s.variance);
        out.set("scaledMean", s.scaled_mean);
        out.set("scaledVariance", s.scaled_variance);
        return out;
    });
}

val raw_histogram(val o) {
    return guarded([&] {
        const Histogram h = histogram(to_vec(o["values"]), o["bins"].as<int>(), o["from"].as<float>(), o["to"].as<float>());
        val out = val::object();
        out.set("counts", val::global("Int32Array").new_(typed_memory_view(h.counts.size(), h.counts.data())));
        out.set("edges", from_vec(h.edges));
        out.set("below", h.below);
        out.set("above", h.above);
        return out;
    });
}

val raw_fit_line(val o) {
    return guarded([&] {
        const LineFit f = fit_line(to_vec(o["xs"]), to_vec(o["ys"]));
        val out = val::object();
        out.set("slope", f.slope);
        out.set("intercept", f.intercept);
        out.set("rSquared", f.r_squared);
        return out;
    });
}

val raw_init_xavier(val o) {
    return guarded([&] {
        return from_mat(init_xavier(o["rows"].as<int>(), o["cols"].as<int>(), to_seed(o["seed"]), to_seed(o["stream"])));
    });
}

// ---- the pretrained encoder: JS holds a handle, never a pointer --------------

std::map<int, std::unique_ptr<Encoder>>& encoders() {
    static std::map<int, std::unique_ptr<Encoder>> loaded;
    return loaded;
}

const Encoder& encoder_of(const val& o) {
    const auto found = encoders().find(o["handle"].as<int>());
    require(found != encoders().end(), "this encoder was deleted");
    return *found->second;
}

val strings(const std::vector<std::string>& xs) {
    val out = val::array();
    for (const std::string& x : xs) out.call<void>("push", x);
    return out;
}

val int32_array(const std::vector<Index>& xs) {
    std::vector<std::int32_t> narrow(xs.begin(), xs.end());
    return val::global("Int32Array").new_(typed_memory_view(narrow.size(), narrow.data()));
}

// [layer][head] -> Matrix
val maps(const std::vector<std::vector<Mat>>& per_layer) {
    val out = val::array();
    for (const auto& heads : per_layer) {
        val row = val::array();
        for (const Mat& m : heads) row.call<void>("push", from_mat(m));
        out.call<void>("push", row);
    }
    return out;
}

val raw_encoder_load(val o) {
    return guarded([&] {
        static int next_handle = 1;
        const std::vector<std::uint8_t> bytes = to_bytes(o["bytes"]);
        auto encoder = std::make_unique<Encoder>(load_encoder(bytes.data(), bytes.size()));
        val out = val::object();
        out.set("handle", next_handle);
        out.set("vocabulary", int(encoder->vocab.size()));
        out.set("heads", int(encoder->heads));
        out.set("maxPieces", int(encoder->max_pieces));
        val widths = val::array();
        for (const EncoderLayer& L : encoder->layers) widths.call<void>("push", int(L.attention.Wo.rows()));
        out.set("layerWidths", widths);
        out.set("embeddingWidth", int(encoder->pool_b.size()));
        encoders().emplace(next_handle++, std::move(encoder));
        return out;
    });
}

val raw_encoder_encode(val o) {
    return guarded([&] {
        const EncoderResult r = encode(encoder_of(o), o["text"].as<std::string>());
        std::vector<std::vector<Mat>> piece_maps;
        for (const MultiHeadResult& layer : r.attention) {
            piece_maps.emplace_back();
            for (const AttentionResult& head : layer.heads) piece_maps.back().push_back(head.weights);
        }
        val out = val::object();
        out.set("ids", int32_array(r.tokens.ids));
        out.set("pieces", strings(r.tokens.pieces));
        out.set("words", strings(r.tokens.words));
        out.set("wordOfPiece", int32_array(r.tokens.word_of_piece));
        out.set("truncated", r.truncated);
        out.set("attention", maps(piece_maps));
        out.set("wordAttention", maps(r.word_attention));
        out.set("embedding", from_vec(r.embedding));
        return out;
    });
}

val raw_encoder_delete(val o) {
    return guarded([&] {
        encoders().erase(o["handle"].as<int>());
        return val(true);
    });
}

val raw_memory_stats() {
    const struct mallinfo info = mallinfo();
    val out = val::object();
    out.set("heapBytes", double(__builtin_wasm_memory_size(0)) * 65536);
    out.set("allocatedBytes", double(info.uordblks));
    return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention) {
    emscripten::function("raw_softmax", &raw_softmax);
    emscripten::function("raw_encoder_load", &raw_encoder_load);
    emscripten::function("raw_encoder_encode", &raw_encoder_encode);
    emscripten::function("raw_encoder_delete", &raw_encoder_delete);
    emscripten::function("raw_attention", &raw_attention);
    emscripten::function("raw_attention_output", &raw_attention_output);
    emscripten::function("raw_projected_attention", &raw_projected_attention);
    emscripten::function("raw_multi_head_attention", &raw_multi_head_attention);
    emscripten::function("raw_positional_encoding", &raw_positional_encoding);
    emscripten::function("raw_add_positional_encoding", &raw_add_positional_encoding);
    emscripten::function("raw_permute_map", &raw_permute_map);
    emscripten::function("raw_max_abs_difference", &raw_max_abs_difference);
    emscripten::function("raw_conditional_attention", &raw_conditional_attention);
    emscripten::function("raw_kernel_regression", &raw_kernel_regression);
    emscripten::function("raw_kernel_weights", &raw_kernel_weights);
    emscripten::function("raw_cost_model", &raw_cost_model);
    emscripten::function("raw_init_xavier", &raw_init_xavier);
    emscripten::function("raw_entropy", &raw_entropy);
    emscripten::function("raw_sigmoid", &raw_sigmoid);
    emscripten::function("raw_embed_tokens", &raw_embed_tokens);
    emscripten::function("raw_dot_product_samples", &raw_dot_product_samples);
    emscripten::function("raw_histogram", &raw_histogram);
    emscripten::function("raw_fit_line", &raw_fit_line);
    emscripten::function("raw_memory_stats", &raw_memory_stats);
}
