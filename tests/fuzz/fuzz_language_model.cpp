// The language model with random texts (any bytes: invalid UTF-8 included),
// options and calls: valid options never crash and give finite losses, next
// tokens whose probabilities are sorted and sum to at most 1, causal maps
// whose rows sum to 1, head scores in [0, 1], generated text that starts with
// the prompt, and the same text for the same seed; invalid ones (sizes out of
// range, heads not dividing d_model, bad rates, a prompt character outside
// the vocabulary without an unknown token) throw with a message. And the
// quatrain form check on random texts: a share in [0, 1].
#include "fuzz_input.hpp"

using namespace attn;
using namespace attn::fuzz;
using namespace attn::train;

namespace {
// a short text: bytes from a small alphabet (ASCII, punctuation, a CJK
// character, a 4-byte emoji, stray continuation bytes), or raw bytes
std::string text(Input& in) {
    static const char* const pieces[] = {"a", "b", "c", ",", "\xE3\x80\x82", "\xE7\x99\xBD", "\xF0\x9F\x98\x80",
                                         "\x80", "\xFF", "\xE7\x99", ""};
    std::string out;
    const Index n = in.size(0, 8);
    for (Index i = 0; i < n; ++i) {
        const std::uint8_t b = in.byte();
        out += b < 200 ? std::string(pieces[b % 11]) : std::string(1, char(b));
    }
    return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    Input in(data, size);
    LanguageModelOptions o;
    const Index texts = in.size(0, 4), held = in.size(0, 2);
    for (Index i = 0; i < texts; ++i) o.texts.push_back(text(in));
    for (Index i = 0; i < held; ++i) o.held_out.push_back(text(in));
    o.seed = double(in.byte());
    o.layers = size_option(in, 1, 2);
    o.heads = size_option(in, 1, 2);
    o.d_model = double(in.size(1, 3)) * (std::isfinite(o.heads) ? std::max(1.0, std::abs(o.heads)) : 1) +
                (in.byte() % 8 == 0 ? 1 : 0);  // sometimes not a multiple of heads
    o.context = size_option(in, 2, 6);
    o.batch = size_option(in, 1, 3);
    o.learning_rate = in.flag() ? double(in.number()) : 0.003 * double(in.size(1, 10));
    o.warmup = size_option(in, 0, 3);
    o.clip = in.flag() ? double(in.number()) : double(in.size(0, 2));
    o.min_count = size_option(in, 1, 3);
    const double steps = in.byte() % 8 == 0 ? double(in.number()) : double(in.size(1, 2));
    const std::string prompt = text(in);
    GenerateOptions g;
    g.prompt = prompt;
    g.max_tokens = size_option(in, 0, 8);
    g.temperature = in.flag() ? double(in.number()) : 0.5 * double(in.size(0, 4));
    g.top_k = size_option(in, 0, 5);
    g.seed = double(in.byte());
    const double period = size_option(in, 1, 4);

    accepted([&] {
        LanguageModel lm(o);
        std::vector<double> losses;
        const LmStep r = lm.step(steps, &losses);
        if (!std::isfinite(r.loss) || r.loss < 0) __builtin_trap();
        if (losses.size() != size_t(steps) || losses.back() != r.loss) __builtin_trap();
        const VocabularyInfo v = lm.vocabulary();
        if (Index(v.tokens.size()) != lm.vocab() || !(v.coverage > 0 && v.coverage <= 1)) __builtin_trap();
        accepted([&] {  // throws when held_out is empty
            const LmEvaluation e = lm.evaluate();
            if (!std::isfinite(e.loss) || !std::isfinite(e.unigram_loss) || e.tokens < 1) __builtin_trap();
        });
        accepted([&] {
            const NextTokens next = lm.next(prompt);
            double sum = 0;
            for (size_t i = 0; i < next.probabilities.size(); ++i) {
                if (!(next.probabilities[i] >= 0) || (i > 0 && next.probabilities[i] > next.probabilities[i - 1]))
                    __builtin_trap();
                sum += next.probabilities[i];
            }
            if (sum > 1.0001) __builtin_trap();
        });
        accepted([&] {
            const AttentionMaps maps = lm.attention(prompt);
            for (const auto& layer : maps.weights)
                for (const Mat& w : layer) {
                    check_weights(w);
                    for (Index i = 0; i < w.rows(); ++i)
                        if (std::abs(w.row(i).cast<double>().sum() - 1) > 1e-4) __builtin_trap();
                }
        });
        accepted([&] {
            const HeadScores s = head_scores(lm, prompt, period);
            for (const auto& layer : s.punctuation)
                for (double x : layer)
                    if (!(x >= -1e-6 && x <= 1 + 1e-6)) __builtin_trap();
        });
        // a score in [0, 1], or NaN where no query has the role
        auto unit_or_none = [](double x) { return std::isnan(x) || (x >= -1e-6 && x <= 1 + 1e-6); };
        accepted([&] {  // the prompt, then the held-out texts (throws when held_out is empty)
            for (const HeadRoles& r : {head_roles(lm, {prompt}), head_roles(lm, {})})
                for (const auto& layer : r.heads)
                    for (const HeadRole& h : layer)
                        if (!unit_or_none(h.previous) || !unit_or_none(h.self) || !unit_or_none(h.first) ||
                            !unit_or_none(h.line) || !unit_or_none(h.induction))
                            __builtin_trap();
        });
        accepted([&] {  // throws for a text longer than the context
            const Halves h = halves(lm, {prompt});
            if (!unit_or_none(h.first.accuracy) || !unit_or_none(h.second.accuracy)) __builtin_trap();
        });
        accepted([&] {
            for (const NgramBaseline& b : baselines(lm).ladder)
                if (!std::isfinite(b.loss) || b.loss < 0 || b.k <= 0) __builtin_trap();
        });
        accepted([&] {
            const std::string a = lm.generate(g), b = lm.generate(g);
            if (a != b || a.compare(0, prompt.size(), prompt) != 0) __builtin_trap();
        });
    });
    std::vector<std::string> poems;
    for (Index i = 0; i < in.size(0, 3); ++i) poems.push_back(text(in));
    const FormCheck f = quatrain_form(poems);
    accepted([&] {
        RepeatsOptions r;
        r.train = size_option(in, 1, 20);
        r.held_out = size_option(in, 0, 5);
        r.min_length = size_option(in, 0, 6);
        r.max_length = size_option(in, 0, 8);
        r.alphabet = text(in);
        r.seed = double(in.byte());
        const TextCorpus c = repeats_corpus(r);
        if (c.train.size() != size_t(r.train) || c.held_out.size() != size_t(r.held_out)) __builtin_trap();
    });
    accepted([&] {  // any bytes as the reader's text: refused with a message, or split into texts that fit
        OwnOptions own;
        own.context = size_option(in, 2, 12);
        std::string chunk, bytes;  // a chunk of up to 200 bytes, repeated up to 40 times (past the 2,000 characters)
        for (Index i = 0, n = in.size(0, 200); i < n; ++i) chunk += char(in.byte());
        for (Index k = 0, copies = in.size(1, 40); k < copies; ++k) bytes += chunk;
        const TextCorpus c = own_corpus(bytes, own);
        for (const auto* part : {&c.train, &c.held_out})
            for (const std::string& t : *part)
                if (t.empty() || Index(code_points_of(t).size()) > Index(own.context) - 1) __builtin_trap();
    });
    if (!(f.share >= 0 && f.share <= 1) || f.total != double(poems.size())) __builtin_trap();
    return 0;
}
