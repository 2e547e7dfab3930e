// The raw functions of the online softmax (see raw.hpp): flash attention with
// its trace, and the weights given back from each row's log-sum-exp.
#include "bindings/raw.hpp"

#include "bindings/convert.hpp"

#include <emscripten/bind.h>

namespace attn::js {

static val from_tile(const FlashTile& t) {
    return object_of("row0", int(t.row0), "rows", int(t.rows), "col0", int(t.col0), "cols", int(t.cols),
                     "scores", from_mat(t.scores), "maxBefore", from_vec(t.max_before), "maxAfter",
                     from_vec(t.max_after), "rescale", from_vec(t.rescale), "sumBefore", from_vec(t.sum_before),
                     "sumAfter", from_vec(t.sum_after), "outputAfter", from_mat(t.output_after));
}

val raw_flash_attention(val o) {
    return guarded([&] {
        const Mat Q = to_mat(o["query"]), K = to_mat(o["key"]), V = to_mat(o["value"]);
        const FlashOptions f{o["blockRows"].as<int>(), o["blockCols"].as<int>(), o["trace"].as<bool>()};
        const FlashResult r = flash_attention(Q, K, V, to_attention_options(o, Q.rows(), K.rows()), f);
        val out = object_of("output", from_mat(r.output), "logSumExp", from_vec(r.log_sum_exp), "tilesVisited",
                            int(r.tiles_visited), "tilesSkipped", int(r.tiles_skipped));
        if (f.trace) {
            val tiles = val::array();
            for (const FlashTile& t : r.trace) tiles.call<void>("push", from_tile(t));
            out.set("tiles", tiles);
        }
        return out;
    });
}

val raw_weights_from_log_sum_exp(val o) {
    return guarded([&] {
        const Mat Q = to_mat(o["query"]), K = to_mat(o["key"]);
        const Vec lse = to_vec(o["logSumExp"]);
        const std::vector<int> given = emscripten::convertJSArrayToNumberVector<int>(o["rows"]);
        const std::vector<Index> rows(given.begin(), given.end());
        const Mat W = weights_from_log_sum_exp(Q, K, lse, rows, to_attention_options(o, Q.rows(), K.rows()));
        return object_of("rows", from_indices(rows), "weights", from_mat(W));
    });
}

}  // namespace attn::js
