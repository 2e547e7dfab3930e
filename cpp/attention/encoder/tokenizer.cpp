#include "attention/encoder/tokenizer.hpp"

#include "attention/utf8.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace attn {

namespace {

constexpr char32_t kSpace = U' ';
constexpr char32_t kWordStart = U'\u2581';  // ▁

// Lengths in UTF-8 bytes of a sequence starting with lead byte b (0 = invalid).
int utf8_length(unsigned char b) {
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) return 2;
    if (b >= 0xE0 && b <= 0xEF) return 3;
    if (b >= 0xF0 && b <= 0xF4) return 4;
    return 0;
}

// Merges consecutive unknown pieces (id 0) into one, in place: join(into, next).
template <class Piece, class Unknown, class Join>
void merge_unknown_runs(std::vector<Piece>& pieces, Unknown unknown, Join join) {
    size_t kept = 0;
    for (size_t i = 0; i < pieces.size(); ++i) {
        if (kept > 0 && unknown(pieces[i]) && unknown(pieces[kept - 1]))
            join(pieces[kept - 1], pieces[i]);
        else
            pieces[kept++] = pieces[i];
    }
    pieces.resize(kept);
}

// out = "▁" + text with every space replaced by ▁ ("" stays ""); out's room is reused.
void mark_words(std::string_view text, std::u32string& out) {
    if (text.size() > kMaxTextBytes)
        fail("text is too long: " + std::to_string(text.size()) + " bytes, at most " + std::to_string(kMaxTextBytes));
    out.assign(1, kWordStart);
    utf8_decode_append(text, out);
    if (out.size() == 1) out.clear();
    std::replace(out.begin(), out.end(), kSpace, kWordStart);
}

// The UTF-8 of code points [begin, end), appended to out.
void utf8_append(const char32_t* begin, const char32_t* end, std::string& out) {
    for (const char32_t* p = begin; p != end; ++p) append_utf8(*p, out);
}

// ▁ in UTF-8
constexpr std::string_view kWordStartUtf8 = "\xE2\x96\x81";

}  // namespace

void utf8_decode_append(std::string_view text, std::u32string& out) {
    const auto invalid = [](size_t at) { fail("text is not valid UTF-8 (byte " + std::to_string(at) + ")"); };
    for (size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int n = utf8_length(b);
        if (n == 0 || i + size_t(n) > text.size()) invalid(i);
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < n; ++k) {
            const auto cont = static_cast<unsigned char>(text[i + size_t(k)]);
            if ((cont & 0xC0) != 0x80) invalid(i + size_t(k));
            c = (c << 6) | (cont & 0x3F);
        }
        // reject overlong forms and values past U+10FFFF
        if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF))) invalid(i);
        out.push_back(c);
        i += size_t(n);
    }
}

std::u32string utf8_decode(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    utf8_decode_append(text, out);
    return out;
}

std::string utf8_encode(const std::u32string& text) {
    std::string out;
    utf8_append(text.data(), text.data() + text.size(), out);
    return out;
}

Vocabulary::Vocabulary(std::vector<std::string> pieces, std::vector<double> scores, int reserved)
    : pieces_(std::move(pieces)), scores_(std::move(scores)), reserved_(reserved) {
    require(pieces_.size() == scores_.size(), "vocabulary: " + std::to_string(pieces_.size()) + " pieces but " +
                                                  std::to_string(scores_.size()) + " scores");
    require(reserved_ >= 1 && size_t(reserved_) <= pieces_.size(),
            "vocabulary: the reserved ids (" + std::to_string(reserved_) + ") must include the unknown piece 0");
    utf16_lengths_.reserve(pieces_.size());
    for (size_t id = 0; id < pieces_.size(); ++id) {
        const std::u32string piece = utf8_decode(pieces_[id]);
        require(!piece.empty(), "vocabulary: piece " + std::to_string(id) + " is empty");
        require(std::isfinite(scores_[id]), "vocabulary: piece " + std::to_string(id) + " has score " + number(scores_[id]));
        Index units = 0;
        for (char32_t c : piece) units += c >= 0x10000 ? 2 : 1;
        utf16_lengths_.push_back(units);
        if (Index(id) < reserved_) continue;  // control symbols never match text
        int node = 0;
        for (char32_t c : piece) {
            auto found = trie_[size_t(node)].children.find(c);
            if (found == trie_[size_t(node)].children.end()) {
                trie_.push_back(Node{});
                const int child = int(trie_.size() - 1);
                trie_[size_t(node)].children.emplace(c, child);
                node = child;
            } else {
                node = found->second;
            }
        }
        trie_[size_t(node)].id = int(id);  // a repeated piece: the later id wins
    }
}

void Vocabulary::prefixes(const std::u32string& text, size_t start, std::vector<Match>& out) const {
    out.clear();
    int node = 0;
    for (size_t i = start; i < text.size(); ++i) {
        const auto found = trie_[size_t(node)].children.find(text[i]);
        if (found == trie_[size_t(node)].children.end()) break;
        node = found->second;
        if (trie_[size_t(node)].id >= 0) out.push_back({Index(i - start + 1), trie_[size_t(node)].id});
    }
}

namespace {

// What one tokenize keeps for the next: the room of each buffer.
struct Lattice {
    std::u32string s;                       // the marked text
    std::vector<Vocabulary::Match> matches; // the pieces matching at one position
    std::vector<double> best;               // (n + 1) best total score of s[0..end); 0: not reached yet
    std::vector<Index> last;                // (n + 1) the id of that segmentation's last piece
    struct Span {
        Index id;
        size_t begin, end;  // code points of s
    };
    std::vector<Span> spans;
};

}  // namespace

