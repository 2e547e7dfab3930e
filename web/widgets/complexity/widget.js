// Widget "complexity": what one layer costs, from the core's cost model.
// The articles' table — convolutional, recurrent and self-attention layers:
// complexity per layer, sequential operations, maximum path length — with the
// exact counts for the chosen n, d, k; multiply-adds against n on a log-log
// plot with the crossover n = d (self-attention is cheaper than a recurrent
// layer exactly when n < d); the factor when n doubles (4 for self-attention:
// quadratic, not exponential); fully connected vs self-attention; and what a
// decoder pays per generated token with and without a key-value cache.
import { element } from '../../render/dom.js';
import { callout } from '../../render/callout.js';
import { formatCount, formatNumber } from '../../render/format.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { cornerCell, headerCell, headerRow } from '../../render/table.js';

export const name = 'complexity';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'counts what self-attention, recurrence and convolution cost as n grows';

// n on a log scale: 2, 4, ..., 65536
const N_VALUES = Array.from({ length: 16 }, (_, e) => String(2 ** (e + 1)));
// the plot's lengths: 1 to 65536, two points per doubling
const CURVE_N = [...new Set(Array.from({ length: 33 }, (_, k) => Math.round(2 ** (k / 2))))];

export const defaults = { n: '256', d: 512, k: 3 };

export const controls = [
  { key: 'n', type: 'select', label: 'n', options: N_VALUES.map((v) => ({ value: v, label: Number(v).toLocaleString('en-US') })) },
  { key: 'd', type: 'range', label: 'd', min: 8, max: 1024, step: 8 },
  { key: 'k', type: 'range', label: 'k', min: 2, max: 9, step: 1 },
];

const TABLE_LAYERS = ['convolutional', 'convolutional (dilated)', 'recurrent', 'self-attention'];
const byLayer = (rows) => Object.fromEntries(rows.map((r) => [r.layer, r]));

// The cost model for n, for 2n (the doubling factor) and for every n of the plot.
export function compute(att, state) {
  const n = Number(state.n), d = state.d, k = state.k;
  const now = byLayer(att.costModel({ n, d, k }));
  const doubled = byLayer(att.costModel({ n: 2 * n, d, k }));
  const curve = CURVE_N.map((m) => byLayer(att.costModel({ n: m, d, k })));
  const layers = Object.keys(now);
  return {
    n, d, k, now, doubled, generation: att.generationCost({ n, d }),
    // cost(2n) / cost(n) and its log2, by the core
    ratio: Object.fromEntries(layers.map((l) => [l, now[l].doubling])),
    exponent: Object.fromEntries(layers.map((l) => [l, now[l].doublingExponent])),
    curve: { n: CURVE_N, ...Object.fromEntries(layers.map((l) => [l, { multiplyAdds: curve.map((c) => c[l].multiplyAdds), parameters: curve.map((c) => c[l].parameters) }])) },
  };
}

const exact = (x) => formatNumber(x, { digits: 0 });
// the core's big-O text, with a superscript and a middle dot: "O(n^2 d)" -> "O(n²·d)", "O(log_k n)" -> "O(logₖ n)"
const bigO = (text) => text.replace(/\^2/g, '²').replace(/log_k /g, 'logₖ\u00a0').replace(/ /g, '·');
const ratioText = (x) => formatNumber(x, { digits: 2 });

// label: the column's name, shown beside the cell when the table becomes cards (narrow screens)
function countCell(tag, big, count, field, label) {
  const cell = element(tag, 'cx-cell');
  cell.dataset.label = label;
  const value = element('span', 'cx-count', typeof count === 'number' ? formatCount(count) : count);
  if (typeof count === 'number') value.title = exact(count);
  value.dataset.field = field;
  cell.append(element('span', 'cx-big', big), value);
  return cell;
}

