// Widget "softmax-scaling": why softmax, and why scores are divided by √d.
//   (a) softmax and sigmoid on the same scores: softmax makes them compete
//       (the weights sum to 1), sigmoid squashes each alone (any sum);
//   (b) large scores saturate softmax: 1000 and 10000 give exactly [0, 1], and
//       never NaN, because the core subtracts the largest score before exp;
//   (c) for random q, k with unit-variance entries, q·k has variance d, and
//       q·k / √d variance 1: histograms of samples, bin counts from the core;
//   (d) so without scaling one key takes all the weight at large d (entropy
//       near 0); with it the weights stay spread.
import { element } from '../dom.js';
import { hbar } from '../render/bars.js';
import { formatNumber, formatWeight } from '../render/format.js';
import { barChart, PALETTE } from '../render/plot.js';
import { svg } from '../render/svg.js';
import { inputError, parseNumbers } from '../text.js';

export const name = 'softmax-scaling';

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

export const strings = {
  en: {
    title: 'Softmax, saturation and the 1/√d scaling',
    intro: 'Softmax turns scores into weights between 0 and 1 that sum to 1. Why softmax rather than sigmoid, what happens when scores are large, and why Transformers divide the scores by √d before softmax.',
    scores: 'Scores (numbers separated by commas)', scoreList: 'scores', scale: 'Multiply the scores by',
    d: 'Width d of q and k (panels 3 and 4)', seed: 'Random vectors (seed)',
    tooMany: 'There are {count} scores; this widget takes at most {max}.',
    tooLarge: 'Score {index}, “{text}”, is too large: keep scores between −{max} and {max}.',
    partA: '1. Softmax or sigmoid?',
    explainA: 'Softmax compares the scores with each other: the weights always sum to 1, a share of attention. Sigmoid squashes each score on its own, so the sum can be anything: it is not a distribution over the keys.',
    colScore: 'Score x', colScaled: '× {scale}', colSoftmax: 'softmax', colSigmoid: 'sigmoid', sum: 'Sum',
    softmaxOf: 'softmax weight of score {x}: {w}', sigmoidOf: 'sigmoid of score {x}: {w}',
    tableA: 'Each score, its softmax weight and its sigmoid',
    partB: '2. Saturation',
    explainB: 'Multiply the scores (or type 1000, 10000): the gaps between them grow and softmax hands the largest score all the weight, exactly [0, 1] for 1000 and 10000. The core subtracts the row maximum before exp, so nothing overflows and every weight stays a real number (never “not a number”); but a saturated softmax has almost no gradient, and the model stops learning.',
    saturated: 'Largest weight {w}: saturated, softmax has become a hard maximum.',
    notSaturated: 'Largest weight {w}: the weights are still spread.',
    partC: '3. Why divide by √d',
    explainC: 'For q and k whose {d} entries are independent with mean 0 and variance 1, q·k is a sum of {d} such products, so its variance is d. Dividing by √d brings it back to 1, whatever d is. {count} random pairs from the core:',
    rawTitle: 'q·k', scaledTitle: 'q·k / √{d}',
    stats: 'mean {mean}, variance {variance}', expected: '(≈ {value})',
    outside: '{count} samples beyond the axis', count: 'count',
    histTitle: 'Histogram of {what} for {count} random pairs at d = {d}',
    partD: '4. What the scaling does to the weights',
    explainD: 'One random query against {n} random keys at d = {d}. Without scaling the scores are spread like √d, so at large d one key takes nearly all the weight (entropy near 0). Divided by √d, the weights stay spread (the entropy of an even split is log {n} = {max} nats).',
    colKey: 'Key', colDot: 'q·k', colOff: 'weight, softmax(q·k)', colOn: 'weight, softmax(q·k / √d)',
    entropy: 'Entropy (nats)', tableD: 'Weights of {n} random keys for one random query, without and with scaling',
    weightOf: 'weight of {k}: {w}',
    quizQuestion: 'No scaling, d = 512: how much weight does the best of 12 random keys get?',
    quizEven: 'about 1/12, an even share', quizHalf: 'about half', quizAll: 'nearly all of it',
    quizExplain: 'The core gives the best key {w} of the weight at d = 512 without scaling (entropy {h} nats); divided by √512 it gets {ws} (entropy {hs} nats).',
  },
  zh: {
    title: 'softmax、饱和与 1/√d 缩放',
    intro: 'softmax 把得分变成介于 0 和 1 之间、和为 1 的权重。为什么用 softmax 而不用 sigmoid？得分很大时会发生什么？为什么 Transformer 在 softmax 之前把得分除以 √d？',
    scores: '得分（用逗号分隔的数字）', scoreList: '得分', scale: '得分乘以',
    d: 'q 和 k 的维度 d（第 3、4 部分）', seed: '随机向量（种子）',
    tooMany: '共有 {count} 个得分；此组件最多接受 {max} 个。',
    tooLarge: '第 {index} 个得分“{text}”太大：请保持在 −{max} 到 {max} 之间。',
    partA: '1. softmax 还是 sigmoid？',
    explainA: 'softmax 让得分彼此比较：权重之和总是 1，是注意力的分配。sigmoid 单独压缩每个得分，所以和可以是任意值：它不是键上的概率分布。',
    colScore: '得分 x', colScaled: '× {scale}', colSoftmax: 'softmax', colSigmoid: 'sigmoid', sum: '总和',
    softmaxOf: '得分 {x} 的 softmax 权重：{w}', sigmoidOf: '得分 {x} 的 sigmoid：{w}',
    tableA: '每个得分、它的 softmax 权重和 sigmoid 值',
    partB: '2. 饱和',
    explainB: '把得分放大（或输入 1000, 10000）：得分之间的差距变大，softmax 把全部权重交给最大的得分，1000 和 10000 恰好得到 [0, 1]。核心在取 exp 之前先减去该行最大值，所以不会溢出，每个权重都是有效的数（不会出现“非数”）；但饱和的 softmax 梯度几乎为 0（梯度消失），模型就学不动了。',
    saturated: '最大权重 {w}：已饱和，softmax 变成了硬性的最大值。',
    notSaturated: '最大权重 {w}：权重仍然分散。',
    partC: '3. 为什么除以 √d',
    explainC: '若 q 和 k 的 {d} 个元素相互独立、均值为 0、方差为 1，则 q·k 是 {d} 个这样的乘积之和，方差为 d。除以 √d 后方差回到 1，与 d 无关。以下是核心生成的 {count} 对随机向量：',
    rawTitle: 'q·k', scaledTitle: 'q·k / √{d}',
    stats: '均值 {mean}，方差 {variance}', expected: '（≈ {value}）',
    outside: '有 {count} 个样本超出坐标轴范围', count: '个数',
    histTitle: 'd = {d} 时 {count} 对随机向量的 {what} 直方图',
    partD: '4. 缩放对权重的影响',
    explainD: '一个随机查询对 {n} 个随机键，d = {d}。不缩放时，得分的分散程度约为 √d，所以 d 大时几乎全部权重落在一个键上（熵接近 0）。除以 √d 后权重保持分散（平均分配时的熵为 log {n} = {max} 奈特）。',
    colKey: '键', colDot: 'q·k', colOff: '权重，softmax(q·k)', colOn: '权重，softmax(q·k / √d)',
    entropy: '熵（奈特）', tableD: '一个随机查询对 {n} 个随机键的权重，不缩放与缩放',
    weightOf: '{k} 的权重：{w}',
    quizQuestion: '不缩放、d = 512：12 个随机键中最好的键拿到多少权重？',
    quizEven: '约 1/12，平均分配', quizHalf: '约一半', quizAll: '几乎全部',
    quizExplain: '核心算出：d = 512 且不缩放时，最佳键拿到 {w} 的权重（熵 {h} 奈特）；除以 √512 后它拿到 {ws}（熵 {hs} 奈特）。',
  },
};

