// Widget "self-attention": self-attention in matrix form, in two parts.
// (a) The article's worked example, "Thinking Machines" with d_k = 64,
//     recomputed by the core: q1·k1 = 112, q1·k2 = 96 -> /8 -> 14, 12 ->
//     softmax 0.880797, 0.119203 -> z1 = α11·v1 + α12·v2 (the article's formula
//     has a typo there). The vectors are chosen so the dot products come out
//     exactly: q1 all ones, k1 all 1.75, k2 all 1.5.
// (b) The whole chain for any sentence, every matrix with its shape:
//     X (n, d) -> Q = XW^Q, K = XW^K, V = XW^V (n, d_k) -> S = QKᵀ (n, n)
//     -> S/√d_k -> mask (none or causal) -> A = softmax by rows -> Z = AV (n, d_k).
// (c) Why two projections: with W^K = W^Q (state key tied) the chain uses the
//     same matrix for keys as for queries; the core measures both maps (the
//     asymmetry of S, the weight each word gives itself) and the text says
//     what tying changed.
// Why: the article's formulas become numbers one can check, and the same
// steps scale from two words to a sentence.
import { element } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { matrixTable } from '../../render/matrix.js';
import { cornerCell, headerCell, headerRow } from '../../render/table.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'self-attention';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'follows Q = XW^Q, K, V, scores, softmax and output, step by step, and sees what tying W^K = W^Q would do';

// (a): d_k = 64, and vectors that give the article's dot products exactly.
const D_K = 64;
const Q1 = new Array(D_K).fill(1);      // q1 · k1 = 64 · 1.75, q1 · k2 = 64 · 1.5
const K1 = new Array(D_K).fill(1.75);
const K2 = new Array(D_K).fill(1.5);
const V1 = [1, 0, 2, 1];                 // small values, shown in full
const V2 = [0, 1, 2, 3];

// (b): width of the word vectors X
const D_IN = 8;
const MAX_WORDS = 32;

const STEPS = ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'output'];

export const defaults = { sentence: 'Thinking Machines', dK: '4', seed: 1, mask: 'none', tied: false, step: 'all' };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'dK', type: 'choice', label: 'dK', options: ['4', '8', '16'].map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  { key: 'mask', type: 'choice', label: 'mask', options: [{ value: 'none', label: 'maskNone' }, { value: 'causal', label: 'maskCausal' }] },
  { key: 'tied', type: 'toggle', label: 'tied' },
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
  // the two terms of z1, each by the core: a weight times its value
  const term1 = att.scale([V1], walk.weights.data[0]).data;
  const term2 = att.scale([V2], walk.weights.data[1]).data;
  // the quiz: the same scores without the scaling
  const unscaled = att.attention({ query: [Q1], key, value: [V1, V2], scale: 1 }).weights.data;

  // (b) the chain for the sentence
  const tokens = sentenceTokens(state.sentence, t, MAX_WORDS);
  const dK = Number(state.dK);
  const X = att.embedTokens({ tokens, d: D_IN, seed: state.seed });  // (n, d)
  const causal = state.mask === 'causal';
  const untied = att.selfAttention({ input: X, dK, seed: state.seed, causal });
  // (c) the same chain with W^K = W^Q, and what each map does with its transpose and diagonal
  const P = untied.projections;
  const tied = att.selfAttention({ input: X, projections: { Wq: P.Wq, Wk: P.Wq, Wv: P.Wv }, causal });
  const stats = (m) => att.selfMapStats({ scores: m.scores, weights: m.weights });
  const r = state.tied ? tied : untied;
  return {
    walk: {
      scores: Array.from(walk.scores.data), scale: walk.scale, scaled: Array.from(walk.scaled.data),
      exps: Array.from(walk.exps.data), rowSum: walk.rowSums[0], weights: Array.from(walk.weights.data),
      output: Array.from(walk.output.data), terms: [Array.from(term1), Array.from(term2)], unscaled: Array.from(unscaled),
    },
    tokens, n: tokens.length, d: D_IN, dK, causal: state.mask === 'causal',
    X, Q: r.Q, K: r.K, V: r.V, Wq: r.projections.Wq, Wk: r.projections.Wk, Wv: r.projections.Wv,
    scores: r.scores, scale: r.scale, scaled: r.scaled, mask: r.mask.data, masked: r.masked, weights: r.weights, output: r.output,
    tied: state.tied, stats: { untied: stats(untied), tied: stats(tied) },
  };
}

