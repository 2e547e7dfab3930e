// Widget "self-attention": self-attention in matrix form, in two parts.
// (a) The article's worked example, "Thinking Machines" with d_k = 64,
//     recomputed by the core: q1·k1 = 112, q1·k2 = 96 -> /8 -> 14, 12 ->
//     softmax 0.880797, 0.119203 -> z1 = α11·v1 + α12·v2 (the article's formula
//     has a typo there). The vectors are chosen so the dot products come out
//     exactly: q1 all ones, k1 all 1.75, k2 all 1.5.
// (b) The whole chain for any sentence, every matrix with its shape:
//     X (n, d) -> Q = XW^Q, K = XW^K, V = XW^V (n, d_k) -> S = QKᵀ (n, n)
//     -> S/√d_k -> mask (none or causal) -> A = softmax by rows -> Z = AV (n, d_k).
// Why: the article's formulas become numbers one can check, and the same
// steps scale from two words to a sentence.
import { element } from '../dom.js';
import { mergeStrings } from '../i18n.js';
import { formatNumber } from '../render/format.js';
import { heatmap, legend } from '../render/heatmap.js';
import { matrixTable } from '../render/matrix.js';
import { SENTENCE_PRESETS, sentenceStrings } from '../sentences.js';
import { sentenceTokens } from '../text.js';

export const name = 'self-attention';

// (a): d_k = 64, and vectors that give the article's dot products exactly.
const D_K = 64;
const Q1 = new Array(D_K).fill(1);      // q1 · k1 = 64 · 1.75, q1 · k2 = 64 · 1.5
const K1 = new Array(D_K).fill(1.75);
const K2 = new Array(D_K).fill(1.5);
const V1 = [1, 0, 2, 1];                 // small values, shown in full
const V2 = [0, 1, 2, 3];
const ZERO = [0, 0, 0, 0];

// (b): width of the word vectors X
const D_IN = 8;
const MAX_WORDS = 32;

const STEPS = ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'output'];

