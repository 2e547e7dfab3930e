// SentencePiece unigram tokenizer: splits a sentence into the vocabulary's
// pieces, choosing the segmentation with the highest total piece score
// (a Viterbi search over the lattice of every piece that matches).
//
//   "The woman took her umbrella"  ->  ▁The | ▁woman | ▁took | ▁her | ▁umbrella
//   "trophy"                       ->  ▁tro | phy      (a rarer word splits)
//
// Spaces become ▁ (U+2581) and one ▁ is put in front, so a piece that starts
// with ▁ starts a word. A character no piece covers becomes the unknown piece
// (id 0); a run of them becomes one unknown piece.
#pragma once

#include "attention/types.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {

// The pieces and their scores (log-probabilities). Ids below `reserved` are
// control symbols that never match text; id 0 is the unknown piece.
class Vocabulary {
public:
    Vocabulary() = default;
    // pieces: valid UTF-8, non-empty; scores: finite, one per piece
    Vocabulary(std::vector<std::string> pieces, std::vector<double> scores, int reserved);

    Index size() const { return Index(pieces_.size()); }
    const std::string& piece(Index id) const { return pieces_[size_t(id)]; }
    double score(Index id) const { return scores_[size_t(id)]; }
    int reserved() const { return reserved_; }

    struct Match {
        Index length;  // in code points
        Index id;
    };
    // Every piece that is a prefix of text[start..], shortest first.
    void prefixes(const std::u32string& text, size_t start, std::vector<Match>& out) const;
    // The length of a piece in UTF-16 units (what the segmentation steps back by).
    Index utf16_length(Index id) const { return utf16_lengths_[size_t(id)]; }

private:
    struct Node {
        std::unordered_map<char32_t, int> children;
        int id = -1;  // the piece that ends here, or -1
    };
    std::vector<std::string> pieces_;
    std::vector<double> scores_;
    std::vector<Index> utf16_lengths_;
    std::vector<Node> trie_{Node{}};  // node 0 is the root
    int reserved_ = 0;
};

struct Tokens {
    std::vector<Index> ids;            // one per piece
    std::vector<std::string> pieces;   // the text each piece covers, ▁ for a space (UTF-8)
    std::vector<Index> word_of_piece;  // which word each piece belongs to
    std::vector<std::string> words;    // the words: runs of pieces from one ▁ to the next, ▁ removed
};

// Code points of UTF-8 text; surrogate code points (from lone UTF-16
// surrogates) are kept as they are. Throws on bytes that are not UTF-8.
std::u32string utf8_decode(std::string_view text);
void utf8_decode_append(std::string_view text, std::u32string& out);
std::string utf8_encode(const std::u32string& text);

// Tokenizes text that is already NFKC-normalised (the JS API normalises with
// String.prototype.normalize before calling). It reproduces the tokenizer the
// model was published with, quirks included, so the ids are the ones the model
// was trained on: ties go to the segmentation whose last piece starts later; a
// running best of exactly 0 counts as "none yet"; a position that no piece
// ends at (its character only starts longer pieces) restarts from total 0
// and is reached by an unknown piece.
//   text: at most kMaxTextBytes bytes; "" gives no pieces.
Tokens tokenize(const Vocabulary& vocab, std::string_view text);
// The same into t, reusing its room and the search's (kept per thread): no
// allocation when the text is no longer than one tokenized before.
void tokenize_into(const Vocabulary& vocab, std::string_view text, Tokens& t);

constexpr size_t kMaxTextBytes = 100000;

// Fills words and word_of_piece from pieces: a piece starting with ▁ starts a word.
void group_words(Tokens& tokens);
// Keeps the first n pieces (and the words they make).
void keep_pieces(Tokens& tokens, size_t n);

// The same search written as plainly as possible: every segmentation of text
// is scored recursively. Exponential; for checking tokenize on short strings.
std::vector<Index> tokenize_reference(const Vocabulary& vocab, std::string_view text);

}  // namespace attn
