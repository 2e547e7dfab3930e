// Widget "softmax-scaling": why softmax, and why scores are divided by √d.
//   (a) softmax and sigmoid on the same scores: softmax makes them compete
//       (the weights sum to 1), sigmoid squashes each alone (any sum);
//   (b) large scores saturate softmax: 1000 and 10000 give exactly [0, 1], and
//       never NaN, because the core subtracts the largest score before exp;
//   (c) for random q, k with unit-variance entries, q·k has variance d, and
//       q·k / √d variance 1: histograms of samples, bin counts from the core;
//   (d) so without scaling one key takes all the weight at large d (entropy
//       near 0); with it the weights stay spread.
import { element } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { barChart, PALETTE } from '../../render/plot.js';
import { svg, FONT_FAMILY } from '../../render/svg.js';
import { headerCell, headerRow } from '../../render/table.js';
import { inputError, parseNumbers } from '../../runtime/text.js';

export const name = 'softmax-scaling';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'sees softmax saturate, and why scores are divided by √d (the variance, sampled)';

const MAX_SCORES = 12;
const MAX_SIZE = 1e6;   // |score|: times the largest scale (1000) it stays far inside float32
const SAMPLES = 2000;
const KEYS = Array.from({ length: 12 }, (_, i) => `k${i + 1}`);
// Histogram axes, the same for every d so that the spread can be compared:
// 25 bins centred on 0, labelled at round numbers.
const RAW_AXIS = { bins: 25, from: -75, to: 75 };        // bins of 6
const SCALED_AXIS = { bins: 25, from: -3.125, to: 3.125 };  // bins of 0.25
const DIMENSIONS = ['4', '8', '16', '32', '64', '128', '256', '512'];
const SCALES = ['0.1', '1', '10', '100', '1000'];

export const defaults = { scores: '1, 2, 3', scale: '1', d: '64', seed: 1 };

