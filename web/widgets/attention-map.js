// Widget "attention-map": the word-to-word map of self-attention for any
// sentence (rows = queries, columns = keys; each row sums to 1). Focusing or
// hovering a cell shows how its weight was computed; the arc view shows where
// one word looks; the table view gives every number as text.
import { element } from '../dom.js';
import { mergeStrings } from '../i18n.js';
import { arcs } from '../render/arcs.js';
import { formatNumber } from '../render/format.js';
import { heatmap, legend } from '../render/heatmap.js';
import { matrixTable } from '../render/matrix.js';
import { SENTENCE_PRESETS, sentenceStrings } from '../sentences.js';
import { sentenceTokens } from '../text.js';

export const name = 'attention-map';

export const strings = mergeStrings(sentenceStrings, {
  en: {
    title: 'The attention map: who looks at whom',
    intro: 'Each row is a word asking (the query), each column a word answering (the key); a row’s weights sum to 1. Type any sentence, or pick one.',
    sentence: 'Sentence', dK: 'Width d_k of Q and K', seed: 'Random projections (seed)',
    view: 'View', heatmap: 'Heatmap', arcs: 'Arcs', table: 'Table',
    mapTitle: 'Attention weights of “{sentence}”',
    cell: '“{q}” → “{k}”', how: 'How this weight is computed',
    dot: 'q·k', scaled: 'scaled q·k / √{d}', exp: 'exp(scaled − row max)', rowSum: 'row sum of exp', weight: 'weight = exp / row sum',
    arcsFor: 'Where “{q}” looks (choose a cell of the map to change the word)',
    cellLabel: '{q} → {k}: weight {w}', weights: 'weights',
    rowQuery: 'query', colKey: 'key',
  },
  zh: {
    title: '注意力图：谁在看谁',
    intro: '每一行是提问的词（查询），每一列是回答的词（键）；每一行的权重之和为 1。输入任意句子，或选一个示例。',
    sentence: '句子', dK: 'Q 和 K 的维度 d_k', seed: '随机投影（种子）',
    view: '视图', heatmap: '热力图', arcs: '连线', table: '表格',
    mapTitle: '“{sentence}”的注意力权重',
    cell: '“{q}” → “{k}”', how: '这个权重是怎样算出来的',
    dot: 'q·k', scaled: '缩放后 q·k / √{d}', exp: 'exp(缩放分数 − 行最大值)', rowSum: '该行 exp 之和', weight: '权重 = exp / 行和',
    arcsFor: '“{q}”在看哪里（在热力图中选一个格子来换词）',
    cellLabel: '{q} → {k}：权重 {w}', weights: '权重',
    rowQuery: '查询', colKey: '键',
  },
});

export const defaults = { sentence: 'i have a dream', dK: '16', seed: 1, view: 'heatmap', row: 0, col: 0 };

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'dK', type: 'choice', label: 'dK', options: ['4', '16', '64'].map((v) => ({ value: v, label: v })) },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  { key: 'view', type: 'choice', label: 'view', options: [
    { value: 'heatmap', label: 'heatmap' }, { value: 'arcs', label: 'arcs' }, { value: 'table', label: 'table' }] },
  { key: 'row', type: 'range', min: 0, max: 63, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: 63, step: 1, hidden: true },
];

// Word vectors of width 32 from the tokens, then self-attention with seeded
// projections: every number from the core.
export function compute(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, 40);
  const X = att.embedTokens({ tokens, d: 32, seed: state.seed });
  const r = att.selfAttention({ input: X, dK: Number(state.dK), seed: state.seed });
  return { tokens, n: tokens.length, dK: Number(state.dK), scores: r.scores, scaled: r.scaled, exps: r.exps,
    rowSums: r.rowSums, rowMax: r.rowMax, weights: r.weights };
}

export function build(body, { t }) {
  const note = element('p', 'illustrative', t('illustrative'));
  const figure = element('div', 'map-figure');
  const details = element('div', 'cell-details');
  details.setAttribute('aria-live', 'polite');
  body.append(figure, details, note);
  return { figure, details };
}

function clampCell(data, state) {
  return [Math.min(state.row, data.n - 1), Math.min(state.col, data.n - 1)];
}

function showCell(view, data, i, j, t) {
  const at = (m) => m.data[i * data.n + j];
  const rows = [
    ['dot', formatNumber(at(data.scores), { digits: 3 })],
    ['scaled', formatNumber(at(data.scaled), { digits: 3 })],
    ['exp', formatNumber(at(data.exps), { digits: 4 })],
    ['rowSum', formatNumber(data.rowSums[i], { digits: 4 })],
    ['weight', formatNumber(at(data.weights), { digits: 4 })],
  ];
  const list = element('dl', 'steps');
  for (const [key, value] of rows) {
    const item = element('div', `step step-${key}`);
    item.append(element('dt', '', t(key, { d: data.dK })), element('dd', '', value));
    item.lastChild.dataset.field = key;
    list.append(item);
  }
  view.details.replaceChildren(element('h4', 'steps-title', `${t('how')}: ${t('cell', { q: data.tokens[i], k: data.tokens[j] })}`), list);
}

function mapVisual(data, state, t, onCell = () => {}) {
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, values: data.weights.data, min: 0, max: 1, digits: 2,
    title: t('mapTitle', { sentence: data.tokens.join(' ') }), selected: clampCell(data, state), onCell,
    describe: (i, j) => t('cellLabel', { q: data.tokens[i], k: data.tokens[j], w: formatNumber(data.weights.data[i * data.n + j], { digits: 3 }) }),
  });
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const [i, j] = clampCell(data, state);
  if (state.view === 'table') {
    view.figure.replaceChildren(matrixTable({ m: data.weights, rowLabels: data.tokens, colLabels: data.tokens, digits: 3,
      caption: t('mapTitle', { sentence: data.tokens.join(' ') }) }));
  } else if (state.view === 'arcs') {
    view.figure.replaceChildren(element('p', 'figure-caption', t('arcsFor', { q: data.tokens[i] })),
      arcs({ tokens: data.tokens, weights: data.weights.data, query: i, title: t('arcsFor', { q: data.tokens[i] }) }));
  } else {
    const map = mapVisual(data, state, t, (a, b) => {
      showCell(view, data, a, b, t);
      if (a !== ctx.state.row || b !== ctx.state.col) ctx.setState({ row: a, col: b }, { quiet: true });
    });
    view.figure.replaceChildren(map.element, legend({ min: 0, max: 1, label: t('weights') }));
  }
  showCell(view, data, i, j, t);
}

export function exports(data, state, t) {
  return {
    visual: () => (state.view === 'arcs'
      ? arcs({ tokens: data.tokens, weights: data.weights.data, query: clampCell(data, state)[0] })
      : mapVisual(data, state, t).element),
    csv: () => ({
      header: [`${t('rowQuery')} \\ ${t('colKey')}`, ...data.tokens],
      rows: data.tokens.map((token, i) => [token, ...Array.from(data.weights.data.subarray(i * data.n, (i + 1) * data.n))]),
    }),
    json: () => ({ tokens: data.tokens, dK: data.dK, scores: data.scores, scaled: data.scaled, weights: data.weights }),
  };
}
