// The model file's counts against its bytes: a header that claims more pieces
// or symbols than the file holds is refused before memory is set aside for
// them, and every tensor's shape is checked (against the bytes it takes, and
// by the encoder against the vocabulary and the other tensors) before any
// tensor is decoded.
#include "allocations.hpp"
#include "helpers.hpp"
#include "tiny_model.hpp"

#include <cstring>

using namespace attn;
using namespace attn::test;
using namespace attn::tiny;

namespace {

constexpr long long kSmall = 64 * 1024;  // bytes: what reading a refused file may allocate

// The 36 bytes of a file's header, then body, then the CRC-32 of it all.
std::vector<std::uint8_t> file_of(std::uint32_t version, std::uint32_t pieces, std::uint32_t tensors,
                                  const std::vector<std::uint8_t>& body = {}) {
    std::vector<std::uint8_t> f;
    put_bytes(f, kModelMagic, 8);
    put<std::uint32_t>(f, version);
    put<std::uint32_t>(f, 2);       // heads
    put<std::uint32_t>(f, 16);      // longest input
    put<float>(f, 1e-6f);           // layer-norm epsilon
    put<std::uint32_t>(f, 1);       // reserved ids
    put<std::uint32_t>(f, pieces);
    put<std::uint32_t>(f, tensors);
    f.insert(f.end(), body.begin(), body.end());
    put<std::uint32_t>(f, crc32(f.data(), f.size()));
    return f;
}

// A tensor's name, dtype and shape: what comes before its data.
std::vector<std::uint8_t> tensor_header(const std::string& name, DType dtype, std::uint32_t rows, std::uint32_t cols) {
    std::vector<std::uint8_t> t;
    put<std::uint8_t>(t, std::uint8_t(name.size()));
    put_bytes(t, name.data(), name.size());
    put<std::uint8_t>(t, std::uint8_t(dtype));
    put<std::uint32_t>(t, rows);
    put<std::uint32_t>(t, cols);
    return t;
}

// One quantized tensor (rows, cols), "big" unless named: step 0.5, lowest -1, the code lengths, then the codes.
std::vector<std::uint8_t> quantized_tensor(std::uint32_t rows, std::uint32_t cols, const std::vector<std::uint8_t>& lengths,
                                           const std::vector<std::uint8_t>& codes, const std::string& name = "big") {
    std::vector<std::uint8_t> t = tensor_header(name, DType::quantized, rows, cols);
    put<float>(t, 0.5f);
    put<std::int32_t>(t, -1);
    put<std::uint32_t>(t, std::uint32_t(lengths.size()));
    t.insert(t.end(), lengths.begin(), lengths.end());
    put<std::uint32_t>(t, std::uint32_t(codes.size()));
    t.insert(t.end(), codes.begin(), codes.end());
    return t;
}

// A 1024 x 1024 tensor of 1-bit codes: 128 KB in the file, 4 MB decoded (32 times as much).
std::vector<std::uint8_t> one_bit_tensor(const std::string& name, std::uint32_t rows = 1024, std::uint32_t cols = 1024) {
    return quantized_tensor(rows, cols, {1}, std::vector<std::uint8_t>((std::size_t(rows) * cols + 7) / 8, 0), name);
}

// file with one more tensor at its end (made version 2, for a quantized one)
std::vector<std::uint8_t> with_tensor(const std::vector<std::uint8_t>& file, const std::vector<std::uint8_t>& tensor) {
    std::vector<std::uint8_t> f(file.begin(), file.end() - 4);  // without its checksum
    const std::uint32_t version = kModelVersionQuantized;
    std::memcpy(f.data() + 8, &version, 4);
    std::uint32_t tensors;
    std::memcpy(&tensors, f.data() + 32, 4);
    ++tensors;
    std::memcpy(f.data() + 32, &tensors, 4);
    f.insert(f.end(), tensor.begin(), tensor.end());
    put<std::uint32_t>(f, crc32(f.data(), f.size()));
    return f;
}

}  // namespace

