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
//
// Speed: every dense layer runs on weights packed once at load (kernels/gemm.hpp),
// its bias, ReLU and residual applied as its sums are stored; each head runs
// on the fused attention kernel (kernels/fused_attention.hpp), which also returns its weights.
#pragma once

#include "attention/kernels/gemm.hpp"
#include "attention/io/model_file.hpp"
#include "attention/encoder/tokenizer.hpp"

#include <vector>

namespace attn {

struct EncoderLayer {
    Index width = 0, out_width = 0;     // d_in, d_out
    PackedDense residual;               // (d_in -> d_out), or empty (in == 0): the residual is the input itself
    Vec norm1_scale, norm1_bias;        // (d_in) before attention
    PackedDense qkv;                    // (d_in -> 3 d_in): [Q | K | V] with their biases
    PackedDense out;                    // (d_in -> d_out): W_out and b_out
    Vec norm2_scale, norm2_bias;        // (d_out) before the feed-forward block
    PackedDense ffn1, ffn2;             // (d_out -> d_ff), (d_ff -> d_out)
};

struct Encoder {
    Vocabulary vocab;
    Mat embeddings;                     // (ids, d_embed)
    Vec timing;                         // (d_embed / 2) inverse timescales of the sinusoidal positions
    std::vector<EncoderLayer> layers;
    PackedDense pool;                   // (d_out -> d_out), before tanh
    Index heads = 0;
    Index max_pieces = 0;
    Scalar norm_eps = 0;
};

// Builds the encoder from a model file read by read_model_file (whose bytes
// must still be there), checking that every tensor is there with a shape
// that fits the vocabulary and the others, and that there is no other,
// before any tensor is decoded; then decodes them one at a time.
Encoder load_encoder(const ModelFile& file);
Encoder load_encoder(const std::uint8_t* data, std::size_t size);

struct EncoderAttention {
    Mat qkv;                            // (T, 3 d): [Q | K | V]; head h reads columns [h d_h, (h + 1) d_h) of each third
    std::vector<Mat> weights;           // per head (T, T), rows sum to 1; empty when encoded without maps
};

struct EncoderResult {
    Tokens tokens;                      // the pieces (after the cut) and the words they make
    bool truncated = false;             // the sentence had more than max_pieces pieces
    Mat input;                          // (T, d_embed) 2 E[ids] + timing
    std::vector<EncoderAttention> attention;  // per layer
    std::vector<Mat> hidden;            // per layer: its output (T, d_out)
    std::vector<std::vector<Mat>> word_attention;  // [layer][head] (words, words); empty without maps
    Vec embedding;                      // (d_out) unit length
};

// text: NFKC-normalised UTF-8 with at least one piece. maps = false skips the
// attention weights and word maps (the embedding alone: about a fifth faster
// on short sentences, where copying maps out is a large part of a call).
EncoderResult encode(const Encoder& encoder, std::string_view text, bool maps = true);
// The same into r, reusing its room (and that of the intermediates, kept per
// thread): a text with as many pieces and words as the last one encoded into
// r, with the same maps setting, allocates nothing.
void encode_into(const Encoder& encoder, std::string_view text, bool maps, EncoderResult& r);

// A piece-level map merged to words: the weight from word a to word b is the
// sum over b's pieces (the attention b receives in total) averaged over a's
// pieces (each of a's pieces asks on its own). Rows still sum to 1.
//   A: (T, T)  word_of_piece: T word indices, 0..words-1, non-decreasing  -> (words, words)
Mat merge_to_words(const MatRef& A, const std::vector<Index>& word_of_piece, Index words);
// The same into out, with W (words, words) and pieces_in (words) as room for the double sums.
void merge_to_words_into(const MatRef& A, const std::vector<Index>& word_of_piece, Index words, Mat& out,
                         Eigen::MatrixXd& W, Eigen::VectorXd& pieces_in);

}  // namespace attn