export const strings = mergeStrings(sentenceStrings, {
  en: {
    title: 'Self-attention in matrix form, step by step',
    intro: 'In self-attention the queries, keys and values all come from the same words: Q = XW^Q, K = XW^K, V = XW^V. Then S = QKᵀ, A = softmax(S/√d_k) row by row, and Z = AV. First the article’s worked example with two words, then the whole chain for any sentence.',
    sentence: 'Sentence', dK: 'Width d_k of Q, K and V', seed: 'Random projections (seed)',
    mask: 'Mask', maskNone: 'No mask', maskCausal: 'Causal (look-ahead)',
    step: 'Show', stepAll: 'All steps', stepX: '1. X: word vectors', stepQkv: '2. Q, K, V', stepScores: '3. S = QKᵀ',
    stepScaled: '4. S / √d_k', stepMasked: '5. Mask', stepWeights: '6. A = softmax', stepOutput: '7. Z = AV',
    // (a)
    walkTitle: 'Worked example: “Thinking Machines”, d_k = 64',
    walkIntro: 'The article’s numbers, recomputed by the core. To get them exactly, the 64-entry vectors are chosen by hand: q₁ has every entry 1, k₁ every entry 1.75, k₂ every entry 1.5; the values v₁ and v₂ are short, to be read in full.',
    vectors: 'The vectors', entries: '{n} entries', thinking: 'Thinking', machines: 'Machines',
    walkCaption: 'Query q₁ (“Thinking”) against the keys k₁ (“Thinking”) and k₂ (“Machines”)',
    rowScore: 'score s₁ⱼ = q₁·kⱼ', rowScaled: 'scaled s₁ⱼ / √d_k', rowExp: 'exp(scaled − row max)', rowWeight: 'weight α₁ⱼ = softmax', rowRounded: 'rounded',
    scaleNote: '√d_k = √64: the scores are multiplied by {scale}.',
    sumNote: 'Row sum of exp: {sum}; each weight is its exp divided by this sum.',
    outputTitle: 'The output for “Thinking”',
    outputLine: 'z₁ = α₁₁v₁ + α₁₂v₂',
    typo: 'The article writes z₁ = α₁v₁ + α₁v₂: a typo. Each value is weighted by its own key’s weight, z₁ = α₁₁v₁ + α₁₂v₂ (and z₂ = α₂₁v₁ + α₂₂v₂).',
    // (b)
    chainTitle: 'Every matrix of the chain for “{sentence}”',
    chainIntro: 'The controls above choose the sentence, d_k, the projections and the mask. Rows are words; wide matrices scroll sideways.',
    shape: '{rows} × {cols}',
    xTitle: 'X: one word vector per row', xNote: 'The word vectors (width d = {d}).',
    qkvTitle: 'Q = XW^Q, K = XW^K, V = XW^V', qkvNote: 'Three projections of the same X: that is what makes it self-attention.',
    scoresTitle: 'S = QKᵀ', scoresNote: 'Entry (i, j) is qᵢ·kⱼ: how well word i’s query matches word j’s key.',
    scaledTitle: 'S / √d_k', scaledNote: 'Multiplied by {scale} = 1/√{d}, so that the scores do not grow with d_k and saturate the softmax.',
    maskedTitle: 'Mask', maskedNoneNote: 'No mask: every word may look at every word; the matrix is S/√d_k unchanged.',
    maskedCausalNote: 'Causal mask: word i may only look at words 1…i; the scores of later words become −∞, so their weights will be 0.',
    weightsTitle: 'A = softmax(S/√d_k), row by row', weightsNote: 'Each row sums to 1: how much each word takes from each word.',
    outputTitle2: 'Z = AV', outputNote: 'Each output row is the weighted sum of the rows of V: the new vector of its word.',
    mapTitle: 'A for “{sentence}”', cellLabel: '{q} → {k}: weight {w}', weightsLegend: 'weights',
    quizQuestion: 'Without the scaling (softmax of 112 and 96 directly), what would the weight of k₁ be?',
    quizSame: 'about 0.88, the same', quizSaturated: 'about 1: nearly all of it', quizEven: 'about 0.5',
    quizExplain: 'The core gives softmax(112, 96) = ({a}, {b}): a gap of 16 makes k₂ all but vanish. Scaled by 1/√64 the gap is 2, and the weights are {c} and {d}. With large d_k the raw dot products grow large, softmax saturates and its gradients vanish: that is why we divide by √d_k.',
  },
  zh: {
    title: '自注意力的矩阵形式：一步一步算',
    intro: '在自注意力中，查询、键和值都来自同一组词：Q = XW^Q，K = XW^K，V = XW^V。然后 S = QKᵀ，按行计算 A = softmax(S/√d_k)，最后 Z = AV。先看文章中两个词的计算示例，再看任意句子的完整计算链。',
    sentence: '句子', dK: 'Q、K、V 的维度 d_k', seed: '随机投影（种子）',
    mask: '掩码', maskNone: '不加掩码', maskCausal: '因果掩码（防止看到后文）',
    step: '显示', stepAll: '全部步骤', stepX: '1. X：词向量', stepQkv: '2. Q、K、V', stepScores: '3. S = QKᵀ',
    stepScaled: '4. S / √d_k', stepMasked: '5. 掩码', stepWeights: '6. A = softmax', stepOutput: '7. Z = AV',
    walkTitle: '计算示例：“Thinking Machines”，d_k = 64',
    walkIntro: '文章中的数字，由计算核心重新算出。为了精确得到这些数字，64 维向量是手工选取的：q₁ 每个分量都是 1，k₁ 每个分量都是 1.75，k₂ 每个分量都是 1.5；值向量 v₁、v₂ 很短，可以完整列出。',
    vectors: '向量', entries: '共 {n} 个分量', thinking: 'Thinking', machines: 'Machines',
    walkCaption: '查询 q₁（“Thinking”）与键 k₁（“Thinking”）、k₂（“Machines”）',
    rowScore: '得分 s₁ⱼ = q₁·kⱼ', rowScaled: '缩放 s₁ⱼ / √d_k', rowExp: 'exp(缩放分数 − 行最大值)', rowWeight: '权重 α₁ⱼ = softmax', rowRounded: '四舍五入',
    scaleNote: '√d_k = √64：得分乘以 {scale}。',
    sumNote: '该行 exp 之和：{sum}；每个权重等于它的 exp 除以这个和。',
    outputTitle: '“Thinking”的输出',
    outputLine: 'z₁ = α₁₁v₁ + α₁₂v₂',
    typo: '原文写作 z₁ = α₁v₁ + α₁v₂，这是笔误。每个值向量应乘以它对应的键的权重：z₁ = α₁₁v₁ + α₁₂v₂（同理 z₂ = α₂₁v₁ + α₂₂v₂）。',
    chainTitle: '“{sentence}”计算链中的每个矩阵',
    chainIntro: '上方的控件选择句子、d_k、投影矩阵和掩码。每一行是一个词；较宽的矩阵可以横向滚动。',
    shape: '{rows} × {cols}',
    xTitle: 'X：每行一个词向量', xNote: '词向量（维度 d = {d}）。',
    qkvTitle: 'Q = XW^Q，K = XW^K，V = XW^V', qkvNote: '同一个 X 的三个线性变换：这正是“自”注意力的含义。',
    scoresTitle: 'S = QKᵀ', scoresNote: '第 (i, j) 项是 qᵢ·kⱼ：第 i 个词的查询与第 j 个词的键有多匹配。',
    scaledTitle: 'S / √d_k', scaledNote: '乘以 {scale} = 1/√{d}，使得分不随 d_k 增大，避免 softmax 饱和。',
    maskedTitle: '掩码', maskedNoneNote: '不加掩码：每个词都可以看所有词；矩阵与 S/√d_k 相同。',
    maskedCausalNote: '因果掩码：第 i 个词只能看第 1…i 个词；后面词的得分变为 −∞，它们的权重将为 0。',
    weightsTitle: 'A = softmax(S/√d_k)，按行计算', weightsNote: '每一行之和为 1：每个词从各个词那里取多少。',
    outputTitle2: 'Z = AV', outputNote: '每一行输出是 V 各行的加权和：它所对应的词的新向量。',
    mapTitle: '“{sentence}”的 A', cellLabel: '{q} → {k}：权重 {w}', weightsLegend: '权重',
    quizQuestion: '如果不缩放（直接对 112 和 96 做 softmax），k₁ 的权重会是多少？',
    quizSame: '约 0.88，不变', quizSaturated: '约 1：几乎全部', quizEven: '约 0.5',
    quizExplain: '计算核心给出 softmax(112, 96) = ({a}, {b})：16 的差距让 k₂ 几乎消失。除以 √64 缩放后差距为 2，权重为 {c} 和 {d}。d_k 较大时原始点积很大，softmax 饱和、梯度消失：这就是要除以 √d_k 的原因。',
  },
});

