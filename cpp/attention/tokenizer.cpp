#include "attention/tokenizer.hpp"

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

// Merges consecutive unknown pieces (id 0) into one.
template <class Piece>
void merge_unknown_runs(std::vector<Piece>& pieces, const std::function<bool(const Piece&)>& unknown,
                        const std::function<void(Piece&, const Piece&)>& join) {
    std::vector<Piece> merged;
    for (const Piece& p : pieces) {
        if (!merged.empty() && unknown(p) && unknown(merged.back()))
            join(merged.back(), p);
        else
            merged.push_back(p);
    }
    pieces = std::move(merged);
}

// "▁" + text with every space replaced by ▁ ("" stays "").
std::u32string mark_words(std::string_view text) {
    require(text.size() <= kMaxTextBytes, "text is too long: " + std::to_string(text.size()) +
                                              " bytes, at most " + std::to_string(kMaxTextBytes));
    std::u32string s = utf8_decode(text);
    if (s.empty()) return s;
    std::replace(s.begin(), s.end(), kSpace, kWordStart);
    return kWordStart + s;
}

}  // namespace

std::u32string utf8_decode(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int n = utf8_length(b);
        require(n > 0 && i + size_t(n) <= text.size(),
                "text is not valid UTF-8 (byte " + std::to_string(i) + ")");
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < n; ++k) {
            const auto cont = static_cast<unsigned char>(text[i + size_t(k)]);
            require((cont & 0xC0) == 0x80, "text is not valid UTF-8 (byte " + std::to_string(i + size_t(k)) + ")");
            c = (c << 6) | (cont & 0x3F);
        }
        // reject overlong forms and values past U+10FFFF
        require(!(n == 3 && c < 0x800) && !(n == 4 && (c < 0x10000 || c > 0x10FFFF)),
                "text is not valid UTF-8 (byte " + std::to_string(i) + ")");
        out.push_back(c);
        i += size_t(n);
    }
    return out;
}

std::string utf8_encode(const std::u32string& text) {
    std::string out;
    for (char32_t c : text) {
        if (c < 0x80) {
            out += char(c);
        } else if (c < 0x800) {
            out += char(0xC0 | (c >> 6));
            out += char(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += char(0xE0 | (c >> 12));
            out += char(0x80 | ((c >> 6) & 0x3F));
            out += char(0x80 | (c & 0x3F));
        } else {
            out += char(0xF0 | (c >> 18));
            out += char(0x80 | ((c >> 12) & 0x3F));
            out += char(0x80 | ((c >> 6) & 0x3F));
            out += char(0x80 | (c & 0x3F));
        }
    }
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

Tokens tokenize(const Vocabulary& vocab, std::string_view text) {
    const std::u32string s = mark_words(text);
    const size_t n = s.size();

    // The lattice: every piece that matches at each position, grouped by the
    // position where it ends (starts ascending); the one-character unknown
    // piece where nothing matches.
    struct Edge {
        size_t start;
        Index id;
        double score;
    };
    std::vector<std::vector<Edge>> ending(n + 1);
    std::vector<Vocabulary::Match> matches;
    for (size_t i = 0; i < n; ++i) {
        vocab.prefixes(s, i, matches);
        if (matches.empty()) ending[i + 1].push_back({i, 0, 0.0});
        for (const auto& m : matches) ending[i + size_t(m.length)].push_back({i, m.id, vocab.score(m.id)});
    }

    // Forward: the best total score of a segmentation of s[0..end) and the
    // id of its last piece. 0 means "not reached yet".
    std::vector<double> best(n + 1, 0.0);
    std::vector<Index> last(n + 1, 0);
    for (size_t end = 1; end <= n; ++end)
        for (const Edge& e : ending[end]) {
            const double total = e.score + best[e.start];
            if (best[end] == 0.0 || total >= best[end]) {
                best[end] = total;
                last[end] = e.id;
            }
        }

    // Backward: from the end, step back by the length of each last piece.
    struct Span {
        Index id;
        size_t begin, end;  // code points of s
    };
    std::vector<Span> spans;
    for (std::ptrdiff_t at = std::ptrdiff_t(n); at > 0;) {
        const Index id = last[size_t(at)];
        const std::ptrdiff_t back = std::ptrdiff_t(vocab.utf16_length(id));
        spans.push_back({id, size_t(std::max<std::ptrdiff_t>(at - back, 0)), size_t(at)});
        at -= back;
    }
    std::reverse(spans.begin(), spans.end());
    merge_unknown_runs<Span>(
        spans, [](const Span& p) { return p.id == 0; }, [](Span& into, const Span& next) { into.end = next.end; });

    Tokens t;
    for (const Span& sp : spans) {
        t.ids.push_back(sp.id);
        t.pieces.push_back(utf8_encode(s.substr(sp.begin, sp.end - sp.begin)));
    }
    group_words(t);
    return t;
}

void group_words(Tokens& t) {
    t.words.clear();
    t.word_of_piece.clear();
    for (const std::string& piece : t.pieces) {
        std::u32string text = utf8_decode(piece);
        if (t.words.empty() || (!text.empty() && text.front() == kWordStart)) t.words.emplace_back();
        text.erase(std::remove(text.begin(), text.end(), kWordStart), text.end());
        t.words.back() += utf8_encode(text);
        t.word_of_piece.push_back(Index(t.words.size() - 1));
    }
}

void keep_pieces(Tokens& t, size_t n) {
    if (t.ids.size() <= n) return;
    t.ids.resize(n);
    t.pieces.resize(n);
    group_words(t);
}

std::vector<Index> tokenize_reference(const Vocabulary& vocab, std::string_view text) {
    const std::u32string s = mark_words(text);
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
    merge_unknown_runs<Index>(
        ids, [](const Index& id) { return id == 0; }, [](Index&, const Index&) {});
    return ids;
}

}  // namespace attn
