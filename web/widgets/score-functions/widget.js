// Widget "score-functions": the four score functions F(q, k) of the articles
// on the same query and the same keys, side by side: dot qᵀk (no parameters),
// general qᵀWk, concat w·[q; k] and additive vᵀtanh(Wq + Uk) (learned
// parameters, drawn from a seed). Each card shows the formula, the scores and
// weights of one query, the parameters, and the map of every query word
// against every key; concat's rows are all equal: its query term is the same
// for every key, so softmax cancels it. With d_q ≠ d_k the dot product is
// undefined and its card shows the core's own error message.
import { element, liveElement } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { heatmap } from '../../render/heatmap.js';
import { matrixTable } from '../../render/matrix.js';
import { headerCell, headerRow } from '../../render/table.js';
import { svg, textWidth, FONT_FAMILY } from '../../render/svg.js';
import { sentenceTokens } from '../../runtime/text.js';

export const name = 'score-functions';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'compares dot, general, concat and additive scores for one query';

const SCORES = ['dot', 'general', 'concat', 'additive'];
const MAX_WORDS = 10;
// the word vectors stay put when the parameter seed changes: only F is re-drawn
const VECTOR_SEED = 3;

const PRESETS = [
  { value: 'presetDream', label: 'labelDream' },
  { value: 'presetCat', label: 'labelCat' },
  { value: 'presetThinking', label: 'labelThinking' },
  { value: 'presetChinese', label: 'labelChinese' },
];

export const defaults = { sentence: 'i have a dream', query: 3, dQ: 4, dK: 4, seed: 1 };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 300, presets: PRESETS },
  { key: 'dQ', type: 'range', label: 'dQ', min: 2, max: 8, step: 1 },
  { key: 'dK', type: 'range', label: 'dK', min: 2, max: 8, step: 1 },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  // the query word, chosen with the word buttons above the cards
  { key: 'query', type: 'range', min: 0, max: MAX_WORDS - 1, step: 1, hidden: true },
];

// One attention call per score function: every query word against every key,
// weights = softmax(scores) (scale 1). A score the widths do not allow keeps
// the core's error message instead of numbers.
export function compute(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, MAX_WORDS);
  const n = tokens.length;
  const query = Math.min(state.query, n - 1);
  const Q = att.embedTokens({ tokens, d: state.dQ, seed: VECTOR_SEED });  // (n, d_q) one query per word
  const K = att.embedTokens({ tokens, d: state.dK, seed: VECTOR_SEED });  // (n, d_k) one key per word
  const results = {};
  SCORES.forEach((score, k) => {
    // each score function its own parameters: W of general and W of additive are different matrices
    const params = score === 'dot' ? undefined : { seed: SCORES.length * state.seed + k };
    try {
      const r = att.attention({ query: Q, key: K, value: K, score, scale: 1, params });
      results[score] = { scores: r.scores, weights: r.weights, params: r.params };
    } catch (error) {
      results[score] = { error: error.message };
    }
  });
  // concat, split: w_qᵀq alone (w_k = 0) is one number per query, the same for every key
  const v = results.concat.params.v;
  const wq = v.slice(0, state.dQ), wk = v.slice(state.dQ);
  const queryOnly = Float32Array.from(v, (x, i) => (i < state.dQ ? x : 0));
  const queryTerm = att.attention({ query: Q, key: K, value: K, score: 'concat', scale: 1, params: { v: queryOnly } }).scores;
  return { tokens, n, query, dQ: state.dQ, dK: state.dK, results, concat: { wq, wk, queryTerm } };
}

