// Widget "positional-encoding": self-attention alone cannot see word order.
// Part 1 draws the sinusoidal encoding PE (positions × dimensions, values in
// [−1, 1]). Part 2 reads a sentence in another order: without PE the map of
// the reordered sentence is the old map with its rows and columns moved (same
// numbers); with X + PE the maps differ. The largest difference between the
// reordered map and the moved original is computed by the core.
import { element } from '../dom.js';
import { mergeStrings } from '../i18n.js';
import { formatNumber } from '../render/format.js';
import { heatmap, legend } from '../render/heatmap.js';
import { composite } from '../render/compose.js';
import { SENTENCE_PRESETS, sentenceStrings } from '../sentences.js';
import { sentenceTokens } from '../text.js';

export const name = 'positional-encoding';

// word vectors and projections of the permutation demo (fixed: the lesson is the order)
const D = 32, D_K = 16, SEED = 1;
// below this the two maps hold the same numbers (float32 rounding only)
const SAME = 1e-5;

export const strings = mergeStrings(sentenceStrings, {
  en: {
    title: 'Positional encoding: giving attention a sense of order',
    intro: 'Self-attention compares every word with every other word wherever they stand, so on its own it cannot tell “dog bites man” from “man bites dog”. The sinusoidal positional encoding gives each position its own pattern of values, added to the word vectors: X + PE.',
    n: 'Positions n', d: 'Dimensions d', sentence: 'Sentence',
    order: 'New order of the words', reverse: 'Reversed', shuffle: 'Shuffled', shuffleSeed: 'Shuffle (seed)',
    pe: 'Add the positional encoding (X + PE)',
    peTitle: '1. The encoding PE: one row per position',
    peCaption: 'PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(p / 10000^(2i/d)): {n} × {d}, every value in [−1, 1]. Low dimensions turn fast, high ones slowly, so every row is different.',
    peMapTitle: 'Sinusoidal positional encoding, {n} positions × {d} dimensions',
    peCellLabel: 'position {p}, dimension {c}: {v}',
    peSelected: 'Position p = {p}, dimension {c}', peFormula: '{fn}({p} / 10000^({e}/{d}))', peValue: 'value',
    position: 'position', dimension: 'dimension', values: 'values',
    orderTitle: '2. Does the map notice the order?',
    orderIntro: 'The same words in a new order, with the same random vectors and projections. Compare the two maps cell by cell: focus a cell of the right map and the same pair of words lights up in the left one.',
    original: 'Original order', reordered: 'New order',
    mapTitle: 'Attention weights of “{sentence}”', cellLabel: '{q} → {k}: weight {w}', weights: 'weights',
    withPe: 'with X + PE', withoutPe: 'without PE',
    pairTitle: '“{q}” → “{k}”', inOriginal: 'weight in the original map', inReordered: 'weight in the new order',
    differenceTitle: 'Largest difference between the new map and the original with its rows and columns moved',
    without: 'Without PE', with: 'With X + PE',
    sameVerdict: 'Same numbers, rows and columns moved: self-attention did not notice the new order.',
    differVerdict: 'The maps differ: with positions added, the order changes the weights.',
    tiny: '< 0.000001 (rounding)',
    quizQuestion: 'Without positional encoding, the words are put in the new order. What happens to the attention map?',
    quizMoved: 'Same numbers, rows and columns moved', quizChanged: 'New numbers',
    quizExplain: 'The core finds a largest difference of {without} without PE (rounding only): self-attention sees a set of words, not a sequence. With X + PE it is {with}.',
    csvPart: 'part', csvRow: 'row', csvPe: 'PE', csvOriginal: 'original map', csvReordered: 'new-order map',
  },
  zh: {
    title: '位置编码：让注意力知道词序',
    intro: '自注意力把每个词和所有其他词比较，不管它们在哪个位置，所以单靠它分不清“狗咬人”和“人咬狗”。正弦位置编码给每个位置一组独特的数值，加到词向量上：X + PE。',
    n: '位置数 n', d: '维度 d', sentence: '句子',
    order: '词的新顺序', reverse: '倒序', shuffle: '打乱', shuffleSeed: '打乱（种子）',
    pe: '加上位置编码（X + PE）',
    peTitle: '1. 位置编码 PE：每个位置一行',
    peCaption: 'PE(p, 2i) = sin(p / 10000^(2i/d))，PE(p, 2i+1) = cos(p / 10000^(2i/d))：{n} × {d}，所有值都在 [−1, 1] 之内。低维变化快，高维变化慢，所以每一行都不同。',
    peMapTitle: '正弦位置编码，{n} 个位置 × {d} 个维度',
    peCellLabel: '位置 {p}，维度 {c}：{v}',
    peSelected: '位置 p = {p}，维度 {c}', peFormula: '{fn}({p} / 10000^({e}/{d}))', peValue: '数值',
    position: '位置', dimension: '维度', values: '数值',
    orderTitle: '2. 注意力图会注意到词序吗？',
    orderIntro: '同样的词换一个顺序，词向量和投影矩阵（随机）都不变。逐格比较两张图：在右图中选中一个格子，左图中同一对词的格子也会被标出。',
    original: '原来的顺序', reordered: '新的顺序',
    mapTitle: '“{sentence}”的注意力权重', cellLabel: '{q} → {k}：权重 {w}', weights: '权重',
    withPe: '使用 X + PE', withoutPe: '不加位置编码',
    pairTitle: '“{q}” → “{k}”', inOriginal: '原图中的权重', inReordered: '新顺序下的权重',
    differenceTitle: '新顺序的注意力图与“行列重排后的原图”之间的最大差值',
    without: '不加位置编码', with: '使用 X + PE',
    sameVerdict: '数值相同，只是行和列换了位置：自注意力没有察觉词序的变化。',
    differVerdict: '两张图不同：加入位置信息后，词序会改变权重。',
    tiny: '< 0.000001（舍入误差）',
    quizQuestion: '不加位置编码，把词换成新的顺序。注意力图会怎样？',
    quizMoved: '数值相同，只是行和列换了位置', quizChanged: '出现新的数值',
    quizExplain: '核心算出不加位置编码时的最大差值为 {without}（仅为舍入误差）：自注意力看到的是一组词，而不是一个序列。使用 X + PE 时为 {with}。',
    csvPart: '部分', csvRow: '行', csvPe: '位置编码', csvOriginal: '原顺序注意力图', csvReordered: '新顺序注意力图',
  },
});

