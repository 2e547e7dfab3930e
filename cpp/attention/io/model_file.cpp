#include "attention/io/model_file.hpp"

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstring>

namespace attn {

namespace {

constexpr std::uint32_t kMaxDim = 1u << 24;  // rows or cols of one tensor
constexpr std::uint32_t kMaxCount = 1u << 20;  // pieces or tensors

[[noreturn]] void bad(const std::string& what) { fail("model file: " + what, Code::bad_model_file); }

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

// The shape of a canonical Huffman code: how many codes of each length, and
// the shortest length. Throws naming `what` for a length over kMaxCodeLength,
// more codes of a length than fit (Kraft), or no code at all.
struct CodeShape {
    std::array<std::uint32_t, kMaxCodeLength + 1> per_length{};  // [0] unused
    unsigned shortest = 0;
};
CodeShape code_shape(const std::uint8_t* lengths, std::size_t symbols, const std::string& what) {
    CodeShape c;
    for (std::size_t s = 0; s < symbols; ++s) {
        if (lengths[s] > kMaxCodeLength)
            bad(what + " has a code of length " + std::to_string(lengths[s]) + " (at most " +
                std::to_string(kMaxCodeLength) + ")");
        ++c.per_length[lengths[s]];
    }
    c.per_length[0] = 0;
    std::int64_t left = 1;  // codes still free at the current length (Kraft)
    for (unsigned n = 1; n <= kMaxCodeLength; ++n) {
        left = 2 * left - c.per_length[n];
        if (left < 0) bad(what + " has an impossible code: more codes of length " + std::to_string(n) + " than fit");
        if (c.per_length[n] && !c.shortest) c.shortest = n;
    }
    if (!c.shortest) bad(what + " has no code");
    return c;
}

// Whether size bytes can hold count codes at all (each takes the shortest
// code's bits or more): checked before the symbols' memory is allocated.
void check_symbol_count(const CodeShape& c, std::size_t size, std::uint64_t count, const std::string& what) {
    if (count > std::uint64_t(size) * 8 / c.shortest)
        bad(what + ": " + std::to_string(count) + " symbols of at least " + std::to_string(c.shortest) +
            " bits cannot fit in " + std::to_string(size) + " bytes of codes");
}

// A canonical Huffman code (the lengths of the file), checked when built.
class HuffmanTable {
public:
    HuffmanTable(const std::uint8_t* lengths, std::size_t symbols, const std::string& what)
        : what_(what), shape_(code_shape(lengths, symbols, what)) {
        const auto& per_length = shape_.per_length;
        std::array<std::uint32_t, kMaxCodeLength + 2> offset{};
        for (unsigned n = 1; n <= kMaxCodeLength; ++n) offset[n + 1] = offset[n] + per_length[n];
        in_order_.resize(offset[kMaxCodeLength + 1]);  // at most one per length given
        for (std::size_t s = 0; s < symbols; ++s)
            if (lengths[s]) in_order_[offset[lengths[s]]++] = std::uint32_t(s);

        // the codes of at most kFast bits by table: the next kFast bits (zeros past the end) -> symbol << 5 | length
        fast_.assign(std::size_t(1) << kFast, 0);
        std::uint32_t code = 0;
        std::size_t k = 0;
        for (unsigned n = 1; n <= kMaxCodeLength; ++n, code <<= 1)
            for (std::uint32_t c = 0; c < per_length[n]; ++c, ++code, ++k)
                if (n <= kFast)
                    for (std::uint32_t rest = 0; rest < (1u << (kFast - n)); ++rest)
                        fast_[(code << (kFast - n)) | rest] = in_order_[k] << 5 | n;
    }

    const CodeShape& shape() const { return shape_; }

