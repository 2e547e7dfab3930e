#include "attention/training/products.hpp"

#include "attention/simd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::train {

using simd::f32x4;

// Rows of C are taken four at a time where they can be: each panel of B is
// then loaded once for four rows, which halves the loads per multiply (the
// products are small, 32 wide, and were bound by them). Every C(i, j) still
// adds its terms one by one in the order of p, so the bits do not change.

namespace {
// C rows i0..i0+3 (+)= A rows times B over one panel of 8 columns at j.
// a(r, p): row r's p-th factor.
template <class Factor>
void block4x8(Index k, Factor a, const float* B, Index ldb, float* C, Index ldc, Index j) {
    float* c = C + j;
    f32x4 c00 = simd::load(c), c01 = simd::load(c + 4);
    f32x4 c10 = simd::load(c + ldc), c11 = simd::load(c + ldc + 4);
    f32x4 c20 = simd::load(c + 2 * ldc), c21 = simd::load(c + 2 * ldc + 4);
    f32x4 c30 = simd::load(c + 3 * ldc), c31 = simd::load(c + 3 * ldc + 4);
    for (Index p = 0; p < k; ++p) {
        const float* b = B + p * ldb + j;
        const f32x4 b0 = simd::load(b), b1 = simd::load(b + 4);
        f32x4 x = simd::splat(a(0, p));
        c00 = simd::add(c00, simd::mul(x, b0)), c01 = simd::add(c01, simd::mul(x, b1));
        x = simd::splat(a(1, p));
        c10 = simd::add(c10, simd::mul(x, b0)), c11 = simd::add(c11, simd::mul(x, b1));
        x = simd::splat(a(2, p));
        c20 = simd::add(c20, simd::mul(x, b0)), c21 = simd::add(c21, simd::mul(x, b1));
        x = simd::splat(a(3, p));
        c30 = simd::add(c30, simd::mul(x, b0)), c31 = simd::add(c31, simd::mul(x, b1));
    }
    simd::store(c, c00), simd::store(c + 4, c01);
    simd::store(c + ldc, c10), simd::store(c + ldc + 4, c11);
    simd::store(c + 2 * ldc, c20), simd::store(c + 2 * ldc + 4, c21);
    simd::store(c + 3 * ldc, c30), simd::store(c + 3 * ldc + 4, c31);
}

// C row i (+)= row i's factors times B, every column: panels of 8, of 4, then single columns.
template <class Factor>
void row1(Index n, Index k, Factor a, const float* B, Index ldb, float* c) {
    Index j = 0;
    for (; j + 8 <= n; j += 8) {
        f32x4 c0 = simd::load(c + j), c1 = simd::load(c + j + 4);
        for (Index p = 0; p < k; ++p) {
            const f32x4 x = simd::splat(a(p));
            const float* b = B + p * ldb + j;
            c0 = simd::add(c0, simd::mul(x, simd::load(b)));
            c1 = simd::add(c1, simd::mul(x, simd::load(b + 4)));
        }
        simd::store(c + j, c0);
        simd::store(c + j + 4, c1);
    }
    for (; j + 4 <= n; j += 4) {
        f32x4 c0 = simd::load(c + j);
        for (Index p = 0; p < k; ++p) c0 = simd::add(c0, simd::mul(simd::splat(a(p)), simd::load(B + p * ldb + j)));
        simd::store(c + j, c0);
    }
    for (; j < n; ++j) {
        float s = c[j];
        for (Index p = 0; p < k; ++p) s += a(p) * B[p * ldb + j];
        c[j] = s;
    }
}

// C (m, n) += A' B where A'(i, p) = a(i, p): blocks of 4 rows x 8 columns, the rest row by row
template <class Factor>
void product(Index m, Index n, Index k, Factor a, const float* B, Index ldb, float* C, Index ldc) {
    Index i = 0;
    const Index panels = n - n % 8;
    for (; i + 4 <= m && panels > 0; i += 4) {
        for (Index j = 0; j < panels; j += 8)
            block4x8(k, [&a, i](Index r, Index p) { return a(i + r, p); }, B, ldb, C + i * ldc, ldc, j);
        for (Index r = 0; r < 4; ++r)  // the columns after the last panel
            row1(n - panels, k, [&a, i, r](Index p) { return a(i + r, p); }, B + panels, ldb, C + (i + r) * ldc + panels);
    }
    for (; i < m; ++i) row1(n, k, [&a, i](Index p) { return a(i, p); }, B, ldb, C + i * ldc);
}
}  // namespace

