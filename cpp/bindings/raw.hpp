// The raw functions behind the facade (cpp/facade/) that one file defines and
// another declares to Embind: each takes the canonical JS object the facade
// built and returns a plain JS object of copies, or the core's failure
// (guard_call, convert.hpp). attention.cpp declares the core module's (defined
// in raw_attention.cpp), training.cpp the training module's (raw_trainer.cpp,
// raw_language_model.cpp), memory_stats.cpp every module's memory statistics
// (convert.cpp); the encoder module's are defined and declared in encoder.cpp.
#pragma once

#include <emscripten/val.h>

namespace attn::train {
struct GradientCheck;
}

namespace attn::js {

using emscripten::val;

// the attention family (raw_attention.cpp)
val raw_softmax(val o);
val raw_attention(val o);
val raw_attention_output(val o);
val raw_flash_attention(val o);             // raw_flash.cpp
val raw_weights_from_log_sum_exp(val o);    // raw_flash.cpp
val raw_projected_attention(val o);
val raw_multi_head_attention(val o);
val raw_conditional_attention(val o);
val raw_kernel_regression(val o);
val raw_kernel_weights(val o);

// everything else the page shows (raw_attention.cpp)
val raw_positional_encoding(val o);
val raw_add_positional_encoding(val o);
val raw_permute_map(val o);
val raw_max_abs_difference(val o);
val raw_self_map_stats(val o);
val raw_dot_and_kernel(val o);
val raw_cost_model(val o);
val raw_generation_cost(val o);
val raw_kv_cache_bytes(val o);   // { layers, kvHeads, headDim, tokens, bytesPerNumber }
val raw_attention_projection_parameters(val o);  // { layers, heads, kvHeads, headDim, dModel? }
val raw_rotary(val o);           // { matrix, base?, offset? }
val raw_alibi_slopes(val o);     // { heads }
val raw_entropy(val o);
val raw_max_entropy(val o);
val raw_sigmoid(val o);
val raw_row_sums(val o);
val raw_dot_products(val o);
val raw_scale(val o);
val raw_top_rows(val o);
val raw_embed_tokens(val o);
val raw_dot_product_samples(val o);
val raw_histogram(val o);
val raw_fit_line(val o);
val raw_init_xavier(val o);
val raw_init_uniform(val o);
val raw_quatrain_form(val o);  // { texts }

// the memory statistics of the module it is linked into (convert.cpp)
val raw_memory_stats();

// the trainers (raw_trainer.cpp): each takes { handle } and what the call needs
val raw_trainer_create(val o);
val raw_trainer_step(val o);
val raw_trainer_evaluate(val o);
val raw_trainer_probe(val o);
val raw_trainer_parameters(val o);
val raw_trainer_gradient_check(val o);
// a gradient check as JS reads it: { maxRelativeError, checked, worst, tensors: [{ name, checked,
// maxRelativeError }] } (raw_trainer.cpp; the language model's too)
val gradient_check_result(const train::GradientCheck& check);
val raw_trainer_delete(val o);
val raw_width_trainer_create(val o);
val raw_width_trainer_step(val o);
val raw_width_trainer_evaluate(val o);
val raw_width_trainer_samples(val o);
val raw_width_trainer_pool(val o);
val raw_width_trainer_losses(val o);
val raw_width_trainer_delete(val o);
// the language model (raw_language_model.cpp): each takes { handle } and what the call needs
val raw_lm_create(val o);
val raw_lm_step(val o);
val raw_lm_evaluate(val o);
val raw_lm_next(val o);
val raw_lm_attention(val o);
val raw_lm_head_scores(val o);
val raw_lm_head_roles(val o);   // { handle, texts }
val raw_lm_position_losses(val o);  // { handle, text, cached?, cachePositions? }
val raw_lm_halves(val o);       // { handle, texts }
val raw_lm_baselines(val o);    // { handle }
val raw_repeats_corpus(val o);  // { train, heldOut, minLength, maxLength, alphabet, seed }
val raw_own_corpus(val o);      // { text, context, minCount }
val raw_lm_generate(val o);
val raw_lm_trace(val o);
val raw_lm_begin_generation(val o);
val raw_lm_next_token(val o);
val raw_lm_gradient_check(val o);
val raw_lm_vocabulary(val o);
val raw_lm_info(val o);
val raw_lm_parameters(val o);
val raw_lm_set_parameters(val o);  // { handle, names, values }
val raw_lm_step_state(val o);       // { handle } -> { chunks, values, state }
val raw_lm_chunk_sums(val o);       // { handle, values, state, first, end } -> { nodes, gradients }; { handle, first, end } -> { nodes } kept
val raw_lm_apply_chunks(val o);     // { handle, nodes, gradients, kept } -> { step, loss, tokens }
val raw_lm_delete(val o);

// what raw_memory_stats returns (a value_object)
struct MemoryStats {
    double heap_bytes = 0;       // size of the WASM memory
    double allocated_bytes = 0;  // bytes malloc holds now
};

}  // namespace attn::js
