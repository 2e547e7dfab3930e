// A heatmap of a matrix (rows = queries, columns = keys) as SVG, operable with
// the keyboard: one cell is in the tab order; arrow keys, Home and End move;
// focusing or hovering a cell calls onCell(i, j). Pure: data in, element out.
//
//   heatmap({ rowLabels, colLabels, axes: { rows, cols }, values, allowed, min, max, digits, onCell, selected,
//             describe(i, j), inSlices }) -> { element, select(i, j), mark(i, j, kind), box(i, j) -> { x, y, size },
//                                              drawNext() -> more?, drawAll(), update(values, describe?) }
//   axes: the titles of the two axes (what a row is, what a column is: "queries",
//   "keys"), drawn beside the labels: rows down the left, columns above.
//   values: row-major Float32Array (rows * cols); allowed: optional Uint8Array,
//   0 = masked (drawn grey with "−∞" or "0"); describe(i, j): the cell's label for screen readers.
//   select(i, j): as a click on the cell (onCell is called, the cell focused);
//   mark(i, j, kind): only the ring moves there, 'selected' or 'partner' (dashed).
//   update(values, describe?): new values of the same shape (and mask, scale and
//   labels): each drawn cell's colour, number and label change in place, no new
//   element, the focus and the ring stay (a map redrawn while training runs).
//   inSlices: the map starts empty; each drawNext() draws its next part (the
//   column labels, then a few rows: their labels, about SLICE_CELLS cells and
//   their numbers) and says whether rows are left, so that a caller can draw a
//   large map over several frames (on a slow phone, styling and laying out a
//   few hundred cells takes tens of milliseconds); drawAll() draws the rest.
//
// The drawing, flat so that a map of a few hundred cells stays a few hundred
// elements (on a slow phone, style and layout cost per element):
//   <text class="heatmap-axis"> the two axis titles
//   <text class="heatmap-col">  the column labels
//   <text class="heatmap-row">, then <rect class="heatmap-cell" data-i data-j role="img" aria-label>
//                               each row's label, then its cells, in row order
//   <g class="heatmap-hatch">   the diagonal line of each masked cell
//   <g class="heatmap-values">  one <text> per cell (when cells are large enough), in row order
//   <rect class="heatmap-ring"> the selection, one for the map, moved from cell to cell
import { MASKED, inkOn, viridis } from './color.js';
import { doc } from './dom.js';
import { svg, textWidth, FONT_FAMILY } from './svg.js';
import { formatNumber } from './format.js';

// the cells drawNext() draws at a time (whole rows, at least one)
export const SLICE_CELLS = 16;

// the band an axis title takes beside its labels
const AXIS_BAND = 18;

// The map's geometry: the cell's size in pixels (18 to 48, the map near 420 px
// across), the numbers' font, the margins the labels and axis titles need, the whole size.
function layoutOf(rowLabels, colLabels, axes) {
  const rows = rowLabels.length, cols = colLabels.length;
  const cell = Math.max(18, Math.min(48, Math.floor(420 / Math.max(rows, cols))));
  // a whole number of pixels: each new size of a font is one more font lookup on the first draw
  const font = Math.round(Math.max(9, Math.min(13, cell * 0.34)));
  const left = Math.ceil(Math.max(...rowLabels.map((l) => textWidth(l, 12)), 10)) + 10 + (axes?.rows ? AXIS_BAND : 0);
  const top = Math.ceil(Math.max(...colLabels.map((l) => textWidth(l, 12)), 10) * 0.75) + 14 + (axes?.cols ? AXIS_BAND : 0);
  // a column label runs up and to the right (rotated 45°): room for the last ones' ends
  const right = Math.max(4, ...colLabels.map((l, j) => Math.ceil((j + 0.5 - cols) * cell + textWidth(l, 12) * 0.71) + 4));
  return { rows, cols, cell, font, left, top, width: left + cols * cell + right, height: top + rows * cell + 4 };
}

