#include "helpers.hpp"
#include "tiny_model.hpp"

#include <cstring>

using namespace attn;
using namespace attn::test;
using namespace attn::tiny;

namespace {

const Mat& named(const std::vector<TinyTensor>& ts, const std::string& name) {
    for (const TinyTensor& t : ts)
        if (t.name == name) return t.value;
    FAIL("no tensor " << name);
    throw 0;
}

// ---- the forward pass written out with plain loops, in double ---------------

using Rows = std::vector<std::vector<double>>;

Rows affine(const Rows& x, const Mat& W, const Mat& b) {
    Rows y(x.size(), std::vector<double>(size_t(W.cols())));
    for (size_t i = 0; i < x.size(); ++i)
        for (Index j = 0; j < W.cols(); ++j) {
            double s = b(0, j);
            for (Index k = 0; k < W.rows(); ++k) s += x[i][size_t(k)] * W(k, j);
            y[i][size_t(j)] = s;
        }
    return y;
}

Rows norm(const Rows& x, const Mat& scale, const Mat& bias) {
    Rows y = x;
    for (auto& row : y) {
        double mean = 0, var = 0;
        for (double v : row) mean += v / double(row.size());
        for (double v : row) var += (v - mean) * (v - mean) / double(row.size());
        for (size_t j = 0; j < row.size(); ++j) row[j] = (row[j] - mean) / std::sqrt(var + 1e-6) * scale(0, Index(j)) + bias(0, Index(j));
    }
    return y;
}

struct ReferenceRun {
    std::vector<Rows> attention;  // [layer * heads + head]
    std::vector<double> embedding;
};

ReferenceRun reference_forward(const std::vector<TinyTensor>& ts, const std::vector<Index>& ids) {
    const size_t T = ids.size();
    const Mat& E = named(ts, "embeddings");
    Rows x(T, std::vector<double>(4));
    for (size_t p = 0; p < T; ++p)
        for (Index j = 0; j < 2; ++j) {
            const double angle = double(p) * named(ts, "timing")(0, j);
            x[p][size_t(j)] = 2 * E(ids[p], j) + std::sin(angle);
            x[p][size_t(j + 2)] = 2 * E(ids[p], j + 2) + std::cos(angle);
        }
    ReferenceRun run;
    for (int l = 0; l < 2; ++l) {
        const std::string p = "layer" + std::to_string(l) + ".";
        const Rows residual = l == 0 ? affine(x, named(ts, p + "residual.W"), named(ts, p + "residual.b")) : x;
        const Rows qkv = affine(norm(x, named(ts, p + "norm1.scale"), named(ts, p + "norm1.bias")), named(ts, p + "qkv.W"),
                                named(ts, p + "qkv.b"));
        const size_t d = x[0].size(), dh = d / 2;
        Rows heads_out(T, std::vector<double>(d));
        for (size_t h = 0; h < 2; ++h) {
            Rows A(T, std::vector<double>(T));
            for (size_t i = 0; i < T; ++i) {
                double total = 0;
                for (size_t j = 0; j < T; ++j) {
                    double s = 0;
                    for (size_t c = 0; c < dh; ++c) s += qkv[i][h * dh + c] * qkv[j][d + h * dh + c];
                    A[i][j] = std::exp(s / std::sqrt(double(dh)));
                    total += A[i][j];
                }
                for (size_t j = 0; j < T; ++j) A[i][j] /= total;
                for (size_t c = 0; c < dh; ++c)
                    for (size_t j = 0; j < T; ++j) heads_out[i][h * dh + c] += A[i][j] * qkv[j][2 * d + h * dh + c];
            }
            run.attention.push_back(A);
        }
        Rows a = affine(heads_out, named(ts, p + "out.W"), named(ts, p + "out.b"));
        for (size_t i = 0; i < T; ++i)
            for (size_t j = 0; j < a[i].size(); ++j) a[i][j] += residual[i][j];
        Rows hidden = affine(norm(a, named(ts, p + "norm2.scale"), named(ts, p + "norm2.bias")), named(ts, p + "ffn1.W"),
                             named(ts, p + "ffn1.b"));
        for (auto& row : hidden)
            for (double& v : row) v = std::max(v, 0.0);
        const Rows f = affine(hidden, named(ts, p + "ffn2.W"), named(ts, p + "ffn2.b"));
        for (size_t i = 0; i < T; ++i)
            for (size_t j = 0; j < a[i].size(); ++j) a[i][j] += f[i][j];
        x = a;
    }
    Rows mean(1, std::vector<double>(x[0].size()));
    for (const auto& row : x)
        for (size_t j = 0; j < row.size(); ++j) mean[0][j] += row[j] / double(T);
    run.embedding = affine(mean, named(ts, "pool.W"), named(ts, "pool.b"))[0];
    double n2 = 0;
    for (double& v : run.embedding) {
        v = std::tanh(v);
        n2 += v * v;
    }
    for (double& v : run.embedding) v /= std::sqrt(n2);
    return run;
}

// the file with byte i replaced and the checksum made right again: past the checksum
std::vector<std::uint8_t> patched(std::vector<std::uint8_t> f, size_t at, const void* bytes, size_t n) {
    std::memcpy(f.data() + at, bytes, n);
    const std::uint32_t crc = crc32(f.data(), f.size() - 4);
    std::memcpy(f.data() + f.size() - 4, &crc, 4);
    return f;
}

size_t find_name(const std::vector<std::uint8_t>& f, const std::string& name) {
    const auto it = std::search(f.begin(), f.end(), name.begin(), name.end());
    REQUIRE(it != f.end());
    return size_t(it - f.begin()) + name.size();  // the byte after the name: the dtype
}

}  // namespace

