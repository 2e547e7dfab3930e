// Widget "masking": the mask step between scaling and softmax. Two masks on
// one sentence: the padding mask (keys after the valid length are padding:
// in a batch, shorter sentences are filled up to the longest) and the causal
// (look-ahead) mask of decoders (word i sees words 1..i only). Left, the
// scaled scores with −∞ where masked, before softmax; right, the weights after
// softmax: 0 where masked, the remaining weights renormalised so each row
// still sums to 1. A row with every key masked is all 0 (never 0/0, NaN).
import { element } from '../dom.js';
import { mergeStrings } from '../i18n.js';
import { formatNumber } from '../render/format.js';
import { heatmap, legend } from '../render/heatmap.js';
import { composite } from '../render/compose.js';
import { SENTENCE_PRESETS, sentenceStrings } from '../sentences.js';
import { sentenceTokens } from '../text.js';

export const name = 'masking';

const MAX_WORDS = 32;
const D_IN = 16;   // width of the word vectors
const D_K = 8;     // width of Q and K
const SEED = 1;
// the quiz: the causal mask on the article's sentence
const QUIZ_TOKENS = ['i', 'have', 'a', 'dream'];

export const strings = mergeStrings(sentenceStrings, {
  en: {
    title: 'Masking: padding and the causal mask',
    intro: 'After scaling and before softmax, a mask sets the scores of forbidden keys to −∞, so that softmax gives them weight 0 and shares the whole weight among the others. Padding masks hide the filler after the end of a shorter sentence; the causal mask stops a decoder from looking at words it has not produced yet.',
    sentence: 'Sentence', causal: 'Causal mask (no looking ahead)',
    presetPadded: 'i have a dream PAD PAD', labelPadded: '“i have a dream” + 2 padding',
    validLength: 'Valid length: keys after it are padding', validOf: '{v} of {n}',
    tokensLabel: 'The sentence: valid words and padding', padding: 'padding', valid: 'valid',
    before: 'Before softmax: scaled scores, −∞ where masked', after: 'After softmax: weights, 0 where masked',
    beforeTitle: 'Masked scaled scores of “{sentence}”', afterTitle: 'Masked attention weights of “{sentence}”',
    scores: 'scaled score', weights: 'weights',
    exportBefore: 'Before softmax (−∞ = masked)', exportAfter: 'After softmax (weights)',
    rowSums: 'Row sums of the weights', rowSum: 'Σ {q} = {s}', rowEmpty: 'Σ {q} = 0: every key masked',
    emptyRows: 'Rows that are all 0: {words}. Every key of these rows is masked, so softmax has nothing to share: the core returns zeros instead of dividing 0 by 0 (in a real model these rows are ignored).',
    cellAllowed: '“{q}” → “{k}”: scaled score {s}, weight {w}',
    cellPadding: '“{q}” → “{k}”: masked (padding), score −∞, weight 0',
    cellFuture: '“{q}” → “{k}”: masked (a later word), score −∞, weight 0',
    cellBoth: '“{q}” → “{k}”: masked (a later word and padding), score −∞, weight 0',
    quizQuestion: 'In “i have a dream”, with the causal mask, how many keys can the 3rd word, “a”, see?',
    quizAll: '4: all of them',
    quizExplain: 'The core’s causal mask lets “a” see {count} keys: {keys}. A word sees itself and the words before it, never the words after.',
  },
  zh: {
    title: '掩码：填充掩码与因果掩码',
    intro: '在缩放之后、softmax 之前，掩码把不允许关注的键的得分设为 −∞，于是 softmax 给它们的权重为 0，全部权重分给其余的键。填充掩码遮住短句末尾补齐的位置；因果掩码让解码器看不到尚未生成的词。',
    sentence: '句子', causal: '因果掩码（不能看后文）',
    presetPadded: 'i have a dream PAD PAD', labelPadded: '“i have a dream” + 2 个填充',
    validLength: '有效长度：其后的键都是填充', validOf: '{n} 个中的 {v} 个',
    tokensLabel: '句子：有效词与填充', padding: '填充', valid: '有效',
    before: 'softmax 之前：缩放后的得分，被遮住处为 −∞', after: 'softmax 之后：权重，被遮住处为 0',
    beforeTitle: '“{sentence}”加掩码后的缩放得分', afterTitle: '“{sentence}”加掩码后的注意力权重',
    scores: '缩放得分', weights: '权重',
    exportBefore: 'softmax 之前（−∞ = 被遮住）', exportAfter: 'softmax 之后（权重）',
    rowSums: '每行权重之和', rowSum: 'Σ {q} = {s}', rowEmpty: 'Σ {q} = 0：所有键都被遮住',
    emptyRows: '全为 0 的行：{words}。这些行的每个键都被遮住，softmax 没有可分配的对象：计算核心返回 0，而不是去计算 0 除以 0（实际模型会忽略这些行）。',
    cellAllowed: '“{q}” → “{k}”：缩放得分 {s}，权重 {w}',
    cellPadding: '“{q}” → “{k}”：被遮住（填充），得分 −∞，权重 0',
    cellFuture: '“{q}” → “{k}”：被遮住（后面的词），得分 −∞，权重 0',
    cellBoth: '“{q}” → “{k}”：被遮住（后面的词且是填充），得分 −∞，权重 0',
    quizQuestion: '在“i have a dream”中加因果掩码，第 3 个词“a”能看到几个键？',
    quizAll: '4：全部',
    quizExplain: '计算核心的因果掩码让“a”看到 {count} 个键：{keys}。每个词能看到自己和前面的词，永远看不到后面的词。',
  },
});

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
  // the row sums of the weights, by the core: A · (1, ..., 1)ᵀ
  const ones = att.attention({ query: r.Q, key: r.K, value: { rows: n, cols: 1, data: new Float32Array(n).fill(1) }, ...masks });
  // the quiz: the causal mask on "i have a dream"
  const quizX = att.embedTokens({ tokens: QUIZ_TOKENS, d: D_IN, seed: SEED });
  const quizMask = att.selfAttention({ input: quizX, dK: D_K, seed: SEED, causal: true }).mask;
  return {
    tokens, n, validLength, causal: state.causal,
    scaled: r.scaled, masked: r.masked, mask: r.mask, weights: r.weights, rowSums: Array.from(ones.output.data),
    quizRow: Array.from(quizMask.subarray(2 * QUIZ_TOKENS.length, 3 * QUIZ_TOKENS.length)),
  };
}

export function build(body, ctx) {
  const { t } = ctx;
  // the valid-length slider: its maximum follows the sentence
  const padBox = element('div', 'mask-valid');
  const label = element('label', 'control-label', t('validLength'));
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

  const panel = (title) => {
    const figure = element('figure', 'mask-panel');
    const caption = element('figcaption', 'mask-caption', t(title));
    const map = element('div', 'mask-map');
    figure.append(caption, map);
    return { figure, map };
  };
  const before = panel('before'), after = panel('after');
  const sums = element('ul', 'mask-sums');
  sums.setAttribute('aria-label', t('rowSums'));
  after.figure.append(sums);
  const figures = element('div', 'mask-figures');
  figures.append(before.figure, after.figure);
  const details = element('p', 'mask-details');
  details.setAttribute('aria-live', 'polite');
  const empty = element('p', 'mask-empty');
  empty.setAttribute('role', 'note');
  body.append(padBox, tokens, figures, details, empty, element('p', 'illustrative', t('illustrative')));
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
  const common = { rowLabels: data.tokens, colLabels: data.tokens, allowed: data.mask, selected, onCell,
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
