// The core's one exception carries, besides its message, the kind of failure
// (Code: the codes the JS API's AttentionError says) and the argument it is
// about, by the core's name for it: what the bindings hand the facade, which
// reads no message to find either.
#include "helpers.hpp"

using namespace attn;
using namespace attn::test;
using namespace attn::train;

TEST_CASE("errors: each code has the name the JS API says") {
    CHECK(std::string(code_name(Code::bad_argument)) == "BAD_ARGUMENT");
    CHECK(std::string(code_name(Code::out_of_memory)) == "OUT_OF_MEMORY");
    CHECK(std::string(code_name(Code::diverged)) == "DIVERGED");
    CHECK(std::string(code_name(Code::bad_model_file)) == "BAD_MODEL_FILE");
    CHECK(std::string(code_name(Code::deleted)) == "DELETED");
}

TEST_CASE("errors: a refused argument is BAD_ARGUMENT, naming the argument as the message spells it") {
    TrainerOptions o;
    o.heads = 3;
    const invalid_argument heads = thrown_by([&] { Trainer t(o); });
    CHECK(std::string(heads.what()) == "d_model 32 is not divisible by heads 3");
    CHECK(heads.code == Code::bad_argument);
    CHECK(heads.argument == "d_model");
    const invalid_argument top_k = thrown_by([] { integer_option(-1, "top_k", 0, 10); });
    CHECK(std::string(top_k.what()) == "top_k must be an integer from 0 to 10, got -1");
    CHECK(top_k.argument == "top_k");
    CHECK(thrown_by([] { mask_padding(2, 3, 5); }).argument == "valid_length");
    CHECK(thrown_by([] { score_gaussian(Mat::Ones(1, 2), Mat::Ones(1, 2), -1); }).argument == "params.sigma");
    // a message about no one argument names none
    const invalid_argument shapes = thrown_by([] { dot_products(Mat::Ones(1, 2), Mat::Ones(1, 3)); });
    CHECK(shapes.code == Code::bad_argument);
    CHECK(shapes.argument.empty());
}

TEST_CASE("errors: sizes beyond the buffers' limit are OUT_OF_MEMORY") {
    TrainerOptions o;
    o.d_model = 512, o.vocab = 4096, o.batch = 4096, o.length = 256;
    const invalid_argument e = thrown_by([&] { Trainer t(o); });
    CHECK(contains(e.what(), "MB of buffers, more than the limit of 256 MB"));
    CHECK(e.code == Code::out_of_memory);
}

TEST_CASE("errors: a step that breaks the model is DIVERGED, naming the learning rate to lower") {
    TrainerOptions o;  // one update of 1e15 leaves the parameters near 1e15: the next forward overflows
    o.task = "shift", o.learning_rate = 1e15, o.seed = 255, o.length = 5, o.vocab = 2, o.heads = 3, o.d_model = 9;
    o.batch = 4, o.causal = true;
    Trainer t(o);
    const invalid_argument e = thrown_by([&] { t.step(1); });
    CHECK(contains(e.what(), "training diverged at step 1"));
    CHECK(e.code == Code::diverged);
    CHECK(e.argument == "learning_rate");
    CHECK(thrown_by([&] { t.evaluate(); }).code == Code::diverged);
}

TEST_CASE("errors: bytes that are not a model file are BAD_MODEL_FILE") {
    const std::uint8_t bytes[64] = {};
    const invalid_argument e = thrown_by([&] { read_model_file(bytes, sizeof bytes); });
    CHECK(contains(e.what(), "model file: "));
    CHECK(e.code == Code::bad_model_file);
}
