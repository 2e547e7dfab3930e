// Sentences into tokens for the maps: words and punctuation marks, each
// Chinese/Japanese/Korean character on its own. Text only: the vectors of
// the tokens come from the core (embedTokens).
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

export function tokenize(sentence) {
  const tokens = [];
  for (const match of String(sentence).normalize('NFC').matchAll(/[\p{L}\p{N}\p{M}'’-]+|[^\s\p{L}\p{N}\p{M}]/gu)) {
    const word = match[0];
    if ([...word].some((ch) => CJK.test(ch))) {
      // CJK runs: one token per character; Latin parts of a mixed run stay whole
      for (const part of word.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/gu)) tokens.push(part);
    } else {
      tokens.push(word);
    }
  }
  // zero-width and direction marks never make a token of their own
  return tokens.map((w) => w.replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')).filter(Boolean);
}

// An error in what the user typed: the widget shows its message as it is.
export function inputError(message) {
  const error = new Error(message);
  error.name = 'InputError';
  return error;
}

// The tokens of a sentence, checked for a map: a visible message (thrown
// InputError) when it is empty or longer than max.
export function sentenceTokens(sentence, t, max = 24) {
  const tokens = tokenize(sentence);
  if (tokens.length === 0) throw inputError(t('emptySentence'));
  if (tokens.length > max) throw inputError(t('tooManyWords', { count: tokens.length, max }));
  return tokens;
}

// "160, 165 170" -> [160, 165, 170]; an InputError names the first entry that is
// not a number. name: how the message calls the list.
export function parseNumbers(text, name, t) {
  const parts = String(text).split(/[\s,;，；]+/).filter(Boolean);
  if (parts.length === 0) throw inputError(t('emptyList', { name }));
  return parts.map((part, i) => {
    const x = Number(part);
    if (!Number.isFinite(x)) throw inputError(t('notANumber', { name, index: i + 1, text: part }));
    return x;
  });
}
