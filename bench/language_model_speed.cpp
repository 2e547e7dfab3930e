// The language model's speed natively (g++ -O3 -march=native, scripts/bench.sh
// builds it in build-bench as attention_bench_lm_native): the model of
// bench/language-model-speed.mjs on texts read one per line from each file given
// (node -e can write them from web/data/*.json), the same measures.
//
//   attention_bench_lm_native quatrains.txt [names.txt ...]
#include "attention/language_model/model.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace attn;
using namespace attn::train;

namespace {
double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double median(std::vector<double> xs) {
    std::sort(xs.begin(), xs.end());
    return xs[xs.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
    for (int a = 1; a < argc; ++a) {
        LanguageModelOptions o;
        std::ifstream in(argv[a]);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) o.texts.push_back(line);
        if (o.texts.empty()) {
            std::fprintf(stderr, "%s: no texts\n", argv[a]);
            return 1;
        }
        o.layers = 2, o.heads = 4, o.d_model = 64, o.context = 32, o.batch = 32, o.seed = 1;
        LanguageModel lm(o);
        double targets = 0;
        for (const std::string& t : o.texts) targets += std::min<double>(double(code_points_of(t).size()) + 1, 32);
        const double per_step = targets / double(o.texts.size()) * 32;
        for (int i = 0; i < 20; ++i) lm.step(1);
        std::vector<double> times, generate;
        for (int i = 0; i < 100; ++i) {
            const double start = now_ms();
            lm.step(1);
            times.push_back(now_ms() - start);
        }
        for (int seed = 1; seed <= 50; ++seed) {
            GenerateOptions g;
            g.seed = seed;
            const double start = now_ms();
            lm.generate(g);
            generate.push_back(now_ms() - start);
        }
        const double ms = median(times);
        std::printf("%s (vocab %ld): %.2f ms per step (median of 100), %.0f tokens/s (%.0f predicted per step), "
                    "generate 24: %.3f ms\n",
                    argv[a], long(lm.vocab()), ms, per_step / ms * 1000, per_step, median(generate));
    }
    return 0;
}