TEST_CASE("model file: every tensor's shape is checked against the bytes before any tensor is decoded") {
    // a tensor that 128 KB of 1-bit codes hold (4 MB once decoded), then one whose 4 MB the file does not have
    std::vector<std::uint8_t> body = one_bit_tensor("big");
    const std::vector<std::uint8_t> late = tensor_header("late", DType::float32, 1000, 1000);
    body.insert(body.end(), late.begin(), late.end());
    const std::vector<std::uint8_t> f = file_of(kModelVersionQuantized, 0, 2, body);
    std::string message;
    const long long bytes = allocated_bytes_during([&] { message = error_of([&] { read_model_file(f.data(), f.size()); }); });
    CHECK(message == "model file: truncated: tensor 'late' (1000, 1000) needs 4000000 bytes, only 0 left");
    CHECK(bytes < kSmall);
}

TEST_CASE("model file: more than 2^25 weights in all is refused before any tensor is decoded") {
    // two tensors of 1-bit codes, 4.2 MB of file: 33,558,528 weights, 134 MB decoded
    std::vector<std::uint8_t> body = one_bit_tensor("a", 4096, 4096);
    const std::vector<std::uint8_t> b = one_bit_tensor("b", 4097, 4096);
    body.insert(body.end(), b.begin(), b.end());
    const std::vector<std::uint8_t> f = file_of(kModelVersionQuantized, 0, 2, body);
    std::string message;
    const long long bytes = allocated_bytes_during([&] { message = error_of([&] { read_model_file(f.data(), f.size()); }); });
    CHECK(message == "model file: the tensors up to 'b' hold 33558528 weights, more than the 33554432 a model file may hold");
    CHECK(bytes < kSmall);
    // one row fewer: 2^25 exactly, read (and not decoded)
    std::vector<std::uint8_t> fits = one_bit_tensor("a", 4096, 4096);
    const std::vector<std::uint8_t> c = one_bit_tensor("b", 4096, 4096);
    fits.insert(fits.end(), c.begin(), c.end());
    const std::vector<std::uint8_t> g = file_of(kModelVersionQuantized, 0, 2, fits);
    CHECK(error_of([&] { read_model_file(g.data(), g.size()); }).empty());
}

TEST_CASE("encoder: a file whose tensors do not fit the encoder is refused before any tensor is decoded") {
    auto refused = [](const std::vector<std::uint8_t>& f, const std::string& expected) {
        std::string message;
        const long long bytes = allocated_bytes_during([&] { message = error_of([&] { load_encoder(f.data(), f.size()); }); });
        CHECK(message == expected);
        CHECK(bytes < kSmall);
    };
    // the tiny encoder and a tensor it has no place for, 4 MB once decoded
    refused(with_tensor(tiny_file(), one_bit_tensor("big")), "model file: unexpected tensor 'big'");
    // the same with a tensor whose shape does not fit the others
    std::vector<TinyTensor> tensors = tiny_tensors();
    for (TinyTensor& t : tensors)
        if (t.name == "pool.W") t.value = Mat::Ones(6, 5);
    refused(with_tensor(write_tiny_file(kPieces, kScores, tensors, DType::float32), one_bit_tensor("big")),
            "model file: tensor 'pool.W' has shape (6, 5), expected (6, 6)");
    // embeddings of 1-bit codes with fewer rows than the vocabulary has pieces (and 1024 wide: 4 MB)
    tensors = tiny_tensors();
    tensors.erase(tensors.begin());  // "embeddings"
    const std::vector<std::uint8_t> no_embeddings = write_tiny_file(kPieces, kScores, tensors, DType::float32);
    refused(with_tensor(no_embeddings, one_bit_tensor("embeddings", 7, 1024 * 256)),
            "model file: tensor 'embeddings' has 7 rows for 8 pieces");
}

