#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

// the five word vectors of the page's vectors section, and a query
static Mat five_keys() {
    Mat K(5, 2);
    K << 2.0f, 0.5f, 0.6f, 1.6f, -1.2f, 0.9f, -0.4f, -1.5f, 1.1f, -0.8f;
    return K;
}

TEST_CASE("dot and kernel: the fast path equals the plain loops, as given and at equal lengths") {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const Index n = 1 + Index(seed % 6), d = 1 + Index(seed % 4);
        const Mat K = random_matrix(n, d, seed);
        const Mat q = random_matrix(1, d, seed + 100);
        for (bool equal : {false, true}) {
            const DotKernel a = dot_and_kernel(q.row(0).transpose(), K, equal);
            const DotKernel b = dot_and_kernel_reference(q.row(0).transpose(), K, equal);
            CHECK(max_rel_error(a.keys, b.keys) < 1e-5);
            CHECK(max_rel_error(a.lengths, b.lengths) < 1e-5);
            CHECK(max_rel_error(a.dot, b.dot) < 1e-5);
            CHECK(max_rel_error(a.kernel, b.kernel) < 1e-5);
            CHECK(max_rel_error(a.dot_weights, b.dot_weights) < 1e-5);
            CHECK(max_rel_error(a.kernel_weights, b.kernel_weights) < 1e-5);
            CHECK(a.query_length == doctest::Approx(b.query_length).epsilon(1e-5));
            CHECK(a.max_difference == doctest::Approx(b.max_difference).epsilon(1e-4));
        }
    }
}

TEST_CASE("dot and kernel: −|q − k|²/2 = q·k − |q|²/2 − |k|²/2, and at equal lengths the weights agree") {
    const Mat K = five_keys();
    const Vec q = vec({1.0f, 0.4f});
    // the identity, key by key, against the distance computed from its definition
    const DotKernel given = dot_and_kernel_reference(q, K);
    for (Index i = 0; i < 5; ++i) {
        const double identity = given.dot(i) - given.query_length * given.query_length / 2 - given.lengths(i) * given.lengths(i) / 2;
        CHECK(given.kernel(i) == doctest::Approx(identity).epsilon(1e-6));
    }
    // lengths differ: the two weightings differ (the kernel prefers near keys)
    CHECK(dot_and_kernel(q, K).max_difference > 0.05);
    // one length: the same weights, up to float rounding
    const DotKernel equal = dot_and_kernel(q, K, true);
    CHECK(equal.max_difference < 1e-6);
    const Scalar mean = K.rowwise().norm().mean();
    for (Index i = 0; i < 5; ++i) {
        CHECK(equal.lengths(i) == doctest::Approx(mean).epsilon(1e-6));
        // each key keeps its direction
        CHECK(equal.keys.row(i).dot(K.row(i)) == doctest::Approx(equal.lengths(i) * K.row(i).norm()).epsilon(1e-5));
    }
    // a query farther out sharpens both the same way: still equal
    CHECK(dot_and_kernel(Vec(3 * q), K, true).max_difference < 1e-6);
}

TEST_CASE("dot and kernel: bad input is an error naming it") {
    const Mat K = five_keys();
    CHECK(error_of([&] { dot_and_kernel(vec({1, 2, 3}), K); }).find("the keys have 2 columns but the query has 3") != std::string::npos);
    CHECK(error_of([&] { dot_and_kernel(vec({1, 2}), Mat(0, 2)); }).find("at least one row") != std::string::npos);
    CHECK(error_of([&] { dot_and_kernel(vec({1, 2}), Mat::Zero(3, 2), true); }).find("every key is zero") != std::string::npos);
    CHECK(error_of([&] { dot_and_kernel(vec({std::nanf(""), 2}), K); }).find("query") != std::string::npos);
    // a zero key among others keeps length 0 at equal lengths
    Mat Z = K;
    Z.row(2).setZero();
    CHECK(dot_and_kernel(vec({1, 2}), Z, true).lengths(2) == 0);
}
