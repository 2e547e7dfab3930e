#include "attention/language_model/text.hpp"

#include "attention/init.hpp"
#include "attention/options.hpp"
#include "attention/types.hpp"
#include "attention/utf8.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace attn::train {

std::vector<std::uint32_t> code_points_of(const std::string& text) {
    std::vector<std::uint32_t> out;
    out.reserve(text.size());
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const size_t size = text.size();
    for (size_t i = 0; i < size;) {
        const unsigned char b = s[i];
        Index extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
        std::uint32_t cp = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
        bool ok = extra >= 0 && i + size_t(extra) < size;
        for (Index k = 1; ok && k <= extra; ++k) {
            const unsigned char c = s[i + size_t(k)];
            if ((c >> 6) != 2) ok = false;
            cp = (cp << 6) | (c & 0x3F);
        }
        // overlong forms, surrogates and values past U+10FFFF are invalid too
        if (ok && ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
                   cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
            ok = false;
        if (ok) {
            out.push_back(cp);
            i += size_t(extra) + 1;
        } else {
            out.push_back(0xFFFD);
            i += 1;
        }
    }
    return out;
}

std::string utf8_of(std::uint32_t cp) {
    std::string out;
    append_utf8(char32_t(cp), out);
    return out;
}

bool is_punctuation(std::uint32_t cp) {
    switch (cp) {
        case 0xFF0C: case 0x3002: case 0xFF01: case 0xFF1F: case 0x3001: case 0xFF1B: case 0xFF1A:  // ，。！？、；：
        case ',': case '.': case '!': case '?': case ';': case ':':
            return true;
        default:
            return false;
    }
}

FormCheck quatrain_form(const std::vector<std::string>& texts) {
    double passed = 0;
    for (const std::string& text : texts) {
        const std::vector<std::uint32_t> cps = code_points_of(text);
        bool ok = cps.size() == 24;
        for (size_t i = 0; ok && i < cps.size(); ++i) ok = is_punctuation(cps[i]) == ((i + 1) % 6 == 0);
        passed += ok;
    }
    const double total = double(texts.size());
    return {passed, total, total > 0 ? passed / total : 0.0};
}

TextCorpus repeats_corpus(const RepeatsOptions& o) {
    constexpr std::uint64_t kRepeatsStream = 71;
    integer_option(o.seed, "seed", 0, 9007199254740992.0);
    const Index train = integer_option(o.train, "train", 1, 100000);
    const Index held = integer_option(o.held_out, "held_out", 0, 100000);
    std::vector<std::uint32_t> alphabet = code_points_of(o.alphabet);
    std::vector<std::uint32_t> sorted = alphabet;
    std::sort(sorted.begin(), sorted.end());
    require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
            "alphabet must hold distinct characters");
    const Index lo = integer_option(o.min_length, "min_length", 1, 60);
    const Index hi = integer_option(o.max_length, "max_length", double(lo), 60);
    require_argument(hi <= Index(alphabet.size()), "max_length",
                     "max_length " + std::to_string(hi) + " is more than the alphabet's " +
                         std::to_string(alphabet.size()) + " characters");
    Rng rng(std::uint64_t(o.seed), kRepeatsStream);
    auto text = [&] {
        const Index length = lo + Index(rng.next() % std::uint64_t(hi - lo + 1));
        // a partial Fisher-Yates shuffle: the first `length` entries, distinct
        for (Index i = 0; i < length; ++i) {
            const Index j = i + Index(rng.next() % std::uint64_t(Index(alphabet.size()) - i));
            std::swap(alphabet[size_t(i)], alphabet[size_t(j)]);
        }
        std::string once;
        for (Index i = 0; i < length; ++i) once += utf8_of(alphabet[size_t(i)]);
        return once + once;
    };
    TextCorpus out;
    for (Index i = 0; i < train; ++i) out.train.push_back(text());
    for (Index i = 0; i < held; ++i) out.held_out.push_back(text());
    return out;
}