const vectorText = (v, digits = 2) => `(${v.map((x) => formatNumber(x, { digits, minDigits: 0 })).join(', ')})`;
const longVectorText = (v) => {
  const x = formatNumber(v[0], { digits: 2, minDigits: 0 });
  return `(${x}, ${x}, ${x}, …, ${x})`;
};

function buildWalk(t) {
  const box = element('section', 'sa-walk');
  box.append(element('h3', 'sa-heading', t.rich('walkTitle')), element('p', 'sa-note', t.rich('walkIntro')));

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
  table.append(element('caption', '', t.rich('walkCaption')));
  const thead = headerRow([cornerCell(), headerCell('k₁'), headerCell('k₂')]);
  const tbody = element('tbody');
  const cells = {};
  for (const [field, label] of [['score', 'rowScore'], ['scaled', 'rowScaled'], ['exp', 'rowExp'], ['weight', 'rowWeight'], ['rounded', 'rowRounded']]) {
    const tr = element('tr', `sa-row-${field}`);
    tr.append(headerCell(t.rich(label), { scope: 'row' }));
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
  out.append(element('h4', 'sa-subheading', t.rich('outputTitle')));
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
  line.append(stage(element('span', 'sa-formula', t.rich('outputLine'))), stage('= ', weighted[0], ' + ', weighted[1]),
    stage('= ', terms[0], ' + ', terms[1]), stage('= ', z));
  out.append(line, element('p', 'sa-typo', t.rich('typo')));

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
  chain.append(chainTitle, element('p', 'sa-note', t.rich('chainIntro')), element('p', 'illustrative', t.rich('illustrative')), steps);
  const tiedView = buildTied(t);
  body.append(walk.element, chain, tiedView.element);
  return { walk, chainTitle, steps, tied: tiedView };
}

// (c): the two maps' measures side by side, and what tying changed, in words
const TIED_ROWS = [['asymmetry', 'tiedAsymmetry'], ['diagonalShare', 'tiedDiagonal'], ['rowsOnDiagonal', 'tiedRows']];
function buildTied(t) {
  const box = element('section', 'sa-tied');
  box.append(element('h3', 'sa-heading', t.rich('tiedTitle')), element('p', 'sa-note', t.rich('tiedIntro')));
  const table = element('table', 'matrix sa-tied-table');
  table.append(element('caption', '', t.rich('tiedCaption')));
  const columns = [headerCell(t.rich('tiedSeparate')), headerCell(t.rich('tiedSame'))];
  columns.forEach((th, k) => { th.dataset.column = k ? 'tied' : 'untied'; });
  const tbody = element('tbody');
  const cells = {};
  for (const [field, label] of TIED_ROWS) {
    const tr = element('tr');
    tr.append(headerCell(t.rich(label), { scope: 'row' }));
    cells[field] = ['untied', 'tied'].map((column) => {
      const td = element('td');
      td.dataset.field = `${field}-${column}`;
      tr.append(td);
      return td;
    });
    tbody.append(tr);
  }
  table.append(headerRow([cornerCell(), ...columns]), tbody);
  const tableBox = element('div', 'table-scroll');
  tableBox.append(table);
  const says = element('p', 'sa-tied-says');
  says.dataset.part = 'tied-says';
  box.append(tableBox, says);
  return { element: box, columns, cells, says };
}

function renderTied(view, data, t) {
  const two = (x) => formatNumber(x, { digits: 2 });
  const words = (x) => t('tiedWords', { k: formatNumber(x, { digits: 0 }), n: data.n });
  const shown = { asymmetry: two, diagonalShare: two, rowsOnDiagonal: words };
  for (const [field] of TIED_ROWS) {
    ['untied', 'tied'].forEach((column, k) => {
      view.cells[field][k].textContent = shown[field](data.stats[column][field]);
      view.cells[field][k].classList.toggle('is-current', (column === 'tied') === data.tied);
    });
  }
  view.columns.forEach((th, k) => th.classList.toggle('is-current', (k === 1) === data.tied));
  const { untied, tied } = data.stats;
  view.says.replaceChildren(t.rich(data.tied ? 'tiedSaysTied' : 'tiedSaysUntied', {
    untiedAsymmetry: two(untied.asymmetry), tiedAsymmetry: two(tied.asymmetry),
    untiedRows: formatNumber(untied.rowsOnDiagonal, { digits: 0 }), tiedRows: formatNumber(tied.rowsOnDiagonal, { digits: 0 }),
    untiedShare: two(untied.diagonalShare), tiedShare: two(tied.diagonalShare), n: data.n,
  }));
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
  view.scaleNote.replaceChildren(t.rich('scaleNote', { scale: formatNumber(w.scale, { digits: 6, minDigits: 0 }) }));
  view.sumNote.replaceChildren(t.rich('sumNote', { sum: six(w.rowSum) }));
  const four = (v) => `(${v.map((x) => formatNumber(x, { digits: 4 })).join(', ')})`;
  for (let j = 0; j < 2; j++) {
    view.weighted[j].textContent = `${formatNumber(w.weights[j], { digits: 2 })} · ${vectorText(j ? V2 : V1)}`;
    view.terms[j].textContent = four(w.terms[j]);
  }
  view.z.textContent = four(w.output);
}

// One step of the chain: a heading with its shape, a note, and its matrices
// (title and note: typeset messages).
function stepBlock(number, title, shape, note, tables) {
  const block = element('section', 'sa-step');
  const heading = element('h4', 'sa-step-title');
  heading.append(element('span', 'sa-step-number', `${number}`), element('span', 'formula', title));
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
  // caption: the catalog key of the matrix's name (a formula)
  const table = (m, caption, { rows = data.tokens, cols = dims(m), allowed = null, maskedText, digits = 3 } = {}) => {
    const box = matrixTable({ m, rowLabels: rows, colLabels: cols, digits, caption: `${t(caption)} (${shapeOf(m, t)})`, allowed, maskedText });
    const name = element('span', 'formula', t.rich(caption));
    box.querySelector('caption').replaceChildren(name, ` (${shapeOf(m, t)})`);
    return box;
  };
  const words = { cols: data.tokens };
  const rowsOfW = (m) => dims({ cols: m.rows });
  return {
    x: stepBlock(1, t.rich('xTitle'), shapeOf(data.X, t), t.rich('xNote', { d: data.d }), [table(data.X, 'matrixX')]),
    qkv: stepBlock(2, t.rich('qkvTitle'), t('shapeQkv', { shape: shapeOf(data.Q, t) }), t.rich('qkvNote'), [
      table(data.Wq, 'matrixWq', { rows: rowsOfW(data.Wq) }), table(data.Wk, 'matrixWk', { rows: rowsOfW(data.Wk) }), table(data.Wv, 'matrixWv', { rows: rowsOfW(data.Wv) }),
      table(data.Q, 'matrixQ'), table(data.K, 'matrixK'), table(data.V, 'matrixV')]),
    scores: stepBlock(3, t.rich('scoresTitle'), shapeOf(data.scores, t), t.rich('scoresNote'), [table(data.scores, 'matrixS', words)]),
    scaled: stepBlock(4, t.rich('scaledTitle'), shapeOf(data.scaled, t),
      t.rich('scaledNote', { scale: formatNumber(data.scale, { digits: 4, minDigits: 0 }), d: data.dK }), [table(data.scaled, 'matrixScaled', words)]),
    masked: stepBlock(5, t.rich('maskedTitle'), shapeOf(data.masked, t), t.rich(data.causal ? 'maskedCausalNote' : 'maskedNoneNote'),
      [table(data.masked, data.causal ? 'matrixMasked' : 'matrixScaled', { ...words, allowed: data.mask })]),
    weights: stepBlock(6, t.rich('weightsTitle'), shapeOf(data.weights, t), t.rich('weightsNote'),
      [table(data.weights, 'matrixA', { ...words, allowed: data.causal ? data.mask : null, maskedText: '0' }), mapFigure(data, t)]),
    output: stepBlock(7, t.rich('outputTitle2'), shapeOf(data.output, t), t.rich('outputNote'), [table(data.output, 'matrixZ')]),
  };
}

export function render(view, data, state, { t }) {
  renderWalk(view.walk, data.walk, t);
  renderTied(view.tied, data, t);
  view.chainTitle.replaceChildren(t.rich('chainTitle', { sentence: data.tokens.join(' ') }));
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
    return t.rich('quizExplain', { a: seven(data.walk.unscaled[0]), b: seven(data.walk.unscaled[1]),
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
    rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: data.weights.data, allowed: data.causal ? data.mask : null,
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
      sentence: { tokens: data.tokens, d: data.d, dK: data.dK, mask: state.mask, tied: data.tied, scale: data.scale,
        ...Object.fromEntries(matrices), stats: data.stats },
    }),
  };
}
