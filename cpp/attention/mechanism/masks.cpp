#include "attention/mechanism/masks.hpp"

namespace attn {

static void check_sizes(Index n_queries, Index n_keys) {
    require(n_queries > 0 && n_keys > 0, "a mask needs at least one query and one key, got shape " +
                                             shape(n_queries, n_keys));
}

Mask mask_padding(Index n_queries, Index n_keys, Index valid_length) {
    check_sizes(n_queries, n_keys);
    require_argument(valid_length >= 0 && valid_length <= n_keys, "valid_length",
                     "valid_length must be between 0 and the number of keys (" + std::to_string(n_keys) +
                         "), got " + std::to_string(valid_length));
    Mask m(n_queries, n_keys);
    for (Index i = 0; i < n_queries; ++i)
        for (Index j = 0; j < n_keys; ++j) m(i, j) = j < valid_length;
    return m;
}

Mask mask_causal(Index n_queries, Index n_keys) {
    check_sizes(n_queries, n_keys);
    Mask m(n_queries, n_keys);
    for (Index i = 0; i < n_queries; ++i)
        for (Index j = 0; j < n_keys; ++j) m(i, j) = j <= i;
    return m;
}

Mask mask_from_bytes(const std::vector<std::uint8_t>& values, Index n_queries, Index n_keys) {
    check_sizes(n_queries, n_keys);
    const std::int64_t needed = std::int64_t(n_queries) * std::int64_t(n_keys);
    require(std::int64_t(values.size()) == needed,
            "mask has " + std::to_string(values.size()) + " entries but needs " + std::to_string(needed) + " (" +
                std::to_string(n_queries) + " rows of " + std::to_string(n_keys) + ", one per query and key)");
    Mask m(n_queries, n_keys);
    for (Index i = 0; i < n_queries; ++i)
        for (Index j = 0; j < n_keys; ++j) m(i, j) = values[size_t(i * n_keys + j)] != 0;
    return m;
}

}  // namespace attn
