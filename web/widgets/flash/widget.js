// Widget "flash": attention as FlashAttention runs it, tile by tile. 8
// queries meet 12 keys (width 4, seeded); the core's flashAttention computes
// the output by the online softmax, reading one tile of blockRows × blockCols
// scores at a time, and with trace gives every tile visit: its scores, each
// row's running maximum m before and after, the factor e^(m − m′) that the
// running sum l and the running output o were multiplied by, l and o after.
// The reader steps through the visits (stepper.js); at the last one the output
// o / l stands beside attention()'s, with the core's largest difference, and
// each row's log-sum-exp m + log l beside the fused kernel's. A row chosen
// shows its weights recovered from that one saved number
// (weightsFromLogSumExp) beside the full matrix's row. The memory part
// (memory.js) measures, in a worker, the full chain against the tiled kernel
// as n grows: the numbers held, the heap, the time, and how far each gets.
// Why: a fused kernel never holds the (n, n) matrix, and loses nothing by it.
import { element } from '../../render/dom.js';
import { formatNumber, formatPower } from '../../render/format.js';
import { matrixTable } from '../../render/matrix.js';
import { actionButton } from '../../render/parts.js';
import { MAX_N, buildMemory, memoryData, renderMemory } from './memory.js';
import { buildStepper, gridPicture, label, renderGrid, renderState, statusParts } from './stepper.js';

export const name = 'flash';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'steps tile by tile through FlashAttention\'s online softmax, recovers a row of weights from the saved log-sum-exp, and measures the full matrix against the tiled kernel as n grows';

// the release's files it loads beside embed.js, besides the core (docs/embedding.md)
export const assets = [];

const NQ = 8, NK = 12, D = 4;  // queries, keys, width of queries, keys and values
const LIMIT = 2;                 // entries uniform on ±2: scores spread enough for the maximum to move
// the most tiles a run can have: one query and one key each
const MAX_STEPS = NQ * NK;

export const defaults = { seed: 1, blockRows: 4, blockCols: 4, causal: false, maxN: '65536', step: 0, row: -1, run: null };

export const controls = [
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 99, step: 1 },
  { key: 'blockRows', type: 'range', label: 'blockRows', min: 1, max: NQ, step: 1 },
  { key: 'blockCols', type: 'range', label: 'blockCols', min: 1, max: NK, step: 1 },
  { key: 'causal', type: 'toggle', label: 'causal' },
  { key: 'maxN', type: 'select', label: 'maxN', options: MAX_N.map((n) => ({ value: n, label: Number(n).toLocaleString('en-US') })) },
  { key: 'step', type: 'range', hidden: true, min: 0, max: MAX_STEPS, step: 1 },
  { key: 'row', type: 'range', hidden: true, min: -1, max: NQ - 1, step: 1 },
];

// The row chosen: its weights from the saved log-sum-exp, and the full matrix's row.
function recoverRow(att, inputs, flash, full, row) {
  const { query, key, causal } = inputs;
  const recovered = att.weightsFromLogSumExp({ query, key, logSumExp: flash.logSumExp, rows: [row], causal }).weights;  // (1, NK)
  const fullRow = { rows: 1, cols: NK, data: full.weights.data.slice(row * NK, (row + 1) * NK) };
  return {
    row, lse: flash.logSumExp[row], weights: recovered.data, full: fullRow.data,
    diff: att.maxAbsDifference(recovered, fullRow), sum: att.rowSums(recovered)[0],
  };
}