export function build(body, { t }) {
  const table = element('table', 'cx-table cx-main');
  const caption = element('caption', 'table-caption');
  const th = (label, sub) => headerCell(t.rich(label), { sub: sub && t.rich(sub) });
  const thead = headerRow([th('colLayer'), th('colComplexity', 'subComplexity'), th('colSequential', 'subSequential'), th('colPath', 'subPath'), th('colDoubling', 'subDoubling')]);
  const tbody = element('tbody');
  table.append(caption, thead, tbody);
  const tableBox = element('div', 'table-scroll cx-table-box');
  tableBox.append(table);
  const countNote = element('p', 'note', t.rich('countNote'));

  const quadratic = callout(t.rich('quadraticTitle'), { part: 'quadratic', key: true });
  const crossover = callout(t.rich('crossoverTitle'), { part: 'crossover', texts: ['', ''] });
  const generation = callout(t.rich('generationTitle'), { part: 'generation', texts: [''] });

  const plot = element('figure', 'cx-plot');
  const plotCaption = element('figcaption', 'cx-plot-caption');
  const plotBox = element('div', 'plot-box');
  plot.append(plotCaption, plotBox);

  const fc = element('section', 'cx-fc');
  const fcTable = element('table', 'cx-table cx-fc-table');
  const fcCaption = element('caption', 'table-caption');
  const fcThead = headerRow([cornerCell(), th('fully connected'), th('self-attention')]);
  const fcBody = element('tbody');
  fcTable.append(fcCaption, fcThead, fcBody);
  const fcTableBox = element('div', 'table-scroll');
  fcTableBox.append(fcTable);
  const fcPlot = element('figure', 'cx-plot');
  const fcPlotCaption = element('figcaption', 'cx-plot-caption');
  const fcPlotBox = element('div', 'plot-box');
  fcPlot.append(fcPlotCaption, fcPlotBox);
  fc.append(element('h3', 'cx-heading', t.rich('fcTitle')), element('p', 'cx-fc-intro', t.rich('fcIntro')), fcTableBox, fcPlot);

  body.append(tableBox, countNote, quadratic.box, plot, crossover.box, generation.box, fc);
  return { generation: generation.paragraphs[0], caption, tbody, quadraticBox: quadratic.box, quadratic: quadratic.paragraphs[0], crossover: crossover.paragraphs[0], parallel: crossover.paragraphs[1], plotCaption, plotBox, fcCaption, fcBody, fcPlotCaption, fcPlotBox };
}

// compact: a narrower drawing with the same numbers, readable on a phone
function costPlot(data, t, { compact = false } = {}) {
  const layers = ['self-attention', 'recurrent', 'convolutional', 'fully connected'];
  const label = (l) => (l === 'convolutional' ? t('convBoth') : t(l));
  const series = layers.map((l, k) => ({ label: label(l), x: data.curve.n, y: data.curve[l].multiplyAdds, color: PALETTE[k] }));
  // the chosen n on each line (no legend entry)
  layers.forEach((l, k) => series.push({ label: '', x: [data.n], y: [data.now[l].multiplyAdds], points: true, line: false, color: PALETTE[k] }));
  return linePlot({
    title: t('plotTitle', { d: data.d, k: data.k }), series, xLog: true, yLog: true,
    ...(compact ? { width: 360, height: 320 } : { height: 340 }),
    xLabel: t('xAxis'), yLabel: t('yAxis'),
    markers: data.d <= data.curve.n.at(-1) ? [{ x: data.d, label: t('crossover', { d: data.d }) }] : [],
  });
}

function paramPlot(data, t, { compact = false } = {}) {
  // the colours of the cost plot: self-attention blue, fully connected pink
  const layers = [['self-attention', PALETTE[0]], ['fully connected', PALETTE[3]]];
  const series = layers.map(([l, color]) => ({ label: t(l), x: data.curve.n, y: data.curve[l].parameters, color }));
  layers.forEach(([l, color]) => series.push({ label: '', x: [data.n], y: [data.now[l].parameters], points: true, line: false, color }));
  return linePlot({ title: t('fcPlotTitle', { d: data.d }), series, xLog: true, yLog: true, xLabel: t('xAxis'), yLabel: t('fcYAxis'),
    ...(compact ? { width: 360, height: 260 } : { height: 260 }) });
}

// Both layouts of a plot; the style sheet shows the one that fits the screen.
function bothPlots(draw) {
  const wide = draw({}), compact = draw({ compact: true });
  wide.classList.add('is-wide');
  compact.classList.add('is-compact');
  return [wide, compact];
}