// The cell the keyboard, the mouse and the focus choose: one listener of each
// kind for the whole map (the cell is the event's nearest .heatmap-cell).
// choose(i, j, focus); current() the cell in the tab order.
function listen(root, ring, { rows, cols }, current, choose) {
  const cellOf = (event) => {
    const rect = event.target.closest?.('.heatmap-cell');
    return rect && root.contains(rect) ? [Number(rect.dataset.i), Number(rect.dataset.j)] : null;
  };
  // the ring is thicker while a cell has the keyboard's focus (a class, not a
  // :has() rule, which the browser would check again on every row drawn)
  root.addEventListener('focusin', (event) => {
    const c = cellOf(event);
    ring.classList.toggle('is-focused', Boolean(c) && event.target.matches(':focus-visible'));
    if (c) choose(c[0], c[1], false);
  });
  root.addEventListener('focusout', () => ring.classList.remove('is-focused'));
  root.addEventListener('mouseover', (event) => {
    const c = cellOf(event), [i, j] = current();
    if (c && (c[0] !== i || c[1] !== j)) choose(c[0], c[1], false);
  });
  root.addEventListener('click', (event) => { const c = cellOf(event); if (c) choose(c[0], c[1], true); });
  root.addEventListener('keydown', (event) => {
    let [i, j] = current();
    switch (event.key) {
      case 'ArrowUp': i = Math.max(0, i - 1); break;
      case 'ArrowDown': i = Math.min(rows - 1, i + 1); break;
      case 'ArrowLeft': j = Math.max(0, j - 1); break;
      case 'ArrowRight': j = Math.min(cols - 1, j + 1); break;
      case 'Home': j = 0; break;
      case 'End': j = cols - 1; break;
      default: return;
    }
    event.preventDefault();
    choose(i, j, true);
  });
}

export function heatmap({
  rowLabels, colLabels, axes = null, values, allowed = null, min = 0, max = 1, digits = 2,
  onCell = () => {}, selected = null, describe = null, title = '', maskedText = '−∞', inSlices = false,
}) {
  const size = layoutOf(rowLabels, colLabels, axes);
  const { rows, cols, cell, width, height } = size;
  const root = svg('svg', {
    class: 'heatmap', viewBox: `0 0 ${width} ${height}`, width, height,
    role: 'group', 'aria-label': title, 'font-family': FONT_FAMILY,
  });
  root.style.maxWidth = `${width}px`;
  root.append(svg('title', {}, title));
  if (axes) drawAxes(root, size, axes);
  // the map: what the drawing functions below share
  const h = {
    ...size, root, rowLabels, colLabels, values, allowed, min, span: max - min || 1, digits, describe, maskedText, onCell,
    cellRect: svg('rect', { class: 'heatmap-cell', tabindex: -1, role: 'img', width: cell - 1, height: cell - 1, rx: 2 }),
    valueText: svg('text'),
    hatch: svg('g', { class: 'heatmap-hatch', stroke: '#ffffff', 'stroke-opacity': 0.45, 'pointer-events': 'none', 'aria-hidden': 'true' }),
    numbers: cell >= 26 ? svg('g', { class: 'heatmap-values', 'font-size': size.font, 'text-anchor': 'middle',
      'dominant-baseline': 'central', 'pointer-events': 'none', 'aria-hidden': 'true' }) : null,
    ring: svg('rect', { class: 'heatmap-ring', x: 1.5, y: 1.5, width: cell - 3, height: cell - 3, rx: 2, fill: 'none', 'aria-hidden': 'true' }),
    cells: new Array(rows * cols),  // each cell's <rect>, once drawn
    texts: new Array(rows * cols),  // each cell's number, once drawn (large cells only)
    current: [0, 0],                // the cell in the tab order
    marked: null,                   // [i, j, kind]: the cell with the ring
    labelled: false,                // the column labels drawn
    drawnRows: 0,                   // rows [0, drawnRows) drawn
  };
  // the numbers under the ring; the hatch joins them once a masked cell is drawn
  if (h.numbers) root.append(h.numbers);
  root.append(h.ring);
  listen(root, h.ring, size, () => h.current, (i, j, focus) => choose(h, i, j, focus));
  h.current = selected && selected[0] < rows && selected[1] < cols ? [selected[0], selected[1]] : [0, 0];
  mark(h, ...h.current);
  const drawAll = () => {
    if (!h.labelled) drawColumnLabels(h);
    drawRows(h, rows);
  };
  if (!inSlices) drawAll();
  return {
    element: root,
    select: (i, j) => choose(h, i, j, true),
    mark: (i, j, kind) => mark(h, i, j, kind),
    // where a cell is drawn, in the map's own coordinates: { x, y, size }
    box: (i, j) => ({ x: h.left + j * cell, y: h.top + i * cell, size: cell }),
    drawNext() {
      if (!h.labelled) { drawColumnLabels(h); return rows > 0; }
      return drawRows(h, Math.max(1, Math.floor(SLICE_CELLS / cols)));
    },
    drawAll,
    update: (next, nextDescribe = h.describe) => update(h, next, nextDescribe),
  };
}