void tokenize_into(const Vocabulary& vocab, std::string_view text, Tokens& t) {
    static thread_local Lattice lattice;
    Lattice& L = lattice;
    mark_words(text, L.s);
    const std::u32string& s = L.s;
    const size_t n = s.size();

    // Forward, over the lattice of every piece that matches at each position
    // (the one-character unknown piece where nothing does): a piece from
    // start to end offers best[start] + its score to best[end]. Positions are
    // taken in order, so best[start] is final when its pieces are offered, and
    // each end hears its pieces by ascending start (ties: the later start).
    L.best.assign(n + 1, 0.0);
    L.last.assign(n + 1, 0);
    const auto offer = [&](size_t start, size_t end, Index id, double score) {
        const double total = score + L.best[start];
        if (L.best[end] == 0.0 || total >= L.best[end]) {
            L.best[end] = total;
            L.last[end] = id;
        }
    };
    for (size_t i = 0; i < n; ++i) {
        vocab.prefixes(s, i, L.matches);
        if (L.matches.empty()) offer(i, i + 1, 0, 0.0);
        for (const auto& m : L.matches) offer(i, i + size_t(m.length), m.id, vocab.score(m.id));
    }

    // Backward: from the end, step back by the length of each last piece.
    L.spans.clear();
    for (std::ptrdiff_t at = std::ptrdiff_t(n); at > 0;) {
        const Index id = L.last[size_t(at)];
        const std::ptrdiff_t back = std::ptrdiff_t(vocab.utf16_length(id));
        L.spans.push_back({id, size_t(std::max<std::ptrdiff_t>(at - back, 0)), size_t(at)});
        at -= back;
    }
    std::reverse(L.spans.begin(), L.spans.end());
    merge_unknown_runs(
        L.spans, [](const Lattice::Span& p) { return p.id == 0; },
        [](Lattice::Span& into, const Lattice::Span& next) { into.end = next.end; });

    t.ids.resize(L.spans.size());
    t.pieces.resize(L.spans.size());
    for (size_t k = 0; k < L.spans.size(); ++k) {
        t.ids[k] = L.spans[k].id;
        t.pieces[k].clear();
        utf8_append(s.data() + L.spans[k].begin, s.data() + L.spans[k].end, t.pieces[k]);
    }
    group_words(t);
}

Tokens tokenize(const Vocabulary& vocab, std::string_view text) {
    Tokens t;
    tokenize_into(vocab, text, t);
    return t;
}

void group_words(Tokens& t) {
    size_t words = 0;
    t.word_of_piece.resize(t.pieces.size());
    for (size_t k = 0; k < t.pieces.size(); ++k) {
        const std::string_view piece = t.pieces[k];
        if (words == 0 || piece.substr(0, kWordStartUtf8.size()) == kWordStartUtf8) {
            if (t.words.size() <= words) t.words.emplace_back();
            t.words[words++].clear();
        }
        // the piece without its ▁ (UTF-8 never holds those 3 bytes inside another character)
        for (size_t at = 0; at < piece.size();) {
            const size_t mark = piece.find(kWordStartUtf8, at);
            t.words[words - 1].append(piece.substr(at, mark == std::string_view::npos ? std::string_view::npos : mark - at));
            if (mark == std::string_view::npos) break;
            at = mark + kWordStartUtf8.size();
        }
        t.word_of_piece[k] = Index(words - 1);
    }
    t.words.resize(words);
}

void keep_pieces(Tokens& t, size_t n) {
    if (t.ids.size() <= n) return;
    t.ids.resize(n);
    t.pieces.resize(n);
    group_words(t);
}

std::vector<Index> tokenize_reference(const Vocabulary& vocab, std::string_view text) {
    std::u32string s;
    mark_words(text, s);
    const size_t n = s.size();
    // the piece (highest id wins among repeats) of each length matching at each position
    auto matches_at = [&](size_t start) {
        std::vector<std::pair<size_t, Index>> out;  // (length, id)
        for (Index id = vocab.reserved(); id < vocab.size(); ++id) {
            const std::u32string p = utf8_decode(vocab.piece(id));
            if (s.compare(start, p.size(), p) != 0) continue;
            auto same = std::find_if(out.begin(), out.end(), [&](const auto& m) { return m.first == p.size(); });
            if (same != out.end()) same->second = id;
            else out.emplace_back(p.size(), id);
        }
        if (out.empty()) out.emplace_back(1, 0);  // unknown
        return out;
    };
    // best(end): the best (score, segmentation) of s[0..end), ties to the later
    // start; remembered, so each end is solved once
    std::vector<std::optional<std::pair<double, std::vector<Index>>>> memo(n + 1);
    std::function<std::pair<double, std::vector<Index>>(size_t)> best = [&](size_t end) {
        if (memo[end]) return *memo[end];
        std::pair<double, std::vector<Index>> winner{0.0, {}};
        if (end == 0) return winner;
        bool found = false;
        for (size_t start = 0; start < end; ++start)
            for (const auto& [length, id] : matches_at(start)) {
                if (start + length != end) continue;
                auto before = best(start);
                const double total = (id == 0 ? 0.0 : vocab.score(id)) + before.first;
                if (!found || winner.first == 0.0 || total >= winner.first) {
                    before.second.push_back(id);
                    winner = {total, before.second};
                    found = true;
                }
            }
        if (!found) {  // no piece ends here: an unknown piece with total 0
            winner = {0.0, best(end - 1).second};
            winner.second.push_back(0);
        }
        memo[end] = winner;
        return winner;
    };
    std::vector<Index> ids = best(n).second;
    merge_unknown_runs(
        ids, [](const Index& id) { return id == 0; }, [](Index&, const Index&) {});
    return ids;
}

}  // namespace attn