export function build(body, { t }) {
  const picker = element('div', 'sf-picker');
  picker.setAttribute('role', 'group');
  picker.setAttribute('aria-label', t('queryPick'));
  const note = element('p', 'sf-note muted', t.rich('weightsNote'));
  const grid = element('div', 'sf-grid');
  const cards = {};
  for (const score of SCORES) {
    const card = element('article', 'sf-card');
    card.dataset.score = score;
    const head = element('header', 'sf-head');
    head.append(element('h3', 'sf-name', t.rich(`${score}Name`)), element('code', 'sf-formula', t.rich(`${score}Formula`)));
    const explain = element('p', 'sf-explain', t.rich(`${score}Note`));
    const content = element('div', 'sf-content');
    card.append(head, explain, content);
    grid.append(card);
    cards[score] = { card, content };
  }
  const cardsBox = element('div', 'sf-cards');
  cardsBox.append(grid);
  const illustrative = element('p', 'illustrative', t.rich('illustrative'));
  body.append(picker, note, cardsBox, illustrative);
  return { picker, cards };
}

function paramTables(score, data, t) {
  const r = data.results[score];
  const box = element('div', 'sf-params');
  box.append(element('h4', 'sf-sub', t.rich('params')));
  if (score === 'dot') {
    box.append(element('p', 'sf-none', t.rich('noParams')));
    return box;
  }
  const table = (label, m, rowLabels, colLabels) => matrixTable({
    m, digits: 2, rowLabels, colLabels, caption: t('matrixCaption', { name: label, rows: m.rows, cols: m.cols }),
  });
  const row = (data) => ({ rows: 1, cols: data.length, data });
  if (score === 'general') box.append(table('W', r.params.W));
  if (score === 'concat') {
    box.append(table('w_qᵀ', row(data.concat.wq), ['w_qᵀ']), table('w_kᵀ', row(data.concat.wk), ['w_kᵀ']));
  }
  if (score === 'additive') box.append(table('W', r.params.W), table('U', r.params.U), table('vᵀ', row(r.params.v), ['vᵀ']));
  return box;
}

function scoreTable(score, data, t) {
  const r = data.results[score];
  const i = data.query, n = data.n;
  const table = element('table', 'sf-table');
  table.append(element('caption', 'visually-hidden', t.rich('tableCaption', { name: t(`${score}Name`), q: data.tokens[i] })));
  const thead = headerRow([['colKey', ''], ['colScore', 'num'], ['colWeight', 'weight-col']]
    .map(([key, className]) => headerCell(t.rich(key), { className })));
  const tbody = element('tbody');
  data.tokens.forEach((token, j) => {
    const w = r.weights.data[i * n + j];
    const tr = element('tr');
    const key = headerCell(token, { scope: 'row' });
    const s = element('td', 'num', formatNumber(r.scores.data[i * n + j], { digits: 3 }));
    s.dataset.field = 'score';
    const value = element('span', 'weight-value', formatWeight(w));
    value.dataset.field = 'weight';
    const bar = element('span', 'weight-bar');
    bar.append(hbar({ value: w, max: 1, label: t('weightOf', { k: token, w: formatWeight(w) }) }));
    const box = element('div', 'weight');
    box.append(bar, value);
    const cell = element('td', 'weight-col');
    cell.append(box);
    tr.append(key, s, cell);
    tbody.append(tr);
  });
  table.append(thead, tbody);
  const scroll = element('div', 'table-scroll');
  scroll.append(table);
  return scroll;
}