export const defaults = { scores: '1, 2, 3', scale: '1', d: '64', seed: 1 };

export const controls = [
  { key: 'scores', type: 'text', label: 'scores', maxLength: 300, presets: [
    { value: '1, 2, 3', label: '1, 2, 3' }, { value: '1000, 10000', label: '1000, 10000' },
    { value: '14, 12', label: '14, 12' }, { value: '-2, 0, 0.5, 3', label: '-2, 0, 0.5, 3' }] },
  { key: 'scale', type: 'choice', label: 'scale', options: SCALES.map((v) => ({ value: v, label: `×${v}` })) },
  { key: 'd', type: 'select', label: 'd', options: DIMENSIONS.map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
];

// Σ values, computed by the core: the weighted sum with every weight 1.
function coreSum(att, values) {
  return att.kernelRegression({ keys: values, values, weights: new Float32Array(values.length).fill(1) }).estimate;
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
  // the core multiplies: the scores as 1-wide keys against the query 1, times the scale
  const scaledScores = att.attention({
    query: [[1]], key: { rows: n, cols: 1, data: scores }, value: { rows: n, cols: 1, data: scores },
    score: 'dot', scale: Number(state.scale),
  }).scaled;
  const softmax = att.softmax(scaledScores).data;
  const sigmoid = att.sigmoid(scaledScores).data;

  // (c): q·k samples and their histograms
  const d = Number(state.d);
  const samples = att.dotProductSamples({ d, count: SAMPLES, seed: state.seed });
  const raw = att.histogram({ values: samples.dots, ...RAW_AXIS });
  const scaled = att.histogram({ values: samples.scaled, ...SCALED_AXIS });

  // (d): entropy without and with scaling; log n from the entropy of even weights
  const weights = randomWeights(att, d, state.seed);
  const maxEntropy = att.entropy(att.softmax(new Float32Array(KEYS.length)))[0];
  const quiz = d === 512 ? weights : randomWeights(att, 512, state.seed);

  return {
    scores, scale: Number(state.scale), scaledScores: scaledScores.data, softmax, sigmoid,
    softmaxSum: coreSum(att, softmax), sigmoidSum: coreSum(att, sigmoid), softmaxMax: Math.max(...softmax),
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
  const explainA = element('p', 'ss-explain', t('explainA'));
  const tableA = element('div', 'table-scroll');
  a.append(explainA, tableA);
  const b = section(body, t('partB'));
  const status = element('p', 'ss-status');
  status.dataset.field = 'saturation';
  status.setAttribute('aria-live', 'polite');
  b.append(element('p', 'ss-explain', t('explainB')), status);
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

function headRow(labels) {
  const tr = element('tr');
  for (const [text, cls] of labels) {
    const th = element('th', cls, text);
    th.scope = 'col';
    tr.append(th);
  }
  const thead = element('thead');
  thead.append(tr);
  return thead;
}

function scoresTable(data, t) {
  const table = element('table', 'ss-table');
  table.append(element('caption', 'visually-hidden', t('tableA')));
  const scaleText = formatNumber(data.scale, { digits: 1, minDigits: 0 });
  table.append(headRow([[t('colScore'), 'num'], [t('colScaled', { scale: scaleText }), 'num'],
    [t('colSoftmax'), 'weight-col'], [t('colSigmoid'), 'weight-col']]));
  const tbody = element('tbody');
  data.scores.forEach((x, i) => {
    const tr = element('tr');
    const shownX = formatNumber(x, { digits: 3, minDigits: 0 });
    const score = element('th', 'num', shownX);
    score.scope = 'row';
    const scaled = element('td', 'num', formatNumber(data.scaledScores[i], { digits: 3, minDigits: 0 }));
    scaled.dataset.field = 'scaled';
    tr.append(score, scaled,
      weightCell(data.softmax[i], t('softmaxOf', { x: shownX, w: formatWeight(data.softmax[i]) }), 'softmax'),
      weightCell(data.sigmoid[i], t('sigmoidOf', { x: shownX, w: formatWeight(data.sigmoid[i]) }), 'sigmoid'));
    tbody.append(tr);
  });
  const foot = element('tfoot');
  const tr = element('tr');
  const label = element('th', '', t('sum'));
  label.scope = 'row';
  label.colSpan = 2;
  const sum = (value, field) => {
    const td = element('td', 'num ss-sum', formatNumber(value, { digits: 3 }));
    td.dataset.field = field;
    return td;
  };
  tr.append(label, sum(data.softmaxSum, 'softmaxSum'), sum(data.sigmoidSum, 'sigmoidSum'));
  foot.append(tr);
  table.append(tbody, foot);
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
  const numbers = element('span', 'ss-stats', t('stats', { mean: formatNumber(stats.mean, { digits: 2 }), variance: formatNumber(stats.variance, { digits: 2 }) }));
  numbers.dataset.variance = String(stats.variance);
  caption.append(numbers, ' ', element('span', 'ss-expected', t('expected', { value: options.expected })));
  figure.append(caption, histogram(h, options, t));
  const out = h.below + h.above;
  if (out > 0) figure.append(element('p', 'ss-outside muted', t('outside', { count: out })));
  return figure;
}

function weightsTable(data, t) {
  const w = data.weights;
  const table = element('table', 'ss-table');
  table.append(element('caption', 'visually-hidden', t('tableD', { n: KEYS.length })));
  table.append(headRow([[t('colKey'), ''], [t('colDot'), 'num'], [t('colOff'), 'weight-col'], [t('colOn'), 'weight-col']]));
  const tbody = element('tbody');
  KEYS.forEach((key, j) => {
    const tr = element('tr');
    const th = element('th', '', key);
    th.scope = 'row';
    const dot = element('td', 'num', formatNumber(w.dots[j], { digits: 2 }));
    dot.dataset.field = 'dot';
    tr.append(th, dot, weightCell(w.off[j], t('weightOf', { k: key, w: formatWeight(w.off[j]) }), 'off'),
      weightCell(w.on[j], t('weightOf', { k: key, w: formatWeight(w.on[j]) }), 'on'));
    tbody.append(tr);
  });
  const foot = element('tfoot');
  const tr = element('tr');
  const label = element('th', '', t('entropy'));
  label.scope = 'row';
  label.colSpan = 2;
  const cell = (value, field) => {
    const td = element('td', 'num ss-sum', formatNumber(value, { digits: 3 }));
    td.dataset.field = field;
    return td;
  };
  tr.append(label, cell(w.entropyOff, 'entropyOff'), cell(w.entropyOn, 'entropyOn'));
  foot.append(tr);
  table.append(tbody, foot);
  return table;
}

const RAW = (data, t) => ({ name: t('rawTitle'), title: t('histTitle', { what: 'q·k', count: SAMPLES, d: data.d }), color: PALETTE[1], digits: 0, expected: `d = ${data.d}` });
const SCALED = (data, t) => ({ name: t('scaledTitle', { d: data.d }), title: t('histTitle', { what: `q·k / √${data.d}`, count: SAMPLES, d: data.d }), color: PALETTE[0], digits: 0, expected: '1' });

export function render(view, data, state, { t }) {
  view.tableA.replaceChildren(scoresTable(data, t));
  view.status.textContent = t(data.softmaxMax >= 0.999 ? 'saturated' : 'notSaturated', { w: formatWeight(data.softmaxMax) });
  view.status.classList.toggle('is-saturated', data.softmaxMax >= 0.999);
  view.explainC.textContent = t('explainC', { d: data.d, count: SAMPLES });
  const s = data.samples;
  view.hists.replaceChildren(
    histFigure(data.raw, { mean: s.mean, variance: s.variance }, RAW(data, t), t, 'raw'),
    histFigure(data.scaled, { mean: s.scaledMean, variance: s.scaledVariance }, SCALED(data, t), t, 'scaled'));
  view.explainD.textContent = t('explainD', { n: KEYS.length, d: data.d, max: formatNumber(data.maxEntropy, { digits: 3 }) });
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
  const root = svg('svg', { role: 'img', 'aria-label': t('partC'), 'font-family': 'system-ui, sans-serif' });
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
