// The "windows" widget's mask designer: each preset as options of the core's
// attention() (causal; causal + window; causal + window + sinks; a prefix mask;
// the reader's own cells), run on small seeded inputs, and the grid that draws
// the mask and weights it returns, each cell a button that toggles it.
//
//   computeMask(att, state, t) -> { n, mask: 0/1 (n*n, row-major), weights (n*n), empty: rows that see no key }
//   maskGrid(t, onToggle(i, j, mask shown)) -> { element, update(data) }
import { element } from '../../render/dom.js';
import { MASKED, inkOn, viridis } from '../../render/color.js';
import { formatNumber } from '../../render/format.js';

export const N = 12;   // positions
const D = 4;           // the width of the seeded queries, keys and values
export const PRESETS = ['causal', 'window', 'sinks', 'prefix', 'custom'];

// the prefix mask: bidirectional over the first p positions, causal after them (n, n), 1 = may attend
const prefixMask = (p) => Array.from({ length: N }, (_, i) => Array.from({ length: N }, (_, j) => (j <= i || (i < p && j < p) ? 1 : 0)));

function options(state, t) {
  switch (state.preset) {
    case 'causal': return { causal: true };
    case 'window': return { causal: true, window: state.w };
    case 'sinks': return { causal: true, window: state.w, sinks: state.s };
    case 'prefix': return { mask: prefixMask(state.p) };
    default: {
      if (state.cells === '') return { causal: true };  // "your own" before any click: it starts from causal
      if (!/^[01]*$/.test(state.cells) || state.cells.length !== N * N) throw new Error(t('badCells', { n: N * N }));
      return { mask: Array.from(state.cells, Number) };
    }
  }
}

export function computeMask(att, state, t) {
  const seed = state.seed;
  const [query, key, value] = [0, 1, 2].map((stream) => att.initUniform(N, D, seed, 1, stream));
  const r = att.attention({ query, key, value, ...options(state, t) });
  const mask = Array.from(r.mask.data), weights = Array.from(r.weights.data);
  const empty = [];
  for (let i = 0; i < N; i++) if (!mask.slice(i * N, (i + 1) * N).some(Boolean)) empty.push(i);
  return { n: N, mask, weights, empty };
}

// the mask as the URL keeps the reader's own: one 0 or 1 per cell, row by row
export const cellsOf = (mask) => mask.join('');

// The grid: a table of N x N buttons (query rows, key columns), one in the
// tab order at a time; the arrow keys, Home and End move it; Enter or Space
// toggles the cell.
export function maskGrid(t, onToggle) {
  const table = element('table', 'win-grid');
  const caption = element('caption', 'win-grid-caption', t.rich('gridCaption'));
  const head = element('tr');
  head.append(element('th', 'win-corner', t('gridCorner')), ...Array.from({ length: N }, (_, j) => element('th', 'win-key', String(j))));
  table.append(caption, element('thead'));
  table.tHead.append(head);
  const body = element('tbody'), cells = [];
  let shown = null;
  for (let i = 0; i < N; i++) {
    const tr = element('tr');
    const th = element('th', 'win-query', String(i));
    th.scope = 'row';
    tr.append(th);
    for (let j = 0; j < N; j++) {
      const td = element('td');
      const b = element('button', 'win-cell');
      b.type = 'button';
      b.dataset.row = String(i);
      b.dataset.col = String(j);
      b.tabIndex = i === 0 && j === 0 ? 0 : -1;
      b.addEventListener('click', () => shown && onToggle(i, j, shown.mask));
      td.append(b);
      tr.append(td);
      cells.push(b);
    }
    body.append(tr);
  }
  table.append(body);
  table.addEventListener('keydown', (event) => {
    const at = cells.indexOf(event.target);
    if (at < 0) return;
    const i = Math.floor(at / N), j = at % N;
    const to = { ArrowUp: [i - 1, j], ArrowDown: [i + 1, j], ArrowLeft: [i, j - 1], ArrowRight: [i, j + 1], Home: [i, 0], End: [i, N - 1] }[event.key];
    if (!to) return;
    event.preventDefault();
    const [r, c] = [Math.min(N - 1, Math.max(0, to[0])), Math.min(N - 1, Math.max(0, to[1]))];
    for (const b of cells) b.tabIndex = -1;
    cells[r * N + c].tabIndex = 0;
    cells[r * N + c].focus();
  });
  return {
    element: table,
    update(data) {
      shown = data;
      const top = Math.max(...data.weights);
      cells.forEach((b, k) => {
        const allowed = data.mask[k] === 1, w = data.weights[k], shade = top > 0 ? w / top : 0;
        b.dataset.allowed = allowed ? '1' : '0';
        b.dataset.weight = String(w);
        b.setAttribute('aria-pressed', String(allowed));
        b.style.background = allowed ? viridis(shade) : MASKED;
        b.style.color = allowed ? inkOn(shade) : '#1d1f21';  // on the grey: dark ink 5.1:1, white would be 3.3:1
        b.textContent = allowed ? '' : '×';
        b.setAttribute('aria-label', t(allowed ? 'cellAllowed' : 'cellMasked', { i: Math.floor(k / N), j: k % N, weight: formatNumber(w, { digits: 2 }) }));
      });
    },
  };
}
