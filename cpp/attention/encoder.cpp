#include "attention/encoder.hpp"

#include "attention/kernel.hpp"
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

EncoderResult encode(const Encoder& e, std::string_view text, bool maps) {
    EncoderResult r;
    r.tokens = tokenize(e.vocab, text);
    require(!r.tokens.ids.empty(), "the text is empty");
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

    Mat x = r.input;
    for (const EncoderLayer& L : e.layers) {
        const Index d = L.width, d_h = d / e.heads;
        const Mat residual = L.residual.in ? dense(x, L.residual) : x;                         // (T, d_out)
        EncoderAttention layer;
        layer.qkv = dense(layer_norm(x, L.norm1_scale, L.norm1_bias, e.norm_eps), L.qkv);    // (T, 3 d)
        // the kernel takes finite inputs: weights that load may still overflow on the way
        require_finite_result(layer.qkv, "layer " + std::to_string(r.attention.size()) + "'s query, key and value matrix");
        KernelOptions options;
        options.scale = Scalar(1) / std::sqrt(Scalar(d_h));
        Mat concat(T, d);                                                                    // (T, d)
        for (Index h = 0; h < e.heads; ++h) {
            // head h: its columns of Q, K and V (strided views of qkv)
            KernelResult head = attention_kernel(layer.qkv.middleCols(h * d_h, d_h),
                                                 layer.qkv.middleCols(d + h * d_h, d_h),
                                                 layer.qkv.middleCols(2 * d + h * d_h, d_h), options, maps);
            concat.middleCols(h * d_h, d_h) = head.output;
            if (maps) layer.weights.push_back(std::move(head.weights));
        }
        const Mat a = dense(concat, L.out, Activation::none, &residual);                    // concat W_out + b + R(x)
        const Mat hidden = dense(layer_norm(a, L.norm2_scale, L.norm2_bias, e.norm_eps), L.ffn1, Activation::relu);
        x = dense(hidden, L.ffn2, Activation::none, &a);                                     // a + FFN(LN(a))
        r.hidden.push_back(x);

        if (maps) {
            std::vector<Mat> words;
            for (const Mat& w : layer.weights) words.push_back(merge_to_words(w, t.word_of_piece, Index(t.words.size())));
            r.word_attention.push_back(std::move(words));
        }
        r.attention.push_back(std::move(layer));
    }

    // the sentence: mean over pieces, a tanh layer, unit length
    const Mat mean = x.colwise().mean();
    Vec v = dense(mean, e.pool).row(0).transpose().array().tanh();
    const Scalar norm2 = std::max(v.squaredNorm(), Scalar(1e-12));
    r.embedding = v / std::sqrt(norm2);
    require_finite_result(r.embedding.transpose(), "the sentence embedding");
    return r;
}

Mat merge_to_words(const MatRef& A, const std::vector<Index>& word_of_piece, Index words) {
    require(A.rows() == A.cols() && A.rows() == Index(word_of_piece.size()),
            "merge_to_words: the map " + shape(A) + " does not fit " + std::to_string(word_of_piece.size()) + " pieces");
    // summed in double: a word of 128 pieces adds 128 x 128 weights
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(words, words);
    Eigen::VectorXd pieces_in = Eigen::VectorXd::Zero(words);
    for (Index i = 0; i < A.rows(); ++i) {
        const Index a = word_of_piece[size_t(i)];
        require(a >= 0 && a < words && (i == 0 || a >= word_of_piece[size_t(i - 1)]),
                "merge_to_words: word indices must be 0.." + std::to_string(words - 1) + " and non-decreasing");
        pieces_in(a) += 1;
        for (Index j = 0; j < A.cols(); ++j) W(a, word_of_piece[size_t(j)]) += A(i, j);
    }
    for (Index a = 0; a < words; ++a)
        if (pieces_in(a) > 0) W.row(a) /= pieces_in(a);
    return W.cast<Scalar>();
}

}  // namespace attn
