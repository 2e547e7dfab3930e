// The raw functions of the core (see raw.hpp): read the canonical arguments,
// call the core once, convert the result. No maths, no defaults.
#include "bindings/raw.hpp"

#include "bindings/convert.hpp"

#include <emscripten/bind.h>

#include <cmath>

namespace attn::js {

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

// attention({ ..., intermediates: false }): the output alone (and, with
// logSumExp, each row's); for the dot score the fused kernel forms no (n_q, n_k) matrix
val raw_attention_output(val o) {
    return guarded([&] {
        const Mat Q = to_mat(o["query"]), K = to_mat(o["key"]), V = to_mat(o["value"]);
        const bool lse = has(o, "logSumExp") && o["logSumExp"].as<bool>();
        Vec log_sum_exp;
        val out = val::object();
        out.set("output", from_mat(attention_output(Q, K, V, to_attention_options(o, Q.rows(), K.rows()),
                                                    lse ? &log_sum_exp : nullptr)));
        if (lse) out.set("logSumExp", from_vec(log_sum_exp));
        return out;
    });
}

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
        const int heads = o["heads"].as<int>(), kv_heads = o["kvHeads"].as<int>();
        const MultiHeadParams p = multi_head_params_complete(given, X.cols(), M.cols(), o["dModel"].as<int>(), heads,
                                                             kv_heads, to_seed(o["seed"]));
        const MultiHeadResult r =
            multi_head_attention(X, M, heads, kv_heads, p, to_attention_options(o, X.rows(), M.rows()));
        val out = val::object();
        out.set("Q", from_mat(r.Q));
        out.set("K", from_mat(r.K));
        out.set("V", from_mat(r.V));
        val list = val::array();
        for (size_t i = 0; i < r.heads.size(); ++i) {
            val h = val::object();
            set_attention(h, r.heads[i]);
            h.set("kvHead", int(r.kv_head[i]));
            h.set("key", from_mat(r.keys[i]));
            h.set("value", from_mat(r.values[i]));
            list.call<void>("push", h);
        }
        out.set("perHead", list);
        out.set("concat", from_mat(r.concat));
        out.set("output", from_mat(r.output));
        val W = from_projections(r.params.W);
        W.set("Wo", from_mat(r.params.Wo));
        out.set("projections", W);
        return out;
    });
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

