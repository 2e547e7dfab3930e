// Widget "multi-head": h heads side by side. Q, K and V (n × d_model) are cut
// into h slices of width d_model/h; each head attends with its own slice and
// draws its own map; the head outputs Z_h (n × d_model/h) are concatenated
// back to n × d_model and mixed by W^O. The shapes are printed from the core's
// matrices; focusing any cell shows its number.
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { composite } from '../../render/compose.js';
import { svg } from '../../render/svg.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'multi-head';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'splits the width into heads and compares their maps';

// the width of the word vectors and of the model: heads must divide it
const D_MODEL = 32;
const HEADS = ['1', '2', '4', '8'];

export const defaults = { sentence: 'i have a dream', heads: '4', seed: 1, part: 'map', head: 0, row: 0, col: 0 };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'heads', type: 'choice', label: 'heads', options: HEADS.map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  // the focused cell: in a head's map, in Concat or in the output
  { key: 'part', type: 'choice', hidden: true, options: ['map', 'concat', 'output'].map((v) => ({ value: v, label: v })) },
  { key: 'head', type: 'range', min: 0, max: 7, step: 1, hidden: true },
  { key: 'row', type: 'range', min: 0, max: 63, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: 63, step: 1, hidden: true },
];

// Word vectors of width 32, then h-head self-attention: every number from the core.
export function compute(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, 40);
  const heads = Number(state.heads);
  const X = att.embedTokens({ tokens, d: D_MODEL, seed: state.seed });
  const r = att.multiHeadAttention({ input: X, heads, seed: state.seed });
  return {
    tokens, n: tokens.length, h: heads, dModel: r.Q.cols, dHead: r.perHead[0].output.cols,
    Q: { rows: r.Q.rows, cols: r.Q.cols },
    Wo: { rows: r.projections.Wo.rows, cols: r.projections.Wo.cols },
    heads: r.perHead.map((head) => ({ scores: head.scores, scale: head.scale, scaled: head.scaled, weights: head.weights, output: head.output })),
    concat: r.concat, output: r.output,
  };
}

// The colour range of a signed matrix: symmetric around 0, rounded up to a tenth (display only).
function signedRange(m) {
  let top = 0;
  for (const x of m.data) if (Number.isFinite(x)) top = Math.max(top, Math.abs(x));
  return Math.max(0.1, Math.ceil(top * 10) / 10);
}

// The selection, clamped to the data (a shorter sentence or fewer heads).
function selection(data, state) {
  const part = state.part;
  const head = Math.min(state.head, data.h - 1);
  const row = Math.min(state.row, data.n - 1);
  const cols = part === 'map' ? data.n : data.dModel;
  return { part, head, row, col: Math.min(state.col, cols - 1) };
}

function headMap(data, h, t, selected, onCell) {
  const m = data.heads[h].weights;
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: m.data, min: 0, max: 1, digits: 2,
    title: t('headMapTitle', { h: h + 1, sentence: data.tokens.join(' ') }), selected, onCell,
    describe: (i, j) => t('headCell', { h: h + 1, q: data.tokens[i], k: data.tokens[j], w: formatNumber(m.data[i * data.n + j], { digits: 3 }) }),
  });
}

function concatMap(data, t, range, selected, onCell) {
  const dh = data.dHead;
  // a label over the first column of each head's block
  const colLabels = Array.from({ length: data.dModel }, (_, c) => (c % dh === 0 ? t('concatColumn', { h: c / dh + 1 }) : ''));
  const map = heatmap({
    rowLabels: data.tokens, colLabels, axes: { rows: t('axisQueries'), cols: t('axisConcat') }, values: data.concat.data, min: -range, max: range, digits: 2,
    title: t('concatTitle'), selected, onCell,
    describe: (i, c) => t('concatCell', { q: data.tokens[i], c: c + 1, h: Math.floor(c / dh) + 1, k: (c % dh) + 1,
      v: formatNumber(data.concat.data[i * data.dModel + c], { digits: 3 }) }),
  });
  // a line between the heads' blocks
  for (let h = 1; h < data.h; h++) {
    const { x, y, size } = map.box(0, h * dh);
    const height = size * data.n;
    map.element.append(svg('line', { class: 'mh-divider', x1: x, y1: y - 4, x2: x, y2: y + height + 3, stroke: 'currentColor', 'stroke-width': 2 }));
  }
  return map;
}