    // Decodes count symbols from bytes, all of which must be used: emit(i, symbol).
    template <class Emit>
    void decode(const std::uint8_t* bytes, std::size_t size, std::size_t count, Emit&& emit) const {
        const std::string& what = what_;
        const std::uint64_t bits = std::uint64_t(size) * 8;
        auto byte = [&](std::uint64_t i) -> std::uint32_t { return i < size ? bytes[i] : 0; };
        std::uint64_t at = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint64_t b = at >> 3;
            const std::uint32_t window = byte(b) << 16 | byte(b + 1) << 8 | byte(b + 2);
            const std::uint32_t entry = fast_[(window >> (24 - kFast - (at & 7))) & ((1u << kFast) - 1)];
            if (entry) {
                if (at + (entry & 31) > bits)
                    bad(what + ": the codes end after " + std::to_string(i) + " of " + std::to_string(count) + " symbols");
                emit(i, entry >> 5);
                at += entry & 31;
                continue;
            }
            // a longer code, bit by bit (the plain canonical decoder)
            std::int64_t code = 0, first = 0, index = 0;  // first code of the current length, its index in in_order
            for (unsigned n = 1;; ++n) {
                if (n > kMaxCodeLength) bad(what + ": symbol " + std::to_string(i) + " is not a code of the table");
                if (at >= bits) bad(what + ": the codes end after " + std::to_string(i) + " of " + std::to_string(count) + " symbols");
                code |= (bytes[at >> 3] >> (7 - (at & 7))) & 1;
                ++at;
                const std::int64_t here = shape_.per_length[n];
                if (code - first < here) {
                    emit(i, in_order_[std::size_t(index + code - first)]);
                    break;
                }
                index += here;
                first = (first + here) << 1;
                code <<= 1;
            }
        }
        if ((at + 7) / 8 != size)
            bad(what + ": " + std::to_string(size - (at + 7) / 8) + " bytes after the last code");
        if (at % 8 && (bytes[at >> 3] & (0xFFu >> (at % 8))))
            bad(what + ": the bits after the last code are not zero");
    }

private:
    static constexpr unsigned kFast = 11;
    std::string what_;
    CodeShape shape_;
    std::vector<std::uint32_t> in_order_;
    std::vector<std::uint32_t> fast_;
};

// A quantized tensor's header and codes, checked against the bytes: every
// symbol takes at least the shortest code of its table.
void find_quantized(Reader& in, const std::string& name, StoredTensor& t) {
    t.step = in.get<float>("the step of '" + name + "'");
    if (!std::isfinite(t.step) || !(t.step > 0)) bad("tensor '" + name + "' has step " + number(t.step));
    t.lowest = in.get<std::int32_t>("the lowest value of '" + name + "'");
    t.symbols = in.get<std::uint32_t>("the symbol count of '" + name + "'");
    if (t.symbols < 1 || t.symbols > 65536)
        bad("tensor '" + name + "' has " + std::to_string(t.symbols) + " symbols (1 to 65536)");
    t.code_lengths = in.take(t.symbols, "the code lengths of '" + name + "'");
    const auto bytes = in.get<std::uint32_t>("the code size of '" + name + "'");
    const std::uint64_t count = std::uint64_t(t.rows) * t.cols;
    if (bytes > in.left())
        bad("truncated: the codes of '" + name + "' need " + std::to_string(bytes) + " bytes, only " +
            std::to_string(in.left()) + " left");
    if (count > std::uint64_t(bytes) * 8)
        bad("tensor '" + name + "' " + shape(t.rows, t.cols) + " cannot fit in " + std::to_string(bytes) +
            " bytes of codes");
    check_symbol_count(code_shape(t.code_lengths, t.symbols, "tensor '" + name + "'"), bytes, count,
                       "tensor '" + name + "'");
    t.size = bytes;
    t.data = in.take(bytes, "the codes of '" + name + "'");
}

// One tensor's header, and its data found and checked against the bytes left:
// nothing is decoded or allocated for its values.
StoredTensor find_tensor(Reader& in, const std::string& name, std::uint32_t version) {
    StoredTensor t;
    t.name = name;
    const auto dtype = in.get<std::uint8_t>("the dtype of '" + name + "'");
    t.rows = in.get<std::uint32_t>("the rows of '" + name + "'");
    t.cols = in.get<std::uint32_t>("the cols of '" + name + "'");
    if (t.rows == 0 || t.cols == 0 || t.rows > kMaxDim || t.cols > kMaxDim)
        bad("tensor '" + name + "' has impossible shape " + shape(t.rows, t.cols));
    if (dtype < 1 || dtype > 4)
        bad("tensor '" + name + "' has unknown dtype " + std::to_string(dtype) +
            " (1 float32, 2 float16, 3 int8, 4 quantized)");
    t.dtype = DType(dtype);
    if (t.dtype == DType::quantized && version < kModelVersionQuantized)
        bad("tensor '" + name + "' is quantized (dtype 4) in a version " + std::to_string(version) + " file");
    if (t.dtype == DType::quantized) {
        find_quantized(in, name, t);
        return t;
    }
    const std::uint64_t count = std::uint64_t(t.rows) * t.cols;
    const std::uint64_t need = t.dtype == DType::float32   ? count * 4
                               : t.dtype == DType::float16 ? count * 2
                                                           : count + std::uint64_t(t.rows) * 4;
    if (need > in.left())
        bad("truncated: tensor '" + name + "' " + shape(t.rows, t.cols) + " needs " + std::to_string(need) +
            " bytes, only " + std::to_string(in.left()) + " left");
    t.size = std::size_t(need);
    t.data = in.take(t.size, "the data of '" + name + "'");
    return t;
}

}  // namespace

