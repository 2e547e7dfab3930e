#include "attention/encoder.hpp"

#include "attention/fused_attention.hpp"
#include "attention/layers.hpp"

#include <cmath>

namespace attn {

namespace {

[[noreturn]] void bad(const std::string& what) { fail("model file: " + what); }

// Moves the named tensor out of the file, checking its shape (-1: any).
Mat take(ModelFile& f, const std::string& name, Index rows, Index cols) {
    const auto found = f.tensors.find(name);
    if (found == f.tensors.end()) bad("tensor '" + name + "' is missing");
    Mat m = std::move(found->second);
    f.tensors.erase(found);
    if ((rows >= 0 && m.rows() != rows) || (cols >= 0 && m.cols() != cols))
        bad("tensor '" + name + "' has shape " + shape(m) + ", expected " +
            shape(rows >= 0 ? rows : m.rows(), cols >= 0 ? cols : m.cols()));
    return m;
}

Vec take_vector(ModelFile& f, const std::string& name, Index n) { return take(f, name, 1, n).row(0).transpose(); }

EncoderLayer load_layer(ModelFile& f, const std::string& p, Index d_in, Index heads) {
    EncoderLayer L;
    require(d_in % heads == 0, "model file: " + p + " width " + std::to_string(d_in) + " is not divisible by " +
                                   std::to_string(heads) + " heads");
    const Mat out_W = take(f, p + "out.W", d_in, -1);
    const Index d_out = out_W.cols();
    L.width = d_in;
    L.out_width = d_out;
    if (f.tensors.count(p + "residual.W")) {
        const Mat W = take(f, p + "residual.W", d_in, d_out);
        L.residual = pack_dense(W, take_vector(f, p + "residual.b", d_out));
    } else if (d_in != d_out) {
        bad("tensor '" + p + "residual.W' is missing: the layer changes the width from " + std::to_string(d_in) +
            " to " + std::to_string(d_out));
    }
    L.norm1_scale = take_vector(f, p + "norm1.scale", d_in);
    L.norm1_bias = take_vector(f, p + "norm1.bias", d_in);
    const Mat qkv = take(f, p + "qkv.W", d_in, 3 * d_in);
    L.qkv = pack_dense(qkv, take_vector(f, p + "qkv.b", 3 * d_in));
    L.out = pack_dense(out_W, take_vector(f, p + "out.b", d_out));
    L.norm2_scale = take_vector(f, p + "norm2.scale", d_out);
    L.norm2_bias = take_vector(f, p + "norm2.bias", d_out);
    const Mat W1 = take(f, p + "ffn1.W", d_out, -1);
    L.ffn1 = pack_dense(W1, take_vector(f, p + "ffn1.b", W1.cols()));
    const Mat W2 = take(f, p + "ffn2.W", W1.cols(), d_out);
    L.ffn2 = pack_dense(W2, take_vector(f, p + "ffn2.b", d_out));
    return L;
}

}  // namespace

Encoder load_encoder(ModelFile f) {
    Encoder e;
    if (f.heads < 1 || f.heads > 64) bad("impossible head count " + std::to_string(f.heads));
    if (f.max_pieces < 1 || f.max_pieces > 4096) bad("impossible longest input " + std::to_string(f.max_pieces));
    if (!(f.norm_eps > 0 && f.norm_eps < 1)) bad("impossible layer-norm epsilon " + number(f.norm_eps));
    e.heads = f.heads;
    e.max_pieces = f.max_pieces;
    e.norm_eps = f.norm_eps;
    e.vocab = Vocabulary(std::move(f.pieces), std::move(f.scores), int(f.reserved));
    e.embeddings = take(f, "embeddings", -1, -1);
    if (e.embeddings.rows() < e.vocab.size())
        bad("tensor 'embeddings' has " + std::to_string(e.embeddings.rows()) + " rows for " +
            std::to_string(e.vocab.size()) + " pieces");
    const Index d_embed = e.embeddings.cols();
    if (d_embed % 2 != 0) bad("tensor 'embeddings' has an odd width " + std::to_string(d_embed));
    e.timing = take_vector(f, "timing", d_embed / 2);
    Index width = d_embed;
    for (int l = 0; f.tensors.count("layer" + std::to_string(l) + ".qkv.W"); ++l) {
        e.layers.push_back(load_layer(f, "layer" + std::to_string(l) + ".", width, e.heads));
        width = e.layers.back().out_width;
    }
    if (e.layers.empty()) bad("tensor 'layer0.qkv.W' is missing");
    const Mat pool_W = take(f, "pool.W", width, width);
    e.pool = pack_dense(pool_W, take_vector(f, "pool.b", width));
    if (!f.tensors.empty()) bad("unexpected tensor '" + f.tensors.begin()->first + "'");
    return e;
}

Encoder load_encoder(const std::uint8_t* data, std::size_t size) { return load_encoder(read_model_file(data, size)); }

namespace {

// The intermediates that the result does not keep, kept per thread between
// calls: each a buffer that only grows, viewed as the matrix of the moment.
// (One set for every layer: an Eigen matrix per layer and intermediate kept
// its room too, but spread the work over more memory than the cache holds and
// made a call 8% slower at 128 pieces.)
using Buffer = std::vector<float, Eigen::aligned_allocator<float>>;  // 16-byte aligned, as Eigen's own
struct Workspace {
    Buffer residual, normed, concat, a, ffn;
    Mat mean, pooled;
    Eigen::MatrixXd words;
    Eigen::VectorXd pieces_in;
};

Eigen::Map<Mat> view(Buffer& buf, Index rows, Index cols) { return Eigen::Map<Mat>(room(buf, size_t(rows * cols)), rows, cols); }

void require_finite_layer(const Mat& m, size_t layer) {
    if (!all_finite(m))  // the message is built only on failure
        require_finite_result(m, "layer " + std::to_string(layer) + "'s query, key and value matrix");
}

}  // namespace

void encode_into(const Encoder& e, std::string_view text, bool maps, EncoderResult& r) {
    static thread_local Workspace work;
    Workspace& w = work;
    tokenize_into(e.vocab, text, r.tokens);
    if (r.tokens.ids.empty()) fail("the text is empty");
    Tokens& t = r.tokens;
    r.truncated = Index(t.ids.size()) > e.max_pieces;  // the model's longest input: cut, and say so
    keep_pieces(t, size_t(e.max_pieces));
    const Index T = Index(t.ids.size());
    const Index d_embed = e.embeddings.cols(), half = d_embed / 2;

    // input: the embedding twice (as the trained graph adds it) plus [sin | cos] of position * timescale
    r.input.resize(T, d_embed);
    for (Index p = 0; p < T; ++p) {
        for (Index j = 0; j < half; ++j) {
            const Scalar angle = Scalar(p) * e.timing(j);
            r.input(p, j) = std::sin(angle);
            r.input(p, half + j) = std::cos(angle);
        }
        const auto E = e.embeddings.row(t.ids[size_t(p)]);
        r.input.row(p) = E + (E + r.input.row(p));
    }

    const size_t layers = e.layers.size();
    r.attention.resize(layers);
    r.hidden.resize(layers);
    r.word_attention.resize(maps ? layers : 0);
    for (size_t l = 0; l < layers; ++l) {
        const EncoderLayer& L = e.layers[l];
        EncoderAttention& layer = r.attention[l];
        const Mat& x = l == 0 ? r.input : r.hidden[l - 1];                                   // (T, d)
        const Index d = L.width, d_h = d / e.heads, d_out = L.out_width;
        Eigen::Map<Mat> residual = L.residual.in ? view(w.residual, T, d_out) : Eigen::Map<Mat>(nullptr, 0, 0);
        if (L.residual.in) dense_into(x, L.residual, Activation::none, nullptr, residual);     // (T, d_out)
        Eigen::Map<Mat> normed = view(w.normed, T, d);
        layer_norm_into(x, L.norm1_scale, L.norm1_bias, e.norm_eps, normed);
        layer.qkv.resize(T, 3 * d);
        dense_into(normed, L.qkv, Activation::none, nullptr, layer.qkv);                      // (T, 3 d)
        // the kernel takes finite inputs: weights that load may still overflow on the way
        require_finite_layer(layer.qkv, l);
        KernelOptions options;
        options.scale = Scalar(1) / std::sqrt(Scalar(d_h));
        Eigen::Map<Mat> concat = view(w.concat, T, d);                                         // (T, d)
        layer.weights.resize(maps ? size_t(e.heads) : 0);
        for (Index h = 0; h < e.heads; ++h)
            // head h: its columns of Q, K and V (strided views of qkv), its output into its columns of concat
            attention_kernel_into(layer.qkv.middleCols(h * d_h, d_h), layer.qkv.middleCols(d + h * d_h, d_h),
                                  layer.qkv.middleCols(2 * d + h * d_h, d_h), options,
                                  concat.middleCols(h * d_h, d_h), maps ? &layer.weights[size_t(h)] : nullptr);
        const MatRef R = L.residual.in ? MatRef(residual) : MatRef(x);
        Eigen::Map<Mat> attended = view(w.a, T, d_out);
        dense_into(concat, L.out, Activation::none, &R, attended);                                   // concat W_out + b + R(x)
        Eigen::Map<Mat> normed2 = view(w.normed, T, d_out);
        layer_norm_into(attended, L.norm2_scale, L.norm2_bias, e.norm_eps, normed2);
        Eigen::Map<Mat> hidden = view(w.ffn, T, L.ffn1.out);
        dense_into(normed2, L.ffn1, Activation::relu, nullptr, hidden);
        r.hidden[l].resize(T, d_out);
        const MatRef A = attended;
        dense_into(hidden, L.ffn2, Activation::none, &A, r.hidden[l]);                          // a + FFN(LN(a))

        if (maps) {
            r.word_attention[l].resize(size_t(e.heads));
            for (Index h = 0; h < e.heads; ++h)
                merge_to_words_into(layer.weights[size_t(h)], t.word_of_piece, Index(t.words.size()),
                                    r.word_attention[l][size_t(h)], w.words, w.pieces_in);
        }
    }

    // the sentence: mean over pieces, a tanh layer, unit length
    w.mean = r.hidden.back().colwise().mean();
    w.pooled.resize(1, e.pool.out);
    dense_into(w.mean, e.pool, Activation::none, nullptr, w.pooled);
    r.embedding = w.pooled.row(0).transpose().array().tanh();
    const Scalar norm2 = std::max(r.embedding.squaredNorm(), Scalar(1e-12));
    r.embedding /= std::sqrt(norm2);
    if (!all_finite(r.embedding.transpose())) require_finite_result(r.embedding.transpose(), "the sentence embedding");
}

EncoderResult encode(const Encoder& e, std::string_view text, bool maps) {
    EncoderResult r;
    encode_into(e, text, maps, r);
    return r;
}

void merge_to_words_into(const MatRef& A, const std::vector<Index>& word_of_piece, Index words, Mat& out,
                         Eigen::MatrixXd& W, Eigen::VectorXd& pieces_in) {
    if (A.rows() != A.cols() || A.rows() != Index(word_of_piece.size()))
        fail("merge_to_words: the map " + shape(A) + " does not fit " + std::to_string(word_of_piece.size()) + " pieces");
    // summed in double: a word of 128 pieces adds 128 x 128 weights
    W.setZero(words, words);
    pieces_in.setZero(words);
    for (Index i = 0; i < A.rows(); ++i) {
        const Index a = word_of_piece[size_t(i)];
        if (!(a >= 0 && a < words && (i == 0 || a >= word_of_piece[size_t(i - 1)])))
            fail("merge_to_words: word indices must be 0.." + std::to_string(words - 1) + " and non-decreasing");
        pieces_in(a) += 1;
        for (Index j = 0; j < A.cols(); ++j) W(a, word_of_piece[size_t(j)]) += A(i, j);
    }
    for (Index a = 0; a < words; ++a)
        if (pieces_in(a) > 0) W.row(a) /= pieces_in(a);
    out = W.cast<Scalar>();
}

Mat merge_to_words(const MatRef& A, const std::vector<Index>& word_of_piece, Index words) {
    Mat out;
    Eigen::MatrixXd W;
    Eigen::VectorXd pieces_in;
    merge_to_words_into(A, word_of_piece, words, out, W, pieces_in);
    return out;
}

}  // namespace attn