export const defaults = { n: 24, d: 32, sentence: 'i have a dream', order: 'reverse', shuffle: 1, pe: false, prow: 0, pcol: 0, row: 0, col: 0 };

export const controls = [
  { key: 'n', type: 'range', label: 'n', min: 2, max: 64, step: 1 },
  { key: 'd', type: 'range', label: 'd', min: 4, max: 128, step: 2 },
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'order', type: 'choice', label: 'order', options: [{ value: 'reverse', label: 'reverse' }, { value: 'shuffle', label: 'shuffle' }] },
  { key: 'shuffle', type: 'range', label: 'shuffleSeed', min: 1, max: 99, step: 1, enabled: (s) => s.order === 'shuffle' },
  { key: 'pe', type: 'toggle', label: 'pe' },
  // the focused cells: of the encoding, and of the new-order map
  { key: 'prow', type: 'range', min: 0, max: 63, step: 1, hidden: true },
  { key: 'pcol', type: 'range', min: 0, max: 127, step: 1, hidden: true },
  { key: 'row', type: 'range', min: 0, max: 63, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: 63, step: 1, hidden: true },
];

// The new order of the words: order[i] = the old position of the word now at i.
// Reversed, or a seeded shuffle (never the identity when there are two words or more).
function newOrder(n, kind, seed) {
  const order = Array.from({ length: n }, (_, i) => i);
  if (kind === 'reverse') return order.reverse();
  let a = seed >>> 0;
  const random = () => {  // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  if (n > 1 && order.every((k, i) => k === i)) order.push(order.shift());
  return order;
}

// Every number from the core: PE, both maps with and without PE, the largest differences.
export function compute(att, state, t) {
  const pe = att.positionalEncoding(state.n, state.d);
  const tokens = sentenceTokens(state.sentence, t, 40);
  const order = newOrder(tokens.length, state.order, state.shuffle);
  const moved = order.map((k) => tokens[k]);
  const X = att.embedTokens({ tokens, d: D, seed: SEED });
  const Xm = att.embedTokens({ tokens: moved, d: D, seed: SEED });
  const map = (input) => att.selfAttention({ input, dK: D_K, seed: SEED }).weights;
  const pair = (a, b) => {
    const original = map(a), reordered = map(b);
    return { original, reordered, gap: att.maxAbsDifference(reordered, att.permuteMap(original, order)) };
  };
  const plain = pair(X, Xm);
  const encoded = pair(att.addPositionalEncoding(X), att.addPositionalEncoding(Xm));
  return { pe, tokens, moved, order, n: tokens.length, plain, encoded };
}

const shown = (data, state) => (state.pe ? data.encoded : data.plain);

function gapText(x, t) {
  return x > 0 && x < 5e-7 ? t('tiny') : formatNumber(x, { digits: 6 });
}

function peMap(data, t, selected, onCell) {
  const { rows, cols } = data.pe;
  return heatmap({
    rowLabels: Array.from({ length: rows }, (_, p) => String(p)),
    colLabels: Array.from({ length: cols }, (_, c) => String(c)),
    values: data.pe.data, min: -1, max: 1, digits: 2, title: t('peMapTitle', { n: rows, d: cols }), selected, onCell,
    describe: (p, c) => t('peCellLabel', { p, c, v: formatNumber(data.pe.data[p * cols + c], { digits: 3 }) }),
  });
}

function wordMap(words, m, t, selected, onCell) {
  return heatmap({
    rowLabels: words, colLabels: words, values: m.data, min: 0, max: 1, digits: 2,
    title: t('mapTitle', { sentence: words.join(' ') }), selected, onCell,
    describe: (i, j) => t('cellLabel', { q: words[i], k: words[j], w: formatNumber(m.data[i * words.length + j], { digits: 3 }) }),
  });
}

export function build(body, { t }) {
  const pePart = element('section', 'pe-part');
  const peFigure = element('div', 'map-figure pe-figure');
  const peCaption = element('p', 'figure-caption pe-caption');
  const peDetails = element('div', 'cell-details');
  peDetails.setAttribute('aria-live', 'polite');
  pePart.append(element('h3', 'pe-heading', t('peTitle')), peCaption, peFigure, peDetails);

  const orderPart = element('section', 'pe-part');
  const maps = element('div', 'pe-maps');
  const mapsLegend = element('div', 'pe-legend');
  const details = element('div', 'cell-details');
  details.setAttribute('aria-live', 'polite');
  const verdict = element('div', 'pe-verdict');
  verdict.setAttribute('aria-live', 'polite');
  orderPart.append(element('h3', 'pe-heading', t('orderTitle')), element('p', 'pe-text', t('orderIntro')), maps, mapsLegend, details, verdict,
    element('p', 'illustrative', t('illustrative')));
  body.append(pePart, orderPart);
  return { peFigure, peCaption, peDetails, maps, mapsLegend, details, verdict };
}

function showPeCell(view, data, p, c, t) {
  const e = 2 * Math.floor(c / 2);
  const list = element('dl', 'steps');
  const item = element('div', 'step step-weight');
  const dd = element('dd', '', formatNumber(data.pe.data[p * data.pe.cols + c], { digits: 4 }));
  dd.dataset.field = 'pe';
  item.append(element('dt', '', t('peFormula', { fn: c % 2 === 0 ? 'sin' : 'cos', p, e, d: data.pe.cols })), dd);
  list.append(item);
  view.peDetails.replaceChildren(element('h4', 'steps-title', t('peSelected', { p, c })), list);
}

function showPair(view, data, state, i, j, t) {
  const maps = shown(data, state);
  const a = data.order[i], b = data.order[j];
  const list = element('dl', 'steps');
  for (const [key, value, field] of [
    ['inReordered', maps.reordered.data[i * data.n + j], 'reordered'],
    ['inOriginal', maps.original.data[a * data.n + b], 'original'],
  ]) {
    const item = element('div', 'step');
    const dd = element('dd', '', formatNumber(value, { digits: 4 }));
    dd.dataset.field = field;
    item.append(element('dt', '', t(key)), dd);
    list.append(item);
  }
  view.details.replaceChildren(element('h4', 'steps-title', t('pairTitle', { q: data.moved[i], k: data.moved[j] })), list);
}

// Marks the cell (a, b) of the original map: the same pair of words as the focused cell.
function markPartner(original, a, b) {
  original.querySelector('.pe-partner')?.classList.remove('pe-partner');
  original.querySelector('.is-selected')?.classList.remove('is-selected');
  original.querySelector(`.heatmap-cell[data-i="${a}"][data-j="${b}"]`)?.classList.add('pe-partner');
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  // part 1: the encoding
  const [pr, pc] = [Math.min(state.prow, data.pe.rows - 1), Math.min(state.pcol, data.pe.cols - 1)];
  view.peCaption.textContent = t('peCaption', { n: data.pe.rows, d: data.pe.cols });
  const pe = peMap(data, t, [pr, pc], (p, c) => {
    showPeCell(view, data, p, c, t);
    if (p !== ctx.state.prow || c !== ctx.state.pcol) ctx.setState({ prow: p, pcol: c }, { quiet: true });
  });
  view.peFigure.replaceChildren(pe.element, legend({ min: -1, max: 1, label: t('values') }));
  showPeCell(view, data, pr, pc, t);

  // part 2: the two orders
  const maps = shown(data, state);
  const [i, j] = [Math.min(state.row, data.n - 1), Math.min(state.col, data.n - 1)];
  const figure = (title, words, m, selected, onCell) => {
    const box = element('figure', 'pe-map');
    const map = wordMap(words, m, t, selected, onCell);
    box.append(element('figcaption', 'pe-map-caption', `${title} (${t(state.pe ? 'withPe' : 'withoutPe')})`), map.element);
    return { box, map };
  };
  const original = figure(t('original'), data.tokens, maps.original, [data.order[i], data.order[j]], (a, b) => {
    // a pair of words of the original: find it in the new order
    const ni = data.order.indexOf(a), nj = data.order.indexOf(b);
    markPartner(original.map.element, a, b);
    reordered.map.element.querySelector('.is-selected')?.classList.remove('is-selected');
    reordered.map.element.querySelector(`.heatmap-cell[data-i="${ni}"][data-j="${nj}"]`)?.classList.add('is-selected');
    select(ni, nj, false);
  });
  const reordered = figure(t('reordered'), data.moved, maps.reordered, [i, j], (a, b) => select(a, b, true));
  function select(a, b, mark) {
    if (mark) markPartner(original.map.element, data.order[a], data.order[b]);
    showPair(view, data, state, a, b, t);
    if (a !== ctx.state.row || b !== ctx.state.col) ctx.setState({ row: a, col: b }, { quiet: true });
  }
  markPartner(original.map.element, data.order[i], data.order[j]);
  view.maps.replaceChildren(original.box, reordered.box);
  view.mapsLegend.replaceChildren(legend({ min: 0, max: 1, label: t('weights') }));
  showPair(view, data, state, i, j, t);

  // the verdict: both differences, the one shown first
  const line = (key, gap, active) => {
    const row = element('div', `pe-gap${active ? ' is-active' : ''}`);
    const value = element('output', 'pe-gap-value', gapText(gap, t));
    value.dataset.field = key === 'without' ? 'gapWithout' : 'gapWith';
    row.append(element('span', 'pe-gap-label', t(key)), value,
      element('span', 'pe-gap-verdict', t(gap < SAME ? 'sameVerdict' : 'differVerdict')));
    return row;
  };
  view.verdict.replaceChildren(element('h4', 'steps-title', t('differenceTitle')),
    line('without', data.plain.gap, !state.pe), line('with', data.encoded.gap, state.pe));
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: 'moved', label: 'quizMoved' }, { value: 'changed', label: 'quizChanged' }],
  answer: (data) => (data.plain.gap < SAME ? 'moved' : 'changed'),
  explain: (data, state, t) => t('quizExplain', { without: gapText(data.plain.gap, t), with: gapText(data.encoded.gap, t) }),
};