export function compute(att, state) {
  const [query, key, value] = [[NQ, 0], [NK, 1], [NK, 2]].map(([n, stream]) => att.initUniform(n, D, state.seed, LIMIT, stream));
  const causal = state.causal;
  const flash = att.flashAttention({ query, key, value, causal, blockRows: state.blockRows, blockCols: state.blockCols, trace: true });
  const full = att.attention({ query, key, value, causal });
  const kernel = att.attention({ query, key, value, causal, intermediates: false, logSumExp: true });
  const tiles = flash.tiles;
  const row = state.row >= 0 && state.row < NQ ? state.row : -1;
  return {
    seed: state.seed, blockRows: state.blockRows, blockCols: state.blockCols, causal, nq: NQ, nk: NK, dv: D,
    tiles, skipped: flash.tilesSkipped, step: Math.max(0, Math.min(tiles.length, state.step)), row,
    output: flash.output, fullOutput: full.output, diff: att.maxAbsDifference(flash.output, full.output),
    logSumExp: flash.logSumExp, kernelLse: kernel.logSumExp,
    lseDiff: att.maxAbsDifference({ rows: 1, cols: NQ, data: flash.logSumExp }, { rows: 1, cols: NQ, data: kernel.logSumExp }),
    recovered: row >= 0 ? recoverRow(att, { query, key, causal }, flash, full, row) : null,
    memory: memoryData(state),
  };
}

// The last step: the tiled output beside attention()'s and their difference.
function buildCompare(t) {
  const box = element('section', 'flash-compare');
  box.dataset.part = 'compare';
  const tables = element('div', 'flash-matrices');
  const says = element('p', 'flash-says');
  says.dataset.field = 'difference';
  const lse = element('p', 'flash-says');
  lse.dataset.field = 'lse';
  box.append(element('h3', 'section-heading', t.rich('compareTitle')), tables, says, lse);
  const waiting = element('p', 'note flash-waiting', t.rich('compareWaiting'));
  return { box, tables, says, lse, waiting };
}

// The rows to choose (buttons, for the keyboard and screen readers; a click on the grid does the same) and the row chosen.
function buildRecover(t, choose) {
  const box = element('section', 'flash-recover');
  box.dataset.part = 'recover';
  const buttons = Array.from({ length: NQ }, (_, i) => {
    const b = actionButton(t, 'rowButton', `row-${i}`, () => choose(i));
    b.replaceChildren(label('q', i));
    b.setAttribute('aria-label', t('rowButton', { q: label('q', i) }));
    b.setAttribute('aria-pressed', 'false');
    b.classList.add('flash-row-button');
    return b;
  });
  const group = element('div', 'flash-rows');
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', t('rowsLabel'));
  group.append(...buttons);
  const shown = element('div', 'flash-recovered');
  box.append(element('h3', 'section-heading', t.rich('recoverTitle')), element('p', 'flash-recover-intro', t.rich('recoverIntro')), group, shown);
  return { box, buttons, shown };
}

export function build(body, ctx) {
  const { t } = ctx;
  const go = (step) => ctx.setState({ step });
  const stepper = buildStepper(t, go, ctx.signal);
  const choose = (row) => ctx.setState({ row: ctx.state.row === row ? -1 : row });
  const compare = buildCompare(t);
  const recover = buildRecover(t, choose);
  const memory = buildMemory(ctx);
  body.append(element('h3', 'section-heading', t.rich('stepTitle')), stepper.element, compare.waiting, compare.box, recover.box, memory.element);
  return { stepper, compare, recover, memory, choose };
}

function renderCompare(view, data, t) {
  const end = data.step === data.tiles.length;
  view.box.hidden = !end;
  view.waiting.hidden = end;
  if (!end) return;
  const rows = Array.from({ length: data.nq }, (_, i) => label('q', i));
  const table = (m, caption) => matrixTable({ m, rowLabels: rows, digits: 4, caption: t(caption) });
  view.tables.replaceChildren(table(data.output, 'tiledOutput'), table(data.fullOutput, 'fullOutput'));
  view.says.replaceChildren(t.rich(data.diff <= 1e-5 ? 'differenceSmall' : 'differenceLarge',
    { diff: formatPower(data.diff), n: data.tiles.length, nq: data.nq, nk: data.nk }));
  view.lse.replaceChildren(t.rich('lseDifference', { diff: formatPower(data.lseDiff) }));
}

