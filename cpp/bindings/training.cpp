// The Embind declarations of attention-training.mjs: the trainers (raw_trainer.cpp)
// and the language model (raw_language_model.cpp), loaded by att.createTrainer,
// createWidthTrainer and createLanguageModel on first use. The result structs
// that are plain fields are value_objects; the memory statistics every module
// has are in memory_stats.cpp.
#include "bindings/raw.hpp"

#include "attention/attention_all.hpp"

#include <emscripten/bind.h>

using namespace emscripten;
using namespace attn::js;

namespace {

// the trainers' plain structs: options, a step, an evaluation, a gradient check
void declare_trainer_types() {
    value_object<attn::train::TrainerOptions>("TrainerOptions")
        .field("task", &attn::train::TrainerOptions::task)
        .field("seed", &attn::train::TrainerOptions::seed)
        .field("length", &attn::train::TrainerOptions::length)
        .field("vocab", &attn::train::TrainerOptions::vocab)
        .field("dModel", &attn::train::TrainerOptions::d_model)
        .field("heads", &attn::train::TrainerOptions::heads)
        .field("batch", &attn::train::TrainerOptions::batch)
        .field("learningRate", &attn::train::TrainerOptions::learning_rate)
        .field("causal", &attn::train::TrainerOptions::causal)
        .field("residual", &attn::train::TrainerOptions::residual)
        .field("cross", &attn::train::TrainerOptions::cross);
    value_object<attn::train::NwOptions>("WidthTrainerOptions")
        .field("seed", &attn::train::NwOptions::seed)
        .field("samples", &attn::train::NwOptions::samples)
        .field("noise", &attn::train::NwOptions::noise)
        .field("width", &attn::train::NwOptions::width)
        .field("learningRate", &attn::train::NwOptions::learning_rate);
    value_object<attn::train::StepResult>("TrainerStep")
        .field("step", &attn::train::StepResult::step)
        .field("loss", &attn::train::StepResult::loss);
    value_object<attn::train::NwStep>("WidthTrainerStep")
        .field("step", &attn::train::NwStep::step)
        .field("loss", &attn::train::NwStep::loss)
        .field("width", &attn::train::NwStep::width);
    value_object<attn::train::Evaluation>("TrainerEvaluation")
        .field("loss", &attn::train::Evaluation::loss)
        .field("accuracy", &attn::train::Evaluation::accuracy);
    value_object<attn::train::GradientCheck>("GradientCheck")
        .field("maxRelativeError", &attn::train::GradientCheck::max_relative_error)
        .field("checked", &attn::train::GradientCheck::checked)
        .field("worst", &attn::train::GradientCheck::worst);
}

// the language model's plain structs: a step, generation options, evaluations, the halves, the ladder, its info
void declare_language_model_types() {
    value_object<attn::train::LmStep>("LanguageModelStep")
        .field("step", &attn::train::LmStep::step)
        .field("loss", &attn::train::LmStep::loss)
        .field("tokens", &attn::train::LmStep::tokens);
    value_object<attn::train::GenerateOptions>("GenerateOptions")
        .field("prompt", &attn::train::GenerateOptions::prompt)
        .field("maxTokens", &attn::train::GenerateOptions::max_tokens)
        .field("temperature", &attn::train::GenerateOptions::temperature)
        .field("topK", &attn::train::GenerateOptions::top_k)
        .field("topP", &attn::train::GenerateOptions::top_p)
        .field("minP", &attn::train::GenerateOptions::min_p)
        .field("seed", &attn::train::GenerateOptions::seed)
        .field("cachePositions", &attn::train::GenerateOptions::cache_positions);
    value_object<attn::train::LmEvaluation>("LanguageModelEvaluation")
        .field("loss", &attn::train::LmEvaluation::loss)
        .field("unigramLoss", &attn::train::LmEvaluation::unigram_loss)
        .field("tokens", &attn::train::LmEvaluation::tokens)
        .field("length", &attn::train::LmEvaluation::length);
    value_object<attn::train::HalfScore>("LanguageModelHalfScore")
        .field("loss", &attn::train::HalfScore::loss)
        .field("accuracy", &attn::train::HalfScore::accuracy)
        .field("tokens", &attn::train::HalfScore::tokens);
    value_object<attn::train::Halves>("LanguageModelHalves")
        .field("first", &attn::train::Halves::first)
        .field("second", &attn::train::Halves::second);
    value_object<attn::train::NgramBaseline>("NgramBaseline")
        .field("order", &attn::train::NgramBaseline::order)
        .field("loss", &attn::train::NgramBaseline::loss)
        .field("k", &attn::train::NgramBaseline::k)
        .field("unseen", &attn::train::NgramBaseline::unseen);
    value_object<attn::train::LmInfo>("LanguageModelInfo")
        .field("parameters", &attn::train::LmInfo::parameters)
        .field("vocab", &attn::train::LmInfo::vocab)
        .field("tokensPerStep", &attn::train::LmInfo::tokens_per_step)
        .field("steps", &attn::train::LmInfo::steps)
        .field("position", &attn::train::LmInfo::position)
        .field("kvHeads", &attn::train::LmInfo::kv_heads)
        .field("window", &attn::train::LmInfo::window)
        .field("sinks", &attn::train::LmInfo::sinks)
        .field("chunks", &attn::train::LmInfo::chunks);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_training) {
    declare_trainer_types();
    declare_language_model_types();
    function("raw_trainer_create", &raw_trainer_create);
    function("raw_trainer_step", &raw_trainer_step);
    function("raw_trainer_evaluate", &raw_trainer_evaluate);
    function("raw_trainer_probe", &raw_trainer_probe);
    function("raw_trainer_parameters", &raw_trainer_parameters);
    function("raw_trainer_gradient_check", &raw_trainer_gradient_check);
    function("raw_trainer_delete", &raw_trainer_delete);
    function("raw_width_trainer_create", &raw_width_trainer_create);
    function("raw_width_trainer_step", &raw_width_trainer_step);
    function("raw_width_trainer_evaluate", &raw_width_trainer_evaluate);
    function("raw_width_trainer_samples", &raw_width_trainer_samples);
    function("raw_width_trainer_pool", &raw_width_trainer_pool);
    function("raw_width_trainer_losses", &raw_width_trainer_losses);
    function("raw_width_trainer_delete", &raw_width_trainer_delete);
    function("raw_lm_create", &raw_lm_create);
    function("raw_lm_step", &raw_lm_step);
    function("raw_lm_evaluate", &raw_lm_evaluate);
    function("raw_lm_position_losses", &raw_lm_position_losses);
    function("raw_lm_next", &raw_lm_next);
    function("raw_lm_attention", &raw_lm_attention);
    function("raw_lm_head_scores", &raw_lm_head_scores);
    function("raw_lm_head_roles", &raw_lm_head_roles);
    function("raw_lm_halves", &raw_lm_halves);
    function("raw_lm_baselines", &raw_lm_baselines);
    function("raw_repeats_corpus", &raw_repeats_corpus);
    function("raw_own_corpus", &raw_own_corpus);
    function("raw_lm_generate", &raw_lm_generate);
    function("raw_lm_trace", &raw_lm_trace);
    function("raw_lm_begin_generation", &raw_lm_begin_generation);
    function("raw_lm_next_token", &raw_lm_next_token);
    function("raw_lm_gradient_check", &raw_lm_gradient_check);
    function("raw_lm_vocabulary", &raw_lm_vocabulary);
    function("raw_lm_info", &raw_lm_info);
    function("raw_lm_parameters", &raw_lm_parameters);
    function("raw_lm_set_parameters", &raw_lm_set_parameters);
    function("raw_lm_step_state", &raw_lm_step_state);
    function("raw_lm_chunk_sums", &raw_lm_chunk_sums);
    function("raw_lm_apply_chunks", &raw_lm_apply_chunks);
    function("raw_lm_delete", &raw_lm_delete);
}
