// The Embind declarations of the three modules, one section each; CMake
// compiles this file once per module with ATTN_MODULE_ENCODER or
// ATTN_MODULE_TRAINING defined (neither: the core module):
//   attention.mjs            the attention family and everything the page shows
//   attention-encoder.mjs    the pretrained encoder (loaded by att.loadEncoder on first use)
//   attention-training.mjs   the trainers and the language model (loaded by
//                            att.createTrainer, createWidthTrainer, createLanguageModel on first use)
// Each module links only the core code its section reaches. The result structs
// that are plain fields are value_objects; the raw functions behind api*.js
// live in bindings/raw.cpp, bindings/encoder.cpp, bindings/trainer.cpp and
// bindings/language_model.cpp, the conversions in bindings/convert.cpp; the
// JS layer checks every argument before a raw function sees it.
#include "bindings/raw.hpp"

#include "attention/cost_model.hpp"
#include "attention/fit.hpp"
#include "attention/language_model.hpp"
#include "attention/lm_text.hpp"
#include "attention/self_attention.hpp"
#include "attention/train_reference.hpp"
#include "attention/trainer.hpp"
#include "attention/width_trainer.hpp"

#include <emscripten/bind.h>

using namespace emscripten;
using namespace attn::js;

// every module answers its memory statistics (the leak tests read them)
static void declare_memory_stats() {
    value_object<MemoryStats>("MemoryStats")
        .field("heapBytes", &MemoryStats::heap_bytes)
        .field("allocatedBytes", &MemoryStats::allocated_bytes);
    function("raw_memory_stats", &raw_memory_stats);
}

#if defined(ATTN_MODULE_ENCODER)
EMSCRIPTEN_BINDINGS(attention_encoder) {
    declare_memory_stats();
    function("raw_encoder_load", &raw_encoder_load);
    function("raw_encoder_encode", &raw_encoder_encode);
    function("raw_encoder_embed", &raw_encoder_embed);
    function("raw_encoder_delete", &raw_encoder_delete);
}
#elif defined(ATTN_MODULE_TRAINING)
// the trainers' plain structs: options, a step, an evaluation, a gradient check
static void declare_trainer_types() {
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
static void declare_language_model_types() {
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
        .field("seed", &attn::train::GenerateOptions::seed);
    value_object<attn::train::LmEvaluation>("LanguageModelEvaluation")
        .field("loss", &attn::train::LmEvaluation::loss)
        .field("unigramLoss", &attn::train::LmEvaluation::unigram_loss)
        .field("tokens", &attn::train::LmEvaluation::tokens);
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
        .field("steps", &attn::train::LmInfo::steps);
}

EMSCRIPTEN_BINDINGS(attention_training) {
    declare_memory_stats();
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
    function("raw_lm_delete", &raw_lm_delete);
}
#else
EMSCRIPTEN_BINDINGS(attention) {
    declare_memory_stats();
    value_object<attn::LineFit>("LineFit")
        .field("slope", &attn::LineFit::slope)
        .field("intercept", &attn::LineFit::intercept)
        .field("rSquared", &attn::LineFit::r_squared);
    value_object<attn::GenerationCost>("GenerationCost")
        .field("tokenCached", &attn::GenerationCost::token_cached)
        .field("tokenUncached", &attn::GenerationCost::token_uncached)
        .field("totalCached", &attn::GenerationCost::total_cached)
        .field("totalUncached", &attn::GenerationCost::total_uncached)
        .field("cacheNumbers", &attn::GenerationCost::cache_numbers);
    value_object<attn::LayerCost>("LayerCost")
        .field("layer", &attn::LayerCost::layer)
        .field("complexity", &attn::LayerCost::complexity)
        .field("sequential", &attn::LayerCost::sequential)
        .field("path", &attn::LayerCost::path)
        .field("multiplyAdds", &attn::LayerCost::multiply_adds)
        .field("sequentialOps", &attn::LayerCost::sequential_ops)
        .field("maxPathLength", &attn::LayerCost::max_path_length)
        .field("parameters", &attn::LayerCost::parameters)
        .field("doubling", &attn::LayerCost::doubling)
        .field("doublingExponent", &attn::LayerCost::doubling_exponent);
    value_object<attn::SelfMapStats>("SelfMapStats")
        .field("asymmetry", &attn::SelfMapStats::asymmetry)
        .field("diagonalShare", &attn::SelfMapStats::diagonal_share)
        .field("rowsOnDiagonal", &attn::SelfMapStats::rows_on_diagonal);
    value_object<attn::train::FormCheck>("FormCheck")
        .field("passed", &attn::train::FormCheck::passed)
        .field("total", &attn::train::FormCheck::total)
        .field("share", &attn::train::FormCheck::share);

    function("raw_softmax", &raw_softmax);
    function("raw_attention", &raw_attention);
    function("raw_attention_output", &raw_attention_output);
    function("raw_projected_attention", &raw_projected_attention);
    function("raw_multi_head_attention", &raw_multi_head_attention);
    function("raw_conditional_attention", &raw_conditional_attention);
    function("raw_kernel_regression", &raw_kernel_regression);
    function("raw_kernel_weights", &raw_kernel_weights);
    function("raw_positional_encoding", &raw_positional_encoding);
    function("raw_add_positional_encoding", &raw_add_positional_encoding);
    function("raw_permute_map", &raw_permute_map);
    function("raw_max_abs_difference", &raw_max_abs_difference);
    function("raw_self_map_stats", &raw_self_map_stats);
    function("raw_dot_and_kernel", &raw_dot_and_kernel);
    function("raw_cost_model", &raw_cost_model);
    function("raw_generation_cost", &raw_generation_cost);
    function("raw_entropy", &raw_entropy);
    function("raw_max_entropy", &raw_max_entropy);
    function("raw_sigmoid", &raw_sigmoid);
    function("raw_row_sums", &raw_row_sums);
    function("raw_dot_products", &raw_dot_products);
    function("raw_scale", &raw_scale);
    function("raw_top_rows", &raw_top_rows);
    function("raw_embed_tokens", &raw_embed_tokens);
    function("raw_dot_product_samples", &raw_dot_product_samples);
    function("raw_histogram", &raw_histogram);
    function("raw_fit_line", &raw_fit_line);
    function("raw_init_xavier", &raw_init_xavier);
    function("raw_init_uniform", &raw_init_uniform);
    function("raw_quatrain_form", &raw_quatrain_form);
}
#endif