TEST_CASE("model file: a 40-byte file claiming a million pieces is refused before anything is reserved for them") {
    const std::vector<std::uint8_t> f = file_of(kModelVersion, 1000000, 0);
    REQUIRE(f.size() == 40);
    std::string message;
    const long long bytes = allocated_bytes_during([&] { message = error_of([&] { read_model_file(f.data(), f.size()); }); });
    CHECK(message == "model file: truncated: the vocabulary size says 1000000 pieces, at least 9000000 bytes, only 0 left");
    CHECK(bytes < kSmall);
    // the counts a file can hold still read: 2 pieces of 9 and 10 bytes
    std::vector<std::uint8_t> two;
    put<std::uint8_t>(two, 0);
    put<double>(two, -1.0);
    put<std::uint8_t>(two, 1);
    put<char>(two, 'a');
    put<double>(two, -2.5);
    const std::vector<std::uint8_t> g = file_of(kModelVersion, 2, 0, two);
    const ModelFile read = read_model_file(g.data(), g.size());
    CHECK(read.pieces == std::vector<std::string>{"", "a"});
    CHECK(read.scores == std::vector<double>{-1.0, -2.5});
    // one piece more than the bytes hold: the same message, before the pieces are read
    CHECK(error_of([&] { const auto h = file_of(kModelVersion, 3, 0, two); read_model_file(h.data(), h.size()); }) ==
          "model file: truncated: the vocabulary size says 3 pieces, at least 27 bytes, only 19 left");
}

TEST_CASE("model file: a quantized tensor claiming a million symbols its codes cannot hold is refused before its matrix") {
    // 1024 x 1024 symbols in 131,072 bytes: a bit each would fit, but the table's one code is 24 bits long
    const std::vector<std::uint8_t> codes(131072, 0);
    const std::vector<std::uint8_t> f = file_of(kModelVersionQuantized, 0, 1, quantized_tensor(1024, 1024, {24}, codes));
    std::string message;
    const long long bytes = allocated_bytes_during([&] { message = error_of([&] { read_model_file(f.data(), f.size()); }); });
    CHECK(message == "model file: tensor 'big': 1048576 symbols of at least 24 bits cannot fit in 131072 bytes of codes");
    CHECK(bytes < kSmall);
    // the decoder on its own says the same before its list of symbols
    CHECK(error_of([&] { decode_huffman({0, 3, 3}, codes.data(), 3, 9, "t"); }) ==
          "model file: t: 9 symbols of at least 3 bits cannot fit in 3 bytes of codes");
    CHECK(decode_huffman({0, 3, 3}, std::vector<std::uint8_t>{0x04, 0x10, 0x41}.data(), 3, 8, "t") ==
          std::vector<std::uint32_t>{1, 2, 1, 2, 1, 2, 1, 2});
}

TEST_CASE("model file: a quantized tensor that its codes do hold is decoded straight into its matrix") {
    // one code of 1 bit, "0": 131,072 zero bytes hold 1024 x 1024 symbols, each -1 * 0.5
    const std::vector<std::uint8_t> codes(131072, 0);
    const std::vector<std::uint8_t> f = file_of(kModelVersionQuantized, 0, 1, quantized_tensor(1024, 1024, {1}, codes));
    const ModelFile read = read_model_file(f.data(), f.size());
    REQUIRE(read.tensors.count("big") == 1);
    CHECK(read.tensors.at("big").dtype == DType::quantized);
    Mat big;
    const long long bytes = allocated_bytes_during([&] { big = decode_tensor(read.tensors.at("big")); });
    CHECK(big.rows() == 1024);
    CHECK(big.cols() == 1024);
    CHECK((big.array() == Scalar(-0.5)).all());
    // the matrix (4 MB, counted where every malloc is) and little else: no 4-byte symbol per entry beside it
    const long long matrix = all_mallocs_counted() ? 1024LL * 1024 * 4 : 0;
    CHECK(bytes < matrix + kSmall);
}
