// The tile-by-tile part of the "flash" widget: the grid of scores cut into
// tiles (render/heatmap.js, with the tiles drawn over it: those not read yet
// veiled, the one being read outlined, the chosen row marked), the step bar
// (Back, Step, Play, and the arrow keys, Home and End), and the running state
// of the rows the tile holds, from the core's trace. DOM from data; the
// sentences come from the widget's t.
import { element, liveElement } from '../../render/dom.js';
import { formatNumber, formatPower } from '../../render/format.js';
import { heatmap } from '../../render/heatmap.js';
import { actionButton } from '../../render/parts.js';
import { svg } from '../../render/svg.js';
import { cornerCell, headerCell, headerRow } from '../../render/table.js';

const PLAY_MS = 900;  // a tile per this many ms while playing

// q₁ … q₈, k₁ … k₁₂: the labels of rows and columns (1-based, as the text says them)
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
export const label = (letter, index) => letter + String(index + 1).replace(/\d/g, (c) => SUBSCRIPTS[c]);

// a running maximum: −∞ before a row has seen a key
const maxText = (x) => (x === -Infinity ? '−∞' : formatNumber(x, { digits: 3 }));
// a factor e^(m − m′): a power of ten once 4 decimals would show it as 0
const factorText = (x) => (x >= 0.001 ? formatNumber(x, { digits: 4 }) : formatPower(x, { digits: 2 }));

// The step bar and the parts it steps through. go(step) asks for a step (the
// widget clamps it); the keys work anywhere in the part but on the grid's
// cells, whose arrows move between cells.
export function buildStepper(t, ask, signal) {
  const part = element('section', 'flash-stepper');
  part.setAttribute('aria-label', t('stepperLabel'));
  const s = { total: 0, step: 0, timer: 0 };
  // the step asked for counts at once: a second key press before the widget redraws moves on from it
  const go = (to) => {
    s.step = Math.max(0, Math.min(s.total, to));
    ask(s.step);
  };
  const stop = () => {
    clearTimeout(s.timer);
    s.timer = 0;
    play.replaceChildren(t.rich('play'));
    play.setAttribute('aria-pressed', 'false');
  };
  const back = actionButton(t, 'back', 'back', () => { stop(); go(s.step - 1); });
  const next = actionButton(t, 'next', 'step', () => go(s.step + 1));
  const play = actionButton(t, 'play', 'play', () => {
    if (s.timer) { stop(); return; }
    if (s.step >= s.total) go(0);
    play.replaceChildren(t.rich('pause'));
    play.setAttribute('aria-pressed', 'true');
    // one step every PLAY_MS, each timer set by the one before: stop() clears the one waiting
    const tick = () => {
      if (s.step >= s.total) { stop(); return; }
      go(s.step + 1);
      s.timer = setTimeout(tick, PLAY_MS);
    };
    s.timer = setTimeout(tick, PLAY_MS);
  });
  play.setAttribute('aria-pressed', 'false');
  const start = actionButton(t, 'start', 'start', () => { stop(); go(0); });
  const bar = element('div', 'action-bar flash-bar');
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', t('barLabel'));
  bar.append(start, back, next, play);
  part.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowRight: s.step + 1, ArrowLeft: s.step - 1, Home: 0, End: s.total }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    if (event.key !== 'ArrowRight') stop();
    go(to);
  });
  signal.addEventListener('abort', stop, { once: true });

  const status = liveElement('p', 'flash-status');
  status.dataset.part = 'status';
  const gridBox = element('div', 'flash-grid');
  const state = element('div', 'flash-state');
  const layout = element('div', 'flash-layout');
  layout.append(gridBox, state);
  part.append(bar, element('p', 'note flash-keys', t.rich('keys')), status, layout);
  return {
    element: part, gridBox, state, status, buttons: { start, back, next, play }, grid: null, gridKey: '',
    stop,
    // the step shown and the steps there are: what the buttons and keys move from
    show(step, total) {
      s.step = step;
      s.total = total;
      back.disabled = start.disabled = step <= 0;
      next.disabled = step >= total;
      if (step >= total && s.timer) stop();
    },
  };
}

