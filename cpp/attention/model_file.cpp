#include "attention/model_file.hpp"

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstring>

namespace attn {

namespace {

constexpr std::uint32_t kMaxDim = 1u << 24;  // rows or cols of one tensor
constexpr std::uint32_t kMaxCount = 1u << 20;  // pieces or tensors

[[noreturn]] void bad(const std::string& what) { fail("model file: " + what); }

// A cursor over the file that never reads past its end.
class Reader {
public:
    Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    std::size_t offset() const { return at_; }
    std::size_t left() const { return size_ - at_; }

    const std::uint8_t* take(std::size_t n, const std::string& what) {
        if (n > left())
            bad("truncated: " + what + " needs " + std::to_string(n) + " bytes at byte " + std::to_string(at_) +
                ", only " + std::to_string(left()) + " left");
        const std::uint8_t* p = data_ + at_;
        at_ += n;
        return p;
    }
    template <class T>
    T get(const std::string& what) {
        T value;
        std::memcpy(&value, take(sizeof(T), what), sizeof(T));
        return value;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

float half_to_float(std::uint16_t bits) {
    return static_cast<float>(Eigen::half(Eigen::half_impl::raw_uint16_to_half(bits)));
}

Mat read_tensor(Reader& in, const std::string& name) {
    const auto dtype = in.get<std::uint8_t>("the dtype of '" + name + "'");
    const auto rows = in.get<std::uint32_t>("the rows of '" + name + "'");
    const auto cols = in.get<std::uint32_t>("the cols of '" + name + "'");
    if (rows == 0 || cols == 0 || rows > kMaxDim || cols > kMaxDim)
        bad("tensor '" + name + "' has impossible shape " + shape(rows, cols));
    if (dtype < 1 || dtype > 3)
        bad("tensor '" + name + "' has unknown dtype " + std::to_string(dtype) + " (1 float32, 2 float16, 3 int8)");
    // the bytes this tensor needs, checked before anything is allocated
    const std::uint64_t count64 = std::uint64_t(rows) * cols;
    const std::uint64_t need = dtype == std::uint8_t(DType::float32)   ? count64 * 4
                               : dtype == std::uint8_t(DType::float16) ? count64 * 2
                                                                       : count64 + std::uint64_t(rows) * 4;
    if (need > in.left())
        bad("truncated: tensor '" + name + "' " + shape(rows, cols) + " needs " + std::to_string(need) +
            " bytes, only " + std::to_string(in.left()) + " left");
    const std::size_t count = std::size_t(count64);
    Mat m(rows, cols);
    Scalar* out = m.data();
    switch (DType(dtype)) {
        case DType::float32: {
            std::memcpy(out, in.take(count * 4, "the data of '" + name + "'"), count * 4);
            break;
        }
        case DType::float16: {
            const std::uint8_t* p = in.take(count * 2, "the data of '" + name + "'");
            for (std::size_t i = 0; i < count; ++i) out[i] = half_to_float(std::uint16_t(p[2 * i] | p[2 * i + 1] << 8));
            break;
        }
        case DType::int8: {
            const std::uint8_t* s = in.take(std::size_t(rows) * 4, "the row scales of '" + name + "'");
            const std::uint8_t* q = in.take(count, "the data of '" + name + "'");
            for (std::uint32_t r = 0; r < rows; ++r) {
                float scale;
                std::memcpy(&scale, s + 4 * std::size_t(r), 4);
                if (!std::isfinite(scale) || scale < 0) bad("tensor '" + name + "' has row scale " + number(scale));
                for (std::uint32_t c = 0; c < cols; ++c) {
                    const std::size_t i = std::size_t(r) * cols + c;
                    out[i] = Scalar(static_cast<std::int8_t>(q[i])) * scale;
                }
            }
            break;
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(out[i])) bad("tensor '" + name + "' holds " + number(out[i]) + " at entry " + std::to_string(i));
    return m;
}

}  // namespace

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

ModelFile read_model_file(const std::uint8_t* data, std::size_t size) {
    if (size < sizeof(kModelMagic) || std::memcmp(data, kModelMagic, sizeof(kModelMagic)) != 0)
        bad("not an attention-wasm encoder file (it does not start with ATTNWENC)");
    if (size < sizeof(kModelMagic) + 4 + 4) bad("truncated: " + std::to_string(size) + " bytes");
    Reader in(data, size - 4);
    in.take(sizeof(kModelMagic), "the magic");
    const auto version = in.get<std::uint32_t>("the version");
    if (version != kModelVersion)
        bad("version " + std::to_string(version) + " is not supported (this module reads version " +
            std::to_string(kModelVersion) + ")");
    std::uint32_t stored_crc;
    std::memcpy(&stored_crc, data + size - 4, 4);
    if (crc32(data, size - 4) != stored_crc) bad("checksum mismatch: the file is truncated or corrupt");

    ModelFile f;
    f.heads = in.get<std::uint32_t>("the head count");
    f.max_pieces = in.get<std::uint32_t>("the longest input");
    f.norm_eps = in.get<float>("the layer-norm epsilon");
    f.reserved = in.get<std::uint32_t>("the reserved ids");
    const auto n_pieces = in.get<std::uint32_t>("the vocabulary size");
    const auto n_tensors = in.get<std::uint32_t>("the tensor count");
    if (n_pieces > kMaxCount || n_tensors > kMaxCount)
        bad("impossible counts: " + std::to_string(n_pieces) + " pieces, " + std::to_string(n_tensors) + " tensors");
    f.pieces.reserve(n_pieces);
    f.scores.reserve(n_pieces);
    for (std::uint32_t i = 0; i < n_pieces; ++i) {
        const auto length = in.get<std::uint8_t>("piece " + std::to_string(i));
        const std::uint8_t* bytes = in.take(length, "piece " + std::to_string(i));
        f.pieces.emplace_back(reinterpret_cast<const char*>(bytes), length);
        f.scores.push_back(in.get<double>("the score of piece " + std::to_string(i)));
    }
    for (std::uint32_t t = 0; t < n_tensors; ++t) {
        const auto length = in.get<std::uint8_t>("the name of tensor " + std::to_string(t));
        const std::uint8_t* bytes = in.take(length, "the name of tensor " + std::to_string(t));
        const std::string name(reinterpret_cast<const char*>(bytes), length);
        if (f.tensors.count(name)) bad("tensor '" + name + "' appears twice");
        const std::size_t dtype_at = in.offset();
        f.tensors.emplace(name, read_tensor(in, name));
        f.stored_as.emplace(name, DType(data[dtype_at]));
    }
    if (in.left() != 0) bad(std::to_string(in.left()) + " unexpected bytes after the last tensor");
    return f;
}

}  // namespace attn