function scoreMap(score, data, t, onCell) {
  const r = data.results[score];
  const i = data.query, n = data.n;
  const row = Array.from(r.weights.data.subarray(i * n, (i + 1) * n));
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: r.weights.data, min: 0, max: 1, digits: 2,
    title: t('mapTitle', { name: t(`${score}Name`) }), selected: [i, row.indexOf(Math.max(...row))], onCell,
    describe: (a, b) => t('cellLabel', { q: data.tokens[a], k: data.tokens[b], w: formatWeight(r.weights.data[a * n + b]) }),
  });
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  // the query word buttons
  view.picker.replaceChildren(element('span', 'sf-picker-label', t.rich('queryPickHelp')), ...data.tokens.map((token, i) => {
    const button = element('button', 'sf-word', token);
    button.type = 'button';
    button.setAttribute('aria-pressed', String(i === data.query));
    button.addEventListener('click', () => ctx.setState({ query: i }));
    return button;
  }));
  for (const score of SCORES) {
    const r = data.results[score];
    const { card, content } = view.cards[score];
    card.classList.toggle('is-unavailable', Boolean(r.error));
    if (r.error) {
      const why = element('div', 'sf-unavailable');
      why.dataset.field = 'unavailable';
      why.append(element('p', '', t.rich('dotUnavailable', { dq: data.dQ, dk: data.dK })), element('p', 'sf-core-message', r.error));
      content.replaceChildren(why);
      continue;
    }
    const parts = [scoreTable(score, data, t)];
    if (score === 'concat') {
      const term = element('p', 'sf-query-term');
      term.dataset.field = 'queryTerm';
      term.replaceChildren(t.rich('queryTerm', { value: formatNumber(data.concat.queryTerm.data[data.query * data.n], { digits: 3 }) }));
      parts.push(term);
    }
    const info = liveElement('p', 'sf-cell-info muted');
    const map = scoreMap(score, data, t, (a, b) => {
      info.replaceChildren(t.rich('cellInfo', { q: data.tokens[a], k: data.tokens[b],
        s: formatNumber(r.scores.data[a * data.n + b], { digits: 3 }), w: formatWeight(r.weights.data[a * data.n + b]) }));
    });
    const figure = element('figure', 'sf-map');
    figure.append(element('figcaption', '', t.rich('mapCaption')), map.element, info);
    parts.push(figure, paramTables(score, data, t));
    content.replaceChildren(...parts);
  }
}

// The four maps side by side in one SVG (a card without numbers is left out).
function allMaps(data, t) {
  const maps = SCORES.filter((s) => !data.results[s].error).map((s) => ({ s, el: scoreMap(s, data, t, () => {}).element }));
  const gap = 24, top = 22;
  let x = 0, height = 0;
  const root = svg('svg', { class: 'sf-export', role: 'img', 'aria-label': t('allMaps'), 'font-family': FONT_FAMILY });
  root.append(svg('title', {}, t('allMaps')));
  for (const { s, el } of maps) {
    const w = Number(el.getAttribute('width')), h = Number(el.getAttribute('height'));
    el.setAttribute('x', x);
    el.setAttribute('y', top);
    el.removeAttribute('style');
    const label = `${t(`${s}Name`)}: ${t(`${s}Formula`)}`;
    root.append(svg('text', { x: x + 4, y: 14, 'font-size': 13, 'font-weight': 600, fill: 'currentColor' }, label), el);
    x += Math.max(w, textWidth(label, 13) + 8) + gap;
    height = Math.max(height, h + top);
  }
  root.setAttribute('viewBox', `0 0 ${x - gap} ${height}`);
  root.setAttribute('width', x - gap);
  root.setAttribute('height', height);
  return root;
}

export function exports(data, state, t) {
  return {
    visual: () => allMaps(data, t),
    csv: () => ({
      header: ['score function', 'query', 'key', 'score', 'weight'],
      rows: SCORES.filter((s) => !data.results[s].error).flatMap((s) => data.tokens.flatMap((q, i) => data.tokens.map((k, j) => [
        s, q, k, data.results[s].scores.data[i * data.n + j], data.results[s].weights.data[i * data.n + j]]))),
    }),
    json: () => ({
      tokens: data.tokens, query: data.tokens[data.query], dQ: data.dQ, dK: data.dK,
      scores: Object.fromEntries(SCORES.map((s) => [s, data.results[s].error ? { error: data.results[s].error }
        : { scores: data.results[s].scores, weights: data.results[s].weights, params: data.results[s].params }])),
      concatQueryTerm: data.concat.queryTerm,
    }),
  };
}
