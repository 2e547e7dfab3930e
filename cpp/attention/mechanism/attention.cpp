#include "attention/mechanism/attention.hpp"

#include "attention/kernels/fused_attention.hpp"
#include "attention/mechanism/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

constexpr Scalar kInf = std::numeric_limits<Scalar>::infinity();

void check_mask_options(const AttentionOptions& o, Index n_queries, Index n_keys) {
    // if/fail rather than require: the message is built only on failure (a
    // small call through the kernel takes microseconds; formatting takes more)
    if (o.mask.size() != 0 && (o.mask.rows() != n_queries || o.mask.cols() != n_keys))
        fail("mask has shape " + shape(o.mask.rows(), o.mask.cols()) + " but needs (rows(query), rows(key)) = " +
             shape(n_queries, n_keys));
    if (o.valid_length && (*o.valid_length < 0 || *o.valid_length > n_keys))
        fail_argument("valid_length", "valid_length must be between 0 and the number of keys (" +
                                          std::to_string(n_keys) + "), got " + std::to_string(o.valid_length.value_or(0)));
    if (o.window) {
        if (*o.window < 1) fail_argument("window", "window must be at least 1, got " + std::to_string(*o.window));
        if (!o.causal)
            fail_argument("window", "window needs causal: it counts back from each query's own position; set causal too");
    }
    if (o.sinks < 0) fail_argument("sinks", "sinks must be 0 or more, got " + std::to_string(o.sinks));
    if (o.sinks > 0 && !o.window)
        fail_argument("sinks", "sinks keep the first keys in view when a window would hide them; give a window too");
    if (o.bias.size() != 0) {
        if (o.bias.rows() != n_queries || o.bias.cols() != n_keys)
            fail_argument("bias", "bias has shape " + shape(o.bias) + " but needs (rows(query), rows(key)) = " +
                                      shape(n_queries, n_keys));
        require_finite(o.bias, "bias");
    }
}

// Expects options that passed check_mask_options().   -> (n_queries, n_keys)
static Mask combine_masks(const AttentionOptions& o, Index n_queries, Index n_keys) {
    Mask m = o.mask.size() > 0 ? o.mask : Mask::Constant(n_queries, n_keys, true);
    // causal: query i sees keys 0..i; padding: keys from valid_length on are
    // hidden; a window hides keys i - window and before, but the sinks
    const Index keys = o.valid_length ? *o.valid_length : n_keys;
    for (Index i = 0; i < n_queries; ++i) {
        const Index seen = o.causal ? std::min(keys, i + 1) : keys;
        if (seen < n_keys) m.row(i).tail(n_keys - seen) = false;
        for (Index j = o.sinks; o.window && j <= i - *o.window && j < n_keys; ++j) m(i, j) = false;
    }
    return m;
}

Mask mask_combined(const AttentionOptions& o, Index n_queries, Index n_keys) {
    check_mask_options(o, n_queries, n_keys);
    return combine_masks(o, n_queries, n_keys);
}

static Scalar default_scale(Score score, Index d_k) {
    return score == Score::dot || score == Score::general ? Scalar(1) / std::sqrt(Scalar(d_k)) : Scalar(1);
}

ScoreParams prepare_attention(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& o,
                              Scalar& scale, bool whole_map) {
    require_nonempty(Q, "query");
    require_nonempty(K, "key");
    require_nonempty(V, "value");
    if (V.rows() != K.rows())
        fail("value has " + std::to_string(V.rows()) + " rows but key has " + std::to_string(K.rows()) +
             "; each key needs one value");
    require_finite(Q, "query");
    require_finite(K, "key");
    require_finite(V, "value");
    scale = o.scale ? *o.scale : default_scale(o.score, K.cols());
    if (!(std::isfinite(scale) && scale > 0))
        fail("scale must be a finite number greater than 0, got " + number(scale));
    const ScoreParams params = score_params_complete(o.score, Q.cols(), K.cols(), o.params, o.seed, o.hidden);
    check_score(o.score, Q, K, params, whole_map);  // shapes and limits, before any (n_q, n_k) matrix exists
    check_mask_options(o, Q.rows(), K.rows());
    require_work(double(Q.rows()) * double(K.rows()) * double(V.cols()), "weights * value");
    return params;
}

static void require_finite_scores(const MatRef& S) {
    for (Index i = 0; i < S.rows(); ++i)
        for (Index j = 0; j < S.cols(); ++j)
            require(std::isfinite(S(i, j)),
                    "the scores overflow float32 (an entry is not finite); use smaller inputs or a smaller scale");
}

bool kernel_applies(const AttentionOptions& o) {
    return o.score == Score::dot && o.mask.size() == 0 && o.bias.size() == 0;
}

static KernelOptions kernel_options(const AttentionOptions& o, Scalar scale) {
    KernelOptions k;
    k.scale = scale;
    k.causal = o.causal;
    k.valid_length = o.valid_length;
    k.window = o.window;
    k.sinks = o.sinks;
    return k;
}

// m + log l per row, -inf where l = 0 (a row that sees no key)
static Vec log_sum_exp_of(const Vec& m, const Vec& l) {
    Vec out(m.size());
    for (Index i = 0; i < m.size(); ++i) out(i) = l(i) > 0 ? m(i) + std::log(l(i)) : -kInf;
    return out;
}

