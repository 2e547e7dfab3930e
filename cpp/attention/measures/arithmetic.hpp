// The small arithmetic the page shows beside the attention chain: the sum of
// each row (do the weights sum to 1?), a matrix times a number (a score times
// its scale, a weight times a value), each row's largest entry and where it is
// (which key a query looks at most), log n (the entropy of n even weights), and
// the dot product of every row of one matrix with every row of another (the
// cosine similarity of unit-length sentence embeddings).
//
// Each has a plain-loop reference in double precision beside it, for the tests.
#pragma once

#include "attention/types.hpp"

#include <vector>

namespace attn {

// Sum of each row, accumulated in double.   m: (rows, cols) -> (rows)
Vec row_sums(const MatRef& m);
Vec row_sums_reference(const MatRef& m);

// factor * m, entry by entry.   m: (rows, cols) -> (rows, cols)
Mat scale(const MatRef& m, Scalar factor);
Mat scale_reference(const MatRef& m, Scalar factor);

// The largest entry of each row and its column (the first on a tie).
// -inf entries (masked scores) are allowed; a row of -inf has its top at 0.
struct RowTop {
    std::vector<Index> index;  // (rows) column of the largest entry
    Vec value;                 // (rows) the largest entry
};
RowTop top_rows(const MatRef& m);
RowTop top_rows_reference(const MatRef& m);

// The dot product of every row of a with every row of b, summed in double:
// a bᵀ.   a: (n_a, d), b: (n_b, d) -> (n_a, n_b)
Mat dot_products(const MatRef& a, const MatRef& b);
Mat dot_products_reference(const MatRef& a, const MatRef& b);

// log n (nats): the entropy of n even weights 1/n, the most any row of n
// weights can have.   n >= 1
Scalar max_entropy(Index n);

}  // namespace attn
