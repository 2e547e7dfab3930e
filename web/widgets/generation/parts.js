// The generation widget's reading of the prompt and its parts of the view:
// the text with the prompt (read in the prefill) and what the model wrote
// (one decode step each) set apart, the characters of the prompt the model
// cannot read, the set the next token is drawn from (what top-k, top-p and
// min-p kept, with their renormalised probabilities, from the core), and the
// two phases with their multiply-adds (from the core). Pure DOM from data;
// the sentences come from the widget's t.
import { element } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber } from '../../render/format.js';

// the characters a model can read: its vocabulary without ⏎ and � (tokens, not characters)
const readableOf = new WeakMap();
function readable(lm) {
  let set = readableOf.get(lm);
  if (!set) {
    const tokens = lm.vocabulary().tokens;
    // a model with the unknown token reads every character (as � where it has no other)
    set = tokens.includes('\uFFFD') ? null : new Set(tokens.filter((token) => token !== '⏎'));
    readableOf.set(lm, set);
  }
  return set;
}

// The prompt as the model can read it: { prompt, dropped }, dropped the distinct
// characters left out (in the order typed), none when the model reads them all.
export function readablePrompt(lm, text) {
  const set = readable(lm);
  if (!set) return { prompt: text, dropped: [] };
  const chars = [...text];
  const dropped = [...new Set(chars.filter((c) => !set.has(c)))];
  return { prompt: chars.filter((c) => set.has(c)).join(''), dropped };
}

// a character named for a reader: “␣” for a space, and its code point
const named = (c) => `“${c === ' ' ? '␣' : c}” (U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')})`;

// the note on the characters left out of the prompt (hidden when there are none)
export function showDropped(note, data, t) {
  note.hidden = data.dropped.length === 0;
  const key = !data.prompt ? 'droppedAll' : data.dropped.length === 1 ? 'droppedOne' : 'droppedMany';
  note.textContent = data.dropped.length === 0 ? '' : t(key, { chars: data.dropped.map(named).join(', '), prompt: data.prompt });
  note.dataset.dropped = data.dropped.join('');
}

const tokenChip = (s, kind, newest) => {
  const chip = element('span', `gen-token ${kind}${newest ? ' gen-newest' : ''}`, s.token);
  chip.dataset.field = 'token';
  return chip;
};

// one part of the text: its name (what a screen reader reads first), then its tokens
function textPart(t, kind, label, chips) {
  const part = element('span', `gen-part gen-part-${kind}`);
  part.setAttribute('role', 'group');
  const name = element('span', 'gen-part-label', t.rich(label));
  name.id = `gen-part-${kind}-${Math.random().toString(36).slice(2)}`;
  part.setAttribute('aria-labelledby', name.id);
  part.append(name, ...(chips.length ? chips : [element('span', 'gen-part-empty', t('nothingYet'))]));
  return part;
}

// The text so far: ⏎ and the prompt (read in the prefill), then the tokens
// written (one decode step each), the newest marked; what comes next.
export function textNodes(data, t, next) {
  const last = data.steps.length - 1;
  const chips = data.steps.map((s, i) => tokenChip(s, i < data.prompt ? 'gen-prompt' : 'gen-written', i === last));
  return [textPart(t, 'prompt', 'partPrompt', chips.slice(0, data.prompt)), textPart(t, 'written', 'partWritten', chips.slice(data.prompt)), next];
}

// The set the next token was drawn from (the last step's kept tokens), the
// drawn one marked; empty when nothing was drawn (the context is full).
export function keptSet(box, data, t, drawn) {
  const { kept } = data.steps.at(-1);
  box.hidden = kept.tokens.length === 0 || drawn === null;
  if (box.hidden) { box.replaceChildren(); return; }
  const spoken = (token) => (token === '⏎' ? t('boundary') : token);
  const list = element('ol', 'gen-kept-list');
  kept.tokens.forEach((token, k) => {
    const p = kept.probabilities[k];
    const item = element('li', `gen-kept-item${token === drawn ? ' gen-kept-drawn' : ''}`);
    item.dataset.token = token;
    const name = element('span', 'gen-kept-token', token);
    name.title = spoken(token);
    item.append(name,
      hbar({ value: p, max: kept.probabilities[0], label: t('keptLabel', { token: spoken(token), p: formatNumber(p, { digits: 3 }) }) }),
      element('span', 'gen-kept-p', formatNumber(p, { digits: 3 })));
    list.append(item);
  });
  box.replaceChildren(element('p', 'gen-kept-heading', t.rich('keptHeading', {
    count: formatNumber(kept.tokens.length, { digits: 0 }), vocab: formatNumber(data.vocab, { digits: 0 }),
    temperature: formatNumber(data.sampling.temperature, { digits: 2 }), topK: data.sampling.topK === 0 ? t('all') : formatNumber(data.sampling.topK, { digits: 0 }),
    topP: formatNumber(data.sampling.topP, { digits: 2 }), minP: formatNumber(data.sampling.minP, { digits: 2 }),
  })), list);
}

// The two phases and what each cost, from the last step's counts.
export function phases(data, t) {
  const last = data.steps.at(-1);
  const written = data.steps.length - data.prompt;
  return t.rich(written === 0 ? 'phasesPrefill' : 'phases', {
    m: data.prompt, prefill: formatNumber(last.prefillMultiplyAdds, { digits: 0 }),
    written, decode: formatNumber(last.decodeMultiplyAdds, { digits: 0 }),
    last: formatNumber(last.cachedMultiplyAdds, { digits: 0 })
  });
}
