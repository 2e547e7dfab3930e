// Each layer's fast float forward and backward (layers.hpp) against its
// plain-loop double reference (reference.hpp), on seeded random shapes;
// and the gradient check of the whole double model by finite differences.
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

TEST_CASE("train layers: embedding forward and backward against the reference") {
    const Index vocab = 5, d = 6, n = 3, rows = 12;
    const MatD E = random_double(vocab, d, 1), PE = random_double(n, d, 2), dX = random_double(rows, d, 3);
    const TokenIds tokens = random_tokens(rows, vocab, 4);
    const Mat e = to_float(E), pe = to_float(PE), dx = to_float(dX);
    Mat X(rows, d), dE = Mat::Zero(vocab, d);
    Embedding layer{vocab, d, n};
    layer.forward(rows, tokens.data(), e.data(), pe.data(), X.data());
    layer.backward(rows, tokens.data(), dx.data(), dE.data());
    CHECK(max_error(X, embedding_forward_reference(E, PE, tokens)) < 1e-6);
    CHECK(max_error(dE, embedding_backward_reference(dX, tokens, vocab)) < 1e-6);
}

TEST_CASE("train layers: linear forward and backward against the reference") {
    const Index rows = 10, in = 7, out = 9;
    const MatD X = random_double(rows, in, 5), W = random_double(in, out, 6), dY = random_double(rows, out, 7);
    const Mat x = to_float(X), w = to_float(W), dy = to_float(dY);
    Mat Y(rows, out), dX = Mat::Zero(rows, in), dW = Mat::Zero(in, out);
    Linear layer{in, out};
    layer.forward(rows, x.data(), w.data(), Y.data());
    layer.backward(rows, x.data(), w.data(), dy.data(), dW.data(), dX.data());
    MatD rdX, rdW;
    linear_backward_reference(X, W, dY, rdX, rdW);
    CHECK(max_error(Y, linear_forward_reference(X, W)) < 1e-5);
    CHECK(max_error(dX, rdX) < 1e-5);
    CHECK(max_error(dW, rdW) < 1e-5);
}

TEST_CASE("train layers: split and concat of heads are inverse, column blocks") {
    const MatD M = random_double(4, 6, 8);
    std::vector<MatD> parts;
    for (Index h = 0; h < 3; ++h) parts.push_back(split_head_reference(M, 3, h));
    CHECK(parts[1](2, 0) == M(2, 2));
    CHECK(concat_heads_reference(parts) == M);
}

TEST_CASE("train layers: multi-head attention with padding and causal masks against the reference") {
    std::uint64_t seed = 200;
    for (bool causal : {false, true})
        for (Index heads : {1, 2, 3}) {
            const Index sequences = 3, n = 5, d = 2 * heads, rows = sequences * n, dh = d / heads;
            const MatD Q = random_double(rows, d, ++seed, 2), K = random_double(rows, d, ++seed, 2),
                       V = random_double(rows, d, ++seed), dZ = random_double(rows, d, ++seed);
            const Index valid[3] = {5, 3, 1};
            const Mat q = to_float(Q), k = to_float(K), v = to_float(V), dz = to_float(dZ);
            Mat A(sequences * heads * n, n), Z(rows, d), dQ(rows, d), dK(rows, d), dV(rows, d), scratch(n, n);
            MultiHeadAttention layer{n, d, heads, causal};
            layer.forward(sequences, valid, q.data(), k.data(), v.data(), A.data(), Z.data());
            layer.backward(sequences, q.data(), k.data(), v.data(), A.data(), dz.data(), dQ.data(), dK.data(),
                           dV.data(), scratch.data());
            CAPTURE(causal);
            CAPTURE(heads);
            for (Index b = 0; b < sequences; ++b) {
                const Mask visible = attention_mask_reference(n, valid[b], causal);
                for (Index h = 0; h < heads; ++h) {
                    auto part = [&](const MatD& M) { return MatD(M.block(b * n, h * dh, n, dh)); };
                    auto fpart = [&](const Mat& M) { return Mat(M.block(b * n, h * dh, n, dh)); };
                    const HeadReference r = attention_head_forward_reference(part(Q), part(K), part(V), visible);
                    MatD rq, rk, rv;
                    attention_head_backward_reference(part(Q), part(K), part(V), r.weights, part(dZ), rq, rk, rv);
                    const Mat weights = A.block((b * heads + h) * n, 0, n, n);
                    CHECK(max_error(weights, r.weights) < 1e-6);
                    CHECK(max_error(fpart(Z), r.output) < 1e-5);
                    CHECK(max_error(fpart(dQ), rq) < 1e-5);
                    CHECK(max_error(fpart(dK), rk) < 1e-5);
                    CHECK(max_error(fpart(dV), rv) < 1e-5);
                    // masked entries: weight exactly 0; padded keys get exactly 0 gradient
                    for (Index i = 0; i < n; ++i)
                        for (Index j = 0; j < n; ++j)
                            if (!visible(i, j)) CHECK(weights(i, j) == 0.0f);
                    for (Index j = valid[b]; j < n; ++j) {
                        CHECK((fpart(dK).row(j).array() == 0).all());
                        CHECK((fpart(dV).row(j).array() == 0).all());
                    }
                }
            }
        }
}

