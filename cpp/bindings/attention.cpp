// The Embind declarations of attention.mjs: the attention family and
// everything the page shows. The raw functions are in raw_attention.cpp (and lean.cpp's
// one plain C export), the conversions in convert.cpp; the memory statistics
// every module has in memory_stats.cpp. The result structs that are plain
// fields are value_objects. The JS facade checks every argument before a raw
// function sees it; attention.mjs loads the other two modules on first use
// (encoder.cpp: attention-encoder.mjs; training.cpp: attention-training.mjs).
#include "bindings/raw.hpp"

#include "attention/attention_all.hpp"

#include <emscripten/bind.h>

using namespace emscripten;
using namespace attn::js;

EMSCRIPTEN_BINDINGS(attention) {
    value_object<attn::LineFit>("LineFit")
        .field("slope", &attn::LineFit::slope)
        .field("intercept", &attn::LineFit::intercept)
        .field("rSquared", &attn::LineFit::r_squared);
    value_object<attn::GenerationCost>("GenerationCost")
        .field("tokenCached", &attn::GenerationCost::token_cached)
        .field("tokenUncached", &attn::GenerationCost::token_uncached)
        .field("totalCached", &attn::GenerationCost::total_cached)
        .field("totalUncached", &attn::GenerationCost::total_uncached)
        .field("cacheNumbers", &attn::GenerationCost::cache_numbers)
        .field("cacheTokens", &attn::GenerationCost::cache_tokens)
        .field("cacheWidth", &attn::GenerationCost::cache_width)
        .field("cacheShare", &attn::GenerationCost::cache_share);
    value_object<attn::ProjectionParameters>("ProjectionParameters")
        .field("Wq", &attn::ProjectionParameters::wq)
        .field("Wk", &attn::ProjectionParameters::wk)
        .field("Wv", &attn::ProjectionParameters::wv)
        .field("Wo", &attn::ProjectionParameters::wo)
        .field("perLayer", &attn::ProjectionParameters::per_layer)
        .field("total", &attn::ProjectionParameters::total);
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
    function("raw_flash_attention", &raw_flash_attention);
    function("raw_weights_from_log_sum_exp", &raw_weights_from_log_sum_exp);
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
    function("raw_kv_cache_bytes", &raw_kv_cache_bytes);
    function("raw_attention_projection_parameters", &raw_attention_projection_parameters);
    function("raw_rotary", &raw_rotary);
    function("raw_alibi_slopes", &raw_alibi_slopes);
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