export const controls = [
  { key: 'scores', type: 'text', label: 'scores', maxLength: 300, presets: [
    { value: '1, 2, 3', label: '1, 2, 3' }, { value: '1000, 10000', label: '1000, 10000' },
    { value: '14, 12', label: '14, 12' }, { value: '-2, 0, 0.5, 3', label: '-2, 0, 0.5, 3' }] },
  { key: 'scale', type: 'choice', label: 'scale', options: SCALES.map((v) => ({ value: v, label: `×${v}` })) },
  { key: 'd', type: 'select', label: 'd', options: DIMENSIONS.map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
];

// Σ values, computed by the core (a flat array is one row).
function coreSum(att, values) {
  return att.rowSums(values)[0];
}

// One random query against the random keys at width d, without and with 1/√d.
function randomWeights(att, d, seed) {
  const q = att.embedTokens({ tokens: ['q'], d, seed });   // (1, d)
  const K = att.embedTokens({ tokens: KEYS, d, seed });    // (12, d)
  const off = att.attention({ query: q, key: K, value: K, score: 'dot', scale: 1 });
  const on = att.attention({ query: q, key: K, value: K, score: 'dot' });  // the core's default scale 1/√d
  return {
    dots: off.scores.data, off: off.weights.data, on: on.weights.data, scale: on.scale,
    entropyOff: att.entropy(off.weights)[0], entropyOn: att.entropy(on.weights)[0],
  };
}

export function compute(att, state, t) {
  // (a), (b): the scores as typed
  const scores = parseNumbers(state.scores, t('scoreList'), t);
  if (scores.length > MAX_SCORES) throw inputError(t('tooMany', { count: scores.length, max: MAX_SCORES }));
  const texts = String(state.scores).split(/[\s,;，；]+/).filter(Boolean);
  scores.forEach((x, i) => {
    if (Math.abs(x) > MAX_SIZE) throw inputError(t('tooLarge', { index: i + 1, text: texts[i], max: formatNumber(MAX_SIZE, { digits: 0 }) }));
  });
  const n = scores.length;
  // the core multiplies: the scores (1, n) times the scale
  const scaledScores = att.scale({ rows: 1, cols: n, data: scores }, Number(state.scale));
  const softmax = att.softmax(scaledScores).data;
  const sigmoid = att.sigmoid(scaledScores).data;

  // (c): q·k samples and their histograms
  const d = Number(state.d);
  const samples = att.dotProductSamples({ d, count: SAMPLES, seed: state.seed });
  const raw = att.histogram({ values: samples.dots, ...RAW_AXIS });
  const scaled = att.histogram({ values: samples.scaled, ...SCALED_AXIS });

  // (d): entropy without and with scaling; log n, the entropy of even weights
  const weights = randomWeights(att, d, state.seed);
  const maxEntropy = att.maxEntropy(KEYS.length);
  const quiz = d === 512 ? weights : randomWeights(att, 512, state.seed);

  return {
    scores, scale: Number(state.scale), scaledScores: scaledScores.data, softmax, sigmoid,
    softmaxSum: coreSum(att, softmax), sigmoidSum: coreSum(att, sigmoid), softmaxMax: att.argmaxRows(softmax).value[0],
    d, samples: { mean: samples.mean, variance: samples.variance, scaledMean: samples.scaledMean, scaledVariance: samples.scaledVariance },
    raw, scaled, weights, maxEntropy, quiz,
  };
}

function section(body, title) {
  const box = element('section', 'ss-part');
  box.append(element('h3', 'ss-title', title));
  body.append(box);
  return box;
}

export function build(body, { t }) {
  const a = section(body, t('partA'));
  const explainA = element('p', 'ss-explain', t.rich('explainA'));
  const tableA = element('div', 'table-scroll');
  a.append(explainA, tableA);
  const b = section(body, t('partB'));
  const status = element('p', 'ss-status');
  status.dataset.field = 'saturation';
  status.setAttribute('aria-live', 'polite');
  b.append(element('p', 'ss-explain', t.rich('explainB')), status);
  const c = section(body, t('partC'));
  const explainC = element('p', 'ss-explain');
  const hists = element('div', 'ss-hists');
  c.append(explainC, hists);
  const d = section(body, t('partD'));
  const explainD = element('p', 'ss-explain');
  const tableD = element('div', 'table-scroll');
  d.append(explainD, tableD);
  return { tableA, status, explainC, hists, explainD, tableD };
}

function weightCell(value, label, field) {
  const cell = element('td', 'weight-col');
  const box = element('div', 'weight');
  const bar = element('span', 'weight-bar');
  bar.append(hbar({ value, max: 1, label }));
  const shown = element('span', 'weight-value', formatWeight(value));
  shown.dataset.field = field;
  box.append(bar, shown);
  cell.append(box);
  return cell;
}

const headRow = (labels) => headerRow(labels.map(([text, className]) => headerCell(text, { className })));

// the footer: a label over the first two columns, then two sums
function footRow(text, cells) {
  const label = headerCell(text, { scope: 'row' });
  label.colSpan = 2;
  const tr = element('tr');
  tr.append(label, ...cells.map(([value, field]) => {
    const td = element('td', 'num ss-sum', formatNumber(value, { digits: 3 }));
    td.dataset.field = field;
    return td;
  }));
  const foot = element('tfoot');
  foot.append(tr);
  return foot;
}

function scoresTable(data, t) {
  const table = element('table', 'ss-table');
  table.append(element('caption', 'visually-hidden', t.rich('tableA')));
  const scaleText = formatNumber(data.scale, { digits: 1, minDigits: 0 });
  table.append(headRow([[t('colScore'), 'num'], [t('colScaled', { scale: scaleText }), 'num'],
    [t('colSoftmax'), 'weight-col'], [t('colSigmoid'), 'weight-col']]));
  const tbody = element('tbody');
  data.scores.forEach((x, i) => {
    const tr = element('tr');
    const shownX = formatNumber(x, { digits: 3, minDigits: 0 });
    const score = headerCell(shownX, { className: 'num', scope: 'row' });
    const scaled = element('td', 'num', formatNumber(data.scaledScores[i], { digits: 3, minDigits: 0 }));
    scaled.dataset.field = 'scaled';
    tr.append(score, scaled,
      weightCell(data.softmax[i], t('softmaxOf', { x: shownX, w: formatWeight(data.softmax[i]) }), 'softmax'),
      weightCell(data.sigmoid[i], t('sigmoidOf', { x: shownX, w: formatWeight(data.sigmoid[i]) }), 'sigmoid'));
    tbody.append(tr);
  });
  table.append(tbody, footRow(t.rich('sum'), [[data.softmaxSum, 'softmaxSum'], [data.sigmoidSum, 'sigmoidSum']]));
  return table;
}

// One histogram: bars with their counts from the core, labelled at round centres.
function histogram(h, { name, title, color, digits }, t) {
  const centre = (k) => (h.edges[k] + h.edges[k + 1]) / 2;
  return barChart({
    bars: Array.from(h.counts, (count, k) => ({ value: count, label: formatNumber(centre(k), { digits, minDigits: 0 }) })),
    xLabel: name, yLabel: t('count'), title, color, width: 360, height: 220,
  });
}

function histFigure(h, stats, options, t, field) {
  const figure = element('figure', 'ss-hist');
  figure.dataset.field = field;
  const caption = element('figcaption');
  caption.append(element('span', 'ss-hist-name', options.name), ' ');
  const numbers = element('span', 'ss-stats', t.rich('stats', { mean: formatNumber(stats.mean, { digits: 2 }), variance: formatNumber(stats.variance, { digits: 2 }) }));
  numbers.dataset.variance = String(stats.variance);
  caption.append(numbers, ' ', element('span', 'ss-expected', t.rich('expected', { value: options.expected })));
  figure.append(caption, histogram(h, options, t));
  const out = h.below + h.above;
  if (out > 0) figure.append(element('p', 'ss-outside muted', t.rich('outside', { count: out })));
  return figure;
}

function weightsTable(data, t) {
  const w = data.weights;
  const table = element('table', 'ss-table');
  table.append(element('caption', 'visually-hidden', t.rich('tableD', { n: KEYS.length })));
  table.append(headRow([[t('colKey'), ''], [t('colDot'), 'num'], [t('colOff'), 'weight-col'], [t('colOn'), 'weight-col']]));
  const tbody = element('tbody');
  KEYS.forEach((key, j) => {
    const tr = element('tr');
    const th = headerCell(key, { scope: 'row' });
    const dot = element('td', 'num', formatNumber(w.dots[j], { digits: 2 }));
    dot.dataset.field = 'dot';
    tr.append(th, dot, weightCell(w.off[j], t('weightOf', { k: key, w: formatWeight(w.off[j]) }), 'off'),
      weightCell(w.on[j], t('weightOf', { k: key, w: formatWeight(w.on[j]) }), 'on'));
    tbody.append(tr);
  });
  table.append(tbody, footRow(t.rich('entropy'), [[w.entropyOff, 'entropyOff'], [w.entropyOn, 'entropyOn']]));
  return table;
}

const RAW = (data, t) => ({ name: t('rawTitle'), title: t('histTitle', { what: 'q·k', count: SAMPLES, d: data.d }), color: PALETTE[1], digits: 0, expected: `d = ${data.d}` });
const SCALED = (data, t) => ({ name: t('scaledTitle', { d: data.d }), title: t('histTitle', { what: `q·k / √${data.d}`, count: SAMPLES, d: data.d }), color: PALETTE[0], digits: 0, expected: '1' });

export function render(view, data, state, { t }) {
  view.tableA.replaceChildren(scoresTable(data, t));
  view.status.replaceChildren(t.rich(data.softmaxMax >= 0.999 ? 'saturated' : 'notSaturated', { w: formatWeight(data.softmaxMax) }));
  view.status.classList.toggle('is-saturated', data.softmaxMax >= 0.999);
  view.explainC.replaceChildren(t.rich('explainC', { d: data.d, count: SAMPLES }));
  const s = data.samples;
  view.hists.replaceChildren(
    histFigure(data.raw, { mean: s.mean, variance: s.variance }, RAW(data, t), t, 'raw'),
    histFigure(data.scaled, { mean: s.scaledMean, variance: s.scaledVariance }, SCALED(data, t), t, 'scaled'));
  view.explainD.replaceChildren(t.rich('explainD', { n: KEYS.length, d: data.d, max: formatNumber(data.maxEntropy, { digits: 3 }) }));
  view.tableD.replaceChildren(weightsTable(data, t));
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: 'even', label: 'quizEven' }, { value: 'half', label: 'quizHalf' }, { value: 'all', label: 'quizAll' }],
  answer(data) {
    const top = Math.max(...data.quiz.off);
    return top >= 0.85 ? 'all' : top >= 0.3 ? 'half' : 'even';
  },
  explain(data, state, t) {
    return t('quizExplain', {
      w: formatWeight(Math.max(...data.quiz.off)), h: formatNumber(data.quiz.entropyOff, { digits: 3 }),
      ws: formatWeight(Math.max(...data.quiz.on)), hs: formatNumber(data.quiz.entropyOn, { digits: 3 }),
    });
  },
};

