#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("tokens: the same word gets the same vector, case-insensitively; others differ") {
    const Mat X = embed_tokens({"The", "cat", "the", "dog"}, 8, 1);
    CHECK(X.row(0) == X.row(2));
    CHECK(X.row(1) != X.row(3));
    CHECK(X.row(0) == embed_tokens({"the"}, 8, 1).row(0));
    CHECK(X.row(0) != embed_tokens({"the"}, 8, 2).row(0));
    CHECK(token_hash("ABC") == token_hash("abc"));
    CHECK(token_hash("注意") != token_hash("注意力"));
}

TEST_CASE("tokens: entries have zero mean and unit variance") {
    std::vector<std::string> words;
    for (int i = 0; i < 200; ++i) words.push_back("w" + std::to_string(i));
    const Mat X = embed_tokens(words, 64, 3);
    CHECK(std::abs(X.mean()) < 0.02f);
    CHECK((X.array() - X.mean()).square().mean() == doctest::Approx(1).epsilon(0.03));
    CHECK(X.cwiseAbs().maxCoeff() <= std::sqrt(3.0f));
}

TEST_CASE("tokens: errors") {
    CHECK(error_of([] { embed_tokens({}, 4, 0); }) == "tokens is empty: give at least one word");
    CHECK(error_of([] { embed_tokens({"a", ""}, 4, 0); }) == "tokens[1] is an empty string");
    CHECK(contains(error_of([] { embed_tokens({"a"}, 0, 0); }), "d must be between 1 and 4096"));
    CHECK(contains(error_of([] { embed_tokens(std::vector<std::string>(5000, "a"), 4, 0); }), "at most 4096"));
}

TEST_CASE("scaling: q.k has variance about d; divided by sqrt(d), about 1") {
    for (Index d : {4, 64, 256}) {
        CAPTURE(d);
        const DotProductSamples s = dot_product_samples(d, 20000, 7);
        CHECK(s.dots.size() == 20000);
        CHECK(std::abs(s.mean) < 0.05 * std::sqrt(double(d)));
        CHECK(s.variance == doctest::Approx(double(d)).epsilon(0.05));
        CHECK(s.scaled_variance == doctest::Approx(1).epsilon(0.05));
        CHECK(s.scaled(5) == doctest::Approx(s.dots(5) / std::sqrt(double(d))));
    }
    CHECK(contains(error_of([] { dot_product_samples(0, 10, 0); }), "d must be between 1 and 4096"));
    CHECK(contains(error_of([] { dot_product_samples(4, 0, 0); }), "count must be between 1 and 100000"));
}