export const defaults = { sentence: 'Thinking Machines', dK: '4', seed: 1, mask: 'none', step: 'all' };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'dK', type: 'choice', label: 'dK', options: ['4', '8', '16'].map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  { key: 'mask', type: 'choice', label: 'mask', options: [{ value: 'none', label: 'maskNone' }, { value: 'causal', label: 'maskCausal' }] },
  { key: 'step', type: 'select', label: 'step', options: [
    { value: 'all', label: 'stepAll' }, { value: 'x', label: 'stepX' }, { value: 'qkv', label: 'stepQkv' },
    { value: 'scores', label: 'stepScores' }, { value: 'scaled', label: 'stepScaled' }, { value: 'masked', label: 'stepMasked' },
    { value: 'weights', label: 'stepWeights' }, { value: 'output', label: 'stepOutput' }] },
];

// Every number of both parts, from the core.
export function compute(att, state, t) {
  // (a) the worked example: one query (q1) against two keys
  const key = [K1, K2];
  const walk = att.attention({ query: [Q1], key, value: [V1, V2] });
  // the two terms of z1, each by the core: the same weights with one value kept
  const term1 = att.attention({ query: [Q1], key, value: [V1, ZERO] }).output.data;
  const term2 = att.attention({ query: [Q1], key, value: [ZERO, V2] }).output.data;
  // the quiz: the same scores without the scaling
  const unscaled = att.attention({ query: [Q1], key, value: [V1, V2], scale: 1 }).weights.data;

  // (b) the chain for the sentence
  const tokens = sentenceTokens(state.sentence, t, MAX_WORDS);
  const dK = Number(state.dK);
  const X = att.embedTokens({ tokens, d: D_IN, seed: state.seed });  // (n, d)
  const r = att.selfAttention({ input: X, dK, seed: state.seed, causal: state.mask === 'causal' });
  return {
    walk: {
      scores: Array.from(walk.scores.data), scale: walk.scale, scaled: Array.from(walk.scaled.data),
      exps: Array.from(walk.exps.data), rowSum: walk.rowSums[0], weights: Array.from(walk.weights.data),
      output: Array.from(walk.output.data), terms: [Array.from(term1), Array.from(term2)], unscaled: Array.from(unscaled),
    },
    tokens, n: tokens.length, d: D_IN, dK, causal: state.mask === 'causal',
    X, Q: r.Q, K: r.K, V: r.V, Wq: r.projections.Wq, Wk: r.projections.Wk, Wv: r.projections.Wv,
    scores: r.scores, scale: r.scale, scaled: r.scaled, mask: r.mask, masked: r.masked, weights: r.weights, output: r.output,
  };
}