function outputMap(data, t, range, selected, onCell) {
  return heatmap({
    rowLabels: data.tokens, colLabels: Array.from({ length: data.dModel }, (_, c) => String(c + 1)),
    axes: { rows: t('axisQueries'), cols: t('axisDimensions') },
    values: data.output.data, min: -range, max: range, digits: 2, title: t('outputTitle'), selected, onCell,
    describe: (i, c) => t('outputCell', { q: data.tokens[i], c: c + 1, v: formatNumber(data.output.data[i * data.dModel + c], { digits: 3 }) }),
  });
}

export function build(body, { t }) {
  const shapes = element('ul', 'mh-shapes');
  const shapesBox = element('div', 'mh-shapes-box');
  shapesBox.append(element('h3', 'mh-heading', t.rich('shapes')), shapes);
  const maps = element('div', 'mh-maps');
  const mapsBox = element('section', 'mh-part');
  const mapsLegend = element('div', 'mh-legend');
  const mapsFormula = element('p', 'mh-formula');
  mapsBox.append(element('h3', 'mh-heading', t.rich('mapsTitle')), mapsFormula, maps, mapsLegend);
  const concat = element('figure', 'mh-figure');
  const output = element('figure', 'mh-figure');
  const details = liveElement('div', 'cell-details mh-details');
  const note = element('p', 'illustrative', t.rich('illustrative'));
  body.append(shapesBox, mapsBox, details, concat, output, note);
  return { shapes, mapsFormula, maps, mapsLegend, concat, output, details };
}

function showDetails(view, data, sel, t) {
  const { part, head, row, col } = sel;
  const q = data.tokens[row];
  let title, items;
  if (part === 'map') {
    const H = data.heads[head];
    const at = (m) => m.data[row * data.n + col];
    title = t.rich('selectedMap', { h: head + 1, q, k: data.tokens[col] });
    items = [['dot', formatNumber(at(H.scores), { digits: 3 })], ['scale', formatNumber(H.scale, { digits: 4 })],
      ['scaled', formatNumber(at(H.scaled), { digits: 3 })], ['weight', formatNumber(at(H.weights), { digits: 4 })]];
  } else {
    const m = part === 'concat' ? data.concat : data.output;
    title = part === 'concat'
      ? t.rich('selectedConcat', { q, c: col + 1, h: Math.floor(col / data.dHead) + 1, k: (col % data.dHead) + 1 })
      : t.rich('selectedOutput', { q, c: col + 1 });
    items = [['value', formatNumber(m.data[row * data.dModel + col], { digits: 4 })]];
  }
  const list = element('dl', 'steps');
  for (const [key, value] of items) {
    const item = element('div', `step step-${key}`);
    const dd = element('dd', '', value);
    dd.dataset.field = key;
    item.append(element('dt', '', t.rich(key, { dh: data.dHead })), dd);
    list.append(item);
  }
  view.details.replaceChildren(element('h4', 'steps-title', title), list);
}

