// The one raw function that takes no Embind value: a plain C export that
// the facade (cpp/facade/lean.js) calls with heap offsets (the lean path of attention()).
#include "attention/attention_all.hpp"

#include <emscripten/emscripten.h>

#include <cmath>

// The lean path of attention({ ..., intermediates: false }) for the dot score
// without an explicit mask: the facade copies the inputs into the heap and passes
// numbers alone, no Embind value (each of those costs a round trip through the
// handle table), so a call with n = 16 takes microseconds. scale: NaN for the
// default; valid_length: -1 for none. Returns 0, or 1 when the core rejects the
// input: the facade then takes raw_attention_output, whose message names the problem.
extern "C" EMSCRIPTEN_KEEPALIVE int raw_attention_output_lean(const float* q, const float* k, const float* v,
                                                              float* out, int n_q, int n_k, int n_v, int d_q,
                                                              int d_k, int d_v, double scale, int causal,
                                                              int valid_length) {
    using namespace attn;
    try {
        using In = Eigen::Map<const Mat>;
        AttentionOptions o;
        if (!std::isnan(scale)) o.scale = Scalar(scale);
        o.causal = causal != 0;
        if (valid_length >= 0) o.valid_length = valid_length;
        attention_output_into(In(q, n_q, d_q), In(k, n_k, d_k), In(v, n_v, d_v), o, Eigen::Map<Mat>(out, n_q, d_v));
        return 0;
    } catch (...) {
        return 1;
    }
}
