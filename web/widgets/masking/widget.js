// Widget "masking": the mask step between scaling and softmax. Two masks on
// one sentence: the padding mask (keys after the valid length are padding:
// in a batch, shorter sentences are filled up to the longest) and the causal
// (look-ahead) mask of decoders (word i sees words 1..i only). Left, the
// scaled scores with −∞ where masked, before softmax; right, the weights after
// softmax: 0 where masked, the remaining weights renormalised so each row
// still sums to 1. A row with every key masked is all 0 (never 0/0, NaN).
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { composite } from '../../render/compose.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'masking';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'adds padding and the causal mask, and sees the weights that remain';

const MAX_WORDS = 32;
const D_IN = 16;   // width of the word vectors
const D_K = 8;     // width of Q and K
const SEED = 1;
// the quiz: the causal mask on the article's sentence
const QUIZ_TOKENS = ['i', 'have', 'a', 'dream'];

const PRESETS = [{ value: 'presetPadded', label: 'labelPadded' }, ...SENTENCE_PRESETS];

export const defaults = { sentence: 'i have a dream PAD PAD', validLength: 4, causal: false, row: 0, col: 0 };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: PRESETS },
  { key: 'causal', type: 'toggle', label: 'causal' },
  // the valid-length slider is drawn by the widget, above the maps (its maximum is the sentence's length)
  { key: 'validLength', type: 'range', min: 0, max: MAX_WORDS, step: 1, hidden: true },
  { key: 'row', type: 'range', min: 0, max: MAX_WORDS - 1, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: MAX_WORDS - 1, step: 1, hidden: true },
];

export function compute(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, MAX_WORDS);
  const n = tokens.length;
  const validLength = Math.min(state.validLength, n);
  const masks = { causal: state.causal, validLength };
  const X = att.embedTokens({ tokens, d: D_IN, seed: SEED });
  const r = att.selfAttention({ input: X, dK: D_K, seed: SEED, ...masks });
  // the row sums of the weights, by the core
  const rowSums = att.rowSums(r.weights);
  // the quiz: the causal mask on "i have a dream"
  const quizX = att.embedTokens({ tokens: QUIZ_TOKENS, d: D_IN, seed: SEED });
  const quizMask = att.selfAttention({ input: quizX, dK: D_K, seed: SEED, causal: true }).mask.data;
  return {
    tokens, n, validLength, causal: state.causal,
    scaled: r.scaled, masked: r.masked, mask: r.mask.data, weights: r.weights, rowSums: Array.from(rowSums),
    quizRow: Array.from(quizMask.subarray(2 * QUIZ_TOKENS.length, 3 * QUIZ_TOKENS.length)),
  };
}

export function build(body, ctx) {
  const { t } = ctx;
  // the valid-length slider: its maximum follows the sentence
  const padBox = element('div', 'mask-valid');
  const label = element('label', 'control-label', t.rich('validLength'));
  const input = element('input');
  const id = `mask-valid-${Math.random().toString(36).slice(2)}`;
  Object.assign(input, { type: 'range', id, min: 0, max: MAX_WORDS, step: 1, name: 'validLength' });
  label.htmlFor = id;
  const output = element('output', 'control-value');
  output.htmlFor.add(id);
  input.addEventListener('input', () => ctx.setState({ validLength: Number(input.value) }));
  padBox.append(label, output, input);

  const tokens = element('ol', 'mask-tokens');
  tokens.setAttribute('aria-label', t('tokensLabel'));

  // a map and its legend in a region named by its caption: on a narrow screen the
  // map shrinks to 3/4 of its size at most, then scrolls sideways there (the keyboard
  // scrolls it once the region has the focus)
  const panel = (title) => {
    const figure = element('figure', 'mask-panel');
    const caption = element('figcaption', 'mask-caption', t.rich(title));
    caption.id = `mask-caption-${title}-${Math.random().toString(36).slice(2)}`;
    const map = element('div', 'mask-map');
    map.setAttribute('role', 'region');
    map.setAttribute('aria-labelledby', caption.id);
    map.tabIndex = 0;
    figure.append(caption, map);
    return { figure, map };
  };
  const before = panel('before'), after = panel('after');
  const sums = element('ul', 'mask-sums');
  sums.setAttribute('aria-label', t('rowSums'));
  after.figure.append(sums);
  const figures = element('div', 'mask-figures');
  figures.append(before.figure, after.figure);
  const details = liveElement('p', 'mask-details');
  const empty = element('p', 'mask-empty');
  empty.setAttribute('role', 'note');
  body.append(padBox, tokens, figures, details, empty, element('p', 'illustrative', t.rich('illustrative')));
  return { input, output, tokens, before: before.map, after: after.map, sums, details, empty };
}

// Why cell (i, j) is masked: padding (j at or after the valid length), a later word (causal), or both.
function cellText(data, i, j, t) {
  const q = data.tokens[i], k = data.tokens[j];
  const at = i * data.n + j;
  if (data.mask[at]) {
    return t('cellAllowed', { q, k, s: formatNumber(data.masked.data[at], { digits: 3 }), w: formatNumber(data.weights.data[at], { digits: 3 }) });
  }
  const padding = j >= data.validLength, future = data.causal && j > i;
  return t(padding && future ? 'cellBoth' : padding ? 'cellPadding' : 'cellFuture', { q, k });
}