// Both histograms side by side in one SVG.
function histograms(data, t) {
  const s = data.samples;
  const parts = [
    [histogram(data.raw, RAW(data, t), t), RAW(data, t), s.mean, s.variance],
    [histogram(data.scaled, SCALED(data, t), t), SCALED(data, t), s.scaledMean, s.scaledVariance],
  ];
  const root = svg('svg', { role: 'img', 'aria-label': t('partC'), 'font-family': FONT_FAMILY });
  const top = 22;
  let x = 0;
  for (const [chart, options, mean, variance] of parts) {
    chart.setAttribute('x', x);
    chart.setAttribute('y', top);
    const stats = t('stats', { mean: formatNumber(mean, { digits: 2 }), variance: formatNumber(variance, { digits: 2 }) });
    root.append(svg('text', { x: x + 8, y: 14, 'font-size': 13, fill: 'currentColor' }, `${options.name}: ${stats} ${t('expected', { value: options.expected })}`), chart);
    x += Number(chart.getAttribute('width')) + 16;
  }
  const width = x - 16, height = Number(parts[0][0].getAttribute('height')) + top;
  root.setAttribute('viewBox', `0 0 ${width} ${height}`);
  root.setAttribute('width', width);
  root.setAttribute('height', height);
  return root;
}

export function exports(data, state, t) {
  const bins = (label, h) => Array.from(h.counts, (count, k) => [label, h.edges[k], h.edges[k + 1], count, '']);
  return {
    visual: () => histograms(data, t),
    csv: () => ({
      header: ['part', 'score / bin from / key', 'scaled score / bin to / q·k', 'softmax / count / weight', 'sigmoid / weight scaled'],
      rows: [
        ...data.scores.map((x, i) => ['softmax vs sigmoid', x, data.scaledScores[i], data.softmax[i], data.sigmoid[i]]),
        ['sum', '', '', data.softmaxSum, data.sigmoidSum],
        ...bins('histogram q·k', data.raw),
        ...bins('histogram q·k/sqrt(d)', data.scaled),
        ...KEYS.map((k, j) => ['random keys', k, data.weights.dots[j], data.weights.off[j], data.weights.on[j]]),
        ['entropy (nats)', '', '', data.weights.entropyOff, data.weights.entropyOn],
      ],
    }),
    json: () => ({
      scores: data.scores, scale: data.scale, scaledScores: data.scaledScores, softmax: data.softmax, sigmoid: data.sigmoid,
      softmaxSum: data.softmaxSum, sigmoidSum: data.sigmoidSum,
      d: data.d, samples: data.samples,
      histograms: { dots: data.raw, scaled: data.scaled },
      randomKeys: { keys: KEYS, dots: data.weights.dots, weights: data.weights.off, scaledWeights: data.weights.on,
        entropy: data.weights.entropyOff, scaledEntropy: data.weights.entropyOn, maxEntropy: data.maxEntropy },
    }),
  };
}