// The grid of scores as the trace read them: each cell's scaled score from the
// tile that read it; a cell no tile read (hidden by the mask) is masked.
function gridValues(data) {
  const values = new Float32Array(data.nq * data.nk), allowed = new Uint8Array(data.nq * data.nk);
  for (const tile of data.tiles) {
    for (let i = 0; i < tile.rows; i++) {
      for (let j = 0; j < tile.cols; j++) {
        const s = tile.scores.data[i * tile.cols + j], k = (tile.row0 + i) * data.nk + tile.col0 + j;
        values[k] = s;
        allowed[k] = s !== -Infinity ? 1 : 0;
      }
    }
  }
  return { values, allowed };
}

// the index of the visit that read cell (i, j), or -1
const tileOf = (data, i, j) => data.tiles.findIndex((tile) => i >= tile.row0 && i < tile.row0 + tile.rows && j >= tile.col0 && j < tile.col0 + tile.cols);

// The heatmap of the scores, made once per input (seed, tile sizes, mask):
// stepping only redraws what lies over it. onRow(i): a cell's row chosen.
function scoreGrid(data, t, onRow) {
  const { values, allowed } = gridValues(data);
  const finite = Array.from(values).filter((x, k) => allowed[k]);
  // the cell focused or under the pointer (the heatmap says which): a click or Enter chooses its row
  let current = null;
  const h = heatmap({
    onCell: (i, j) => { current = [i, j]; },
    rowLabels: Array.from({ length: data.nq }, (_, i) => label('q', i)), colLabels: Array.from({ length: data.nk }, (_, j) => label('k', j)),
    axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values, allowed, min: Math.min(...finite), max: Math.max(...finite), digits: 1,
    title: t('gridTitle', { nq: data.nq, nk: data.nk }),
    describe: (i, j) => (allowed[i * data.nk + j]
      ? t('cellLabel', { q: label('q', i), k: label('k', j), score: formatNumber(values[i * data.nk + j], { digits: 3 }), tile: tileOf(data, i, j) + 1 })
      : t('cellHidden', { q: label('q', i), k: label('k', j) })),
  });
  const pick = () => { if (current) onRow(current[0]); };
  h.element.addEventListener('click', pick);
  h.element.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); pick(event); } });
  const overlay = svg('g', { class: 'flash-overlay', 'aria-hidden': 'true', 'pointer-events': 'none' });
  h.element.append(overlay);
  return { h, overlay };
}

// What lies over the grid at this step: the lines between tiles, a veil on
// every tile not read yet, the tile being read outlined, the chosen row.
function drawOverlay(grid, data, step, row) {
  const { h, overlay } = grid;
  const at = (i, j) => h.box(i, j);
  const rect = (cls, i0, j0, rows, cols, extra = {}) => {
    const a = at(i0, j0), size = a.size;
    return svg('rect', { class: cls, x: a.x, y: a.y, width: cols * size, height: rows * size, ...extra });
  };
  const parts = [];
  data.tiles.forEach((tile, k) => {
    if (k >= step) parts.push(rect('flash-unread', tile.row0, tile.col0, tile.rows, tile.cols));
  });
  for (let i = data.blockRows; i < data.nq; i += data.blockRows) parts.push(rect('flash-tile-line', i, 0, 0, data.nk));
  for (let j = data.blockCols; j < data.nk; j += data.blockCols) parts.push(rect('flash-tile-line', 0, j, data.nq, 0));
  if (row >= 0) parts.push(rect('flash-row', row, 0, 1, data.nk));
  if (step > 0) {
    const tile = data.tiles[step - 1];
    parts.push(rect('flash-current', tile.row0, tile.col0, tile.rows, tile.cols,
      { 'data-row0': tile.row0, 'data-col0': tile.col0, 'data-rows': tile.rows, 'data-cols': tile.cols }));
  }
  overlay.replaceChildren(...parts);
}