// "Q = XW^Q" with the superscripts as <sup>.
function formula(text) {
  const span = element('span', 'formula');
  for (const part of text.split(/(\^[A-Za-z])/)) {
    if (part.startsWith('^')) span.append(element('sup', '', part.slice(1)));
    else if (part) span.append(document.createTextNode(part));
  }
  return span;
}

const vectorText = (v, digits = 2) => `(${v.map((x) => formatNumber(x, { digits, minDigits: 0 })).join(', ')})`;
const longVectorText = (v) => {
  const x = formatNumber(v[0], { digits: 2, minDigits: 0 });
  return `(${x}, ${x}, ${x}, …, ${x})`;
};

function buildWalk(t) {
  const box = element('section', 'sa-walk');
  box.append(element('h3', 'sa-heading', t('walkTitle')), element('p', 'sa-note', t('walkIntro')));

  const vectors = element('dl', 'sa-vectors');
  vectors.setAttribute('aria-label', t('vectors'));
  const vector = (label, word, text, note) => {
    const item = element('div', 'sa-vector');
    const dt = element('dt');
    dt.append(element('span', 'sa-symbol', label), element('span', 'sa-word', word));
    const dd = element('dd', '', text);
    if (note) dd.append(element('span', 'sa-entries', note));
    item.append(dt, dd);
    return item;
  };
  const entries = t('entries', { n: D_K });
  vectors.append(
    vector('q₁', t('thinking'), longVectorText(Q1), entries),
    vector('k₁', t('thinking'), longVectorText(K1), entries),
    vector('k₂', t('machines'), longVectorText(K2), entries),
    vector('v₁', t('thinking'), vectorText(V1)),
    vector('v₂', t('machines'), vectorText(V2)),
  );

  const table = element('table', 'matrix sa-walk-table');
  table.append(element('caption', '', t('walkCaption')));
  const head = element('tr');
  head.append(element('th', 'corner', ''));
  for (const k of ['k₁', 'k₂']) {
    const th = element('th', '', k);
    th.scope = 'col';
    head.append(th);
  }
  const thead = element('thead');
  thead.append(head);
  const tbody = element('tbody');
  const cells = {};
  for (const [field, label] of [['score', 'rowScore'], ['scaled', 'rowScaled'], ['exp', 'rowExp'], ['weight', 'rowWeight'], ['rounded', 'rowRounded']]) {
    const tr = element('tr', `sa-row-${field}`);
    const th = element('th', '', t(label));
    th.scope = 'row';
    tr.append(th);
    cells[field] = [0, 1].map((j) => {
      const td = element('td');
      td.dataset.field = `${field}-${j}`;
      tr.append(td);
      return td;
    });
    tbody.append(tr);
  }
  table.append(thead, tbody);
  const tableBox = element('div', 'table-scroll');
  tableBox.append(table);
  const scaleNote = element('p', 'sa-note');
  const sumNote = element('p', 'sa-note');

  const out = element('div', 'sa-output');
  out.append(element('h4', 'sa-subheading', t('outputTitle')));
  const line = element('p', 'sa-equation');
  const z = element('output', 'sa-z');
  z.dataset.field = 'z';
  // z1 = α11·v1 + α12·v2 = (the two terms) = z1, one stage per line
  const weighted = [element('span', 'sa-term'), element('span', 'sa-term')];
  const terms = [element('span', 'sa-term'), element('span', 'sa-term')];
  terms.forEach((term, j) => { term.dataset.field = `term-${j}`; });
  const stage = (...parts) => {
    const span = element('span', 'sa-stage');
    span.append(...parts);
    return span;
  };
  line.append(stage(element('span', 'sa-formula', t('outputLine'))), stage('= ', weighted[0], ' + ', weighted[1]),
    stage('= ', terms[0], ' + ', terms[1]), stage('= ', z));
  out.append(line, element('p', 'sa-typo', t('typo')));

  const notes = element('div', 'sa-walk-notes');
  notes.append(scaleNote, sumNote);
  const grid = element('div', 'sa-walk-grid');
  grid.append(tableBox, notes);
  box.append(vectors, grid, out);
  return { element: box, cells, scaleNote, sumNote, weighted, terms, z };
}

