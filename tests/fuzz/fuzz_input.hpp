// Reads a fuzzer's bytes as the arguments of a call: sizes in a range, floats
// that are sometimes ordinary and sometimes NaN, ±Inf, denormal or huge, and
// flags. Past the end of the data every read gives 0, so any input is a call.
#pragma once

#include "attention/attention_all.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace attn::fuzz {

class Input {
public:
    Input(const std::uint8_t* data, size_t size) : data_(data), size_(size) {}

    std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
    bool flag() { return byte() & 1; }
    // lo..hi inclusive
    Index size(Index lo, Index hi) { return lo + Index(byte()) % (hi - lo + 1); }

    // Mostly small numbers on a grid; 1 in 16 a special value.
    Scalar number() {
        const std::uint8_t kind = byte();
        if (kind % 16 != 0) return Scalar(std::int8_t(byte())) / 16;
        switch (byte() % 8) {
            case 0: return std::numeric_limits<Scalar>::quiet_NaN();
            case 1: return std::numeric_limits<Scalar>::infinity();
            case 2: return -std::numeric_limits<Scalar>::infinity();
            case 3: return std::numeric_limits<Scalar>::denorm_min() * Scalar(1 + byte());
            case 4: return Scalar(1e30) * (flag() ? 1 : -1);
            case 5: return std::numeric_limits<Scalar>::max();
            case 6: return 0;
            default: {  // any bit pattern
                std::uint32_t bits = std::uint32_t(byte()) | std::uint32_t(byte()) << 8 | std::uint32_t(byte()) << 16 |
                                     std::uint32_t(byte()) << 24;
                Scalar x;
                std::memcpy(&x, &bits, 4);
                return x;
            }
        }
    }

    Mat matrix(Index rows, Index cols) {
        Mat m(rows, cols);
        for (Index i = 0; i < m.size(); ++i) m.data()[i] = number();
        return m;
    }
    Vec vector(Index n) {
        Vec v(n);
        for (Index i = 0; i < n; ++i) v(i) = number();
        return v;
    }
    std::string rest() {
        std::string s(reinterpret_cast<const char*>(data_ + at_), size_ - at_);
        at_ = size_;
        return s;
    }

private:
    const std::uint8_t* data_;
    size_t size_;
    size_t at_ = 0;
};

// Runs f; the core's invalid_argument is a fine answer to bad input, anything
// else escapes and the fuzzer reports it.
template <class F>
bool accepted(F&& f) {
    try {
        f();
        return true;
    } catch (const invalid_argument&) {
        return false;
    }
}

inline bool finite(const MatRef& m) { return m.allFinite(); }

// Every row sums to 1 (or is all 0 where nothing may be attended) and no
// entry is negative or NaN: what the page relies on.
inline void check_weights(const MatRef& w) {
    if (!w.allFinite()) __builtin_trap();
    for (Index i = 0; i < w.rows(); ++i) {
        const double sum = w.row(i).cast<double>().sum();
        if ((w.row(i).array() < 0).any()) __builtin_trap();
        if (!(std::abs(sum - 1) <= 1e-4 || sum == 0)) __builtin_trap();
    }
}

// |a - b| <= tolerance (1 + |b|) + slack, entry by entry
inline bool close(const MatRef& a, const MatRef& b, double tolerance, double slack = 0) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    for (Index i = 0; i < a.size(); ++i)
        if (std::abs(double(a.data()[i]) - b.data()[i]) > tolerance * (1 + std::abs(double(b.data()[i]))) + slack)
            return false;
    return true;
}

// an option's size: mostly in a small valid range [lo, hi], sometimes anything
// (0, negative, fractional, NaN, huge); a whole number above hi becomes hi or
// 1e9 (invalid everywhere), so that a valid run stays small enough to be fast
inline double size_option(Input& in, Index lo, Index hi) {
    if (in.byte() % 8 != 0) return double(in.size(lo, hi));
    const double x = double(in.number()) * (in.flag() ? 1 : 1000);
    if (std::isfinite(x) && x > double(hi) && x == std::floor(x)) return in.flag() ? double(hi) : 1e9;
    return x;
}

}  // namespace attn::fuzz
