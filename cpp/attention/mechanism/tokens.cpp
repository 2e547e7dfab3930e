#include "attention/mechanism/tokens.hpp"

#include "attention/init.hpp"

#include <cmath>

namespace attn {

std::uint64_t token_hash(const std::string& token) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : token) {
        if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c - 'A' + 'a');
        h = (h ^ c) * 0x100000001b3ull;
    }
    return h;
}

Mat embed_tokens(const std::vector<std::string>& tokens, Index d, std::uint64_t seed) {
    require(!tokens.empty(), "tokens is empty: give at least one word");
    require(tokens.size() <= 4096, "tokens has " + std::to_string(tokens.size()) + " entries; at most 4096");
    require(d >= 1 && d <= 4096, "d must be between 1 and 4096, got " + std::to_string(d));
    Mat X(Index(tokens.size()), d);
    for (Index i = 0; i < X.rows(); ++i) {
        const std::string& token = tokens[size_t(i)];
        require(!token.empty(), "tokens[" + std::to_string(i) + "] is an empty string");
        require(token.size() <= 1024, "tokens[" + std::to_string(i) + "] is longer than 1024 bytes");
        X.row(i) = init_uniform(1, d, seed, token_hash(token), std::sqrt(Scalar(3)));
    }
    return X;
}

}  // namespace attn
