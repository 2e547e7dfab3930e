// Widget "conditional": conditional attention. A label (formal, casual,
// question) becomes a one-hot condition vector c of length 3, scaled by a
// strength; c is fused into the input of Q and K (concatenation, addition or a
// fully-connected layer) while V still comes from the words alone. The map
// with c is drawn next to the map with c = 0 (same fusion, same parameters,
// so the only change is the condition), and the core measures the largest
// change of any weight, max |Δ|.
import { element } from '../dom.js';
import { mergeStrings } from '../i18n.js';
import { formatNumber } from '../render/format.js';
import { heatmap, legend } from '../render/heatmap.js';
import { matrixTable } from '../render/matrix.js';
import { composite } from '../render/compose.js';
import { SENTENCE_PRESETS, sentenceStrings } from '../sentences.js';
import { sentenceTokens } from '../text.js';

export const name = 'conditional';

// width d of the word vectors; the condition has one entry per label
const D = 16;
const LABELS = ['formal', 'casual', 'question'];
const MAX_TOKENS = 16;

export const strings = mergeStrings(sentenceStrings, {
  en: {
    title: 'Conditional attention: a label steers the map',
    intro: 'A condition — a label, a style, an auxiliary variable — is encoded as a vector c and fused into the inputs of Q and K, by concatenation, by addition or through a fully-connected layer. The weights then depend not only on the words but also on the condition. V still comes from the words alone.',
    sentence: 'Sentence', label: 'Condition (label)', formal: 'formal', casual: 'casual', question: 'question',
    strength: 'Strength of c', fusion: 'Fusion into Q and K', concat: 'Concatenate', add: 'Add', fc: 'Fully-connected layer',
    seed: 'Random parameters (seed)',
    conditionVector: 'Condition vector c = strength × one-hot(“{label}”)',
    conditionEntry: '{label}: {value}',
    formulaConcat: 'F = [X | 1cᵀ]: c is appended to every word vector',
    formulaAdd: 'F = X + 1(cP): c is projected by P to the width of X and added to every word vector',
    formulaFc: 'F = tanh([X | 1cᵀ] W_f + b): the joined vector goes through a fully-connected layer back to width d',
    shapes: 'Shapes (from the core)',
    shapeX: 'X (words): {rows} × {cols}', shapeC: 'c: {cols}',
    shapeFused: 'F (fused input of Q and K): {rows} × {cols}',
    shapeFusedConcat: 'F (fused input of Q and K): {rows} × ({d} + {dc}) = {rows} × {cols}',
    shapeP: 'P: {rows} × {cols}', shapeWf: 'W_f: {rows} × {cols}, b: {b}',
    shapeQK: 'Q = F·W^Q, K = F·W^K: {rows} × {cols} each', shapeV: 'V = X·W^V: {rows} × {cols} (no condition)',
    baseTitle: 'Without condition (c = 0)', condTitle: 'With condition c',
    baseNote: 'Same fusion, same W^Q, W^K, W^V: only c differs.',
    condNote: 'c = [{c}]',
    mapTitle: '{which}: attention weights of “{sentence}”',
    cellLabel: '{which}, {q} → {k}: weight {w}',
    weights: 'weights',
    delta: 'Largest change of any weight, max |Δ|',
    deltaZero: 'With strength 0 the condition vector is all zeros: the two maps are identical.',
    deltaSome: 'At least one weight moved this much. Each row still sums to 1: attention shifted between the words, none was added.',
    cell: '“{q}” → “{k}”', cellBase: 'weight without c', cellCond: 'weight with c',
    fused: 'The fused input F, as numbers ({rows} × {cols})',
    meaning: 'The labels carry no meaning here: c is a one-hot vector and the fusion parameters are random. A trained model would learn what each label should change; this shows how a condition enters the computation.',
    csvWhich: 'map', csvBase: 'without condition', csvCond: 'with condition',
  },
  zh: {
    title: '条件注意力：用标签调整注意力图',
    intro: '条件信息（如标签类别、句子属性或其他辅助变量）被编码为向量 c，通过连接、相加或一个全连接层融合到查询 Q 和键 K 的生成中。这样注意力权重不仅依赖于输入序列内部的关系，还受到外部条件的影响。值 V 仍然只来自输入的词。',
    sentence: '句子', label: '条件（标签）', formal: '正式', casual: '口语', question: '疑问',
    strength: 'c 的强度', fusion: '融合到 Q 和 K 的方式', concat: '连接', add: '相加', fc: '全连接层',
    seed: '随机参数（种子）',
    conditionVector: '条件向量 c = 强度 × one-hot(“{label}”)',
    conditionEntry: '{label}：{value}',
    formulaConcat: 'F = [X | 1cᵀ]：把 c 连接到每个词向量的后面',
    formulaAdd: 'F = X + 1(cP)：c 经矩阵 P 投影到 X 的宽度，再加到每个词向量上',
    formulaFc: 'F = tanh([X | 1cᵀ] W_f + b)：连接后的向量经过一个全连接层，回到宽度 d',
    shapes: '形状（来自计算核心）',
    shapeX: 'X（词向量）：{rows} × {cols}', shapeC: 'c：{cols}',
    shapeFused: 'F（Q 和 K 的融合输入）：{rows} × {cols}',
    shapeFusedConcat: 'F（Q 和 K 的融合输入）：{rows} × ({d} + {dc}) = {rows} × {cols}',
    shapeP: 'P：{rows} × {cols}', shapeWf: 'W_f：{rows} × {cols}，b：{b}',
    shapeQK: 'Q = F·W^Q，K = F·W^K：各为 {rows} × {cols}', shapeV: 'V = X·W^V：{rows} × {cols}（不含条件）',
    baseTitle: '无条件（c = 0）', condTitle: '有条件 c',
    baseNote: '相同的融合方式，相同的 W^Q、W^K、W^V：只有 c 不同。',
    condNote: 'c = [{c}]',
    mapTitle: '{which}：“{sentence}”的注意力权重',
    cellLabel: '{which}，{q} → {k}：权重 {w}',
    weights: '权重',
    delta: '所有权重中最大的变化 max |Δ|',
    deltaZero: '强度为 0 时条件向量全为 0：两张图完全相同。',
    deltaSome: '至少有一个权重改变了这么多。每一行之和仍为 1：注意力在词之间重新分配，并没有增加。',
    cell: '“{q}” → “{k}”', cellBase: '无条件时的权重', cellCond: '有条件时的权重',
    fused: '融合输入 F 的数值（{rows} × {cols}）',
    meaning: '这里的标签没有含义：c 是一个独热向量，融合参数是随机的。训练好的模型会学到每个标签应当改变什么；此处展示的是条件如何进入计算。',
    csvWhich: '图', csvBase: '无条件', csvCond: '有条件',
  },
});

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
  shapesBox.append(element('h3', 'cond-heading', t('shapes')), shapes);
  const top = element('div', 'cond-top');
  top.append(condition, formula, shapesBox);

  const panel = (which) => {
    const figure = element('figure', 'cond-panel');
    figure.dataset.map = which;
    const caption = element('figcaption', 'cond-caption');
    caption.append(element('span', 'cond-caption-title', t(which === 'base' ? 'baseTitle' : 'condTitle')), element('span', 'cond-caption-note'));
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
  deltaLine.append(element('span', 'cond-delta-label', t('delta')), deltaValue);
  const deltaNote = element('p', 'cond-delta-note');
  delta.append(deltaLine, deltaNote);

  const details = element('div', 'cell-details');
  details.setAttribute('aria-live', 'polite');
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
    rowLabels: data.tokens, colLabels: data.tokens, values: m.data, min: 0, max: 1, digits: 2, selected, onCell,
    title: t('mapTitle', { which: title, sentence: data.tokens.join(' ') }),
    describe: (i, j) => t('cellLabel', { which: title, q: data.tokens[i], k: data.tokens[j], w: formatNumber(m.data[i * data.n + j], { digits: 3 }) }),
  });
}