void matmul_acc(Index m, Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C, Index ldc) {
    product(m, n, k, [A, lda](Index i, Index p) { return A[i * lda + p]; }, B, ldb, C, ldc);
}

namespace {
// a . b over k entries: 4 lanes in steps of 4, lanes (0 + 1) + (2 + 3), then the tail
float dot(const float* a, const float* b, Index k) {
    Index p = 0;
    float s = 0;
    if (k >= 4) {
        f32x4 acc = simd::mul(simd::load(a), simd::load(b));
        for (p = 4; p + 4 <= k; p += 4) acc = simd::add(acc, simd::mul(simd::load(a + p), simd::load(b + p)));
        s = (simd::lane(acc, 0) + simd::lane(acc, 1)) + (simd::lane(acc, 2) + simd::lane(acc, 3));
    }
    for (; p < k; ++p) s += a[p] * b[p];
    return s;
}

// The sums of dot() for four accumulators, (lane 0 + lane 1) + (lane 2 + lane 3)
// each, as one vector: transposed, lane l of every accumulator is one vector.
inline f32x4 reduce4(f32x4 a0, f32x4 a1, f32x4 a2, f32x4 a3) {
    simd::transpose(a0, a1, a2, a3);
    return simd::add(simd::add(a0, a1), simd::add(a2, a3));
}

// C (R rows, 4 columns) += the dot products of R rows of A and 4 rows of B, each
// summed exactly as dot() sums it: 4 + 4 R loads for 4 R multiplies per step of p.
template <int R>
void nt_block(Index k, const float* A, Index lda, const float* B, Index ldb, float* C, Index ldc) {
    f32x4 s[R];
    Index p = 0;
    if (k >= 4) {
        f32x4 acc[R][4];
        for (int c = 0; c < 4; ++c) {
            const f32x4 b = simd::load(B + c * ldb);
            for (int r = 0; r < R; ++r) acc[r][c] = simd::mul(simd::load(A + r * lda), b);
        }
        for (p = 4; p + 4 <= k; p += 4)
            for (int c = 0; c < 4; ++c) {
                const f32x4 b = simd::load(B + c * ldb + p);
                for (int r = 0; r < R; ++r) acc[r][c] = simd::add(acc[r][c], simd::mul(simd::load(A + r * lda + p), b));
            }
        for (int r = 0; r < R; ++r) s[r] = reduce4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
    } else {
        for (int r = 0; r < R; ++r) s[r] = simd::splat(0);
    }
    for (; p < k; ++p) {  // the tail, term by term
        const f32x4 b = simd::set(B[p], B[ldb + p], B[2 * ldb + p], B[3 * ldb + p]);
        for (int r = 0; r < R; ++r) s[r] = simd::add(s[r], simd::mul(simd::splat(A[r * lda + p]), b));
    }
    for (int r = 0; r < R; ++r) simd::store(C + r * ldc, simd::add(simd::load(C + r * ldc), s[r]));
}

template <int R>
void nt_rows(Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C, Index ldc) {
    Index j = 0;
    for (; j + 4 <= n; j += 4) nt_block<R>(k, A, lda, B + j * ldb, ldb, C + j, ldc);
    for (; j < n; ++j)
        for (int r = 0; r < R; ++r) C[r * ldc + j] += dot(A + r * lda, B + j * ldb, k);
}
}  // namespace

void matmul_nt_acc(Index m, Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C,
                   Index ldc) {
    Index i = 0;
    for (; i + 2 <= m; i += 2) nt_rows<2>(n, k, A + i * lda, lda, B, ldb, C + i * ldc, ldc);
    for (; i < m; ++i) nt_rows<1>(n, k, A + i * lda, lda, B, ldb, C + i * ldc, ldc);
}

