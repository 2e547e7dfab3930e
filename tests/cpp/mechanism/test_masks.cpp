#include "helpers.hpp"

using namespace attn;
using namespace attn::test;

TEST_CASE("masks: padding keeps the first valid_length keys") {
    const Mask m = mask_padding(2, 4, 3);
    for (Index i = 0; i < 2; ++i)
        for (Index j = 0; j < 4; ++j) CHECK(m(i, j) == (j < 3));
    CHECK(!mask_padding(1, 3, 0).any());
    CHECK(contains(error_of([] { mask_padding(2, 4, 5); }), "valid_length must be between 0 and the number of keys (4), got 5"));
    CHECK(contains(error_of([] { mask_padding(2, 4, -1); }), "valid_length"));
}

TEST_CASE("masks: causal is the lower triangle with the diagonal") {
    const Mask m = mask_causal(3, 3);
    Mask expected(3, 3);
    expected << true, false, false, true, true, false, true, true, true;
    CHECK((m == expected).all());
    CHECK(contains(error_of([] { mask_causal(0, 3); }), "at least one query"));
}

TEST_CASE("masks: from bytes, row-major, and the length is checked") {
    const Mask m = mask_from_bytes({1, 0, 0, 7}, 2, 2);
    CHECK(m(0, 0));
    CHECK(!m(0, 1));
    CHECK(!m(1, 0));
    CHECK(m(1, 1));
    CHECK(contains(error_of([] { mask_from_bytes({1, 0, 1}, 2, 2); }),
                   "mask has 3 entries but needs 4 (2 rows of 2, one per query and key)"));
}