std::vector<std::uint32_t> decode_huffman(const std::vector<std::uint8_t>& lengths, const std::uint8_t* bytes,
                                          std::size_t size, std::size_t count, const std::string& what) {
    const HuffmanTable table(lengths.data(), lengths.size(), what);
    check_symbol_count(table.shape(), size, count, what);
    std::vector<std::uint32_t> out(count);
    table.decode(bytes, size, count, [&](std::size_t i, std::uint32_t symbol) { out[i] = symbol; });
    return out;
}

Mat decode_tensor(const StoredTensor& t) {
    const std::string& name = t.name;
    Mat m(t.rows, t.cols);
    Scalar* out = m.data();
    const std::size_t count = std::size_t(t.rows) * t.cols;
    switch (t.dtype) {
        case DType::float32: std::memcpy(out, t.data, count * 4); break;
        case DType::float16:
            for (std::size_t i = 0; i < count; ++i)
                out[i] = half_to_float(std::uint16_t(t.data[2 * i] | t.data[2 * i + 1] << 8));
            break;
        case DType::int8: {
            const std::uint8_t* q = t.data + std::size_t(t.rows) * 4;  // after the row scales
            for (std::uint32_t r = 0; r < t.rows; ++r) {
                float scale;
                std::memcpy(&scale, t.data + 4 * std::size_t(r), 4);
                if (!std::isfinite(scale) || scale < 0) bad("tensor '" + name + "' has row scale " + number(scale));
                for (std::uint32_t c = 0; c < t.cols; ++c) {
                    const std::size_t i = std::size_t(r) * t.cols + c;
                    out[i] = Scalar(static_cast<std::int8_t>(q[i])) * scale;
                }
            }
            break;
        }
        case DType::quantized: {
            // decoded straight into the matrix: no list of symbols beside it
            const HuffmanTable table(t.code_lengths, t.symbols, "tensor '" + name + "'");
            table.decode(t.data, t.size, count, [&](std::size_t i, std::uint32_t symbol) {
                out[i] = Scalar(double(std::int64_t(t.lowest) + symbol) * double(t.step));
            });
            break;
        }
    }
    for (Index i = 0; i < m.size(); ++i)
        if (!std::isfinite(out[i])) bad("tensor '" + name + "' holds " + number(out[i]) + " at entry " + std::to_string(i));
    return m;
}

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
    if (version != kModelVersion && version != kModelVersionQuantized)
        bad("version " + std::to_string(version) + " is not supported (this module reads versions " +
            std::to_string(kModelVersion) + " and " + std::to_string(kModelVersionQuantized) + ")");
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
    // each piece is a length byte and an f64 score at least: the count is checked
    // against the bytes left before anything is reserved for it
    constexpr std::uint64_t kPieceBytes = 1 + 8;
    if (std::uint64_t(n_pieces) * kPieceBytes > in.left())
        bad("truncated: the vocabulary size says " + std::to_string(n_pieces) + " pieces, at least " +
            std::to_string(std::uint64_t(n_pieces) * kPieceBytes) + " bytes, only " + std::to_string(in.left()) +
            " left");
    f.pieces.reserve(n_pieces);
    f.scores.reserve(n_pieces);
    for (std::uint32_t i = 0; i < n_pieces; ++i) {
        const auto length = in.get<std::uint8_t>("piece " + std::to_string(i));
        const std::uint8_t* bytes = in.take(length, "piece " + std::to_string(i));
        f.pieces.emplace_back(reinterpret_cast<const char*>(bytes), length);
        f.scores.push_back(in.get<double>("the score of piece " + std::to_string(i)));
    }
    // each tensor takes its name's length byte, a dtype byte and two u32 at least
    constexpr std::uint64_t kTensorBytes = 1 + 1 + 4 + 4;
    if (std::uint64_t(n_tensors) * kTensorBytes > in.left())
        bad("truncated: the tensor count says " + std::to_string(n_tensors) + " tensors, at least " +
            std::to_string(std::uint64_t(n_tensors) * kTensorBytes) + " bytes, only " + std::to_string(in.left()) +
            " left");
    std::uint64_t weights = 0;
    for (std::uint32_t t = 0; t < n_tensors; ++t) {
        const auto length = in.get<std::uint8_t>("the name of tensor " + std::to_string(t));
        const std::uint8_t* bytes = in.take(length, "the name of tensor " + std::to_string(t));
        const std::string name(reinterpret_cast<const char*>(bytes), length);
        if (f.tensors.count(name)) bad("tensor '" + name + "' appears twice");
        const StoredTensor& stored = f.tensors.emplace(name, find_tensor(in, name, version)).first->second;
        weights += std::uint64_t(stored.rows) * stored.cols;
        if (weights > kMaxWeights)
            bad("the tensors up to '" + name + "' hold " + std::to_string(weights) + " weights, more than the " +
                std::to_string(kMaxWeights) + " a model file may hold");
    }
    if (in.left() != 0) bad(std::to_string(in.left()) + " unexpected bytes after the last tensor");
    return f;
}

}  // namespace attn