void matmul_tn_acc(Index m, Index n, Index k, const float* A, Index lda, const float* B, Index ldb, float* C,
                   Index ldc) {
    product(m, n, k, [A, lda](Index i, Index p) { return A[p * lda + i]; }, B, ldb, C, ldc);
}

void zero(float* x, Index rows, Index cols, Index ld) {
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j) x[i * ld + j] = 0;
}

void add_to(float* y, const float* x, Index count) {
    Index i = 0;
    for (; i + 4 <= count; i += 4) simd::store(y + i, simd::add(simd::load(y + i), simd::load(x + i)));
    for (; i < count; ++i) y[i] += x[i];
}

float softmax_row(float* row, Index n) {
    constexpr float kLog2e = 1.44269504088896341f;
    const float kNegInf = -std::numeric_limits<float>::infinity();
    // 1. the maximum, for stability (masked entries are -inf); a NaN or +inf
    // is an overflow upstream, passed on as NaN
    float top = kNegInf;
    bool nan = false;
    for (Index j = 0; j < n; ++j) {
        top = row[j] > top ? row[j] : top;
        nan |= row[j] != row[j];
    }
    if (nan || top == -kNegInf) {
        std::fill(row, row + n, std::numeric_limits<float>::quiet_NaN());
        return std::numeric_limits<float>::quiet_NaN();
    }
    if (top == kNegInf) {
        zero(row, n);
        return 0;
    }
    // 2. exp(x - max) = 2^((x - max) log2 e), four at a time, and the sum in order
    const f32x4 t = simd::splat(top), l = simd::splat(kLog2e);
    Index j = 0;
    for (; j + 4 <= n; j += 4)
        simd::store(row + j, simd::exp2_nonpositive(simd::mul(simd::sub(simd::load(row + j), t), l)));
    if (j < n) {
        float tail[4] = {kNegInf, kNegInf, kNegInf, kNegInf};
        for (Index c = j; c < n; ++c) tail[c - j] = row[c];
        simd::store(tail, simd::exp2_nonpositive(simd::mul(simd::sub(simd::load(tail), t), l)));
        for (Index c = j; c < n; ++c) row[c] = tail[c - j];
    }
    float sum = 0;
    for (Index c = 0; c < n; ++c) sum += row[c];
    // 3. normalise
    for (Index c = 0; c < n; ++c) row[c] = row[c] / sum;
    return sum;
}

// e^x = 2^k e^r, x = k ln2 + r, |r| <= ln2 / 2, with ln2 split in two (Cody and
// Waite) so that k ln2_hi is exact; e^r by its Taylor series to r^13 (the next
// term is below 4e-18).
double exp_det(double x) {
    if (std::isnan(x)) return x;
    if (x > 709.7) return std::numeric_limits<double>::infinity();
    if (x < -745.2) return 0;
    constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
    const double k = std::floor(x * 1.44269504088896338700 + 0.5);
    const double r = (x - k * kLn2Hi) - k * kLn2Lo;
    // 1 + r (1 + r/2 (1 + r/3 (... (1 + r/13))))
    double p = 1.0;
    for (int i = 13; i >= 1; --i) p = 1.0 + p * r / double(i);
    return std::ldexp(p, int(k));
}

// ln x = e ln2 + ln m, x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s),
// s = (m - 1) / (m + 1), |s| < 0.172, by its series to s^23.
double log_det(double x) {
    int e = 0;
    double m = std::frexp(x, &e);  // m in [0.5, 1)
    if (m < 0.70710678118654752440) {
        m *= 2;
        e -= 1;
    }
    const double s = (m - 1) / (m + 1), s2 = s * s;
    double series = 1.0 / 23;
    for (int i = 21; i >= 1; i -= 2) series = 1.0 / i + s2 * series;
    constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
    return (double(e) * kLn2Hi + 2 * s * series) + double(e) * kLn2Lo;
}

}  // namespace attn::train
