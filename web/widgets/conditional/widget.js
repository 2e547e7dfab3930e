// Widget "conditional": conditional attention. A label (formal, casual,
// question) becomes a one-hot condition vector c of length 3, scaled by a
// strength; c is fused into the input of Q and K (concatenation, addition or a
// fully-connected layer) while V still comes from the words alone. The map
// with c is drawn next to the map with c = 0 (same fusion, same parameters,
// so the only change is the condition), and the core measures the largest
// change of any weight, max |Δ|.
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { matrixTable } from '../../render/matrix.js';
import { composite } from '../../render/compose.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'conditional';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'lets a label steer the map (fused by concatenation, addition or a layer)';

// width d of the word vectors; the condition has one entry per label
const D = 16;
const LABELS = ['formal', 'casual', 'question'];
const MAX_TOKENS = 16;

export const defaults = { sentence: 'i have a dream', label: 'casual', strength: 2, fusion: 'concat', seed: 1, row: 0, col: 0 };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'label', type: 'choice', label: 'label', options: LABELS.map((v) => ({ value: v, label: v })) },
  { key: 'strength', type: 'range', label: 'strength', min: 0, max: 4, step: 0.25 },
  { key: 'fusion', type: 'choice', label: 'fusion', options: ['concat', 'add', 'fc'].map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  // the selected cell, the same in both maps
  { key: 'row', type: 'range', min: 0, max: MAX_TOKENS - 1, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: MAX_TOKENS - 1, step: 1, hidden: true },
];

const FORMULAS = { concat: 'formulaConcat', add: 'formulaAdd', fc: 'formulaFc' };
const shapeOf = (m) => ({ rows: m.rows, cols: m.cols });

// The condition vector: strength × one-hot(label) (the input, built from the controls).
function conditionVector(state) {
  return LABELS.map((label) => (label === state.label ? state.strength : 0));
}

// Word vectors X (n, 16) from the tokens; conditional attention with c and
// with c = 0 (the baseline: same fusion and seed, so the same parameters);
// max |Δ| between the two maps from the core.
export function compute(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, MAX_TOKENS);
  const X = att.embedTokens({ tokens, d: D, seed: state.seed });
  const c = conditionVector(state);
  const options = { input: X, fusion: state.fusion, seed: state.seed };
  const cond = att.conditionalAttention({ ...options, condition: c });
  const base = att.conditionalAttention({ ...options, condition: c.map(() => 0) });
  return {
    tokens, n: tokens.length, c, fusion: cond.fusion,
    X: shapeOf(X), fused: cond.fused, Q: shapeOf(cond.Q), V: shapeOf(cond.V),
    P: cond.P && shapeOf(cond.P), Wf: cond.Wf && shapeOf(cond.Wf), bf: cond.bf && cond.bf.length,
    weights: cond.weights, baseWeights: base.weights,
    delta: att.maxAbsDifference(cond.weights, base.weights),
  };
}

export function build(body, { t }) {
  const condition = element('div', 'cond-vector');
  const formula = element('p', 'cond-formula');
  const shapes = element('ul', 'cond-shapes');
  const shapesBox = element('div', 'cond-shapes-box');
  shapesBox.append(element('h3', 'cond-heading', t.rich('shapes')), shapes);
  const top = element('div', 'cond-top');
  top.append(condition, formula, shapesBox);

  const panel = (which) => {
    const figure = element('figure', 'cond-panel');
    figure.dataset.map = which;
    const caption = element('figcaption', 'cond-caption');
    caption.append(element('span', 'cond-caption-title', t.rich(which === 'base' ? 'baseTitle' : 'condTitle')), element('span', 'cond-caption-note'));
    const box = element('div', 'cond-map');
    figure.append(caption, box);
    return { figure, note: caption.lastChild, box };
  };
  const base = panel('base'), cond = panel('cond');
  const maps = element('div', 'cond-maps');
  const legendBox = element('div', 'cond-legend');
  maps.append(base.figure, cond.figure);

  const delta = element('div', 'cond-delta');
  const deltaValue = element('output', 'cond-delta-value');
  deltaValue.dataset.field = 'delta';
  const deltaLine = element('p', 'cond-delta-line');
  deltaLine.append(element('span', 'cond-delta-label', t.rich('delta')), deltaValue);
  const deltaNote = element('p', 'cond-delta-note');
  delta.append(deltaLine, deltaNote);

  const details = liveElement('div', 'cell-details');
  const fusedBox = element('details', 'cond-fused');
  const fusedSummary = element('summary');
  const fusedTable = element('div');
  fusedBox.append(fusedSummary, fusedTable);
  // two sentences: a space between them in English, none in Chinese
  const note = element('p', 'illustrative', [t('illustrative'), t('meaning')].join(t.lang === 'zh' ? '' : ' '));
  body.append(top, maps, legendBox, delta, details, fusedBox, note);
  return { condition, formula, shapes, base, cond, legendBox, deltaValue, deltaNote, details, fusedSummary, fusedTable };
}

function clampCell(data, state) {
  return [Math.min(state.row, data.n - 1), Math.min(state.col, data.n - 1)];
}