export function renderGrid(view, data, t, onRow) {
  const key = `${data.seed}/${data.blockRows}/${data.blockCols}/${data.causal}`;
  if (view.gridKey !== key) {
    view.grid = scoreGrid(data, t, onRow);
    view.gridKey = key;
    view.gridBox.replaceChildren(view.grid.h.element);
  }
  drawOverlay(view.grid, data, data.step, data.row);
}

// A picture of the grid at this step for the export: a new heatmap and its overlay.
export function gridPicture(data, t) {
  const grid = scoreGrid(data, t, () => {});
  drawOverlay(grid, data, data.step, data.row);
  return grid.h.element;
}

// The rows of the tile being read: m before and after, e^(m − m′), l before and after, o′.
export function renderState(box, data, t) {
  if (data.step === 0) {
    box.replaceChildren(element('p', 'flash-empty', t.rich('stateEmpty')));
    return;
  }
  const tile = data.tiles[data.step - 1];
  const table = element('table', 'matrix flash-table');
  table.append(element('caption', '', t.rich('stateCaption', { k: data.step, n: data.tiles.length })));
  const th = (key) => headerCell(t.rich(key));
  table.append(headerRow([cornerCell(), th('colMaxBefore'), th('colMaxAfter'), th('colRescale'), th('colSumBefore'), th('colSumAfter'), th('colOutput')]));
  const body = element('tbody');
  for (let r = 0; r < tile.rows; r++) {
    const i = tile.row0 + r;
    const tr = element('tr', tile.rescale[r] < 1 ? 'is-rescaled' : '');
    tr.dataset.row = String(i);
    const cell = (field, text) => {
      const td = element('td', '', text);
      td.dataset.field = field;
      return td;
    };
    const o = Array.from(tile.outputAfter.data.subarray(r * data.dv, (r + 1) * data.dv), (x) => formatNumber(x, { digits: 3 }));
    tr.append(headerCell(label('q', i), { scope: 'row' }),
      cell('max-before', maxText(tile.maxBefore[r])), cell('max-after', maxText(tile.maxAfter[r])),
      cell('rescale', factorText(tile.rescale[r])),
      cell('sum-before', formatNumber(tile.sumBefore[r], { digits: 4 })), cell('sum-after', formatNumber(tile.sumAfter[r], { digits: 4 })),
      cell('output', `(${o.join(', ')})`));
    body.append(tr);
  }
  table.append(body);
  const scroll = element('div', 'table-scroll');
  scroll.append(table);
  box.replaceChildren(scroll, element('p', 'note flash-formula', t.rich('formula')));
}

// The sentences under the bar: where the run is, and what this tile did to the
// row whose maximum rose most (the smallest factor below 1), if any did.
export function statusParts(data, t) {
  const n = data.tiles.length;
  if (data.step === 0) return [t.rich(data.skipped ? 'statusStartSkipped' : 'statusStart', { n, skipped: data.skipped })];
  const tile = data.tiles[data.step - 1];
  const where = t.rich('statusTile', { k: data.step, n, q0: tile.row0 + 1, q1: tile.row0 + tile.rows, k0: tile.col0 + 1, k1: tile.col0 + tile.cols });
  let r = -1;
  for (let k = 0; k < tile.rows; k++) {
    if (tile.maxBefore[k] !== -Infinity && tile.rescale[k] < 1 && (r < 0 || tile.rescale[k] < tile.rescale[r])) r = k;
  }
  const first = Array.from(tile.maxBefore).every((m) => m === -Infinity);
  const what = r >= 0
    ? t.rich('statusRose', { q: label('q', tile.row0 + r), before: maxText(tile.maxBefore[r]), after: maxText(tile.maxAfter[r]),
      factor: factorText(tile.rescale[r]) })
    : t.rich(first ? 'statusFirst' : 'statusSame');
  return [where, ' ', what, ...(data.step === n ? [' ', t.rich('statusDone')] : [])];
}