// cell k's colour position t, whether it is masked, the text it shows and its label
function look(h, k) {
  const i = Math.floor(k / h.cols), j = k % h.cols, v = h.values[k];
  const masked = h.allowed ? !h.allowed[k] : false;
  const shown = masked ? h.maskedText : formatNumber(v, { digits: h.digits });
  return { t: (v - h.min) / h.span, masked, shown, label: h.describe ? h.describe(i, j) : `${h.rowLabels[i]} → ${h.colLabels[j]}: ${shown}` };
}

// the axis titles: the columns' centred in the band above their labels, the
// rows' turned a quarter and centred in the band left of theirs
function drawAxes(root, { rows, cols, cell, left, top }, axes) {
  const common = { 'font-size': 12, 'font-style': 'italic', fill: 'currentColor', 'text-anchor': 'middle', 'aria-hidden': 'true' };
  if (axes.cols) root.append(svg('text', { ...common, class: 'heatmap-axis heatmap-axis-cols', x: left + (cols * cell) / 2, y: 13 }, axes.cols));
  if (axes.rows) {
    const x = 13, y = top + (rows * cell) / 2;
    root.append(svg('text', { ...common, class: 'heatmap-axis heatmap-axis-rows', x, y, transform: `rotate(-90 ${x} ${y})` }, axes.rows));
  }
}

// the column labels, first of all (before the ring, the numbers and any cell)
function drawColumnLabels(h) {
  const part = doc.createDocumentFragment();
  h.colLabels.forEach((label, j) => {
    const x = h.left + j * h.cell + h.cell / 2, y = h.top - 6;
    part.append(svg('text', { x, y, 'font-size': 12, fill: 'currentColor', transform: `rotate(-45 ${x} ${y})`, class: 'heatmap-col' }, label));
  });
  h.root.insertBefore(part, h.root.firstChild.nextSibling);
  h.labelled = true;
}