export function render(view, data, state, { t }) {
  const { n, d, k } = data;
  view.caption.replaceChildren(t.rich('tableCaption', { n: exact(n), d, k }));
  view.tbody.replaceChildren(...TABLE_LAYERS.map((l) => {
    const row = data.now[l];
    const tr = element('tr');
    tr.dataset.layer = l;
    const name = headerCell(t.rich(l), { className: 'cx-layer', scope: 'row' });
    const doubling = element('td', 'cx-cell');
    doubling.dataset.label = t('colDoubling');
    const ratio = element('span', 'cx-count', `× ${ratioText(data.ratio[l])}`);
    ratio.dataset.field = 'ratio';
    doubling.append(ratio);
    tr.append(name, countCell('td', bigO(row.complexity), row.multiplyAdds, 'multiplyAdds', t('colComplexity')),
      countCell('td', bigO(row.sequential), row.sequentialOps, 'sequentialOps', t('colSequential')),
      countCell('td', bigO(row.path), row.maxPathLength, 'maxPathLength', t('colPath')), doubling);
    if (l === 'self-attention') tr.classList.add('is-attention');
    return tr;
  }));

  const sa = data.now['self-attention'], sa2 = data.doubled['self-attention'], rnn = data.now.recurrent;
  const ratio = data.ratio['self-attention'];
  view.quadratic.replaceChildren(t.rich('quadratic', {
    n: exact(n), n2: exact(2 * n), a: formatCount(sa.multiplyAdds), b: formatCount(sa2.multiplyAdds),
    ratio: ratioText(ratio), slope: formatNumber(data.exponent['self-attention'], { digits: 2 }), linear: ratioText(data.ratio.recurrent),
  }));
  const which = sa.multiplyAdds < rnn.multiplyAdds ? 'cheaper' : sa.multiplyAdds > rnn.multiplyAdds ? 'dearer' : 'equal';
  view.crossover.replaceChildren(t.rich(which, { n: exact(n), d, sa: formatCount(sa.multiplyAdds), rnn: formatCount(rnn.multiplyAdds) }));
  view.crossover.dataset.field = which;
  view.parallel.replaceChildren(t.rich('parallel', { n: exact(rnn.sequentialOps) }));
  const g = data.generation;
  view.generation.replaceChildren(t.rich('generation', {
    n: exact(n), d, tokenCached: formatCount(g.tokenCached), tokenUncached: formatCount(g.tokenUncached),
    totalCached: formatCount(g.totalCached), totalUncached: formatCount(g.totalUncached), training: formatCount(sa.multiplyAdds),
    cache: formatCount(g.cacheNumbers),
  }));

  view.plotCaption.replaceChildren(t.rich('plotTitle', { d, k }));
  view.plotBox.replaceChildren(...bothPlots((o) => costPlot(data, t, o)));

  // fully connected vs self-attention
  const fc = data.now['fully connected'], fc2 = data.doubled['fully connected'], sa2p = data.doubled['self-attention'];
  view.fcCaption.replaceChildren(t.rich('fcCaption', { n: exact(n), d }));
  const fcRow = (label, a, b, field) => {
    const tr = element('tr');
    const th = headerCell(label, { className: 'cx-layer', scope: 'row' });
    const cell = (x) => {
      const td = element('td', 'cx-cell');
      const span = element('span', 'cx-count', typeof x === 'number' ? formatCount(x) : x);
      if (typeof x === 'number') span.title = exact(x);
      if (field) span.dataset.field = field;
      td.append(span);
      return td;
    };
    tr.append(th, cell(a), cell(b));
    return tr;
  };
  view.fcBody.replaceChildren(
    fcRow(t('fcRow', { n: exact(n) }), fc.parameters, sa.parameters, 'parameters'),
    fcRow(t('fcRow2', { n: exact(2 * n) }), fc2.parameters, sa2p.parameters, 'parameters2'),
    fcRow(t('fcLength'), t('no'), t('yes')),
    fcRow(t('fcPath'), fc.maxPathLength, sa.maxPathLength, 'path'),
  );
  view.fcPlotCaption.replaceChildren(t.rich('fcPlotTitle', { d }));
  view.fcPlotBox.replaceChildren(...bothPlots((o) => paramPlot(data, t, o)));
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: '2', label: 'quiz2' }, { value: '4', label: 'quiz4' }, { value: 'exp', label: 'quizExp' }],
  conceals: (view) => [view.quadraticBox],
  answer: (data) => {
    const r = data.ratio['self-attention'];
    return r === 2 ? '2' : r === 4 ? '4' : 'exp';
  },
  explain(data, state, t) {
    const sa = data.now['self-attention'].multiplyAdds, sa2 = data.doubled['self-attention'].multiplyAdds;
    return t('quizExplain', { n: exact(data.n), n2: exact(2 * data.n), a: formatCount(sa), b: formatCount(sa2), ratio: ratioText(data.ratio['self-attention']) });
  },
};

export function exports(data, state, t) {
  const layers = Object.keys(data.now);
  return {
    visual: () => costPlot(data, t),
    csv: () => ({
      header: [t('csvLayer'), t('csvComplexity'), t('csvSequential'), t('csvPath'), t('csvMultiplyAdds'), t('csvSequentialOps'),
        t('csvPathLength'), t('csvParameters'), t('csvDoubling')],
      rows: layers.map((l) => {
        const r = data.now[l];
        return [l, r.complexity, r.sequential, r.path, r.multiplyAdds, r.sequentialOps, r.maxPathLength, r.parameters, data.ratio[l]];
      }),
    }),
    json: () => ({ n: data.n, d: data.d, k: data.k, layers: layers.map((l) => data.now[l]),
      doubled: layers.map((l) => data.doubled[l]), ratioWhenNDoubles: data.ratio, curve: data.curve }),
  };
}
