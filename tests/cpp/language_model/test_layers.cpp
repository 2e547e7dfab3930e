// The language model's new layers (reference.hpp, training/layers.hpp): each
// layer's double backward against finite differences and its float forward
// and backward against the double reference (layer norm, GELU, bias and
// residual, learned positions); Adam's warm-up and clipping.
#include "train_helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

namespace {

// sum of W .* Y: a loss whose gradient with respect to Y is W
double weighted(const MatD& Y, const MatD& W) { return (Y.array() * W.array()).sum(); }

// the five-point central difference of a scalar function of one entry of M
template <class F>
double numeric_derivative(MatD& M, Index i, Index j, F loss) {
    const double h = 1e-3, x = M(i, j);
    double L[4];
    const double steps[4] = {h, -h, 2 * h, -2 * h};
    for (int s = 0; s < 4; ++s) {
        M(i, j) = x + steps[s];
        L[s] = loss();
    }
    M(i, j) = x;
    return (8 * (L[0] - L[1]) - (L[2] - L[3])) / (12 * h);
}

}  // namespace

// ---- the new layers ---------------------------------------------------------------

TEST_CASE("lm layers: layer norm, its double backward against finite differences and the float path against both") {
    const Index rows = 5, d = 7;
    MatD X = random_double(rows, d, 11, 2), gain = random_double(1, d, 12), bias = random_double(1, d, 13);
    const MatD W = random_double(rows, d, 14);  // dY
    MatD dX, dgain, dbias;
    layer_norm_backward_reference(X, gain, W, dX, dgain, dbias);
    double worst = 0;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < d; ++j)
            worst = std::max(worst, relative_error(dX(i, j), numeric_derivative(X, i, j, [&] {
                                                       return weighted(layer_norm_reference(X, gain, bias), W);
                                                   })));
    for (Index j = 0; j < d; ++j) {
        worst = std::max(worst, relative_error(dgain(0, j), numeric_derivative(gain, 0, j, [&] {
                                                   return weighted(layer_norm_reference(X, gain, bias), W);
                                               })));
        worst = std::max(worst, relative_error(dbias(0, j), numeric_derivative(bias, 0, j, [&] {
                                                   return weighted(layer_norm_reference(X, gain, bias), W);
                                               })));
    }
    CHECK(worst <= 1e-8);

    const Mat x = to_float(X), g = to_float(gain), b = to_float(bias), w = to_float(W);
    Mat Y(rows, d), fdX = Mat::Zero(rows, d), fdg = Mat::Zero(1, d), fdb = Mat::Zero(1, d);
    std::vector<float> mean(rows), rstd(rows);
    LayerNorm layer{d};
    layer.forward(rows, x.data(), g.data(), b.data(), Y.data(), mean.data(), rstd.data());
    layer.backward(rows, x.data(), g.data(), mean.data(), rstd.data(), w.data(), fdg.data(), fdb.data(), fdX.data());
    CHECK(max_error(Y, layer_norm_reference(X, gain, bias)) < 1e-5);
    CHECK(max_error(fdX, dX) < 1e-5);
    CHECK(max_error(fdg, dgain) < 1e-5);
    CHECK(max_error(fdb, dbias) < 1e-5);
}

