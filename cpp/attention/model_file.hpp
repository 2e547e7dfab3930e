// The encoder's model file: one binary file holding the tokenizer's
// vocabulary and every weight, in this project's own format.
//
// Layout (little-endian; no padding):
//   magic      8 bytes  "ATTNWENC"
//   version    u32      1
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
//   checksum   u32      CRC-32 of every byte before it
#pragma once

#include "attention/types.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attn {

enum class DType : std::uint8_t { float32 = 1, float16 = 2, int8 = 3 };

struct ModelFile {
    std::uint32_t heads = 0;
    std::uint32_t max_pieces = 0;
    float norm_eps = 0;
    std::uint32_t reserved = 0;
    std::vector<std::string> pieces;
    std::vector<double> scores;
    std::map<std::string, Mat> tensors;  // decoded to float32; vectors are (1, n)
    std::map<std::string, DType> stored_as;
};

constexpr char kModelMagic[8] = {'A', 'T', 'T', 'N', 'W', 'E', 'N', 'C'};
constexpr std::uint32_t kModelVersion = 1;

// Reads and checks a whole file. Throws an invalid_argument starting
// "model file: " for anything that is not a complete, intact file of this
// format: wrong magic, other version, truncation, a checksum mismatch,
// impossible sizes, bad UTF-8, non-finite numbers.
ModelFile read_model_file(const std::uint8_t* data, std::size_t size);

// CRC-32 (the polynomial of zip and PNG) of bytes.
std::uint32_t crc32(const std::uint8_t* data, std::size_t size);

}  // namespace attn
