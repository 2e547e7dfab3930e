#include "attention/encoder/encoder.hpp"

#include "attention/kernels/fused_attention.hpp"
#include "attention/encoder/layers.hpp"

#include <cmath>
#include <set>

namespace attn {

namespace {

[[noreturn]] void bad(const std::string& what) { fail("model file: " + what, Code::bad_model_file); }

// The file's tensors as the encoder takes them: each found by name with its
// shape checked (-1: any), before any of them is decoded.
class Tensors {
public:
    explicit Tensors(const ModelFile& f) : f_(f) {}

    bool has(const std::string& name) const { return f_.tensors.count(name) != 0; }

    const StoredTensor& take(const std::string& name, Index rows, Index cols) {
        const auto found = f_.tensors.find(name);
        if (found == f_.tensors.end()) bad("tensor '" + name + "' is missing");
        const StoredTensor& t = found->second;
        if ((rows >= 0 && Index(t.rows) != rows) || (cols >= 0 && Index(t.cols) != cols))
            bad("tensor '" + name + "' has shape " + shape(t.rows, t.cols) + ", expected " +
                shape(rows >= 0 ? rows : t.rows, cols >= 0 ? cols : t.cols));
        taken_.insert(name);
        return t;
    }
    const StoredTensor& take_vector(const std::string& name, Index n) { return take(name, 1, n); }

    // every tensor of the file is one the encoder takes
    void check_all_taken() const {
        for (const auto& entry : f_.tensors)
            if (!taken_.count(entry.first)) bad("unexpected tensor '" + entry.first + "'");
    }

private:
    const ModelFile& f_;
    std::set<std::string> taken_;
};

// The values of a tensor taken: as a matrix, or a vector (its one row).
Mat matrix(const StoredTensor* t) { return decode_tensor(*t); }
Vec vector(const StoredTensor* t) { return decode_tensor(*t).row(0).transpose(); }

// One layer's tensors, each shape checked, still coded (residual: none where
// the width stays the same).
struct StoredLayer {
    Index width = 0, out_width = 0;
    const StoredTensor *residual_W = nullptr, *residual_b = nullptr;
    const StoredTensor *norm1_scale, *norm1_bias, *qkv_W, *qkv_b, *out_W, *out_b;
    const StoredTensor *norm2_scale, *norm2_bias, *ffn1_W, *ffn1_b, *ffn2_W, *ffn2_b;
};

StoredLayer find_layer(Tensors& t, const std::string& p, Index d_in, Index heads) {
    StoredLayer L;
    if (d_in % heads != 0) bad(p + " width " + std::to_string(d_in) + " is not divisible by " + std::to_string(heads) + " heads");
    L.out_W = &t.take(p + "out.W", d_in, -1);
    const Index d_out = L.out_W->cols;
    L.width = d_in;
    L.out_width = d_out;
    if (t.has(p + "residual.W")) {
        L.residual_W = &t.take(p + "residual.W", d_in, d_out);
        L.residual_b = &t.take_vector(p + "residual.b", d_out);
    } else if (d_in != d_out) {
        bad("tensor '" + p + "residual.W' is missing: the layer changes the width from " + std::to_string(d_in) +
            " to " + std::to_string(d_out));
    }
    L.norm1_scale = &t.take_vector(p + "norm1.scale", d_in);
    L.norm1_bias = &t.take_vector(p + "norm1.bias", d_in);
    L.qkv_W = &t.take(p + "qkv.W", d_in, 3 * d_in);
    L.qkv_b = &t.take_vector(p + "qkv.b", 3 * d_in);
    L.out_b = &t.take_vector(p + "out.b", d_out);
    L.norm2_scale = &t.take_vector(p + "norm2.scale", d_out);
    L.norm2_bias = &t.take_vector(p + "norm2.bias", d_out);
    L.ffn1_W = &t.take(p + "ffn1.W", d_out, -1);
    L.ffn1_b = &t.take_vector(p + "ffn1.b", L.ffn1_W->cols);
    L.ffn2_W = &t.take(p + "ffn2.W", L.ffn1_W->cols, d_out);
    L.ffn2_b = &t.take_vector(p + "ffn2.b", d_out);
    return L;
}

// The layer's values, decoded one tensor at a time and packed.
EncoderLayer decode_layer(const StoredLayer& s) {
    EncoderLayer L;
    L.width = s.width;
    L.out_width = s.out_width;
    if (s.residual_W) L.residual = pack_dense(matrix(s.residual_W), vector(s.residual_b));
    L.norm1_scale = vector(s.norm1_scale);
    L.norm1_bias = vector(s.norm1_bias);
    L.qkv = pack_dense(matrix(s.qkv_W), vector(s.qkv_b));
    L.out = pack_dense(matrix(s.out_W), vector(s.out_b));
    L.norm2_scale = vector(s.norm2_scale);
    L.norm2_bias = vector(s.norm2_bias);
    L.ffn1 = pack_dense(matrix(s.ffn1_W), vector(s.ffn1_b));
    L.ffn2 = pack_dense(matrix(s.ffn2_W), vector(s.ffn2_b));
    return L;
}

}  // namespace

Encoder load_encoder(const ModelFile& f) {
    Encoder e;
    if (f.heads < 1 || f.heads > 64) bad("impossible head count " + std::to_string(f.heads));
    if (f.max_pieces < 1 || f.max_pieces > 4096) bad("impossible longest input " + std::to_string(f.max_pieces));
    if (!(f.norm_eps > 0 && f.norm_eps < 1)) bad("impossible layer-norm epsilon " + number(f.norm_eps));
    e.heads = f.heads;
    e.max_pieces = f.max_pieces;
    e.norm_eps = f.norm_eps;
    e.vocab = Vocabulary(f.pieces, f.scores, int(f.reserved));

    // every name and shape, against the vocabulary and each other, before any value is decoded
    Tensors t(f);
    const StoredTensor* embeddings = &t.take("embeddings", -1, -1);
    if (Index(embeddings->rows) < e.vocab.size())
        bad("tensor 'embeddings' has " + std::to_string(embeddings->rows) + " rows for " +
            std::to_string(e.vocab.size()) + " pieces");
    const Index d_embed = embeddings->cols;
    if (d_embed % 2 != 0) bad("tensor 'embeddings' has an odd width " + std::to_string(d_embed));
    const StoredTensor* timing = &t.take_vector("timing", d_embed / 2);
    std::vector<StoredLayer> layers;
    Index width = d_embed;
    for (int l = 0; t.has("layer" + std::to_string(l) + ".qkv.W"); ++l) {
        layers.push_back(find_layer(t, "layer" + std::to_string(l) + ".", width, e.heads));
        width = layers.back().out_width;
    }
    if (layers.empty()) bad("tensor 'layer0.qkv.W' is missing");
    const StoredTensor* pool_W = &t.take("pool.W", width, width);
    const StoredTensor* pool_b = &t.take_vector("pool.b", width);
    t.check_all_taken();

    // then the values, one tensor at a time
    e.embeddings = matrix(embeddings);
    e.timing = vector(timing);
    for (const StoredLayer& L : layers) e.layers.push_back(decode_layer(L));
    e.pool = pack_dense(matrix(pool_W), vector(pool_b));
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
    if (r.tokens.ids.empty()) fail("text is empty: type a sentence");
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