function mapVisual(data, which, t, selected, onCell = () => {}) {
  const m = which === 'base' ? data.baseWeights : data.weights;
  const title = t(which === 'base' ? 'baseTitle' : 'condTitle');
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: m.data, min: 0, max: 1, digits: 2, selected, onCell,
    title: t('mapTitle', { which: title, sentence: data.tokens.join(' ') }),
    describe: (i, j) => t('cellLabel', { which: title, q: data.tokens[i], k: data.tokens[j], w: formatNumber(m.data[i * data.n + j], { digits: 3 }) }),
  });
}

function showCell(view, data, i, j, t) {
  const at = (m) => formatNumber(m.data[i * data.n + j], { digits: 4 });
  const list = element('dl', 'steps');
  for (const [key, value, field] of [['cellBase', at(data.baseWeights), 'base'], ['cellCond', at(data.weights), 'cond']]) {
    const item = element('div', `step step-${field === 'cond' ? 'weight' : field}`);
    const dd = element('dd', '', value);
    dd.dataset.field = field;
    item.append(element('dt', '', t.rich(key)), dd);
    list.append(item);
  }
  view.details.replaceChildren(element('h4', 'steps-title', t.rich('cell', { q: data.tokens[i], k: data.tokens[j] })), list);
}

const number = (x) => formatNumber(x, { digits: 2, minDigits: 0 });

export function render(view, data, state, ctx) {
  const { t } = ctx;
  // the condition vector, entry by entry
  const entries = element('ol', 'cond-entries');
  data.c.forEach((x, k) => {
    const li = element('li', x !== 0 ? 'cond-entry is-on' : 'cond-entry', t('conditionEntry', { label: t(LABELS[k]), value: number(x) }));
    li.dataset.field = 'c';
    entries.append(li);
  });
  view.condition.replaceChildren(element('p', 'cond-vector-title', t.rich('conditionVector', { label: t(state.label) })), entries);
  view.formula.replaceChildren(t.rich(FORMULAS[data.fusion]));

  // shapes, read from the core's matrices
  const items = [
    t.rich('shapeX', data.X), t.rich('shapeC', { cols: data.c.length }),
    data.fusion === 'concat'
      ? t.rich('shapeFusedConcat', { rows: data.fused.rows, cols: data.fused.cols, d: data.X.cols, dc: data.c.length })
      : t.rich('shapeFused', data.fused),
  ];
  if (data.P) items.push(t.rich('shapeP', data.P));
  if (data.Wf) items.push(t.rich('shapeWf', { ...data.Wf, b: data.bf }));
  items.push(t.rich('shapeQK', data.Q), t.rich('shapeV', data.V));
  view.shapes.replaceChildren(...items.map((text, k) => {  // text: typeset nodes
    const li = element('li', '', text);
    if (k === 2) { li.dataset.field = 'fused-shape'; li.classList.add('is-fused'); }
    return li;
  }));

  // the two maps, one selection
  const [i, j] = clampCell(data, state);
  const maps = {};
  const onCell = (a, b) => {
    // the selection ring on the same cell of both maps (the other follows the one in use)
    for (const map of Object.values(maps)) map.mark(a, b);
    showCell(view, data, a, b, t);
    if (a !== ctx.state.row || b !== ctx.state.col) ctx.setState({ row: a, col: b }, { quiet: true });
  };
  for (const which of ['base', 'cond']) {
    maps[which] = mapVisual(data, which, t, [i, j], onCell);
    view[which].box.replaceChildren(maps[which].element);
  }
  view.base.note.replaceChildren(t.rich('baseNote'));
  view.cond.note.replaceChildren(t.rich('condNote', { c: data.c.map(number).join(', ') }));
  view.legendBox.replaceChildren(legend({ min: 0, max: 1, label: t('weights') }));
  showCell(view, data, i, j, t);

  view.deltaValue.textContent = formatNumber(data.delta, { digits: 4 });
  view.deltaNote.textContent = data.delta === 0 ? t('deltaZero') : t('deltaSome');

  view.fusedSummary.replaceChildren(t.rich('fused', data.fused));
  view.fusedTable.replaceChildren(matrixTable({ m: data.fused, rowLabels: data.tokens, digits: 2 }));
}

// Both maps side by side in one SVG, for export.
function exportVisual(data, state, t) {
  const cell = clampCell(data, state);
  return composite(['base', 'cond'].map((which) => ({
    title: t(which === 'base' ? 'baseTitle' : 'condTitle'), svg: mapVisual(data, which, t, cell).element })), { title: t('title') });
}

export function exports(data, state, t) {
  const rows = (which, m) => data.tokens.map((token, i) => [which, token, ...Array.from(m.data.subarray(i * data.n, (i + 1) * data.n))]);
  return {
    visual: () => exportVisual(data, state, t),
    csv: () => ({
      header: [t('csvWhich'), `${t('query')} \\ ${t('key')}`, ...data.tokens],
      rows: [...rows(t('csvBase'), data.baseWeights), ...rows(t('csvCond'), data.weights)],
    }),
    json: () => ({ tokens: data.tokens, condition: data.c, fusion: data.fusion, fused: data.fused,
      weightsWithoutCondition: data.baseWeights, weightsWithCondition: data.weights, maxAbsDifference: data.delta }),
  };
}
