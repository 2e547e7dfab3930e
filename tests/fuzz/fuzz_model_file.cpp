// The model-file loader on any bytes. The checksum would stop almost every
// mutation at the door, so the target writes the right CRC-32 over the last
// four bytes first and the reader's every other check meets the bytes. A
// file that loads must encode a sentence to a finite unit-length embedding.
#include "fuzz_input.hpp"

#include <vector>

using namespace attn;
using namespace attn::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
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
    for (const MultiHeadResult& layer : r.attention)
        for (const AttentionResult& head : layer.heads) check_weights(head.weights);
    return 0;
}