TEST_CASE("encoder: a model file written by the test loads, and encode matches plain loops") {
    const std::vector<std::uint8_t> f = tiny_file();
    const Encoder e = load_encoder(f.data(), f.size());
    CHECK(e.layers.size() == 2);
    CHECK(e.heads == 2);
    CHECK(e.vocab.size() == 8);

    const EncoderResult r = encode(e, "the cats sat.");
    REQUIRE(r.tokens.ids == std::vector<Index>{2, 3, 4, 5, 7});
    CHECK(r.tokens.words == std::vector<std::string>{"the", "cats", "sat."});
    CHECK_FALSE(r.truncated);
    const ReferenceRun ref = reference_forward(tiny_tensors(), r.tokens.ids);
    for (size_t l = 0; l < 2; ++l)
        for (size_t h = 0; h < 2; ++h) {
            CAPTURE(l);
            CAPTURE(h);
            const Mat& A = r.attention[l].heads[h].weights;
            for (Index i = 0; i < A.rows(); ++i)
                for (Index j = 0; j < A.cols(); ++j) CHECK(A(i, j) == doctest::Approx(ref.attention[l * 2 + h][size_t(i)][size_t(j)]).epsilon(1e-5));
            check_rows_sum_to_one_or_zero(r.word_attention[l][h]);
        }
    REQUIRE(r.embedding.size() == 6);
    for (Index j = 0; j < 6; ++j) CHECK(r.embedding(j) == doctest::Approx(ref.embedding[size_t(j)]).epsilon(1e-5));
    CHECK(r.embedding.norm() == doctest::Approx(1).epsilon(1e-6));
}

TEST_CASE("encoder: float16 and int8 files load close to float32; long inputs are cut") {
    const std::vector<std::uint8_t> f32 = tiny_file(), f16 = tiny_file(DType::float16), i8 = tiny_file(DType::int8);
    CHECK(f16.size() < f32.size());
    CHECK(i8.size() < f16.size());
    const EncoderResult a = encode(load_encoder(f32.data(), f32.size()), "the cat sat");
    const EncoderResult b = encode(load_encoder(f16.data(), f16.size()), "the cat sat");
    const EncoderResult c = encode(load_encoder(i8.data(), i8.size()), "the cat sat");
    CHECK((a.attention[1].heads[0].weights - b.attention[1].heads[0].weights).cwiseAbs().maxCoeff() < 2e-3);
    CHECK((a.attention[1].heads[0].weights - c.attention[1].heads[0].weights).cwiseAbs().maxCoeff() < 5e-2);
    CHECK((a.embedding - b.embedding).cwiseAbs().maxCoeff() < 2e-3);

    const Encoder e = load_encoder(f32.data(), f32.size());
    const EncoderResult cut = encode(e, "the cat sat the cat sat the cat");  // 8 pieces, max 6
    CHECK(cut.truncated);
    CHECK(cut.tokens.ids.size() == 6);
    CHECK(cut.attention[0].heads[0].weights.rows() == 6);
    CHECK(contains(error_of([&] { encode(e, ""); }), "text is empty"));
}

