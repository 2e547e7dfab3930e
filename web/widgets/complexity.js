// Widget "complexity": what one layer costs, from the core's cost model.
// The articles' table — convolutional, recurrent and self-attention layers:
// complexity per layer, sequential operations, maximum path length — with the
// exact counts for the chosen n, d, k; multiply-adds against n on a log-log
// plot with the crossover n = d (self-attention is cheaper than a recurrent
// layer exactly when n < d); the factor when n doubles (4 for self-attention:
// quadratic, not exponential); and fully connected vs self-attention.
import { element } from '../dom.js';
import { formatNumber } from '../render/format.js';
import { PALETTE, linePlot } from '../render/plot.js';

export const name = 'complexity';

// n on a log scale: 2, 4, ..., 65536
const N_VALUES = Array.from({ length: 16 }, (_, e) => String(2 ** (e + 1)));
// the plot's lengths: 1 to 65536, two points per doubling
const CURVE_N = [...new Set(Array.from({ length: 33 }, (_, k) => Math.round(2 ** (k / 2))))];

export const strings = {
  en: {
    title: 'What a layer costs: convolution, recurrence, self-attention',
    intro: 'A sequence of n tokens, each a vector of width d (and a kernel of width k for a convolution). The core counts the multiply-adds of one layer, the operations that must run one after another, and the longest path a signal travels between two positions.',
    n: 'Sequence length n', d: 'Width d (channels)', k: 'Kernel width k',
    tableCaption: 'One layer of each kind, for n = {n}, d = {d}, k = {k}: the growth (big O) and the exact count',
    colLayer: 'Layer', colComplexity: 'Complexity per layer', colSequential: 'Sequential operations', colPath: 'Maximum path length',
    colDoubling: 'n → 2n', subComplexity: 'multiply-adds', subSequential: 'steps in a row', subPath: 'steps between two tokens', subDoubling: 'cost × when n doubles',
    'self-attention': 'Self-attention', recurrent: 'Recurrent (RNN)', convolutional: 'Convolutional (contiguous)',
    'convolutional (dilated)': 'Convolutional (dilated)', 'fully connected': 'Fully connected',
    countNote: 'Conventions of the count: self-attention 2n²d (QKᵀ and AV; the projections left out), recurrent 2nd² (two d × d products per step), convolution k·n·d² (the dilated one costs the same, but its path grows only like logₖ n).',
    quadraticTitle: 'Quadratic, not exponential',
    quadratic: 'One of the source articles says the training time of self-attention grows “exponentially” with the length of the text. It grows quadratically: doubling n from {n} to {n2} takes self-attention from {a} to {b} multiply-adds, × {ratio}. On the log-log plot its line has slope log₂ {ratio} = {slope}; recurrent and convolutional layers grow × {linear} (slope 1). Exponential growth would multiply the cost by ever larger factors; here the factor is the same, {ratio}, for every n.',
    crossoverTitle: 'The crossover at n = d',
    cheaper: 'Self-attention (2n²d) is cheaper than a recurrent layer (2nd²) exactly when n < d. Here n = {n} < d = {d}: self-attention needs {sa} multiply-adds, the recurrent layer {rnn}.',
    dearer: 'Self-attention (2n²d) is cheaper than a recurrent layer (2nd²) exactly when n < d. Here n = {n} > d = {d}: self-attention needs {sa} multiply-adds, more than the recurrent layer’s {rnn}.',
    equal: 'Self-attention (2n²d) is cheaper than a recurrent layer (2nd²) exactly when n < d. Here n = d = {n}: both need {sa} multiply-adds.',
    parallel: 'Whatever the cost, self-attention and convolutions run in parallel (1 sequential step) while a recurrent layer needs n = {n} steps in a row; and self-attention links any two tokens in one step, the shortest path of all.',
    plotTitle: 'Multiply-adds of one layer against n (d = {d}, k = {k}), log-log',
    xAxis: 'sequence length n', yAxis: 'multiply-adds per layer',
    crossover: 'n = d = {d}', convBoth: 'Convolutional (both)',
    fcTitle: 'Fully connected vs self-attention',
    fcIntro: 'A fully-connected layer over the whole sequence flattens it into one vector of n·d numbers and needs an (n·d) × (n·d) weight matrix: its parameters grow with n², and it only takes inputs of exactly that size. Self-attention learns W^Q, W^K, W^V, d × d each, whatever n.',
    fcCaption: 'Parameters (biases left out), n = {n}, d = {d}',
    fcRow: 'Parameters for n = {n}', fcRow2: 'Parameters for n = {n}', fcLength: 'Takes another length?', fcPath: 'Maximum path length',
    yes: 'yes: the same weights for any n', no: 'no: a new weight matrix for each n',
    fcPlotTitle: 'Parameters against n (d = {d}), log-log', fcYAxis: 'parameters',
    quizQuestion: 'When the sequence gets twice as long, the multiply-adds of self-attention are multiplied by…',
    quiz2: '2 (linear)', quiz4: '4 (quadratic)', quizExp: 'more and more (exponential)',
    quizExplain: 'The core counts {a} multiply-adds at n = {n} and {b} at n = {n2}: × {ratio}, and the same × {ratio} at every n. Quadratic, not exponential.',
    csvLayer: 'layer', csvComplexity: 'complexity', csvSequential: 'sequential', csvPath: 'path', csvMultiplyAdds: 'multiply-adds',
    csvSequentialOps: 'sequential operations', csvPathLength: 'maximum path length', csvParameters: 'parameters', csvDoubling: 'ratio when n doubles',
  },
  zh: {
    title: '一层的代价：卷积、循环与自注意力',
    intro: '长度为 n 的序列，每个词是宽度为 d 的向量（卷积的卷积核大小为 k）。计算核心统计一层的乘加次数、必须依次执行的操作数，以及信号在两个位置之间经过的最长路径。',
    n: '序列长度 n', d: '通道数 d', k: '卷积核大小 k',
    tableCaption: '每种层各一层，n = {n}，d = {d}，k = {k}：增长阶（大 O）与精确计数',
    colLayer: '层', colComplexity: '计算复杂度', colSequential: '顺序操作', colPath: '最大路径长度',
    colDoubling: 'n → 2n', subComplexity: '乘加次数', subSequential: '依次执行的步数', subPath: '两个词之间的步数', subDoubling: 'n 加倍时代价的倍数',
    'self-attention': '自注意力', recurrent: '循环神经网络（RNN）', convolutional: '卷积神经网络（连续）',
    'convolutional (dilated)': '卷积神经网络（空洞）', 'fully connected': '全连接层',
    countNote: '计数约定：自注意力 2n²d（QKᵀ 与 AV，不含投影），循环层 2nd²（每步两个 d × d 的乘积），卷积 k·n·d²（空洞卷积的代价相同，但它的路径只按 logₖ n 增长）。',
    quadraticTitle: '是二次方，不是指数',
    quadratic: '一篇原文说，文本长度增加时自注意力的训练时间“呈指数增长”。实际上它按二次方增长：n 从 {n} 加倍到 {n2}，自注意力的乘加次数从 {a} 变为 {b}，× {ratio}。在双对数图上它的直线斜率为 log₂ {ratio} = {slope}；循环层和卷积层 × {linear}（斜率 1）。指数增长意味着每次加倍的倍数越来越大；这里对每个 n，倍数都是同一个 {ratio}。',
    crossoverTitle: 'n = d 处的交点',
    cheaper: '当且仅当 n < d 时，自注意力（2n²d）比循环层（2nd²）便宜。这里 n = {n} < d = {d}：自注意力需要 {sa} 次乘加，循环层需要 {rnn} 次。',
    dearer: '当且仅当 n < d 时，自注意力（2n²d）比循环层（2nd²）便宜。这里 n = {n} > d = {d}：自注意力需要 {sa} 次乘加，多于循环层的 {rnn} 次。',
    equal: '当且仅当 n < d 时，自注意力（2n²d）比循环层（2nd²）便宜。这里 n = d = {n}：两者都需要 {sa} 次乘加。',
    parallel: '无论代价如何，自注意力和卷积都可以并行计算（顺序操作为 1），而循环层需要依次执行 n = {n} 步；自注意力一步就能连接任意两个词，最大路径长度最短。',
    plotTitle: '一层的乘加次数随 n 的变化（d = {d}，k = {k}），双对数坐标',
    xAxis: '序列长度 n', yAxis: '每层乘加次数',
    crossover: 'n = d = {d}', convBoth: '卷积（两种）',
    fcTitle: '全连接和自注意力对比',
    fcIntro: '对整个序列使用全连接层，要把它展平成一个含 n·d 个数的向量，需要 (n·d) × (n·d) 的权重矩阵：参数量随 n² 增长，而且只能接受恰好这个大小的输入。自注意力学习 W^Q、W^K、W^V，各为 d × d，与 n 无关。',
    fcCaption: '参数量（不含偏置），n = {n}，d = {d}',
    fcRow: 'n = {n} 时的参数量', fcRow2: 'n = {n} 时的参数量', fcLength: '能处理其他长度吗？', fcPath: '最大路径长度',
    yes: '能：任何 n 都用同一组权重', no: '不能：每个 n 需要新的权重矩阵',
    fcPlotTitle: '参数量随 n 的变化（d = {d}），双对数坐标', fcYAxis: '参数量',
    quizQuestion: '序列长度加倍时，自注意力的乘加次数变为原来的……',
    quiz2: '2 倍（线性）', quiz4: '4 倍（二次方）', quizExp: '越来越多倍（指数）',
    quizExplain: '计算核心给出 n = {n} 时 {a} 次乘加，n = {n2} 时 {b} 次：× {ratio}，而且每个 n 都是 × {ratio}。是二次方，不是指数。',
    csvLayer: '层', csvComplexity: '计算复杂度', csvSequential: '顺序操作', csvPath: '路径', csvMultiplyAdds: '乘加次数',
    csvSequentialOps: '顺序操作数', csvPathLength: '最大路径长度', csvParameters: '参数量', csvDoubling: 'n 加倍时的倍数',
  },
};

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
    n, d, k, now, doubled,
    // cost(2n) / cost(n): a ratio of two core counts
    ratio: Object.fromEntries(layers.map((l) => [l, doubled[l].multiplyAdds / now[l].multiplyAdds])),
    curve: { n: CURVE_N, ...Object.fromEntries(layers.map((l) => [l, { multiplyAdds: curve.map((c) => c[l].multiplyAdds), parameters: curve.map((c) => c[l].parameters) }])) },
  };
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
// A count as text: grouped digits below a million, else m × 10^e (display only).
export function formatCount(x) {
  if (!Number.isFinite(x)) return '—';
  if (Math.abs(x) < 1e6) return formatNumber(x, { digits: 0 });
  const e = Math.floor(Math.log10(Math.abs(x)));
  let m = x / 10 ** e, exp = e;
  if (Number(m.toFixed(2)) >= 10) { m /= 10; exp += 1; }
  return `${formatNumber(m, { digits: 2 })} × 10${String(exp).replace(/\d/g, (c) => SUPERSCRIPT[c])}`;
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
  const caption = element('caption', 'cx-table-caption');
  const head = element('tr');
  const th = (label, sub) => {
    const cell = element('th', '');
    cell.scope = 'col';
    cell.append(element('span', 'th-name', t(label)));
    if (sub) cell.append(element('span', 'th-sub', t(sub)));
    return cell;
  };
  head.append(th('colLayer'), th('colComplexity', 'subComplexity'), th('colSequential', 'subSequential'), th('colPath', 'subPath'), th('colDoubling', 'subDoubling'));
  const thead = element('thead');
  thead.append(head);
  const tbody = element('tbody');
  table.append(caption, thead, tbody);
  const tableBox = element('div', 'table-scroll cx-table-box');
  tableBox.append(table);
  const countNote = element('p', 'cx-note', t('countNote'));

  const callout = (title) => {
    const box = element('section', 'cx-callout');
    const text = element('p', 'cx-callout-text');
    box.append(element('h3', 'cx-heading', t(title)), text);
    return { box, text };
  };
  const quadratic = callout('quadraticTitle');
  quadratic.box.classList.add('is-key');
  quadratic.box.dataset.part = 'quadratic';
  const crossover = callout('crossoverTitle');
  crossover.box.dataset.part = 'crossover';
  const parallel = element('p', 'cx-callout-text');
  crossover.box.append(parallel);

  const plot = element('figure', 'cx-plot');
  const plotCaption = element('figcaption', 'cx-plot-caption');
  const plotBox = element('div', 'plot-box');
  plot.append(plotCaption, plotBox);

  const fc = element('section', 'cx-fc');
  const fcTable = element('table', 'cx-table cx-fc-table');
  const fcCaption = element('caption', 'cx-table-caption');
  const fcHead = element('tr');
  fcHead.append(element('td', ''), th('fully connected'), th('self-attention'));
  const fcThead = element('thead');
  fcThead.append(fcHead);
  const fcBody = element('tbody');
  fcTable.append(fcCaption, fcThead, fcBody);
  const fcTableBox = element('div', 'table-scroll');
  fcTableBox.append(fcTable);
  const fcPlot = element('figure', 'cx-plot');
  const fcPlotCaption = element('figcaption', 'cx-plot-caption');
  const fcPlotBox = element('div', 'plot-box');
  fcPlot.append(fcPlotCaption, fcPlotBox);
  fc.append(element('h3', 'cx-heading', t('fcTitle')), element('p', 'cx-fc-intro', t('fcIntro')), fcTableBox, fcPlot);

  body.append(tableBox, countNote, quadratic.box, plot, crossover.box, fc);
  return { caption, tbody, quadratic: quadratic.text, crossover: crossover.text, parallel, plotCaption, plotBox, fcCaption, fcBody, fcPlotCaption, fcPlotBox };
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
  view.caption.textContent = t('tableCaption', { n: exact(n), d, k });
  view.tbody.replaceChildren(...TABLE_LAYERS.map((l) => {
    const row = data.now[l];
    const tr = element('tr');
    tr.dataset.layer = l;
    const name = element('th', 'cx-layer', t(l));
    name.scope = 'row';
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
  view.quadratic.textContent = t('quadratic', {
    n: exact(n), n2: exact(2 * n), a: formatCount(sa.multiplyAdds), b: formatCount(sa2.multiplyAdds),
    ratio: ratioText(ratio), slope: formatNumber(Math.log2(ratio), { digits: 2 }), linear: ratioText(data.ratio.recurrent),
  });
  const which = sa.multiplyAdds < rnn.multiplyAdds ? 'cheaper' : sa.multiplyAdds > rnn.multiplyAdds ? 'dearer' : 'equal';
  view.crossover.textContent = t(which, { n: exact(n), d, sa: formatCount(sa.multiplyAdds), rnn: formatCount(rnn.multiplyAdds) });
  view.crossover.dataset.field = which;
  view.parallel.textContent = t('parallel', { n: exact(rnn.sequentialOps) });

  view.plotCaption.textContent = t('plotTitle', { d, k });
  view.plotBox.replaceChildren(...bothPlots((o) => costPlot(data, t, o)));

  // fully connected vs self-attention
  const fc = data.now['fully connected'], fc2 = data.doubled['fully connected'], sa2p = data.doubled['self-attention'];
  view.fcCaption.textContent = t('fcCaption', { n: exact(n), d });
  const fcRow = (label, a, b, field) => {
    const tr = element('tr');
    const th = element('th', 'cx-layer', label);
    th.scope = 'row';
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
  view.fcPlotCaption.textContent = t('fcPlotTitle', { d });
  view.fcPlotBox.replaceChildren(...bothPlots((o) => paramPlot(data, t, o)));
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: '2', label: 'quiz2' }, { value: '4', label: 'quiz4' }, { value: 'exp', label: 'quizExp' }],
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
