// The bindings of attention-encoder.mjs, the pretrained encoder behind the
// facade's encoder.js (loaded by att.loadEncoder on first use): its raw
// functions and their Embind declarations, one file for the module (its memory
// statistics: memory_stats.cpp). JS holds a handle, never a pointer.
#include "bindings/convert.hpp"
#include "bindings/handles.hpp"

#include <emscripten/bind.h>

#include <memory>

namespace attn::js {

// An encoder and its last results (with maps, and the embedding alone), whose
// room the next encode and embed reuse.
struct Loaded {
    Encoder encoder;
    EncoderResult with_maps, embedding_only;
};

// (each behind a pointer of its own: encode_into keeps pointers into it)
static Handles<std::unique_ptr<Loaded>>& encoders() {
    static Handles<std::unique_ptr<Loaded>> loaded("encoder");
    return loaded;
}

static Loaded& encoder_of(const val& o) { return *encoders().get(o); }

namespace {

val raw_encoder_load(val o) {
    return guarded([&] {
        const std::vector<std::uint8_t> bytes = to_bytes(o["bytes"]);
        auto loaded = std::make_unique<Loaded>(Loaded{load_encoder(bytes.data(), bytes.size()), {}, {}});
        const Encoder* encoder = &loaded->encoder;
        val out = val::object();
        out.set("vocabulary", int(encoder->vocab.size()));
        out.set("heads", int(encoder->heads));
        out.set("maxPieces", int(encoder->max_pieces));
        val widths = val::array();
        for (const EncoderLayer& L : encoder->layers) widths.call<void>("push", int(L.width));
        out.set("layerWidths", widths);
        out.set("embeddingWidth", int(encoder->pool.out));
        out.set("handle", encoders().add(std::move(loaded)));
        return out;
    });
}

val raw_encoder_encode(val o) {
    return guarded([&] {
        Loaded& loaded = encoder_of(o);
        EncoderResult& r = loaded.with_maps;
        encode_into(loaded.encoder, o["text"].as<std::string>(), true, r);
        val piece_maps = val::array();  // [layer][head], from where the result keeps them
        for (const EncoderAttention& layer : r.attention) piece_maps.call<void>("push", from_map_list(layer.weights));
        val out = val::object();
        out.set("ids", from_indices(r.tokens.ids));
        out.set("pieces", from_strings(r.tokens.pieces));
        out.set("words", from_strings(r.tokens.words));
        out.set("wordOfPiece", from_indices(r.tokens.word_of_piece));
        out.set("truncated", r.truncated);
        out.set("attention", piece_maps);
        out.set("wordAttention", from_maps(r.word_attention));
        out.set("embedding", from_vec(r.embedding));
        return out;
    });
}

// the embedding alone: no maps computed or copied
val raw_encoder_embed(val o) {
    return guarded([&] {
        Loaded& loaded = encoder_of(o);
        encode_into(loaded.encoder, o["text"].as<std::string>(), false, loaded.embedding_only);
        return from_vec(loaded.embedding_only.embedding);
    });
}

val raw_encoder_delete(val o) {
    return guarded([&] {
        encoders().remove(o);
        return val(true);
    });
}

}  // namespace

}  // namespace attn::js

using namespace emscripten;
using namespace attn::js;

EMSCRIPTEN_BINDINGS(attention_encoder) {
    function("raw_encoder_load", &raw_encoder_load);
    function("raw_encoder_encode", &raw_encoder_encode);
    function("raw_encoder_embed", &raw_encoder_embed);
    function("raw_encoder_delete", &raw_encoder_delete);
}
