// The encoder's model file: one binary file holding the tokenizer's
// vocabulary and every weight, in this project's own format.
//
// Layout (little-endian; no padding):
//   magic      8 bytes  "ATTNWENC"
//   version    u32      1, or 2 for a file with quantized tensors (dtype 4)
//   heads      u32      attention heads per layer
//   max_pieces u32      longest input; longer sentences are cut
//   norm_eps   f32      layer-norm epsilon
//   reserved   u32      ids below this are control symbols (0 = unknown)
//   pieces     u32      vocabulary size
//   tensors    u32      number of tensors
//   pieces times:  u8 byte length, UTF-8 bytes, f64 score
//   tensors times: u8 name length, name, u8 dtype, u32 rows, u32 cols, data
//     dtype 1 float32: rows*cols f32
//     dtype 2 float16: rows*cols IEEE half
//     dtype 3 int8:    rows f32 scales, then rows*cols i8; value = q * scale of its row
//     dtype 4 quantized (version 2): value = (lowest + symbol) * step, the symbols
//                      Huffman-coded, row-major:
//                      f32 step (> 0), i32 lowest, u32 symbols (1..65536),
//                      symbols u8 code lengths (0 = unused, at most 24), u32 bytes,
//                      then the codes: canonical (by length, then by symbol, as
//                      DEFLATE), most significant bit first, the last byte's
//                      unused bits zero
//   checksum   u32      CRC-32 of every byte before it
#pragma once

#include "attention/types.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attn {

enum class DType : std::uint8_t { float32 = 1, float16 = 2, int8 = 3, quantized = 4 };

// A tensor as the file stores it, its values not yet decoded: how, its shape
// (checked against the bytes it takes), and where its bytes are in the file
// (which must outlive it).
struct StoredTensor {
    std::string name;
    DType dtype = DType::float32;
    std::uint32_t rows = 0, cols = 0;
    const std::uint8_t* data = nullptr;  // float32, float16: the entries; int8: the row scales, then the
                                         // entries; quantized: the codes
    std::size_t size = 0;                // bytes at data
    // quantized only: value = (lowest + symbol) * step, each symbol's code length at code_lengths
    float step = 0;
    std::int32_t lowest = 0;
    const std::uint8_t* code_lengths = nullptr;
    std::uint32_t symbols = 0;
};

struct ModelFile {
    std::uint32_t heads = 0;
    std::uint32_t max_pieces = 0;
    float norm_eps = 0;
    std::uint32_t reserved = 0;
    std::vector<std::string> pieces;
    std::vector<double> scores;
    std::map<std::string, StoredTensor> tensors;  // by name, as stored: decode_tensor gives the values
};

constexpr char kModelMagic[8] = {'A', 'T', 'T', 'N', 'W', 'E', 'N', 'C'};
constexpr std::uint32_t kModelVersion = 1;            // float32, float16 and int8 tensors
constexpr std::uint32_t kModelVersionQuantized = 2;   // may also hold quantized tensors
constexpr unsigned kMaxCodeLength = 24;
// The most weights a file's tensors may hold together: 2^25 (33.5 M, 128 MB as
// float32), nearly five times the 7.0 M of the encoder the page ships. A
// quantized file packs up to eight weights in a byte, so its size alone bounds
// its weights only to 32 times its bytes in memory.
constexpr std::uint64_t kMaxWeights = std::uint64_t(1) << 25;

// Reads and checks a whole file without decoding any tensor. Throws an
// invalid_argument starting "model file: " for anything that is not a
// complete, intact file of this format: wrong magic, other version,
// truncation, a checksum mismatch, bad UTF-8, a tensor whose shape, dtype or
// code table is impossible or needs more bytes than the file has left (a
// quantized tensor's symbols at least its shortest code each), or more than
// kMaxWeights weights in all. Every count and shape is checked against the
// bytes before memory is set aside for it; the result points into data.
ModelFile read_model_file(const std::uint8_t* data, std::size_t size);

// A tensor's values (a vector is (1, n)). Throws naming the tensor for a
// non-finite value, an int8 row scale below 0 or not finite, or codes that do
// not decode to its rows * cols symbols exactly.
Mat decode_tensor(const StoredTensor& tensor);

// Decodes count Huffman-coded symbols (the canonical code of lengths, as in
// the file) from bytes, all of which must be used. Throws naming `what` on an
// impossible code, a count the bytes cannot hold at the shortest code's length
// (before the symbols are allocated), a code that is not in the table, too few
// or too many bytes.
std::vector<std::uint32_t> decode_huffman(const std::vector<std::uint8_t>& lengths, const std::uint8_t* bytes,
                                          std::size_t size, std::size_t count, const std::string& what);

// CRC-32 (the polynomial of zip and PNG) of bytes.
std::uint32_t crc32(const std::uint8_t* data, std::size_t size);

}  // namespace attn
