// The training engine's kernels (products.hpp) against plain double
// loops: the three products with every tail, softmax with masks, and the
// deterministic exp and log against the C library.
#include "train_helpers.hpp"

#include <cstdio>
#include <limits>

using namespace attn;
using namespace attn::test;
using namespace attn::train;

TEST_CASE("train kernels: C += A B, A B^T, A^T B agree with double loops, every shape tail") {
    std::uint64_t seed = 100;
    for (Index m : {1, 3, 8, 13})
        for (Index n : {1, 4, 7, 8, 9, 17})
            for (Index k : {1, 3, 4, 5, 12}) {
                const MatD A = random_double(m, k, ++seed), B = random_double(k, n, ++seed),
                           Bt = random_double(n, k, ++seed), At = random_double(k, m, ++seed),
                           C0 = random_double(m, n, ++seed);
                MatD ab = C0, abt = C0, atb = C0;
                for (Index i = 0; i < m; ++i)
                    for (Index j = 0; j < n; ++j)
                        for (Index p = 0; p < k; ++p) {
                            ab(i, j) += A(i, p) * B(p, j);
                            abt(i, j) += A(i, p) * Bt(j, p);
                            atb(i, j) += At(p, i) * B(p, j);
                        }
                const Mat a = to_float(A), b = to_float(B), bt = to_float(Bt), at = to_float(At);
                Mat c1 = to_float(C0), c2 = c1, c3 = c1;
                matmul_acc(m, n, k, a.data(), k, b.data(), n, c1.data(), n);
                matmul_nt_acc(m, n, k, a.data(), k, bt.data(), k, c2.data(), n);
                matmul_tn_acc(m, n, k, at.data(), m, b.data(), n, c3.data(), n);
                CAPTURE(m);
                CAPTURE(n);
                CAPTURE(k);
                CHECK(max_error(c1, ab) < 1e-5);
                CHECK(max_error(c2, abt) < 1e-5);
                CHECK(max_error(c3, atb) < 1e-5);
            }
}

TEST_CASE("train kernels: the products sum each entry in one fixed order, in blocks or not") {
    // the blocks and the single rows must give the same bits: what keeps the
    // training losses identical natively and in WASM. A B and A^T B add the terms
    // one by one in the order of p; A B^T as dot(): 4 lanes over p in steps of 4,
    // lanes (0 + 1) + (2 + 3), then the tail term by term
    for (Index m : {4, 5, 13})
        for (Index n : {8, 12, 17}) {
            const Index k = 37;
            const Mat a = to_float(random_double(m, k, 300 + std::uint64_t(m * n))),
                      at = to_float(random_double(k, m, 400 + std::uint64_t(m * n))),
                      b = to_float(random_double(k, n, 500 + std::uint64_t(m * n))),
                      bt = to_float(random_double(n, k, 700 + std::uint64_t(m * n))),
                      c0 = to_float(random_double(m, n, 600 + std::uint64_t(m * n)));
            Mat c1 = c0, c2 = c0, c3 = c0;
            matmul_acc(m, n, k, a.data(), k, b.data(), n, c1.data(), n);
            matmul_nt_acc(m, n, k, a.data(), k, bt.data(), k, c2.data(), n);
            matmul_tn_acc(m, n, k, at.data(), m, b.data(), n, c3.data(), n);
            int same = 0;
            for (Index i = 0; i < m; ++i)
                for (Index j = 0; j < n; ++j) {
                    volatile float s1 = c0(i, j), s3 = c0(i, j);  // volatile: one rounding per operation
                    for (Index p = 0; p < k; ++p) {
                        volatile float t1 = a(i, p) * b(p, j), t3 = at(p, i) * b(p, j);
                        s1 = s1 + t1;
                        s3 = s3 + t3;
                    }
                    volatile float lanes[4];
                    for (int l = 0; l < 4; ++l) lanes[l] = a(i, l) * bt(j, l);
                    Index p = 4;
                    for (; p + 4 <= k; p += 4)
                        for (int l = 0; l < 4; ++l) {
                            volatile float t = a(i, p + l) * bt(j, p + l);
                            lanes[l] = lanes[l] + t;
                        }
                    volatile float d = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
                    for (; p < k; ++p) {
                        volatile float t = a(i, p) * bt(j, p);
                        d = d + t;
                    }
                    volatile float s2 = c0(i, j) + d;
                    same += (s1 == c1(i, j)) + (s2 == c2(i, j)) + (s3 == c3(i, j));
                }
            CAPTURE(m);
            CAPTURE(n);
            CHECK(same == 3 * m * n);
        }
}

