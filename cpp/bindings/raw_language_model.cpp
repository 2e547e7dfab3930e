// The language model behind the facade's language-model.js (attention/
// language_model/model.hpp, analysis.hpp). JS holds a handle, never a pointer;
// a deleted handle is an error. Each live model keeps a buffer for the losses
// of step(n), reused from call to call, and its n-gram ladder once computed.
#include "bindings/convert.hpp"
#include "bindings/handles.hpp"
#include "bindings/live_model.hpp"
#include "bindings/raw.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

namespace attn::js {

using emscripten::typed_memory_view;
using train::LanguageModel;

namespace {

Handles<LiveModel>& models() {
    static Handles<LiveModel> live("language model");
    return live;
}

LanguageModel& model_of(const val& o) { return *live_of(o).model; }
// the ladder depends on the model's texts alone: computed on the first call and kept
const train::Baselines& baselines_of(const val& o) {
    LiveModel& live = live_of(o);
    if (live.baselines.empty()) live.baselines.push_back(train::baselines(*live.model));
    return live.baselines[0];
}

val numbers(const std::vector<std::vector<double>>& per_layer) {
    val out = val::array();
    for (const auto& row : per_layer) {
        val r = val::array();
        for (double x : row) r.call<void>("push", x);
        out.call<void>("push", r);
    }
    return out;
}

val next_tokens(const train::NextTokens& t) {
    val out = val::object();
    out.set("tokens", from_strings(t.tokens));
    out.set("probabilities",
            val::global("Float32Array").new_(typed_memory_view(t.probabilities.size(), t.probabilities.data())));
    return out;
}

// { token, position, rows: [layer][head] Float32Array(t + 1), cachedMultiplyAdds, uncachedMultiplyAdds,
//   attention: { cached, uncached } (one layer's), cacheNumbers, cacheEntries, prefillMultiplyAdds, decodeMultiplyAdds,
//   next, done,
//   kept: { tokens, probabilities } }
val decode_step(const train::DecodeStep& s) {
    val rows = val::array();
    for (const auto& layer : s.rows) {
        val heads = val::array();
        for (const auto& row : layer)
            heads.call<void>("push", val::global("Float32Array").new_(typed_memory_view(row.size(), row.data())));
        rows.call<void>("push", heads);
    }
    return object_of("token", s.token, "position", s.position, "rows", rows,
                     "cachedMultiplyAdds", s.cached_multiply_adds, "uncachedMultiplyAdds", s.uncached_multiply_adds,
                     "attention", object_of("cached", s.attention_cached, "uncached", s.attention_uncached),
                     "cacheNumbers", s.cache_numbers, "cacheEntries", s.cache_entries,
                     "prefillMultiplyAdds", s.prefill_multiply_adds,
                     "decodeMultiplyAdds", s.decode_multiply_adds, "next", s.next, "done", s.done,
                     "kept", next_tokens(s.kept));
}

// a role's score, or null where no query of the texts has it (NaN in the core)
val score_or_null(double x) { return std::isnan(x) ? val::null() : val(x); }

// { previous, self, first, induction, line, best, score }
val head_role(const train::HeadRole& r) {
    return object_of("previous", score_or_null(r.previous), "self", score_or_null(r.self),
                     "first", score_or_null(r.first), "induction", score_or_null(r.induction),
                     "line", score_or_null(r.line), "best", r.best, "score", score_or_null(r.score));
}

// { train: string[], heldOut: string[] }
val text_corpus(const train::TextCorpus& corpus) {
    return object_of("train", from_strings(corpus.train), "heldOut", from_strings(corpus.held_out));
}

}  // namespace

LiveModel& live_of(const val& o) { return models().get(o); }

// the sizes and rates of a language model by their JS names (the texts aside)
using train::LanguageModelOptions;
const NumberFields<LanguageModelOptions> kModelFields = {
    {"layers", &LanguageModelOptions::layers}, {"heads", &LanguageModelOptions::heads},
    {"dModel", &LanguageModelOptions::d_model}, {"context", &LanguageModelOptions::context},
    {"seed", &LanguageModelOptions::seed}, {"batch", &LanguageModelOptions::batch},
    {"learningRate", &LanguageModelOptions::learning_rate}, {"warmup", &LanguageModelOptions::warmup},
    {"clip", &LanguageModelOptions::clip}, {"minCount", &LanguageModelOptions::min_count},
    {"kvHeads", &LanguageModelOptions::kv_heads}, {"window", &LanguageModelOptions::window},
    {"sinks", &LanguageModelOptions::sinks},
};

// { texts, heldOut, and the sizes and rates given } -> { handle, options: every size and rate as used }
val raw_lm_create(val o) {
    return guarded([&] {
        LanguageModelOptions options;
        options.texts = to_strings(o["texts"]);
        options.held_out = to_strings(o["heldOut"]);
        read_fields(options, o, kModelFields);
        if (!o["position"].isUndefined()) options.position = o["position"].as<std::string>();
        val used = fields_of(options, kModelFields);
        used.set("position", options.position);
        return created(models().add(LiveModel{std::make_unique<LanguageModel>(options), {}, {}, {}}), used);
    });
}

val raw_lm_step(val o) {
    return guarded([&] {
        LiveModel& live = live_of(o);
        return step_result(live.model->step(o["steps"].as<double>(), &live.losses), live.losses);
    });
}

// {} -> the held-out texts' loss; { texts, length } -> those texts read in windows of length positions
val raw_lm_evaluate(val o) {
    return guarded([&] {
        if (o["length"].isUndefined()) return val(model_of(o).evaluate());
        return val(model_of(o).evaluate_texts(to_strings(o["texts"]), o["length"].as<double>()));
    });
}

// { handle, text, cached, cachePositions } -> { tokens, losses: Float64Array, mean }
val raw_lm_position_losses(val o) {
    return guarded([&] {
        train::PositionLossOptions p;  // the core's defaults, under the options given
        if (has(o, "cached")) p.cached = o["cached"].as<bool>();
        if (has(o, "cachePositions")) p.cache_positions = o["cachePositions"].as<std::string>();
        const train::PositionLosses r = train::position_losses(model_of(o), o["text"].as<std::string>(), p);
        return object_of("tokens", from_strings(r.tokens), "losses", float64_array(r.losses), "mean", r.mean);
    });
}

val raw_lm_next(val o) {
    return guarded([&] {
        return next_tokens(model_of(o).next(o["prefix"].as<std::string>()));
    });
}

val raw_lm_attention(val o) {
    return guarded([&] {
        const train::AttentionMaps m = model_of(o).attention(o["text"].as<std::string>());
        return object_of("tokens", from_strings(m.tokens), "weights", from_maps(m.weights));
    });
}

val raw_lm_head_scores(val o) {
    return guarded([&] {
        const train::HeadScores s = train::head_scores(model_of(o), o["text"].as<std::string>(), o["period"].as<double>());
        return object_of("previousLine", numbers(s.previous_line), "punctuation", numbers(s.punctuation));
    });
}

// { heads: [layer][head] { previous, self, first, induction, line, best, score }, texts, queries }
val raw_lm_head_roles(val o) {
    return guarded([&] {
        const train::HeadRoles roles = train::head_roles(model_of(o), to_strings(o["texts"]));
        val heads = val::array();
        for (const auto& layer : roles.heads) {
            val row = val::array();
            for (const train::HeadRole& r : layer) row.call<void>("push", head_role(r));
            heads.call<void>("push", row);
        }
        val out = val::object();
        out.set("heads", heads);
        out.set("texts", roles.texts);
        out.set("queries", roles.queries);
        return out;
    });
}

// { first: { loss, accuracy, tokens }, second: { … } } (value_objects)
val raw_lm_halves(val o) { return guarded([&] { return val(train::halves(model_of(o), to_strings(o["texts"]))); }); }

// { ladder: [{ order, loss, k, unseen }], tokens }
val raw_lm_baselines(val o) {
    return guarded([&] {
        const train::Baselines& b = baselines_of(o);
        val ladder = val::array();
        for (const train::NgramBaseline& n : b.ladder) ladder.call<void>("push", val(n));
        val out = val::object();
        out.set("ladder", ladder);
        out.set("tokens", b.tokens);
        return out;
    });
}

val raw_lm_generate(val o) {
    return guarded([&] {
        val out = val::object();
        out.set("text", model_of(o).generate(with_defaults<train::GenerateOptions>(o).as<train::GenerateOptions>()));
        return out;
    });
}

val raw_lm_trace(val o) {
    return guarded([&] {
        train::TraceOptions options;  // the options given over the core's defaults
        if (has(o, "residual")) options.residual = o["residual"].as<bool>();
        if (has(o, "layerNorm")) options.layer_norm = o["layerNorm"].as<bool>();
        if (has(o, "temperature")) options.temperature = o["temperature"].as<double>();
        const train::Trace t = train::trace(model_of(o), o["text"].as<std::string>(), options);
        val stages = val::array();
        for (const train::TraceStage& s : t.stages) {
            val stage = val::object();
            stage.set("name", s.name);
            stage.set("layer", s.layer);
            stage.set("values", from_mat(s.values));
            stage.set("rms", s.rms);
            stages.call<void>("push", stage);
        }
        val out = val::object();
        out.set("tokens", from_strings(t.tokens));
        out.set("stages", stages);
        out.set("next", next_tokens(t.next));
        out.set("entropy", t.entropy);
        out.set("loss", t.loss);
        return out;
    });
}

val raw_lm_begin_generation(val o) {
    return guarded([&] {
        val out = val::array();
        for (const train::DecodeStep& s :
             model_of(o).begin_generation(with_defaults<train::GenerateOptions>(o).as<train::GenerateOptions>()))
            out.call<void>("push", decode_step(s));
        return out;
    });
}

val raw_lm_next_token(val o) { return guarded([&] { return decode_step(model_of(o).next_token()); }); }

val raw_lm_gradient_check(val o) { return guarded([&] { return gradient_check_result(model_of(o).gradient_check()); }); }

val raw_lm_vocabulary(val o) {
    return guarded([&] {
        const train::VocabularyInfo v = model_of(o).vocabulary();
        val out = val::object();
        out.set("tokens", from_strings(v.tokens));
        out.set("unknown", v.unknown);
        out.set("coverage", v.coverage);
        return out;
    });
}

val raw_lm_info(val o) { return guarded([&] { return val(model_of(o).info()); }); }

val raw_lm_parameters(val o) {
    return guarded([&] {
        const train::ParameterStore& store = model_of(o).parameters();
        val out = val::object();
        for (Index i = 0; i < store.count(); ++i) out.set(store.tensor(i).name, from_mat(store.get(i)));
        return out;
    });
}

// { handle, names: string[], values: [{ rows, cols, data }] } -> true
val raw_lm_set_parameters(val o) {
    return guarded([&] {
        const std::vector<std::string> names = to_strings(o["names"]);
        const val given = o["values"];
        std::vector<Mat> values(names.size());
        for (int i = 0; i < int(names.size()); ++i) values[size_t(i)] = to_mat(given[i]);
        model_of(o).set_parameters(names, values);
        return val(true);
    });
}

val raw_lm_delete(val o) {
    return guarded([&] {
        models().remove(o);
        return val(true);
    });
}

// the repeats corpus (attention/language_model/text.hpp): { train: string[], heldOut: string[] }
val raw_repeats_corpus(val o) {
    return guarded([&] {
        using train::RepeatsOptions;
        RepeatsOptions options;  // the options given over the core's defaults
        read_fields(options, o, {{"train", &RepeatsOptions::train}, {"heldOut", &RepeatsOptions::held_out},
                                 {"minLength", &RepeatsOptions::min_length}, {"maxLength", &RepeatsOptions::max_length},
                                 {"seed", &RepeatsOptions::seed}});
        if (has(o, "alphabet")) options.alphabet = o["alphabet"].as<std::string>();
        return text_corpus(train::repeats_corpus(options));
    });
}

// the reader's own text as a corpus (attention/language_model/text.hpp): { train: string[], heldOut: string[], repeats }
val raw_own_corpus(val o) {
    return guarded([&] {
        using train::OwnOptions;
        OwnOptions options;  // the options given over the core's defaults
        read_fields(options, o, {{"context", &OwnOptions::context}, {"minCount", &OwnOptions::min_count}});
        const train::OwnCorpus corpus = train::own_corpus(o["text"].as<std::string>(), options);
        val out = text_corpus(corpus);
        out.set("repeats", corpus.repeats);
        return out;
    });
}

}  // namespace attn::js
