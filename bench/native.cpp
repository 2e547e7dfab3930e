// The native side of the benchmark: our Eigen path compiled with g++ -O3
// -march=native (Eigen's own AVX/FMA code), the figure WASM is compared with.
// bench.mjs drives it over stdin/stdout, so that its samples interleave with
// the WASM ones:
//
//   in:   n d causal reps     (one line per sample)
//   out:  seconds per call, and a checksum of the output
#include "attention/attention_all.hpp"

#include <chrono>
#include <cmath>
#include <iostream>

using namespace attn;

int main() {
    Index n = 0, d = 0;
    int causal = 0, reps = 0;
    Mat Q, K, V;
    while (std::cin >> n >> d >> causal >> reps) {
        if (Q.rows() != n || Q.cols() != d) {
            Q = init_uniform(n, d, 1, stream::input, 1);
            K = init_uniform(n, d, 2, stream::input, 1);
            V = init_uniform(n, d, 3, stream::input, 1);
        }
        double checksum = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r) {
            // scores, softmax, weights * V: attention() before the kernel
            const Mask mask = causal ? mask_causal(n, n) : Mask::Constant(n, n, true);
            const Mat scaled = score_dot(Q, K) * (1 / std::sqrt(Scalar(d)));
            const Mat weights = masked_softmax_rows(scaled, mask);
            const Mat output = weights * V;
            checksum += output.sum();
        }
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        std::cout << elapsed.count() / reps << ' ' << checksum << std::endl;
    }
    return 0;
}