// The selection ring on cell (i, j) of a drawn map (the other map follows the one in use).
function markCell(root, i, j) {
  for (const node of root.querySelectorAll('.heatmap-cell.is-selected')) node.classList.remove('is-selected');
  root.querySelector(`.heatmap-cell[data-i="${i}"][data-j="${j}"]`)?.classList.add('is-selected');
}

function showCell(view, data, i, j, t) {
  const at = (m) => formatNumber(m.data[i * data.n + j], { digits: 4 });
  const list = element('dl', 'steps');
  for (const [key, value, field] of [['cellBase', at(data.baseWeights), 'base'], ['cellCond', at(data.weights), 'cond']]) {
    const item = element('div', `step step-${field === 'cond' ? 'weight' : field}`);
    const dd = element('dd', '', value);
    dd.dataset.field = field;
    item.append(element('dt', '', t(key)), dd);
    list.append(item);
  }
  view.details.replaceChildren(element('h4', 'steps-title', t('cell', { q: data.tokens[i], k: data.tokens[j] })), list);
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
  view.condition.replaceChildren(element('p', 'cond-vector-title', t('conditionVector', { label: t(state.label) })), entries);
  view.formula.textContent = t(FORMULAS[data.fusion]);

  // shapes, read from the core's matrices
  const items = [
    t('shapeX', data.X), t('shapeC', { cols: data.c.length }),
    data.fusion === 'concat'
      ? t('shapeFusedConcat', { rows: data.fused.rows, cols: data.fused.cols, d: data.X.cols, dc: data.c.length })
      : t('shapeFused', data.fused),
  ];
  if (data.P) items.push(t('shapeP', data.P));
  if (data.Wf) items.push(t('shapeWf', { ...data.Wf, b: data.bf }));
  items.push(t('shapeQK', data.Q), t('shapeV', data.V));
  view.shapes.replaceChildren(...items.map((text, k) => {
    const li = element('li', '', text);
    if (k === 2) { li.dataset.field = 'fused-shape'; li.classList.add('is-fused'); }
    return li;
  }));

  // the two maps, one selection
  const [i, j] = clampCell(data, state);
  const maps = {};
  const onCell = (a, b) => {
    for (const map of Object.values(maps)) markCell(map.element, a, b);
    showCell(view, data, a, b, t);
    if (a !== ctx.state.row || b !== ctx.state.col) ctx.setState({ row: a, col: b }, { quiet: true });
  };
  for (const which of ['base', 'cond']) {
    maps[which] = mapVisual(data, which, t, [i, j], onCell);
    view[which].box.replaceChildren(maps[which].element);
  }
  view.base.note.textContent = t('baseNote');
  view.cond.note.textContent = t('condNote', { c: data.c.map(number).join(', ') });
  view.legendBox.replaceChildren(legend({ min: 0, max: 1, label: t('weights') }));
  showCell(view, data, i, j, t);

  view.deltaValue.textContent = formatNumber(data.delta, { digits: 4 });
  view.deltaNote.textContent = data.delta === 0 ? t('deltaZero') : t('deltaSome');

  view.fusedSummary.textContent = t('fused', data.fused);
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
