// The model file's counts against its bytes: a header that claims more pieces
// or symbols than the file holds is refused before memory is set aside for them.
#include "allocations.hpp"
#include "helpers.hpp"
#include "tiny_model.hpp"

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

// One quantized tensor "big" (rows, cols): step 0.5, lowest -1, the code lengths, then the codes.
std::vector<std::uint8_t> quantized_tensor(std::uint32_t rows, std::uint32_t cols, const std::vector<std::uint8_t>& lengths,
                                           const std::vector<std::uint8_t>& codes) {
    std::vector<std::uint8_t> t;
    put<std::uint8_t>(t, 3);
    put_bytes(t, "big", 3);
    put<std::uint8_t>(t, std::uint8_t(DType::quantized));
    put<std::uint32_t>(t, rows);
    put<std::uint32_t>(t, cols);
    put<float>(t, 0.5f);
    put<std::int32_t>(t, -1);
    put<std::uint32_t>(t, std::uint32_t(lengths.size()));
    t.insert(t.end(), lengths.begin(), lengths.end());
    put<std::uint32_t>(t, std::uint32_t(codes.size()));
    t.insert(t.end(), codes.begin(), codes.end());
    return t;
}

}  // namespace

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
    ModelFile read;
    const long long bytes = allocated_bytes_during([&] { read = read_model_file(f.data(), f.size()); });
    REQUIRE(read.tensors.count("big") == 1);
    const Mat& big = read.tensors.at("big");
    CHECK(big.rows() == 1024);
    CHECK(big.cols() == 1024);
    CHECK((big.array() == Scalar(-0.5)).all());
    CHECK(read.stored_as.at("big") == DType::quantized);
    // the matrix (4 MB, counted where every malloc is) and little else: no 4-byte symbol per entry beside it
    const long long matrix = all_mallocs_counted() ? 1024LL * 1024 * 4 : 0;
    CHECK(bytes < matrix + kSmall);
}