function figureOf(box, title, caption, map, legendRange, label) {
  const head = element('figcaption', 'mh-caption');
  head.append(element('strong', '', title), element('span', 'mh-shape', caption));
  const scroll = element('div', 'map-figure');
  scroll.append(map.element, legend({ min: -legendRange, max: legendRange, label }));
  box.replaceChildren(head, scroll);
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const sel = selection(data, state);
  const sizes = { rows: data.Q.rows, cols: data.Q.cols, h: data.h, dh: data.dHead, n: data.n, wr: data.Wo.rows, wc: data.Wo.cols };
  view.shapes.replaceChildren(...['shapeQkv', 'shapeHead', 'shapeConcat', 'shapeOutput'].map((key) => element('li', '', t.rich(key, sizes))));

  // every map and matrix: focusing a cell selects it (and only it) and shows its numbers
  const all = [];
  const pick = (part, head) => (i, j) => {
    for (const other of all) if (other.part !== part || other.head !== head) other.element.querySelector('.is-selected')?.classList.remove('is-selected');
    const next = { part, head, row: i, col: j };
    showDetails(view, data, next, t);
    const s = ctx.state;
    if (s.part !== part || s.head !== head || s.row !== i || s.col !== j) ctx.setState(next, { quiet: true });
  };
  const selectedIn = (part, head = 0) => (sel.part === part && sel.head === head ? [sel.row, sel.col] : null);

  view.maps.replaceChildren(...data.heads.map((H, h) => {
    const map = headMap(data, h, t, selectedIn('map', h) ?? [0, 0], pick('map', h));
    all.push({ part: 'map', head: h, element: map.element });
    const figure = element('figure', 'mh-head');
    figure.append(element('figcaption', 'mh-caption', t.rich('headCaption', { h: h + 1, dh: data.dHead,
      rows: H.weights.rows, cols: H.weights.cols })), map.element);
    return figure;
  }));
  view.mapsFormula.replaceChildren(t.rich('mapsFormula', { dh: data.dHead }));
  view.mapsLegend.replaceChildren(legend({ min: 0, max: 1, label: t('weights') }));

  const cRange = signedRange(data.concat), oRange = signedRange(data.output);
  const concat = concatMap(data, t, cRange, selectedIn('concat') ?? [0, 0], pick('concat', 0));
  const output = outputMap(data, t, oRange, selectedIn('output') ?? [0, 0], pick('output', 0));
  all.push({ part: 'concat', head: 0, element: concat.element }, { part: 'output', head: 0, element: output.element });
  figureOf(view.concat, t.rich('concatTitle'), t.rich('concatCaption', { ...sizes, rows: data.concat.rows, cols: data.concat.cols, last: data.h }), concat, cRange, t('values'));
  figureOf(view.output, t.rich('outputTitle'), t.rich('outputCaption', { ...sizes, rows: data.output.rows, cols: data.output.cols }), output, oRange, t('values'));
  // only the selected cell carries the ring
  for (const item of all) {
    if (item.part !== sel.part || (item.part === 'map' && item.head !== sel.head)) item.element.querySelector('.is-selected')?.classList.remove('is-selected');
  }
  showDetails(view, data, sel, t);
}


export function exports(data, state, t) {
  const rows = (label, m) => data.tokens.map((token, i) => [label, token, ...Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))]);
  return {
    visual: () => {
      const none = () => {};
      const cRange = signedRange(data.concat), oRange = signedRange(data.output);
      return composite([
        ...data.heads.map((_, h) => ({ title: t('head', { h: h + 1 }), svg: headMap(data, h, t, null, none).element, newRow: h > 0 && h % 4 === 0 })),
        { title: t('concatTitle'), svg: concatMap(data, t, cRange, null, none).element, newRow: true },
        { title: t('outputTitle'), svg: outputMap(data, t, oRange, null, none).element, newRow: true },
      ]);
    },
    csv: () => ({
      header: [t('csvMatrix'), t('csvRow'), ...Array.from({ length: Math.max(data.n, data.dModel) }, (_, j) => String(j + 1))],
      rows: [
        ...data.heads.flatMap((H, h) => rows(t('csvHead', { h: h + 1 }), H.weights)),
        ...rows(t('csvConcat'), data.concat),
        ...rows(t('csvOutput'), data.output),
      ],
    }),
    json: () => ({
      tokens: data.tokens, heads: data.h, dModel: data.dModel, dHead: data.dHead,
      weights: data.heads.map((H) => H.weights), headOutputs: data.heads.map((H) => H.output),
      concat: data.concat, output: data.output,
    }),
  };
}