// The colour range of the allowed scaled scores (formatting only).
function scoreRange(data) {
  let lo = Infinity, hi = -Infinity;
  data.masked.data.forEach((x, k) => { if (data.mask[k]) { lo = Math.min(lo, x); hi = Math.max(hi, x); } });
  return Number.isFinite(lo) ? [lo, hi > lo ? hi : lo + 1] : null;
}

function maps(data, state, t, onCell = () => {}) {
  const sentence = data.tokens.join(' ');
  const [lo, hi] = scoreRange(data) ?? [0, 1];
  const selected = [Math.min(state.row, data.n - 1), Math.min(state.col, data.n - 1)];
  const common = { rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, allowed: data.mask, selected, onCell,
    describe: (i, j) => cellText(data, i, j, t) };
  return {
    before: heatmap({ ...common, values: data.masked.data, min: lo, max: hi, digits: 2, maskedText: '−∞',
      title: t('beforeTitle', { sentence }) }),
    after: heatmap({ ...common, values: data.weights.data, min: 0, max: 1, digits: 2, maskedText: '0',
      title: t('afterTitle', { sentence }) }),
    range: scoreRange(data),  // null: every score is masked
  };
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  view.input.max = String(data.n);
  view.input.value = String(data.validLength);
  const shown = t('validOf', { v: data.validLength, n: data.n });
  view.input.setAttribute('aria-valuetext', shown);
  view.output.textContent = shown;

  view.tokens.replaceChildren(...data.tokens.map((token, j) => {
    const pad = j >= data.validLength;
    const item = element('li', pad ? 'mask-token is-padding' : 'mask-token', token);
    item.append(element('span', 'visually-hidden', ` (${t(pad ? 'padding' : 'valid')})`));
    return item;
  }));

  const onCell = (i, j) => {
    view.details.textContent = cellText(data, i, j, t);
    if (i !== ctx.state.row || j !== ctx.state.col) ctx.setState({ row: i, col: j }, { quiet: true });
  };
  const m = maps(data, state, t, onCell);
  for (const map of [m.before.element, m.after.element]) map.style.minWidth = `${Math.round(0.75 * Number(map.getAttribute('width')))}px`;
  view.before.replaceChildren(m.before.element, ...(m.range ? [legend({ min: m.range[0], max: m.range[1], label: t('scores'), digits: 2 })] : []));
  view.after.replaceChildren(m.after.element, legend({ min: 0, max: 1, label: t('weights') }));

  view.sums.replaceChildren(...data.rowSums.map((s, i) => {
    const full = !data.mask.subarray(i * data.n, (i + 1) * data.n).some(Boolean);
    const item = element('li', full ? 'mask-sum is-empty' : 'mask-sum',
      t(full ? 'rowEmpty' : 'rowSum', { q: data.tokens[i], s: formatNumber(s, { digits: 3 }) }));
    item.dataset.field = 'row-sum';
    return item;
  }));
  const emptyRows = data.tokens.filter((_, i) => !data.mask.subarray(i * data.n, (i + 1) * data.n).some(Boolean));
  view.empty.hidden = emptyRows.length === 0;
  view.empty.textContent = emptyRows.length ? t('emptyRows', { words: emptyRows.map((w) => `“${w}”`).join(', ') }) : '';
  view.details.textContent = cellText(data, Math.min(state.row, data.n - 1), Math.min(state.col, data.n - 1), t);
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: '1', label: '1' }, { value: '2', label: '2' }, { value: '3', label: '3' }, { value: '4', label: 'quizAll' }],
  answer: (data) => String(data.quizRow.filter(Boolean).length),
  explain(data, state, t) {
    const keys = QUIZ_TOKENS.filter((_, j) => data.quizRow[j]).map((w) => `“${w}”`).join(', ');
    return t('quizExplain', { count: data.quizRow.filter(Boolean).length, keys });
  },
};

export function exports(data, state, t) {
  return {
    visual: () => {
      const m = maps(data, state, t);
      return composite([{ title: t('exportBefore'), svg: m.before.element }, { title: t('exportAfter'), svg: m.after.element }],
        { title: `${t('before')} / ${t('after')}` });
    },

    csv: () => {
      const rows = [];
      for (let i = 0; i < data.n; i++) {
        for (let j = 0; j < data.n; j++) {
          const k = i * data.n + j;
          rows.push([data.tokens[i], data.tokens[j], data.mask[k] ? 1 : 0, data.masked.data[k], data.weights.data[k]]);
        }
      }
      return { header: ['query', 'key', 'allowed', 'masked_scaled_score', 'weight'], rows };
    },
    json: () => ({ tokens: data.tokens, validLength: data.validLength, causal: data.causal, scaled: data.scaled,
      mask: data.mask, masked: data.masked, weights: data.weights, rowSums: data.rowSums }),
  };
}
