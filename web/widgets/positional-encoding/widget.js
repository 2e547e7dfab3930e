// Widget "positional-encoding": self-attention alone cannot see word order.
// Part 1 draws the sinusoidal encoding PE (positions × dimensions, values in
// [−1, 1]). Part 2 reads a sentence in another order: without PE the map of
// the reordered sentence is the old map with its rows and columns moved (same
// numbers); with X + PE the maps differ. The largest difference between the
// reordered map and the moved original is computed by the core.
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { random } from '../../runtime/random.js';
import { composite } from '../../render/compose.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'positional-encoding';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'sees the sinusoids, and that without them “dog bites man” reads as “man bites dog”';

// word vectors and projections of the permutation demo (fixed: the lesson is the order)
const D = 32, D_K = 16, SEED = 1;
// below this the two maps hold the same numbers (float32 rounding only)
const SAME = 1e-5;

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
  const next = random(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
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
    axes: { rows: t('axisPositions'), cols: t('axisDimensions') },
    values: data.pe.data, min: -1, max: 1, digits: 2, title: t('peMapTitle', { n: rows, d: cols }), selected, onCell,
    describe: (p, c) => t('peCellLabel', { p, c, v: formatNumber(data.pe.data[p * cols + c], { digits: 3 }) }),
  });
}

function wordMap(words, m, t, selected, onCell) {
  return heatmap({
    rowLabels: words, colLabels: words, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: m.data, min: 0, max: 1, digits: 2,
    title: t('mapTitle', { sentence: words.join(' ') }), selected, onCell,
    describe: (i, j) => t('cellLabel', { q: words[i], k: words[j], w: formatNumber(m.data[i * words.length + j], { digits: 3 }) }),
  });
}

export function build(body, { t }) {
  const pePart = element('section', 'pe-part');
  const peFigure = element('div', 'map-figure pe-figure');
  const peCaption = element('p', 'figure-caption pe-caption');
  const peDetails = liveElement('div', 'cell-details');
  pePart.append(element('h3', 'pe-heading', t.rich('peTitle')), peCaption, peFigure, peDetails);

  const orderPart = element('section', 'pe-part');
  const maps = element('div', 'pe-maps');
  const mapsLegend = element('div', 'pe-legend');
  const details = liveElement('div', 'cell-details');
  const verdict = liveElement('div', 'pe-verdict');
  orderPart.append(element('h3', 'pe-heading', t.rich('orderTitle')), element('p', 'pe-text', t.rich('orderIntro')), maps, mapsLegend, details, verdict,
    element('p', 'illustrative', t.rich('illustrative')));
  body.append(pePart, orderPart);
  return { peFigure, peCaption, peDetails, maps, mapsLegend, details, verdict };
}

function showPeCell(view, data, p, c, t) {
  const e = 2 * Math.floor(c / 2);
  const list = element('dl', 'steps');
  const item = element('div', 'step step-weight');
  const dd = element('dd', '', formatNumber(data.pe.data[p * data.pe.cols + c], { digits: 4 }));
  dd.dataset.field = 'pe';
  item.append(element('dt', '', t.rich('peFormula', { fn: c % 2 === 0 ? 'sin' : 'cos', p, e, d: data.pe.cols })), dd);
  list.append(item);
  view.peDetails.replaceChildren(element('h4', 'steps-title', t.rich('peSelected', { p, c })), list);
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
    item.append(element('dt', '', t.rich(key)), dd);
    list.append(item);
  }
  view.details.replaceChildren(element('h4', 'steps-title', t.rich('pairTitle', { q: data.moved[i], k: data.moved[j] })), list);
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  // part 1: the encoding
  const [pr, pc] = [Math.min(state.prow, data.pe.rows - 1), Math.min(state.pcol, data.pe.cols - 1)];
  view.peCaption.replaceChildren(t.rich('peCaption', { n: data.pe.rows, d: data.pe.cols }));
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
    original.map.mark(a, b, 'partner');
    reordered.map.mark(ni, nj);
    select(ni, nj, false);
  });
  const reordered = figure(t('reordered'), data.moved, maps.reordered, [i, j], (a, b) => select(a, b, true));
  function select(a, b, mark) {
    if (mark) original.map.mark(data.order[a], data.order[b], 'partner');
    showPair(view, data, state, a, b, t);
    if (a !== ctx.state.row || b !== ctx.state.col) ctx.setState({ row: a, col: b }, { quiet: true });
  }
  original.map.mark(data.order[i], data.order[j], 'partner');
  view.maps.replaceChildren(original.box, reordered.box);
  view.mapsLegend.replaceChildren(legend({ min: 0, max: 1, label: t('weights') }));
  showPair(view, data, state, i, j, t);

  // the verdict: both differences, the one shown first
  const line = (key, gap, active) => {
    const row = element('div', `pe-gap${active ? ' is-active' : ''}`);
    const value = element('output', 'pe-gap-value', gapText(gap, t));
    value.dataset.field = key === 'without' ? 'gapWithout' : 'gapWith';
    row.append(element('span', 'pe-gap-label', t.rich(key)), value,
      element('span', 'pe-gap-verdict', t.rich(gap < SAME ? 'sameVerdict' : 'differVerdict')));
    return row;
  };
  view.verdict.replaceChildren(element('h4', 'steps-title', t.rich('differenceTitle')),
    line('without', data.plain.gap, !state.pe), line('with', data.encoded.gap, state.pe));
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: 'moved', label: 'quizMoved' }, { value: 'changed', label: 'quizChanged' }],
  conceals: (view) => [view.verdict],
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