// rows [drawnRows, drawnRows + count): their labels, cells, hatches and numbers; whether rows are left
function drawRows(h, count) {
  const { cell, cols, left, top, numbers, hatch, ring, root } = h;
  const end = Math.min(h.rows, h.drawnRows + count);
  const cellPart = doc.createDocumentFragment(), numberPart = doc.createDocumentFragment();
  for (let i = h.drawnRows; i < end; i++) {
    cellPart.append(svg('text', { x: left - 6, y: top + i * cell + cell / 2, 'font-size': 12, fill: 'currentColor',
      'text-anchor': 'end', 'dominant-baseline': 'central', class: 'heatmap-row' }, h.rowLabels[i]));
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j, { t, masked, shown, label } = look(h, k);
      const x = left + j * cell, y = top + i * cell;
      const rect = h.cellRect.cloneNode(false);
      rect.setAttribute('x', x + 0.5);
      rect.setAttribute('y', y + 0.5);
      rect.setAttribute('fill', masked ? MASKED : viridis(t));
      rect.dataset.i = i;
      rect.dataset.j = j;
      rect.setAttribute('aria-label', label);
      if (i === h.current[0] && j === h.current[1]) rect.setAttribute('tabindex', 0);
      if (h.marked && i === h.marked[0] && j === h.marked[1]) rect.classList.add(`is-${h.marked[2]}`);
      cellPart.append(rect);
      h.cells[k] = rect;
      if (masked) hatch.append(svg('line', { x1: x + 3, y1: y + cell - 3, x2: x + cell - 3, y2: y + 3 }));
      if (!numbers) continue;
      const text = h.valueText.cloneNode(false);
      text.setAttribute('x', x + cell / 2);
      text.setAttribute('y', y + cell / 2);
      text.setAttribute('fill', masked ? '#ffffff' : inkOn(t));
      text.textContent = shown;
      numberPart.append(text);
      h.texts[k] = text;
    }
  }
  if (hatch.firstChild && !hatch.parentNode) root.insertBefore(hatch, numbers ?? ring);
  root.insertBefore(cellPart, hatch.parentNode ? hatch : numbers ?? ring);
  numbers?.append(numberPart);
  h.drawnRows = end;
  return h.drawnRows < h.rows;
}

// new values of the same shape: each drawn cell's colour, number and label change in place
function update(h, next, describe) {
  if (next.length !== h.rows * h.cols) throw new Error(`heatmap.update: ${next.length} values for a ${h.rows} × ${h.cols} map`);
  h.values = next;
  h.describe = describe;
  for (let k = 0; k < h.drawnRows * h.cols; k++) {
    const { t, masked, shown, label } = look(h, k);
    h.cells[k].setAttribute('aria-label', label);
    if (masked) continue;  // grey, with its mark, whatever the value
    h.cells[k].setAttribute('fill', viridis(t));
    if (h.texts[k]) {
      h.texts[k].textContent = shown;
      h.texts[k].setAttribute('fill', inkOn(t));
    }
  }
}

// the ring on cell (i, j), and the cell's class: is-selected or is-partner
function mark(h, i, j, kind = 'selected') {
  if (h.marked) h.cells[h.marked[0] * h.cols + h.marked[1]]?.classList.remove('is-selected', 'is-partner');
  h.marked = [i, j, kind];
  h.cells[i * h.cols + j]?.classList.add(`is-${kind}`);
  h.ring.dataset.kind = kind;
  h.ring.setAttribute('transform', `translate(${h.left + j * h.cell} ${h.top + i * h.cell})`);
}

// cell (i, j) into the tab order, with the ring; focused if asked; onCell told
function choose(h, i, j, focus) {
  h.cells[h.current[0] * h.cols + h.current[1]]?.setAttribute('tabindex', -1);
  h.current = [i, j];
  const node = h.cells[i * h.cols + j];
  node?.setAttribute('tabindex', 0);
  mark(h, i, j);
  if (focus && node && doc.activeElement !== node) node.focus();
  h.onCell(i, j);
}

// A legend for the scale: a gradient bar from min to max.
export function legend({ min = 0, max = 1, label = '', digits = 1 }) {
  const width = 180, height = 34;
  const root = svg('svg', { class: 'legend', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': `${label}: ${min} – ${max}` });
  const steps = 24;
  for (let k = 0; k < steps; k++) {
    root.append(svg('rect', { x: 4 + (k * (width - 8)) / steps, y: 4, width: (width - 8) / steps + 0.5, height: 10, fill: viridis(k / (steps - 1)) }));
  }
  root.append(
    svg('text', { x: 4, y: 28, 'font-size': 11, fill: 'currentColor' }, formatNumber(min, { digits })),
    svg('text', { x: width / 2, y: 28, 'font-size': 11, fill: 'currentColor', 'text-anchor': 'middle' }, label),
    svg('text', { x: width - 4, y: 28, 'font-size': 11, fill: 'currentColor', 'text-anchor': 'end' }, formatNumber(max, { digits })),
  );
  return root;
}