static val from_kernel_regression(const KernelRegressionResult& r) {
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

// q·k and −|q − k|²/2 side by side, with each one's weights
val raw_dot_and_kernel(val o) {
    return guarded([&] {
        const DotKernel r = dot_and_kernel(to_vec(o["query"]), to_mat(o["keys"]), o["equalLength"].as<bool>());
        return object_of("keys", from_mat(r.keys), "lengths", from_vec(r.lengths), "queryLength", r.query_length,
                         "dot", from_vec(r.dot), "kernel", from_vec(r.kernel),
                         "dotWeights", from_vec(r.dot_weights), "kernelWeights", from_vec(r.kernel_weights),
                         "maxDifference", r.max_difference);
    });
}

// a SelfMapStats (a value_object)
val raw_self_map_stats(val o) {
    return guarded([&] { return val(self_map_stats(to_mat(o["scores"]), to_mat(o["weights"]))); });
}

// each row a LayerCost (a value_object)
val raw_cost_model(val o) {
    return guarded([&] {
        val list = val::array();
        for (const LayerCost& c : cost_model(o["n"].as<int>(), o["d"].as<int>(), o["k"].as<int>()))
            list.call<void>("push", c);
        return list;
    });
}

val raw_generation_cost(val o) {
    return guarded([&] {
        GenerationOptions g;  // the core's defaults, under the options given
        if (has(o, "heads")) g.heads = o["heads"].as<int>();
        if (has(o, "kvHeads")) g.kv_heads = o["kvHeads"].as<int>();
        if (has(o, "window")) g.window = o["window"].as<int>();
        return val(generation_cost(o["n"].as<int>(), o["d"].as<int>(), g));
    });
}

val raw_kv_cache_bytes(val o) {
    return guarded([&] {
        const int layers = o["layers"].as<int>(), kv_heads = o["kvHeads"].as<int>(), head_dim = o["headDim"].as<int>(),
                  tokens = o["tokens"].as<int>();
        if (!has(o, "bytesPerNumber")) return val(kv_cache_bytes(layers, kv_heads, head_dim, tokens));  // the core's default
        return val(kv_cache_bytes(layers, kv_heads, head_dim, tokens, o["bytesPerNumber"].as<int>()));
    });
}

val raw_attention_projection_parameters(val o) {
    return guarded([&] {
        return val(attention_projection_parameters(o["layers"].as<int>(), o["heads"].as<int>(), o["kvHeads"].as<int>(),
                                                   o["headDim"].as<int>(), has(o, "dModel") ? o["dModel"].as<int>() : 0));
    });
}

val raw_rotary(val o) {
    return guarded([&] {
        RotaryOptions r;  // the core's defaults, under the options given
        if (has(o, "base")) r.base = o["base"].as<double>();
        if (has(o, "offset")) r.offset = o["offset"].as<int>();
        return from_mat(rotary(to_mat(o["matrix"]), r));
    });
}

val raw_alibi_slopes(val o) {
    return guarded([&] { return from_vec(alibi_slopes(o["heads"].as<int>())); });
}

val raw_entropy(val o) {
    return guarded([&] { return from_vec(entropy_rows(to_mat(o["weights"]))); });
}

val raw_max_entropy(val o) {
    return guarded([&] { return val(max_entropy(o["n"].as<int>())); });
}

val raw_sigmoid(val o) {
    return guarded([&] { return from_mat(sigmoid(to_mat(o["x"]))); });
}

val raw_row_sums(val o) {
    return guarded([&] { return from_vec(row_sums(to_mat(o["m"]))); });
}

val raw_scale(val o) {
    return guarded([&] { return from_mat(scale(to_mat(o["m"]), o["factor"].as<float>())); });
}

val raw_dot_products(val o) {
    return guarded([&] { return from_mat(dot_products(to_mat(o["a"]), to_mat(o["b"]))); });
}

val raw_top_rows(val o) {
    return guarded([&] {
        const RowTop top = top_rows(to_mat(o["m"]));
        return object_of("index", from_indices(top.index), "value", from_vec(top.value));
    });
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
        return object_of("dots", from_vec(s.dots), "scaled", from_vec(s.scaled), "mean", s.mean,
                         "variance", s.variance, "scaledMean", s.scaled_mean,
                         "scaledVariance", s.scaled_variance);
    });
}

val raw_histogram(val o) {
    return guarded([&] {
        const Histogram h = histogram(to_vec(o["values"]), o["bins"].as<int>(), o["from"].as<float>(), o["to"].as<float>());
        return object_of("counts", val::global("Int32Array").new_(emscripten::typed_memory_view(h.counts.size(), h.counts.data())),
                         "edges", from_vec(h.edges), "below", h.below, "above", h.above);
    });
}

// a LineFit (a value_object)
val raw_fit_line(val o) {
    return guarded([&] { return val(fit_line(to_vec(o["xs"]), to_vec(o["ys"]))); });
}

val raw_init_xavier(val o) {
    return guarded([&] {
        return from_mat(init_xavier(o["rows"].as<int>(), o["cols"].as<int>(), to_seed(o["seed"]), to_seed(o["stream"])));
    });
}

val raw_init_uniform(val o) {
    return guarded([&] {
        return from_mat(init_uniform(o["rows"].as<int>(), o["cols"].as<int>(), to_seed(o["seed"]),
                                     to_seed(o["stream"]), o["limit"].as<float>()));
    });
}

// the five-character quatrain form of each text (attention/language_model/text.hpp): { passed, total, share }
val raw_quatrain_form(val o) {
    return guarded([&] {
        return val(train::quatrain_form(to_strings(o["texts"])));
    });
}

}  // namespace attn::js
