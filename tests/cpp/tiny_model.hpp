// A tiny encoder (2 layers, 2 heads, widths 4 -> 6, 8 pieces) written in the
// model file format by the tests themselves: for the doctest suite and as the
// fuzzer's seed.
#pragma once

#include "attention/attention_all.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::tiny {

struct TinyTensor {
    std::string name;
    Mat value;
};

inline void put_bytes(std::vector<std::uint8_t>& out, const void* p, size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
}
template <class T>
void put(std::vector<std::uint8_t>& out, T x) {
    put_bytes(out, &x, sizeof x);
}

// float -> half bits by Eigen, int8 with a scale per row; quantized with the
// step max |x| / 127 and 255 codes of 8 bits (the byte k + 127 stands for k)
inline std::vector<std::uint8_t> write_tiny_file(const std::vector<std::string>& pieces, const std::vector<double>& scores,
                                          const std::vector<TinyTensor>& tensors, DType dtype) {
    std::vector<std::uint8_t> out;
    put_bytes(out, kModelMagic, 8);
    put<std::uint32_t>(out, dtype == DType::quantized ? kModelVersionQuantized : kModelVersion);
    put<std::uint32_t>(out, 2);      // heads
    put<std::uint32_t>(out, 6);      // max pieces
    put<float>(out, 1e-6f);          // layer-norm epsilon
    put<std::uint32_t>(out, 2);      // reserved ids
    put<std::uint32_t>(out, std::uint32_t(pieces.size()));
    put<std::uint32_t>(out, std::uint32_t(tensors.size()));
    for (size_t i = 0; i < pieces.size(); ++i) {
        put<std::uint8_t>(out, std::uint8_t(pieces[i].size()));
        put_bytes(out, pieces[i].data(), pieces[i].size());
        put<double>(out, scores[i]);
    }
    for (const TinyTensor& t : tensors) {
        const DType stored = t.value.rows() > 1 ? dtype : DType::float32;
        put<std::uint8_t>(out, std::uint8_t(t.name.size()));
        put_bytes(out, t.name.data(), t.name.size());
        put<std::uint8_t>(out, std::uint8_t(stored));
        put<std::uint32_t>(out, std::uint32_t(t.value.rows()));
        put<std::uint32_t>(out, std::uint32_t(t.value.cols()));
        if (stored == DType::float32) put_bytes(out, t.value.data(), size_t(t.value.size()) * 4);
        if (stored == DType::float16)
            for (Index i = 0; i < t.value.size(); ++i) put<std::uint16_t>(out, Eigen::half(t.value.data()[i]).x);
        if (stored == DType::int8) {
            const Vec scales = t.value.cwiseAbs().rowwise().maxCoeff() / 127;
            for (Index r = 0; r < t.value.rows(); ++r) put<float>(out, scales(r));
            for (Index r = 0; r < t.value.rows(); ++r)
                for (Index c = 0; c < t.value.cols(); ++c)
                    put<std::int8_t>(out, std::int8_t(std::lround(t.value(r, c) / scales(r))));
        }
        if (stored == DType::quantized) {
            const float step = t.value.cwiseAbs().maxCoeff() / 127;
            put<float>(out, step);
            put<std::int32_t>(out, -127);
            put<std::uint32_t>(out, 255);
            for (int s = 0; s < 255; ++s) put<std::uint8_t>(out, 8);
            put<std::uint32_t>(out, std::uint32_t(t.value.size()));
            for (Index r = 0; r < t.value.rows(); ++r)
                for (Index c = 0; c < t.value.cols(); ++c)
                    put<std::uint8_t>(out, std::uint8_t(std::lround(t.value(r, c) / step) + 127));
        }
    }
    put<std::uint32_t>(out, crc32(out.data(), out.size()));
    return out;
}

inline const std::vector<std::string> kPieces = {"�", "<s>", "▁the", "▁cat", "s",
                                          "▁sat", "▁", "."};
inline const std::vector<double> kScores = {0, 0, -1, -2, -3, -2, -4, -3};

inline Mat rnd(Index r, Index c, std::uint64_t stream) { return init_uniform(r, c, 11, 100 + stream, 0.5); }

// embed 4 -> layer 0 (width 4, 2 heads, out 6, residual dense) -> layer 1 (width 6, 2 heads) -> 6
inline std::vector<TinyTensor> tiny_tensors() {
    std::vector<TinyTensor> t = {{"embeddings", rnd(8, 4, 0)}, {"timing", (Mat(1, 2) << 1.0f, 0.01f).finished()}};
    std::uint64_t s = 1;
    for (int l = 0; l < 2; ++l) {
        const Index d = l == 0 ? 4 : 6, out = 6, ff = 5;
        const std::string p = "layer" + std::to_string(l) + ".";
        if (l == 0) {
            t.push_back({p + "residual.W", rnd(d, out, s++)});
            t.push_back({p + "residual.b", rnd(1, out, s++)});
        }
        t.push_back({p + "norm1.scale", rnd(1, d, s++).array() + 1});
        t.push_back({p + "norm1.bias", rnd(1, d, s++)});
        t.push_back({p + "qkv.W", rnd(d, 3 * d, s++) * 2});
        t.push_back({p + "qkv.b", rnd(1, 3 * d, s++)});
        t.push_back({p + "out.W", rnd(d, out, s++)});
        t.push_back({p + "out.b", rnd(1, out, s++)});
        t.push_back({p + "norm2.scale", rnd(1, out, s++).array() + 1});
        t.push_back({p + "norm2.bias", rnd(1, out, s++)});
        t.push_back({p + "ffn1.W", rnd(out, ff, s++)});
        t.push_back({p + "ffn1.b", rnd(1, ff, s++)});
        t.push_back({p + "ffn2.W", rnd(ff, out, s++)});
        t.push_back({p + "ffn2.b", rnd(1, out, s++)});
    }
    t.push_back({"pool.W", rnd(6, 6, s++)});
    t.push_back({"pool.b", rnd(1, 6, s++)});
    return t;
}

inline std::vector<std::uint8_t> tiny_file(DType dtype = DType::float32) {
    return write_tiny_file(kPieces, kScores, tiny_tensors(), dtype);
}

}  // namespace attn::tiny