std::vector<std::pair<std::uint32_t, double>> character_counts(const std::vector<std::vector<std::uint32_t>>& texts) {
    std::map<std::uint32_t, double> counts;
    for (const auto& text : texts)
        for (std::uint32_t cp : text) counts[cp] += 1;
    return {counts.begin(), counts.end()};
}

namespace {
// a space, a tab, a carriage return, a form feed or a vertical tab (not a line break)
bool is_blank(std::uint32_t cp) { return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\f' || cp == '\v'; }
}  // namespace

OwnCorpus own_corpus(const std::string& text, const OwnOptions& o) {
    const Index context = integer_option(o.context, "context", 2, 128);
    const Index min_count = integer_option(o.min_count, "min_count", 1, 1e9);
    require(text.size() <= size_t(kOwnMaxBytes), "the text has " + std::to_string(text.size()) + " bytes; at most " +
                                                     std::to_string(Index(kOwnMaxBytes)) + " are read");
    require(text.find('\0') == std::string::npos, "this is a binary file, not text: it holds NUL bytes");
    const std::vector<std::uint32_t> cps = code_points_of(text);
    // not text: invalid UTF-8 (read as U+FFFD, as a file decoded in a browser has it too) and control characters
    Index bad = 0, characters = 0;
    for (std::uint32_t cp : cps) {
        bad += cp == 0xFFFD || (cp < 0x20 && cp != '\n' && !is_blank(cp)) || cp == 0x7F;
        characters += !is_blank(cp) && cp != '\n';
    }
    require(characters > 0, "the text is empty");
    require(double(bad) <= 0.01 * double(cps.size()),
            "this looks like a binary file, not text: " + std::to_string(bad) + " of its " + std::to_string(cps.size()) +
                " characters are invalid UTF-8 (U+FFFD) or control characters");
    const std::string enough = "; at least " + std::to_string(Index(kOwnMinCharacters)) +
                               " are needed to train on it and hold a tenth out";
    require(double(characters) >= kOwnMinCharacters,
            "the text has " + std::to_string(characters) + " characters besides spaces and line breaks" + enough);
    // lines, trimmed; a long one in windows of context - 1 characters; a text seen before dropped
    OwnCorpus out;
    std::vector<std::string> texts;
    std::set<std::string> seen;
    Index kept_characters = 0;
    const Index width = context - 1;
    auto add_line = [&](size_t from, size_t to) {
        while (from < to && is_blank(cps[from])) ++from;
        while (to > from && is_blank(cps[to - 1])) --to;
        for (size_t start = from; start < to; start += size_t(width)) {
            std::string piece;
            Index counted = 0;
            for (size_t i = start; i < std::min(to, start + size_t(width)); ++i) {
                piece += utf8_of(cps[i]);
                counted += !is_blank(cps[i]);
            }
            if (!seen.insert(piece).second) {
                out.repeats += 1;
                continue;
            }
            texts.push_back(piece);
            kept_characters += counted;
        }
    };
    size_t from = 0;
    for (size_t i = 0; i <= cps.size(); ++i)
        if (i == cps.size() || cps[i] == '\n') add_line(from, i), from = i + 1;
    require(double(kept_characters) >= kOwnMinCharacters,
            "the text repeats itself: once its " + std::to_string(Index(out.repeats)) +
                " repeated lines are dropped, it has " + std::to_string(kept_characters) +
                " characters besides spaces and line breaks" + enough);
    for (size_t k = 0; k < texts.size(); ++k) (k % 10 == 9 ? out.held_out : out.train).push_back(texts[k]);
    // the characters the model keeps: those seen min_count times or more in the training texts
    std::vector<std::vector<std::uint32_t>> train;
    for (const std::string& t : out.train) train.push_back(code_points_of(t));
    Index kept = 0;
    for (const auto& [cp, count] : character_counts(train)) kept += count >= double(min_count);
    require(double(kept) <= kOwnMaxVocab,
            "the text has " + std::to_string(kept) + " distinct characters seen " + std::to_string(min_count) +
                " times or more; the model's vocabulary takes at most " + std::to_string(Index(kOwnMaxVocab)));
    return out;
}

}  // namespace attn::train