function renderRecover(view, data, t) {
  view.buttons.forEach((b, i) => b.setAttribute('aria-pressed', String(i === data.row)));
  const r = data.recovered;
  if (!r) {
    view.shown.replaceChildren(element('p', 'note', t.rich('recoverNone')));
    return;
  }
  const m = { rows: 2, cols: data.nk, data: new Float32Array([...r.weights, ...r.full]) };
  const table = matrixTable({ m, rowLabels: [t('fromLse'), t('fromFull')], colLabels: Array.from({ length: data.nk }, (_, j) => label('k', j)),
    digits: 4, caption: t('recoverCaption', { q: label('q', r.row) }) });
  const says = element('p', 'flash-says', t.rich('recoverSays', {
    q: label('q', r.row), lse: formatNumber(r.lse, { digits: 4 }), diff: formatPower(r.diff), sum: formatNumber(r.sum, { digits: 6 }) }));
  says.dataset.field = 'recover-difference';
  view.shown.replaceChildren(table, says);
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const { stepper } = view;
  stepper.show(data.step, data.tiles.length);
  renderGrid(stepper, data, t, view.choose);
  renderState(stepper.state, data, t);
  stepper.status.replaceChildren(...statusParts(data, t));
  renderCompare(view.compare, data, t);
  renderRecover(view.recover, data, t);
  view.memory.follow(data.memory.maxN);
  renderMemory(view.memory, data.memory, t);
}

// unmounted: Play stops, the worker ends (ctx.signal does both too)
export function dispose(view) {
  view.stepper.stop();
  view.memory.end();
}

export const quiz = {
  question: 'quizQuestion',
  options: [
    { value: 'zero', label: 'quizZero' },
    { value: 'rounding', label: 'quizRounding' },
    { value: 'approximate', label: 'quizApproximate' },
  ],
  answer: (data) => (data.diff === 0 ? 'zero' : data.diff <= 1e-5 ? 'rounding' : 'approximate'),
  explain(data, state, t) {
    const key = { zero: 'quizExplainZero', rounding: 'quizExplainRounding', approximate: 'quizExplainApproximate' }[quiz.answer(data)];
    return t.rich(key, { diff: formatPower(data.diff) });
  },
  conceals: (view) => [view.compare.box],
};

// CSV: one line per row of every tile visit, in the order read.
export function exports(data, state, t) {
  const visits = data.tiles.flatMap((tile, k) => Array.from({ length: tile.rows }, (_, r) => [k + 1, tile.row0 + r + 1,
    `${tile.col0 + 1}-${tile.col0 + tile.cols}`, tile.maxBefore[r], tile.maxAfter[r], tile.rescale[r], tile.sumBefore[r], tile.sumAfter[r]]));
  const finite = (x) => (Number.isFinite(x) ? x : String(x));
  return {
    visual: () => gridPicture(data, t),
    csv: () => ({
      header: ['tile', 'query', 'keys', 'max before', 'max after', 'rescale', 'sum before', 'sum after'],
      rows: visits.map((v) => v.map(finite)),
    }),
    json: () => ({
      queries: data.nq, keys: data.nk, d: data.dv, seed: data.seed, blockRows: data.blockRows, blockCols: data.blockCols, causal: data.causal,
      tilesVisited: data.tiles.length, tilesSkipped: data.skipped,
      tiles: data.tiles.map((tile) => ({ row0: tile.row0, rows: tile.rows, col0: tile.col0, cols: tile.cols,
        maxBefore: Array.from(tile.maxBefore, finite), maxAfter: Array.from(tile.maxAfter), rescale: Array.from(tile.rescale),
        sumBefore: Array.from(tile.sumBefore), sumAfter: Array.from(tile.sumAfter) })),
      output: Array.from(data.output.data), attentionOutput: Array.from(data.fullOutput.data), maxAbsDifference: data.diff,
      logSumExp: Array.from(data.logSumExp), kernelLogSumExp: Array.from(data.kernelLse), logSumExpDifference: data.lseDiff,
      recovered: data.recovered && { row: data.recovered.row, weights: Array.from(data.recovered.weights), attentionRow: Array.from(data.recovered.full),
        maxAbsDifference: data.recovered.diff },
      memory: data.memory.status === 'idle' ? null : { maxN: data.memory.maxN, d: data.memory.d, status: data.memory.status,
        rows: data.memory.rows, maxAbsDifference: data.memory.maxDiff },
    }),
  };
}