export function exports(data, state, t) {
  const maps = shown(data, state);
  const rowsOf = (part, labels, m) => labels.map((label, i) => [part, label, ...Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))]);
  return {
    visual: () => composite([
      { title: t('peMapTitle', { n: data.pe.rows, d: data.pe.cols }), svg: peMap(data, t, null, () => {}).element },
      { title: `${t('original')} (${t(state.pe ? 'withPe' : 'withoutPe')})`, svg: wordMap(data.tokens, maps.original, t, null, () => {}).element },
      { title: `${t('reordered')} (${t(state.pe ? 'withPe' : 'withoutPe')})`, svg: wordMap(data.moved, maps.reordered, t, null, () => {}).element },
    ]),
    csv: () => ({
      header: [t('csvPart'), t('csvRow'), ...Array.from({ length: Math.max(data.pe.cols, data.n) }, (_, j) => String(j))],
      rows: [
        ...rowsOf(t('csvPe'), Array.from({ length: data.pe.rows }, (_, p) => String(p)), data.pe),
        ...rowsOf(t('csvOriginal'), data.tokens, maps.original),
        ...rowsOf(t('csvReordered'), data.moved, maps.reordered),
      ],
    }),
    json: () => ({
      pe: data.pe, tokens: data.tokens, reordered: data.moved, order: data.order,
      withoutPe: { original: data.plain.original, reordered: data.plain.reordered, maxDifference: data.plain.gap },
      withPe: { original: data.encoded.original, reordered: data.encoded.reordered, maxDifference: data.encoded.gap },
    }),
  };
}