export function build(body, { t }) {
  const walk = buildWalk(t);
  const chain = element('section', 'sa-chain');
  const chainTitle = element('h3', 'sa-heading');
  const steps = element('div', 'sa-steps');
  chain.append(chainTitle, element('p', 'sa-note', t('chainIntro')), element('p', 'illustrative', t('illustrative')), steps);
  body.append(walk.element, chain);
  return { walk, chainTitle, steps };
}

function renderWalk(view, w, t) {
  const six = (x) => formatNumber(x, { digits: 6, minDigits: 6 });
  for (let j = 0; j < 2; j++) {
    view.cells.score[j].textContent = formatNumber(w.scores[j], { digits: 4, minDigits: 0 });
    view.cells.scaled[j].textContent = formatNumber(w.scaled[j], { digits: 4, minDigits: 0 });
    view.cells.exp[j].textContent = six(w.exps[j]);
    view.cells.weight[j].textContent = six(w.weights[j]);
    view.cells.rounded[j].textContent = formatNumber(w.weights[j], { digits: 2 });
  }
  view.scaleNote.textContent = t('scaleNote', { scale: formatNumber(w.scale, { digits: 6, minDigits: 0 }) });
  view.sumNote.textContent = t('sumNote', { sum: six(w.rowSum) });
  const four = (v) => `(${v.map((x) => formatNumber(x, { digits: 4 })).join(', ')})`;
  for (let j = 0; j < 2; j++) {
    view.weighted[j].textContent = `${formatNumber(w.weights[j], { digits: 2 })} · ${vectorText(j ? V2 : V1)}`;
    view.terms[j].textContent = four(w.terms[j]);
  }
  view.z.textContent = four(w.output);
}

// One step of the chain: a heading with its shape, a note, and its matrices.
function stepBlock(number, title, shape, note, tables) {
  const block = element('section', 'sa-step');
  const heading = element('h4', 'sa-step-title');
  heading.append(element('span', 'sa-step-number', `${number}`), formula(title));
  if (shape) heading.append(element('span', 'sa-shape', shape));
  block.append(heading, element('p', 'sa-note', note));
  const row = element('div', 'sa-matrices');
  row.append(...tables);
  block.append(row);
  return block;
}

const shapeOf = (m, t) => t('shape', { rows: m.rows, cols: m.cols });

function chainBlocks(data, t) {
  const dims = (m) => Array.from({ length: m.cols }, (_, j) => String(j + 1));
  const table = (m, caption, { rows = data.tokens, cols = dims(m), allowed = null, maskedText, digits = 3 } = {}) => {
    const box = matrixTable({ m, rowLabels: rows, colLabels: cols, digits, caption: `${caption} (${shapeOf(m, t)})`, allowed, maskedText });
    box.querySelector('caption').replaceChildren(formula(`${caption} (${shapeOf(m, t)})`));
    return box;
  };
  const words = { cols: data.tokens };
  const rowsOfW = (m) => dims({ cols: m.rows });
  return {
    x: stepBlock(1, t('xTitle'), shapeOf(data.X, t), t('xNote', { d: data.d }), [table(data.X, 'X')]),
    qkv: stepBlock(2, t('qkvTitle'), `Q, K, V: ${shapeOf(data.Q, t)}`, t('qkvNote'), [
      table(data.Wq, 'W^Q', { rows: rowsOfW(data.Wq) }), table(data.Wk, 'W^K', { rows: rowsOfW(data.Wk) }), table(data.Wv, 'W^V', { rows: rowsOfW(data.Wv) }),
      table(data.Q, 'Q'), table(data.K, 'K'), table(data.V, 'V')]),
    scores: stepBlock(3, t('scoresTitle'), shapeOf(data.scores, t), t('scoresNote'), [table(data.scores, 'S', words)]),
    scaled: stepBlock(4, t('scaledTitle'), shapeOf(data.scaled, t),
      t('scaledNote', { scale: formatNumber(data.scale, { digits: 4, minDigits: 0 }), d: data.dK }), [table(data.scaled, 'S/√d_k', words)]),
    masked: stepBlock(5, t('maskedTitle'), shapeOf(data.masked, t), t(data.causal ? 'maskedCausalNote' : 'maskedNoneNote'),
      [table(data.masked, data.causal ? 'mask(S/√d_k)' : 'S/√d_k', { ...words, allowed: data.mask })]),
    weights: stepBlock(6, t('weightsTitle'), shapeOf(data.weights, t), t('weightsNote'),
      [table(data.weights, 'A', { ...words, allowed: data.causal ? data.mask : null, maskedText: '0' }), mapFigure(data, t)]),
    output: stepBlock(7, t('outputTitle2'), shapeOf(data.output, t), t('outputNote'), [table(data.output, 'Z')]),
  };
}