TEST_CASE("train layers: softmax cross-entropy, ignored targets, against the reference") {
    const Index rows = 7, classes = 6;
    const MatD L = random_double(rows, classes, 9, 4);
    TokenIds targets = random_tokens(rows, classes, 10);
    targets[2] = -1;  // padding: not counted
    const Mat logits = to_float(L);
    Mat dlogits(rows, classes);
    const double loss = SoftmaxCrossEntropy{classes}.forward_backward(rows, logits.data(), targets.data(), dlogits.data());
    MatD rd;
    const double expected = cross_entropy_reference(L, targets, &rd);
    CHECK(std::abs(loss - expected) < 1e-6);
    CHECK(max_error(dlogits, rd) < 1e-6);
    CHECK((dlogits.row(2).array() == 0).all());
    // the uniform guess costs log(classes)
    const Mat flat = Mat::Zero(rows, classes);
    CHECK(SoftmaxCrossEntropy{classes}.forward_backward(rows, flat.data(), targets.data(), dlogits.data()) ==
          doctest::Approx(std::log(6.0)).epsilon(1e-7));
}

TEST_CASE("train layers: gradient check of the double model over every parameter, random shapes and masks") {
    Rng rng(2024, 1);
    auto pick = [&rng](Index lo, Index hi) { return lo + Index(rng.next() % std::uint64_t(hi - lo + 1)); };
    for (int trial = 0; trial < 12; ++trial) {
        ModelConfig c;
        c.vocab = pick(2, 7);
        c.length = pick(2, 6);
        c.heads = pick(1, 3);
        c.d_model = c.heads * pick(1, 3);
        c.causal = rng.next() & 1;
        c.residual = rng.next() & 1;
        const Index sequences = pick(1, 3), rows = sequences * c.length;
        const std::uint64_t s = 300 + std::uint64_t(trial) * 10;
        const ParamsD params = {random_double(c.vocab, c.d_model, s), random_double(c.d_model, c.d_model, s + 1),
                                random_double(c.d_model, c.d_model, s + 2), random_double(c.d_model, c.d_model, s + 3),
                                random_double(c.d_model, c.vocab, s + 4)};
        const MatD PE = positional_encoding_reference(c.length, c.d_model).cast<double>();
        const TokenIds tokens = random_tokens(rows, c.vocab, s + 5);
        TokenIds targets = random_tokens(rows, c.vocab, s + 6);
        std::vector<Index> valid;
        if (rng.next() & 1) {
            for (Index b = 0; b < sequences; ++b) valid.push_back(pick(1, c.length));
            for (Index b = 0; b < sequences; ++b)  // padded positions have no target
                for (Index i = valid[size_t(b)]; i < c.length; ++i) targets[size_t(b * c.length + i)] = -1;
        }
        const GradientCheck g = gradient_check_reference(c, params, PE, tokens, targets, valid);
        CAPTURE(trial);
        CAPTURE(g.worst);
        CHECK(g.checked == 2 * c.vocab * c.d_model + 3 * c.d_model * c.d_model);
        CHECK(g.max_relative_error <= 1e-6);
    }
}

TEST_CASE("train layers: relative error is symmetric and floored") {
    CHECK(relative_error(1, 1) == 0);
    CHECK(relative_error(1, -1) == 1);
    CHECK(relative_error(0, 1e-13) == doctest::Approx(1e-7));
}
