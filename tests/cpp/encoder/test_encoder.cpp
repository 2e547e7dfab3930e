#include "allocations.hpp"
#include "helpers.hpp"
#include "tiny_model.hpp"

#include <cstring>

using namespace attn;
using namespace attn::test;
using namespace attn::tiny;
using attn::test::allocations_during;

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
            const Mat& A = r.attention[l].weights[size_t(h)];
            for (Index i = 0; i < A.rows(); ++i)
                for (Index j = 0; j < A.cols(); ++j) CHECK(A(i, j) == doctest::Approx(ref.attention[l * 2 + h][size_t(i)][size_t(j)]).epsilon(1e-5));
            check_rows_sum_to_one_or_zero(r.word_attention[l][h]);
        }
    REQUIRE(r.embedding.size() == 6);
    for (Index j = 0; j < 6; ++j) CHECK(r.embedding(j) == doctest::Approx(ref.embedding[size_t(j)]).epsilon(1e-5));
    CHECK(r.embedding.norm() == doctest::Approx(1).epsilon(1e-6));

    // without maps: the same embedding and hidden states, bit for bit, and no map at all
    const EncoderResult bare = encode(e, "the cats sat.", false);
    CHECK(bare.embedding == r.embedding);
    CHECK(bare.hidden[1] == r.hidden[1]);
    CHECK(bare.attention[0].weights.empty());
    CHECK(bare.word_attention.empty());
}

TEST_CASE("encoder: encoding again into the same result allocates nothing, and gives what a fresh encode does") {
    const std::vector<std::uint8_t> f = tiny_file();
    const Encoder e = load_encoder(f.data(), f.size());
    for (const bool maps : {true, false}) {
        CAPTURE(maps);
        EncoderResult r;
        encode_into(e, "the cats sat.", maps, r);  // the first of its shape: room is made
        CHECK(allocations_during([&] { encode_into(e, "the cats sat.", maps, r); }) == 0);
        // another text of as many pieces and words (an unknown character among them)
        CHECK(allocations_during([&] { encode_into(e, "the cat§ sat.", maps, r); }) == 0);
        CHECK(r.tokens.ids == std::vector<Index>{2, 3, 0, 5, 7});
        const EncoderResult fresh = encode(e, "the cat§ sat.", maps);
        CHECK(r.tokens.pieces == fresh.tokens.pieces);
        CHECK(r.tokens.words == fresh.tokens.words);
        CHECK(r.embedding == fresh.embedding);
        CHECK(r.hidden[1] == fresh.hidden[1]);
        REQUIRE(r.attention[1].weights.size() == fresh.attention[1].weights.size());
        for (size_t h = 0; h < r.attention[1].weights.size(); ++h) {
            CHECK(r.attention[1].weights[h] == fresh.attention[1].weights[h]);
            CHECK(r.word_attention[1][h] == fresh.word_attention[1][h]);
        }
    }
    // the counter counts: a longer text needs more room
    EncoderResult r;
    encode_into(e, "the cat", true, r);
    CHECK(allocations_during([&] { encode_into(e, "the cats sat.", true, r); }) > 0);
}

TEST_CASE("encoder: weights that load but overflow float32 on the way are an error, not a NaN map") {
    std::vector<TinyTensor> ts = tiny_tensors();
    for (TinyTensor& t : ts)  // finite in the file; V's columns of layer 0 overflow for pieces whose first normed entry is > 0.14
        if (t.name == "layer0.qkv.W" || t.name == "layer0.qkv.b") {
            const Index d = t.value.cols() / 3;
            t.value.block(0, 2 * d, 1, d).setConstant(3e38f);
        }
    const std::vector<std::uint8_t> f = write_tiny_file(kPieces, kScores, ts, DType::float32);
    const Encoder e = load_encoder(f.data(), f.size());
    CHECK_THROWS_WITH(encode(e, "the cats sat."),
                      "layer 0's query, key and value matrix overflows float32 (an entry is not finite); use smaller inputs or parameters");
}