TEST_CASE("encoder: merge_to_words sums over key pieces and averages over query pieces") {
    Mat A(3, 3);
    A << 0.5, 0.25, 0.25,  //
        0.1, 0.6, 0.3,     //
        0.3, 0.3, 0.4;
    const Mat W = merge_to_words(A, {0, 1, 1}, 2);
    CHECK(W(0, 0) == doctest::Approx(0.5));
    CHECK(W(0, 1) == doctest::Approx(0.5));
    CHECK(W(1, 0) == doctest::Approx((0.1 + 0.3) / 2));
    CHECK(W(1, 1) == doctest::Approx((0.9 + 0.7) / 2));
    CHECK(contains(error_of([&] { merge_to_words(A, {1, 0, 0}, 2); }), "non-decreasing"));
    CHECK(contains(error_of([&] { merge_to_words(A, {0, 1}, 2); }), "does not fit 2 pieces"));
}

TEST_CASE("model file: anything but a complete, intact file is rejected with a message") {
    const std::vector<std::uint8_t> f = tiny_file();
    auto message = [](const std::vector<std::uint8_t>& bytes) {
        return error_of([&] { load_encoder(bytes.data(), bytes.size()); });
    };
    CHECK(message(f).empty());
    CHECK(contains(message({}), "model file: not an attention-wasm encoder file"));
    CHECK(contains(message({'G', 'I', 'F', '8', '9', 'a'}), "not an attention-wasm encoder file"));
    // every truncation, and every single flipped bit of a sample of bytes
    for (size_t n = 0; n < f.size(); n += 7) {
        CAPTURE(n);
        CHECK(contains(message(std::vector<std::uint8_t>(f.begin(), f.begin() + std::ptrdiff_t(n))), "model file: "));
    }
    for (size_t at = 8; at < f.size(); at += 13) {
        std::vector<std::uint8_t> flipped = f;
        flipped[at] ^= std::uint8_t(1u << (at % 8));
        CAPTURE(at);
        CHECK(contains(message(flipped), "model file: "));
    }
    std::vector<std::uint8_t> extra = f;
    extra.push_back(0);
    CHECK(contains(message(extra), "checksum mismatch"));

    // well-formed checksums around bad contents
    const std::uint32_t v2 = 2, huge = 0xFFFFFFFFu;
    CHECK(contains(message(patched(f, 8, &v2, 4)), "version 2 is not supported"));
    CHECK(contains(message(patched(f, 28, &huge, 4)), "impossible counts"));
    const std::uint8_t dtype9 = 9;
    CHECK(contains(message(patched(f, find_name(f, "pool.W"), &dtype9, 1)), "tensor 'pool.W' has unknown dtype 9"));
    const std::uint32_t rows7 = 7;
    CHECK(contains(message(patched(f, find_name(f, "pool.W") + 1, &rows7, 4)), "model file: "));
    const float nan = NAN;
    CHECK(contains(message(patched(f, find_name(f, "pool.b") + 9, &nan, 4)), "tensor 'pool.b' holds NaN at entry 0"));
    const char other[] = "pool.X";
    CHECK(contains(message(patched(f, find_name(f, "pool.W") - 6, other, 6)), "tensor 'pool.W' is missing"));
    std::vector<std::uint8_t> changed = write_tiny_file(kPieces, kScores,
        [] { auto t = tiny_tensors(); t[2].value = Mat::Ones(3, 6); return t; }(), DType::float32);
    CHECK(contains(message(changed), "tensor 'layer0.residual.W' has shape (3, 6), expected (4, 6)"));
    changed = write_tiny_file(kPieces, kScores, [] { auto t = tiny_tensors(); t.push_back({"spare", Mat::Ones(1, 1)}); return t; }(),
                              DType::float32);
    CHECK(contains(message(changed), "unexpected tensor 'spare'"));
}