TEST_CASE("lm layers: GELU (tanh form), bias and residual against finite differences and the float path") {
    const Index rows = 3, cols = 9;  // 27 entries: the vector loop and its tail
    MatD U = random_double(rows, cols, 21, 4);
    const MatD W = random_double(rows, cols, 22);
    const MatD dU = gelu_backward_reference(U, W);
    double worst = 0;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j)
            worst = std::max(worst, relative_error(dU(i, j), numeric_derivative(U, i, j, [&] {
                                                       return weighted(gelu_reference(U), W);
                                                   })));
    CHECK(worst <= 1e-8);
    // known values: gelu(0) = 0, gelu(1) = 0.841192, gelu(-1) = -0.158808
    MatD probe(1, 3);
    probe << 0, 1, -1;
    const MatD known = gelu_reference(probe);
    CHECK(known(0, 0) == 0);
    CHECK(known(0, 1) == doctest::Approx(0.8411919906).epsilon(1e-9));
    CHECK(known(0, 2) == doctest::Approx(-0.1588080094).epsilon(1e-9));

    const Mat u = to_float(U), w = to_float(W);
    Mat T(rows, cols), G(rows, cols), fdU(rows, cols);
    Gelu::forward(rows * cols, u.data(), T.data(), G.data());
    Gelu::backward(rows * cols, u.data(), T.data(), w.data(), fdU.data());
    CHECK(max_error(G, gelu_reference(U)) < 1e-6);
    CHECK(max_error(fdU, dU) < 1e-6);

    // bias: Y = X + b on every row; db = the column sums of dY
    MatD X = random_double(rows, cols, 23), b = random_double(1, cols, 24);
    const MatD db = bias_backward_reference(W);
    worst = 0;
    for (Index j = 0; j < cols; ++j)
        worst = std::max(worst, relative_error(db(0, j), numeric_derivative(b, 0, j, [&] {
                                                   return weighted(bias_reference(X, b), W);
                                               })));
    CHECK(worst <= 1e-8);
    Mat y = to_float(X), fdb = Mat::Zero(1, cols);
    const Mat fb = to_float(b);
    Bias layer{cols};
    layer.forward(rows, fb.data(), y.data());
    layer.backward(rows, w.data(), fdb.data());
    CHECK(max_error(y, bias_reference(X, b)) < 1e-6);
    CHECK(max_error(fdb, db) < 1e-6);

    // residual: Y = X + F; both branches get dY
    MatD F = random_double(rows, cols, 25);
    worst = 0;
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j) {
            worst = std::max(worst, relative_error(W(i, j), numeric_derivative(X, i, j, [&] {
                                                       return weighted(residual_reference(X, F), W);
                                                   })));
            worst = std::max(worst, relative_error(W(i, j), numeric_derivative(F, i, j, [&] {
                                                       return weighted(residual_reference(X, F), W);
                                                   })));
        }
    CHECK(worst <= 1e-8);
    const Mat fx = to_float(X), ff = to_float(F);
    Mat fy(rows, cols), fdx = Mat::Zero(rows, cols);
    Residual::forward(rows * cols, fx.data(), ff.data(), fy.data());
    Residual::backward(rows * cols, w.data(), fdx.data());
    CHECK(max_error(fy, residual_reference(X, F)) < 1e-6);
    CHECK(max_error(fdx, W) < 1e-6);
}

TEST_CASE("lm layers: learned positions get the gradient of every row at their position") {
    const Index n = 3, d = 4, rows = 9;
    const MatD dX = random_double(rows, d, 31);
    Mat dP = Mat::Zero(n, d);
    const Mat dx = to_float(dX);
    Embedding{5, d, n}.backward_positions(rows, dx.data(), dP.data());
    MatD expected = MatD::Zero(n, d);
    for (Index r = 0; r < rows; ++r) expected.row(r % n) += dX.row(r);
    CHECK(max_error(dP, expected) < 1e-6);
}

TEST_CASE("adam: warm-up scales the rate linearly, clipping caps the global norm, both off change nothing") {
    // warm-up over 4 steps: rates 1/4, 2/4, 3/4, 1, 1 of learning_rate
    Adam warm(AdamOptions{0.1, 0.9, 0.999, 1e-8, 4, 0});
    CHECK(warm.rate_at(1) == doctest::Approx(0.025));
    CHECK(warm.rate_at(3) == doctest::Approx(0.075));
    CHECK(warm.rate_at(4) == 0.1);
    CHECK(warm.rate_at(9) == 0.1);
    // the first Adam step moves p by about the rate (m_hat / sqrt(v_hat) = sign g)
    float p = 1, m = 0, v = 0, g = 0.5f;
    warm.step(&p, &g, &m, &v, 1);
    CHECK(p == doctest::Approx(1 - 0.025).epsilon(1e-6));

    // clipping at 1: g = (3, 4) has norm 5 -> (0.6, 0.8); m after one step = 0.1 g
    Adam clipped(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, 1});
    float q[2] = {0, 0}, gq[2] = {3, 4}, mq[2] = {0, 0}, vq[2] = {0, 0};
    clipped.step(q, gq, mq, vq, 2);
    CHECK(clipped.last_norm() == doctest::Approx(5));
    CHECK(mq[0] == doctest::Approx(0.06).epsilon(1e-6));
    CHECK(mq[1] == doctest::Approx(0.08).epsilon(1e-6));
    // under the clip: unchanged
    float r[2] = {0, 0}, gr[2] = {0.3f, 0.4f}, mr[2] = {0, 0}, vr[2] = {0, 0};
    Adam loose(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, 1});
    loose.step(r, gr, mr, vr, 2);
    CHECK(mr[0] == doctest::Approx(0.03).epsilon(1e-6));

    // off (the defaults): bit for bit the plain update
    Adam plain(AdamOptions{0.1, 0.9, 0.999, 1e-8}), off(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, 0});
    float a = 1, ma = 0, va = 0, b = 1, mb = 0, vb = 0, ga = 0.37f;
    for (int i = 0; i < 3; ++i) plain.step(&a, &ga, &ma, &va, 1), off.step(&b, &ga, &mb, &vb, 1);
    CHECK(a == b);

    CHECK(contains(error_of([] { Adam(AdamOptions{0.1, 0.9, 0.999, 1e-8, 1.5, 0}); }), "warmup"));
    CHECK(contains(error_of([] { Adam(AdamOptions{0.1, 0.9, 0.999, 1e-8, 0, -1}); }), "clip"));
}