TEST_CASE("encoder: float16, int8 and quantized files load close to float32; long inputs are cut") {
    const std::vector<std::uint8_t> f32 = tiny_file(), f16 = tiny_file(DType::float16), i8 = tiny_file(DType::int8),
                                    q = tiny_file(DType::quantized);
    CHECK(f16.size() < f32.size());
    CHECK(i8.size() < f16.size());
    const EncoderResult a = encode(load_encoder(f32.data(), f32.size()), "the cat sat");
    const EncoderResult b = encode(load_encoder(f16.data(), f16.size()), "the cat sat");
    const EncoderResult c = encode(load_encoder(i8.data(), i8.size()), "the cat sat");
    const EncoderResult d = encode(load_encoder(q.data(), q.size()), "the cat sat");
    CHECK((a.attention[1].weights[0] - b.attention[1].weights[0]).cwiseAbs().maxCoeff() < 2e-3);
    CHECK((a.attention[1].weights[0] - c.attention[1].weights[0]).cwiseAbs().maxCoeff() < 5e-2);
    CHECK((a.attention[1].weights[0] - d.attention[1].weights[0]).cwiseAbs().maxCoeff() < 5e-2);
    // each quantized weight is its nearest step of max |x| / 127
    const ModelFile read = read_model_file(q.data(), q.size());
    CHECK(read.tensors.at("pool.W").dtype == DType::quantized);
    CHECK(read.tensors.at("pool.b").dtype == DType::float32);
    const std::vector<TinyTensor> tensors = tiny_tensors();
    const Mat& pool = named(tensors, "pool.W");
    const float step = pool.cwiseAbs().maxCoeff() / 127;
    const Mat stored = decode_tensor(read.tensors.at("pool.W"));
    CHECK((stored - pool).cwiseAbs().maxCoeff() <= step / 2 * (1 + 1e-5));
    CHECK(stored(0, 0) == doctest::Approx(std::lround(pool(0, 0) / step) * step).epsilon(1e-6));
    CHECK((a.embedding - b.embedding).cwiseAbs().maxCoeff() < 2e-3);

    const Encoder e = load_encoder(f32.data(), f32.size());
    const EncoderResult cut = encode(e, "the cat sat the cat sat the cat");  // 8 pieces, max 6
    CHECK(cut.truncated);
    CHECK(cut.tokens.ids.size() == 6);
    CHECK(cut.attention[0].weights[0].rows() == 6);
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
    const std::uint32_t v3 = 3, huge = 0xFFFFFFFFu;
    CHECK(contains(message(patched(f, 8, &v3, 4)), "version 3 is not supported"));
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

TEST_CASE("model file: Huffman codes decode canonically and every bad code is an Error") {
    // lengths 2, 1, 3, 3 -> canonical codes: symbol 1 "0", symbol 0 "10", symbol 2 "110", symbol 3 "111"
    const std::vector<std::uint8_t> lengths = {2, 1, 3, 3};
    // 0 | 10 | 110 | 111 | 0 -> 0101 1011 10(00 0000): symbols 1 0 2 3 1 in 10 bits
    const std::vector<std::uint8_t> bytes = {0x5B, 0x80};
    CHECK(decode_huffman(lengths, bytes.data(), 2, 5, "t") == std::vector<std::uint32_t>{1, 0, 2, 3, 1});
    auto message = [&](const std::vector<std::uint8_t>& l, const std::vector<std::uint8_t>& b, std::size_t n) {
        return error_of([&] { decode_huffman(l, b.data(), b.size(), n, "tensor 'x'"); });
    };
    CHECK(message(lengths, bytes, 5).empty());
    // the zero bits after the fifth symbol are six more "0"s, then the codes end
    CHECK(contains(message(lengths, bytes, 12), "tensor 'x': the codes end after 11 of 12 symbols"));
    CHECK(contains(message(lengths, bytes, 3), "1 bytes after the last code"));
    CHECK(contains(message(lengths, {0x5B, 0x81}, 5), "the bits after the last code are not zero"));
    CHECK(contains(message({1, 1, 1}, bytes, 1), "impossible code: more codes of length 1 than fit"));
    CHECK(contains(message({0, 0}, bytes, 1), "has no code"));
    CHECK(contains(message({25, 1}, bytes, 1), "a code of length 25 (at most 24)"));
    CHECK(contains(message({1, 0}, {0xFF, 0xFF, 0xFF, 0xFF}, 1), "symbol 0 is not a code of the table"));
    // codes longer than the decoder's 11-bit table: lengths 1, 2, ..., 13, 13 ("0", "10", ..., twelve 1s then 0, thirteen 1s)
    std::vector<std::uint8_t> deep(14);
    for (std::uint8_t s = 0; s < 14; ++s) deep[s] = std::uint8_t(std::min(s + 1, 13));
    std::vector<std::uint8_t> packed;
    size_t nbits = 0;
    auto put_bits = [&](const std::string& bits) {
        for (char b : bits) {
            if (nbits % 8 == 0) packed.push_back(0);
            if (b == '1') packed.back() |= std::uint8_t(0x80 >> (nbits % 8));
            ++nbits;
        }
    };
    put_bits("1111111111110");  // symbol 12
    put_bits("1111111111111");  // symbol 13
    put_bits("0");              // symbol 0
    put_bits("111110");         // symbol 5
    put_bits("1111111110");     // symbol 9 (10 bits: from the table)
    CHECK(decode_huffman(deep, packed.data(), packed.size(), 5, "t") == std::vector<std::uint32_t>{12, 13, 0, 5, 9});
    // one symbol of length 1: the code "0"
    CHECK(decode_huffman({0, 1}, std::vector<std::uint8_t>{0}.data(), 1, 8, "t") == std::vector<std::uint32_t>(8, 1));
}

TEST_CASE("model file: a quantized file that is cut or wrong anywhere is an Error before its matrices are allocated") {
    const std::vector<std::uint8_t> f = tiny_file(DType::quantized);
    auto message = [](const std::vector<std::uint8_t>& bytes) {
        return error_of([&] { load_encoder(bytes.data(), bytes.size()); });
    };
    CHECK(message(f).empty());
    for (size_t n = 0; n < f.size(); n += 5) {
        CAPTURE(n);
        CHECK(contains(message(std::vector<std::uint8_t>(f.begin(), f.begin() + std::ptrdiff_t(n))), "model file: "));
    }
    // a quantized tensor in a version 1 file
    const std::uint32_t v1 = 1;
    CHECK(contains(message(patched(f, 8, &v1, 4)), "tensor 'embeddings' is quantized (dtype 4) in a version 1 file"));
    const size_t at = find_name(f, "pool.W") + 9;  // after dtype, rows, cols: the step
    const float zero = 0, inf = INFINITY;
    CHECK(contains(message(patched(f, at, &zero, 4)), "tensor 'pool.W' has step 0"));
    CHECK(contains(message(patched(f, at, &inf, 4)), "tensor 'pool.W' has step Infinity"));
    const std::uint32_t none = 0, many = 70000;
    CHECK(contains(message(patched(f, at + 8, &none, 4)), "tensor 'pool.W' has 0 symbols (1 to 65536)"));
    CHECK(contains(message(patched(f, at + 8, &many, 4)), "tensor 'pool.W' has 70000 symbols"));
    const std::uint8_t long_code = 30, short_code = 1;
    CHECK(contains(message(patched(f, at + 12, &long_code, 1)), "tensor 'pool.W' has a code of length 30"));
    CHECK(contains(message(patched(f, at + 12, &short_code, 1)), "tensor 'pool.W' has an impossible code"));
    // the code size: too small for 36 entries (a bit each), or past the end of the file
    const std::uint32_t four = 4, huge = 0x7FFFFFFF;
    CHECK(contains(message(patched(f, at + 12 + 255, &four, 4)), "tensor 'pool.W' (6, 6) cannot fit in 4 bytes of codes"));
    CHECK(contains(message(patched(f, at + 12 + 255, &huge, 4)), "truncated: the codes of 'pool.W' need 2147483647 bytes"));
    // a byte 255 (no code of the table: 255 codes of 8 bits)
    const std::uint8_t ff = 0xFF;
    CHECK(contains(message(patched(f, at + 12 + 255 + 4, &ff, 1)), "tensor 'pool.W': symbol 0 is not a code of the table"));
}
