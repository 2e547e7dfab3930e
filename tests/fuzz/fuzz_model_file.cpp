// The model-file loader on any bytes. The checksum would stop almost every
// mutation at the door, so the target writes the right CRC-32 over the last
// four bytes first and the reader's every other check meets the bytes. A
// file that loads must encode a sentence to a finite unit-length embedding.
// The same bytes also go to the Huffman decoder of quantized tensors alone
// (the first byte: how many symbols; then their code lengths; then the codes):
// it decodes symbols of the table or throws, never reads past the codes.
#include "fuzz_input.hpp"

#include <vector>

using namespace attn;
using namespace attn::fuzz;

namespace {

void fuzz_huffman(const std::uint8_t* data, size_t size) {
    if (size < 2) return;
    const size_t symbols = 1 + data[0] % 64;
    if (size < 1 + symbols) return;
    std::vector<std::uint8_t> lengths(data + 1, data + 1 + symbols);
    for (std::uint8_t& l : lengths) l %= 26;  // 25: one past the longest code
    const std::vector<std::uint8_t> codes(data + 1 + symbols, data + size);  // a copy of its own: ASan sees any overread
    const size_t count = codes.size() * 8 / (1 + data[0] / 64);
    std::vector<std::uint32_t> out;
    if (!accepted([&] { out = decode_huffman(lengths, codes.data(), codes.size(), count, "fuzz"); })) return;
    if (out.size() != count) __builtin_trap();
    for (std::uint32_t s : out)
        if (s >= symbols || lengths[s] == 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    fuzz_huffman(data, size);
    std::vector<std::uint8_t> bytes(data, data + size);
    if (bytes.size() >= 12) {
        const std::uint32_t crc = crc32(bytes.data(), bytes.size() - 4);
        std::memcpy(bytes.data() + bytes.size() - 4, &crc, 4);
    }
    Encoder e;
    if (!accepted([&] { e = load_encoder(bytes.data(), bytes.size()); })) return 0;
    EncoderResult r;
    if (!accepted([&] { r = encode(e, "the cat sat."); })) return 0;
    if (!r.embedding.allFinite() || std::abs(r.embedding.norm() - 1) > 1e-3) __builtin_trap();
    for (const EncoderAttention& layer : r.attention)
        for (const Mat& weights : layer.weights) check_weights(weights);
    return 0;
}
