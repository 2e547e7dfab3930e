// Widget "attention-map": the word-to-word map of self-attention for any
// sentence (rows = queries, columns = keys; each row sums to 1). Focusing or
// hovering a cell shows how its weight was computed; the arc view shows where
// one word looks; the table view gives every number as text.
import { element, liveElement } from '../../render/dom.js';
import { arcs } from '../../render/arcs.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { matrixTable } from '../../render/matrix.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'attention-map';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'types any sentence and reads who looks at whom: heatmap, arcs or table';

export const defaults = { sentence: 'i have a dream', dK: '16', seed: 1, view: 'heatmap', row: 0, col: 0 };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'dK', type: 'choice', label: 'dK', options: ['4', '16', '64'].map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  { key: 'view', type: 'choice', label: 'view', options: [
    { value: 'heatmap', label: 'heatmap' }, { value: 'arcs', label: 'arcs' }, { value: 'table', label: 'table' }] },
  { key: 'row', type: 'range', min: 0, max: 63, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: 63, step: 1, hidden: true },
];

// Word vectors of width 32 from the tokens, then self-attention with seeded
// projections: every number from the core.
export function compute(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, 40);
  const X = att.embedTokens({ tokens, d: 32, seed: state.seed });
  const r = att.selfAttention({ input: X, dK: Number(state.dK), seed: state.seed });
  return { tokens, n: tokens.length, dK: Number(state.dK), scores: r.scores, scaled: r.scaled, exps: r.exps,
    rowSums: r.rowSums, rowMax: r.rowMax, weights: r.weights };
}

export function build(body, { t }) {
  const note = element('p', 'illustrative', t.rich('illustrative'));
  const figure = element('div', 'map-figure');
  const details = liveElement('div', 'cell-details');
  body.append(figure, details, note);
  return { figure, details };
}

function clampCell(data, state) {
  return [Math.min(state.row, data.n - 1), Math.min(state.col, data.n - 1)];
}

function showCell(view, data, i, j, t) {
  const at = (m) => m.data[i * data.n + j];
  const rows = [
    ['dot', formatNumber(at(data.scores), { digits: 3 })],
    ['scaled', formatNumber(at(data.scaled), { digits: 3 })],
    ['exp', formatNumber(at(data.exps), { digits: 4 })],
    ['rowSum', formatNumber(data.rowSums[i], { digits: 4 })],
    ['weight', formatNumber(at(data.weights), { digits: 4 })],
  ];
  const list = element('dl', 'steps');
  for (const [key, value] of rows) {
    const item = element('div', `step step-${key}`);
    item.append(element('dt', '', t.rich(key, { d: data.dK })), element('dd', '', value));
    item.lastChild.dataset.field = key;
    list.append(item);
  }
  view.details.replaceChildren(element('h3', 'steps-title', `${t('how')}: ${t('cell', { q: data.tokens[i], k: data.tokens[j] })}`), list);
}

function mapVisual(data, state, t, onCell = () => {}) {
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: data.weights.data, min: 0, max: 1, digits: 2,
    title: t('mapTitle', { sentence: data.tokens.join(' ') }), selected: clampCell(data, state), onCell,
    describe: (i, j) => t('cellLabel', { q: data.tokens[i], k: data.tokens[j], w: formatNumber(data.weights.data[i * data.n + j], { digits: 3 }) }),
  });
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const [i, j] = clampCell(data, state);
  if (state.view === 'table') {
    view.figure.replaceChildren(matrixTable({ m: data.weights, rowLabels: data.tokens, colLabels: data.tokens, digits: 3,
      caption: t('mapTitle', { sentence: data.tokens.join(' ') }) }));
  } else if (state.view === 'arcs') {
    view.figure.replaceChildren(element('p', 'figure-caption', t.rich('arcsFor', { q: data.tokens[i] })),
      arcs({ tokens: data.tokens, weights: data.weights.data, query: i, title: t('arcsFor', { q: data.tokens[i] }) }));
  } else {
    const map = mapVisual(data, state, t, (a, b) => {
      showCell(view, data, a, b, t);
      if (a !== ctx.state.row || b !== ctx.state.col) ctx.setState({ row: a, col: b }, { quiet: true });
    });
    view.figure.replaceChildren(map.element, legend({ min: 0, max: 1, label: t('weights') }));
  }
  showCell(view, data, i, j, t);
}

export function exports(data, state, t) {
  return {
    visual: () => (state.view === 'arcs'
      ? arcs({ tokens: data.tokens, weights: data.weights.data, query: clampCell(data, state)[0] })
      : mapVisual(data, state, t).element),
    csv: () => ({
      header: [`${t('rowQuery')} \\ ${t('colKey')}`, ...data.tokens],
      rows: data.tokens.map((token, i) => [token, ...Array.from(data.weights.data.subarray(i * data.n, (i + 1) * data.n))]),
    }),
    json: () => ({ tokens: data.tokens, dK: data.dK, scores: data.scores, scaled: data.scaled, weights: data.weights }),
  };
}