TEST_CASE("train kernels: strided views (a head's columns) multiply like copies") {
    const Mat M = to_float(random_double(6, 12, 1));  // 3 heads of 4 columns
    const Mat W = to_float(random_double(4, 5, 2));
    Mat out = Mat::Zero(6, 5);
    matmul_acc(6, 5, 4, M.data() + 4, 12, W.data(), 5, out.data(), 5);  // head 1
    const Mat expected = M.block(0, 4, 6, 4) * W;
    CHECK(max_rel_error(out, expected) < 1e-6);
}

TEST_CASE("train kernels: softmax_row matches softmax, masked entries 0, a fully masked row all 0") {
    const float inf = std::numeric_limits<float>::infinity();
    for (Index n : {1, 2, 3, 4, 5, 8, 11}) {
        const MatD x = random_double(1, n, 40 + std::uint64_t(n), 5);
        Mat row = to_float(x);
        if (n > 2) row(0, 1) = -inf;
        double top = -1e300, sum = 0;
        for (Index j = 0; j < n; ++j)
            if (!(n > 2 && j == 1)) top = std::max(top, double(row(0, j)));
        for (Index j = 0; j < n; ++j)
            if (!(n > 2 && j == 1)) sum += std::exp(double(row(0, j)) - top);
        Mat w = row;
        softmax_row(w.data(), n);
        for (Index j = 0; j < n; ++j) {
            const double expected = (n > 2 && j == 1) ? 0 : std::exp(double(row(0, j)) - top) / sum;
            CHECK(std::abs(w(0, j) - expected) < 1e-6);
        }
        if (n > 2) CHECK(w(0, 1) == 0.0f);
        Mat masked = Mat::Constant(1, n, -inf);
        CHECK(softmax_row(masked.data(), n) == 0.0f);
        CHECK((masked.array() == 0).all());
    }
    // no overflow: 1000 vs 10000 gives [0, 1]
    float big[2] = {1000, 10000};
    softmax_row(big, 2);
    CHECK(big[0] == 0.0f);
    CHECK(big[1] == 1.0f);
}

TEST_CASE("train kernels: exp_det and log_det agree with the C library to about 1e-16") {
    double worst_exp = 0, worst_log = 0;
    for (double x = -740; x < 709; x += 0.37913) {
        worst_exp = std::max(worst_exp, std::abs(exp_det(x) - std::exp(x)) / std::exp(x));
    }
    for (double x = 1e-300; x < 1e300; x *= 7.31) {
        const double l = std::log(x);
        worst_log = std::max(worst_log, std::abs(log_det(x) - l) / std::max(1.0, std::abs(l)));
    }
    for (double x = 0.5; x < 3; x += 0.001) worst_log = std::max(worst_log, std::abs(log_det(x) - std::log(x)));
    MESSAGE("exp_det worst relative error " << worst_exp << ", log_det " << worst_log);
    CHECK(worst_exp < 1e-15);
    CHECK(worst_log < 1e-15);
    CHECK(exp_det(0) == 1.0);
    CHECK(log_det(1) == 0.0);
    CHECK(exp_det(-800) == 0.0);
    CHECK(std::isinf(exp_det(710)));
}