export function render(view, data, state, { t }) {
  renderWalk(view.walk, data.walk, t);
  view.chainTitle.textContent = t('chainTitle', { sentence: data.tokens.join(' ') });
  const blocks = chainBlocks(data, t);
  const shown = state.step === 'all' ? STEPS : [state.step];
  view.steps.classList.toggle('is-all', state.step === 'all');
  view.steps.replaceChildren(...shown.map((step) => {
    blocks[step].dataset.step = step;
    return blocks[step];
  }));
}

export const quiz = {
  question: 'quizQuestion',
  options: [
    { value: 'same', label: 'quizSame' },
    { value: 'saturated', label: 'quizSaturated' },
    { value: 'even', label: 'quizEven' },
  ],
  answer(data) {
    const w = data.walk.unscaled[0];
    return w > 0.99 ? 'saturated' : Math.abs(w - data.walk.weights[0]) < 0.05 ? 'same' : 'even';
  },
  explain(data, state, t) {
    const seven = (x) => formatNumber(x, { digits: 7 });
    const six = (x) => formatNumber(x, { digits: 6 });
    return t('quizExplain', { a: seven(data.walk.unscaled[0]), b: seven(data.walk.unscaled[1]),
      c: six(data.walk.weights[0]), d: six(data.walk.weights[1]) });
  },
};

// A as a heatmap beside its table (the same picture the PNG/SVG export saves)
function mapFigure(data, t) {
  const figure = element('div', 'sa-map');
  figure.append(mapVisual(data, t).element, legend({ min: 0, max: 1, label: t('weightsLegend') }));
  return figure;
}

function mapVisual(data, t) {
  const sentence = data.tokens.join(' ');
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, values: data.weights.data, allowed: data.causal ? data.mask : null,
    maskedText: '0', min: 0, max: 1, digits: 2, title: t('mapTitle', { sentence }),
    describe: (i, j) => t('cellLabel', { q: data.tokens[i], k: data.tokens[j], w: formatNumber(data.weights.data[i * data.n + j], { digits: 3 }) }),
  });
}

// CSV: one row per entry of every matrix (long format), the worked example first.
export function exports(data, state, t) {
  const matrices = [['X', data.X], ['Wq', data.Wq], ['Wk', data.Wk], ['Wv', data.Wv], ['Q', data.Q], ['K', data.K], ['V', data.V],
    ['S', data.scores], ['S_scaled', data.scaled], ['S_masked', data.masked], ['A', data.weights], ['Z', data.output]];
  const wordRows = new Set(['X', 'Q', 'K', 'V', 'S', 'S_scaled', 'S_masked', 'A', 'Z']);
  const wordCols = new Set(['S', 'S_scaled', 'S_masked', 'A']);
  return {
    visual: () => mapVisual(data, t).element,
    csv: () => {
      const rows = [];
      const w = data.walk;
      for (const [field, values] of [['score', w.scores], ['scaled', w.scaled], ['exp', w.exps], ['weight', w.weights]]) {
        values.forEach((x, j) => rows.push(['example', field, 'q1', `k${j + 1}`, x]));
      }
      w.output.forEach((x, j) => rows.push(['example', 'z', 'z1', String(j + 1), x]));
      for (const [label, m] of matrices) {
        for (let i = 0; i < m.rows; i++) {
          for (let j = 0; j < m.cols; j++) {
            rows.push(['sentence', label, wordRows.has(label) ? data.tokens[i] : String(i + 1),
              wordCols.has(label) ? data.tokens[j] : String(j + 1), m.data[i * m.cols + j]]);
          }
        }
      }
      return { header: ['part', 'matrix', 'row', 'column', 'value'], rows };
    },
    json: () => ({
      example: { dK: D_K, q1: Q1, k1: K1, k2: K2, v1: V1, v2: V2, ...data.walk },
      sentence: { tokens: data.tokens, d: data.d, dK: data.dK, mask: state.mask, scale: data.scale,
        ...Object.fromEntries(matrices) },
    }),
  };
}
