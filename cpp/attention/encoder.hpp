// A real pretrained sentence encoder: the Universal Sentence Encoder Lite
// (two transformer layers with four heads each, trained by Google), run on
// the core's own tokenizer, layers and multi-head attention.
//
//   pieces  = tokenize(text)                                  (T pieces, T <= max_pieces)
//   x       = 2 E[pieces] + timing                            (T, 256) sinusoidal positions
//   layer:  h = LN(x);  a = MultiHead(h) W_out + b_out + R(x)  R: a dense layer where the width
//           x' = a + FFN(LN(a))                                  changes (256 -> 512), else x
//   embedding = l2_normalise(tanh(mean_rows(x) W + b))        (512)
//
// Its maps show what a trained model attends to (layer 0, head 0 tends to send
// a pronoun to its antecedent), but it is a small sentence encoder, not a
// large language model: it does not resolve hard coreference cases.
#pragma once

#include "attention/model_file.hpp"
#include "attention/multi_head.hpp"
#include "attention/tokenizer.hpp"

#include <vector>

namespace attn {

struct EncoderLayer {
    Mat residual_W;                     // (d_in, d_out), or empty: the residual is the input itself
    Vec residual_b;                     // (d_out)
    Vec norm1_scale, norm1_bias;        // (d_in) before attention
    MultiHeadParams attention;          // Wq, Wk, Wv: (d_in + 1, d_in), the bias as the last row; Wo: (d_in, d_out)
    Vec out_b;                          // (d_out)
    Vec norm2_scale, norm2_bias;        // (d_out) before the feed-forward block
    Mat W1, W2;                         // (d_out, d_ff), (d_ff, d_out)
    Vec b1, b2;                         // (d_ff), (d_out)
};

struct Encoder {
    Vocabulary vocab;
    Mat embeddings;                     // (ids, d_embed)
    Vec timing;                         // (d_embed / 2) inverse timescales of the sinusoidal positions
    std::vector<EncoderLayer> layers;
    Mat pool_W;                         // (d_out, d_out)
    Vec pool_b;                         // (d_out)
    Index heads = 0;
    Index max_pieces = 0;
    Scalar norm_eps = 0;
};

// Builds the encoder from a model file (its tensors are moved, not copied),
// checking that every tensor is there with a shape that fits the others.
Encoder load_encoder(ModelFile file);
Encoder load_encoder(const std::uint8_t* data, std::size_t size);

struct EncoderResult {
    Tokens tokens;                      // the pieces (after the cut) and the words they make
    bool truncated = false;             // the sentence had more than max_pieces pieces
    Mat input;                          // (T, d_embed) 2 E[ids] + timing
    std::vector<MultiHeadResult> attention;  // per layer: Q, K, V, every head's intermediates
    std::vector<Mat> hidden;            // per layer: its output (T, d_out)
    std::vector<std::vector<Mat>> word_attention;  // [layer][head] (words, words)
    Vec embedding;                      // (d_out) unit length
};

// text: NFKC-normalised UTF-8 with at least one piece.
EncoderResult encode(const Encoder& encoder, std::string_view text);

// A piece-level map merged to words: the weight from word a to word b is the
// sum over b's pieces (the attention b receives in total) averaged over a's
// pieces (each of a's pieces asks on its own). Rows still sum to 1.
//   A: (T, T)  word_of_piece: T word indices, 0..words-1, non-decreasing  -> (words, words)
Mat merge_to_words(const MatRef& A, const std::vector<Index>& word_of_piece, Index words);

}  // namespace attn
