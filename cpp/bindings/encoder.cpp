// The pretrained encoder behind api-encoder.js: JS holds a handle, never a pointer.
#include "bindings/convert.hpp"
#include "bindings/raw.hpp"

#include <map>
#include <memory>

namespace attn::js {

static std::map<int, std::unique_ptr<Encoder>>& encoders() {
    static std::map<int, std::unique_ptr<Encoder>> loaded;
    return loaded;
}

static const Encoder& encoder_of(const val& o) {
    const auto found = encoders().find(o["handle"].as<int>());
    require(found != encoders().end(), "this encoder was deleted");
    return *found->second;
}

val raw_encoder_load(val o) {
    return guarded([&] {
        static int next_handle = 1;
        const std::vector<std::uint8_t> bytes = to_bytes(o["bytes"]);
        auto encoder = std::make_unique<Encoder>(load_encoder(bytes.data(), bytes.size()));
        val out = val::object();
        out.set("handle", next_handle);
        out.set("vocabulary", int(encoder->vocab.size()));
        out.set("heads", int(encoder->heads));
        out.set("maxPieces", int(encoder->max_pieces));
        val widths = val::array();
        for (const EncoderLayer& L : encoder->layers) widths.call<void>("push", int(L.width));
        out.set("layerWidths", widths);
        out.set("embeddingWidth", int(encoder->pool.out));
        encoders().emplace(next_handle++, std::move(encoder));
        return out;
    });
}

val raw_encoder_encode(val o) {
    return guarded([&] {
        EncoderResult r = encode(encoder_of(o), o["text"].as<std::string>());
        std::vector<std::vector<Mat>> piece_maps;
        for (EncoderAttention& layer : r.attention) piece_maps.push_back(std::move(layer.weights));
        val out = val::object();
        out.set("ids", from_indices(r.tokens.ids));
        out.set("pieces", from_strings(r.tokens.pieces));
        out.set("words", from_strings(r.tokens.words));
        out.set("wordOfPiece", from_indices(r.tokens.word_of_piece));
        out.set("truncated", r.truncated);
        out.set("attention", from_maps(piece_maps));
        out.set("wordAttention", from_maps(r.word_attention));
        out.set("embedding", from_vec(r.embedding));
        return out;
    });
}

// the embedding alone: no maps computed or copied
val raw_encoder_embed(val o) {
    return guarded([&] { return from_vec(encode(encoder_of(o), o["text"].as<std::string>(), false).embedding); });
}

val raw_encoder_delete(val o) {
    return guarded([&] {
        encoders().erase(o["handle"].as<int>());
        return val(true);
    });
}

}  // namespace attn::js