void attention_output_into(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& o,
                           Eigen::Ref<Mat> out, Vec* log_sum_exp) {
    if (out.rows() != Q.rows() || out.cols() != V.cols())
        fail("attention_output_into: the output has shape " + shape(out) + ", expected " + shape(Q.rows(), V.cols()));
    if (!kernel_applies(o)) {
        const AttentionResult r = attention(Q, K, V, o);
        out = r.output;
        if (log_sum_exp) *log_sum_exp = log_sum_exp_of(r.row_max, r.row_sums);  // the softmax's own shift and sum
        return;
    }
    Scalar scale;
    prepare_attention(Q, K, V, o, scale, /*whole_map=*/false);
    Vec row_max, row_sum;
    if (log_sum_exp) {
        row_max.resize(Q.rows());
        row_sum.resize(Q.rows());
    }
    const RowStats stats{row_max.data(), row_sum.data()};
    attention_kernel_into(Q, K, V, kernel_options(o, scale), out, nullptr, log_sum_exp ? &stats : nullptr);
    require_finite_result(out, "output = weights V");
    if (log_sum_exp) *log_sum_exp = log_sum_exp_of(row_max, row_sum);  // the kernel's running maximum and sum
}

Mat attention_output(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& o,
                     Vec* log_sum_exp) {
    Mat output(Q.rows(), V.cols());
    attention_output_into(Q, K, V, o, output, log_sum_exp);
    return output;
}

AttentionResult attention(const MatRef& Q, const MatRef& K, const MatRef& V, const AttentionOptions& o) {
    AttentionResult r;
    r.params = prepare_attention(Q, K, V, o, r.scale);
    r.mask = combine_masks(o, Q.rows(), K.rows());
    // pass 1: scores of every query against every key
    r.scores = scores_unchecked(o.score, Q, K, r.params);
    // pass 2: scale
    r.scaled = r.scores * r.scale;
    require_finite_scores(r.scaled);
    // pass 3: the bias, if any, is added; masked entries become -inf: exp(-inf) = 0 after softmax
    Mat biased;
    if (o.bias.size()) {
        biased = r.scaled + o.bias;
        require_finite_scores(biased);
    }
    const Mat& logits = o.bias.size() ? biased : r.scaled;  // (no copy of scaled without a bias)
    r.masked = r.mask.select(logits, Mat::Constant(r.scaled.rows(), r.scaled.cols(), -kInf));
    // pass 4: weights, and the weighted sum of the values
    SoftmaxSteps steps = masked_softmax_steps_unchecked(logits, r.mask);
    r.row_max = std::move(steps.row_max);
    r.exps = std::move(steps.exps);
    r.row_sums = std::move(steps.row_sums);
    r.weights = std::move(steps.weights);
    // (not the kernel: with the weights formed, Eigen's product costs what
    // the kernel's whole pass does, measured in WASM from n = 2 to 1024)
    r.output = r.weights * V;
    // values near the float32 maximum can sum past it
    require_finite_result(r.output, "output = weights V");
    return r;
}

AttentionResult attention_reference(const MatRef& Q, const MatRef& K, const MatRef& V,
                                    const AttentionOptions& o) {
    AttentionResult r;
    r.params = prepare_attention(Q, K, V, o, r.scale);
    const Index nq = Q.rows(), nk = K.rows(), dv = V.cols();
    r.mask = Mask(nq, nk);
    for (Index i = 0; i < nq; ++i)
        for (Index j = 0; j < nk; ++j)
            r.mask(i, j) = (o.mask.size() == 0 || o.mask(i, j)) && (!o.causal || j <= i) &&
                           (!o.valid_length || j < *o.valid_length) &&
                           (!o.window || i - j < *o.window || j < o.sinks);
    r.scores = scores_reference_unchecked(o.score, Q, K, r.params);
    r.scaled = Mat(nq, nk);
    r.masked = Mat(nq, nk);
    for (Index i = 0; i < nq; ++i)
        for (Index j = 0; j < nk; ++j) {
            r.scaled(i, j) = Scalar(double(r.scores(i, j)) * r.scale);
            r.masked(i, j) = r.mask(i, j) ? Scalar(double(r.scaled(i, j)) + (o.bias.size() ? o.bias(i, j) : 0)) : -kInf;
        }
    require_finite_scores(r.scaled);
    const Mat logits = o.bias.size() ? Mat(r.scaled + o.bias) : r.scaled;
    r.weights = masked_softmax_rows_reference(logits, r.mask);
    r.row_max = Vec::Zero(nq);
    r.exps = Mat::Zero(nq, nk);
    r.row_sums = Vec::Zero(nq);
    for (Index i = 0; i < nq; ++i) {
        double top = -INFINITY, sum = 0;
        for (Index j = 0; j < nk; ++j)
            if (r.mask(i, j)) top = std::max(top, double(logits(i, j)));
        if (std::isinf(top)) continue;
        for (Index j = 0; j < nk; ++j)
            if (r.mask(i, j)) sum += r.exps(i, j) = Scalar(std::exp(double(logits(i, j)) - top));
        r.row_max(i) = Scalar(top);
        r.row_sums(i) = Scalar(sum);
    }
    r.output = Mat::Zero(nq, dv);
    for (Index i = 0; i < nq; ++i)
        for (Index c = 0; c < dv; ++c) {
            double z = 0;
            for (Index j = 0; j < nk; ++j) z += double(r.weights(i, j)) * V(j, c);
            r.output(i, c) = Scalar(z);
        }
    return r;
}

}  // namespace attn
