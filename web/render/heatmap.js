// A heatmap of a matrix (rows = queries, columns = keys) as SVG, operable with
// the keyboard: one cell is in the tab order; arrow keys, Home and End move;
// focusing or hovering a cell calls onCell(i, j). Pure: data in, element out.
//
//   heatmap({ rowLabels, colLabels, values, allowed, min, max, digits, onCell, selected,
//             describe(i, j), inSlices }) -> { element, select(i, j), mark(i, j, kind), box(i, j) -> { x, y, size },
//                                              drawNext() -> more?, drawAll(), update(values, describe?) }
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
//   <text class="heatmap-col">  the column labels
//   <text class="heatmap-row">, then <rect class="heatmap-cell" data-i data-j role="img" aria-label>
//                               each row's label, then its cells, in row order
//   <g class="heatmap-hatch">   the diagonal line of each masked cell
//   <g class="heatmap-values">  one <text> per cell (when cells are large enough), in row order
//   <rect class="heatmap-ring"> the selection, one for the map, moved from cell to cell
import { MASKED, inkOn, viridis } from './color.js';
import { svg, textWidth } from './svg.js';
import { formatNumber } from './format.js';

// the cells drawNext() draws at a time (whole rows, at least one)
export const SLICE_CELLS = 16;

export function heatmap({
  rowLabels, colLabels, values: given, allowed = null, min = 0, max = 1, digits = 2,
  onCell = () => {}, selected = null, describe = null, title = '', maskedText = '−∞', inSlices = false,
}) {
  const rows = rowLabels.length, cols = colLabels.length;
  let values = given;
  const cell = Math.max(18, Math.min(48, Math.floor(420 / Math.max(rows, cols))));
  // a whole number of pixels: each new size of a font is one more font lookup on the first draw
  const font = Math.round(Math.max(9, Math.min(13, cell * 0.34)));
  const left = Math.ceil(Math.max(...rowLabels.map((l) => textWidth(l, 12)), 10)) + 10;
  const top = Math.ceil(Math.max(...colLabels.map((l) => textWidth(l, 12)), 10) * 0.75) + 14;
  // a column label runs up and to the right (rotated 45°): room for the last ones' ends
  const right = Math.max(4, ...colLabels.map((l, j) => Math.ceil((j + 0.5 - cols) * cell + textWidth(l, 12) * 0.71) + 4));
  const width = left + cols * cell + right, height = top + rows * cell + 4;
  const root = svg('svg', {
    class: 'heatmap', viewBox: `0 0 ${width} ${height}`, width, height,
    role: 'group', 'aria-label': title, 'font-family': 'system-ui, sans-serif',
  });
  root.style.maxWidth = `${width}px`;
  root.append(svg('title', {}, title));

  const span = max - min || 1;
  const cellRect = svg('rect', { class: 'heatmap-cell', tabindex: -1, role: 'img', width: cell - 1, height: cell - 1, rx: 2 });
  const valueText = svg('text');
  const hatch = svg('g', { class: 'heatmap-hatch', stroke: '#ffffff', 'stroke-opacity': 0.45, 'pointer-events': 'none', 'aria-hidden': 'true' });
  const numbers = cell >= 26 ? svg('g', { class: 'heatmap-values', 'font-size': font, 'text-anchor': 'middle',
    'dominant-baseline': 'central', 'pointer-events': 'none', 'aria-hidden': 'true' }) : null;
  const ring = svg('rect', { class: 'heatmap-ring', x: 1.5, y: 1.5, width: cell - 3, height: cell - 3, rx: 2, fill: 'none', 'aria-hidden': 'true' });
  // the numbers under the ring; the hatch joins them once a masked cell is drawn
  if (numbers) root.append(numbers);
  root.append(ring);

  // the column labels, first of all (before the ring, the numbers and any cell)
  let labelled = false;
  function drawColumnLabels() {
    const part = document.createDocumentFragment();
    colLabels.forEach((label, j) => {
      const x = left + j * cell + cell / 2, y = top - 6;
      part.append(svg('text', { x, y, 'font-size': 12, fill: 'currentColor', transform: `rotate(-45 ${x} ${y})`, class: 'heatmap-col' }, label));
    });
    root.insertBefore(part, root.firstChild.nextSibling);
    labelled = true;
  }

  const cells = new Array(rows * cols);  // each cell's <rect>, once drawn
  const texts = new Array(rows * cols);  // each cell's number, once drawn (large cells only)
  let current = [0, 0];                   // the cell in the tab order
  let marked = null;                      // [i, j, kind]: the cell with the ring
  // rows [drawnRows, drawnRows + count): their cells, hatches and numbers
  let drawnRows = 0;
  function drawRows(count) {
    const end = Math.min(rows, drawnRows + count);
    const cellPart = document.createDocumentFragment(), numberPart = document.createDocumentFragment();
    for (let i = drawnRows; i < end; i++) {
      cellPart.append(svg('text', { x: left - 6, y: top + i * cell + cell / 2, 'font-size': 12, fill: 'currentColor',
        'text-anchor': 'end', 'dominant-baseline': 'central', class: 'heatmap-row' }, rowLabels[i]));
      for (let j = 0; j < cols; j++) {
        const v = values[i * cols + j];
        const masked = allowed ? !allowed[i * cols + j] : false;
        const t = (v - min) / span;
        const x = left + j * cell, y = top + i * cell;
        const shown = masked ? maskedText : formatNumber(v, { digits });
        const rect = cellRect.cloneNode(false);
        rect.setAttribute('x', x + 0.5);
        rect.setAttribute('y', y + 0.5);
        rect.setAttribute('fill', masked ? MASKED : viridis(t));
        rect.dataset.i = i;
        rect.dataset.j = j;
        rect.setAttribute('aria-label', describe ? describe(i, j) : `${rowLabels[i]} → ${colLabels[j]}: ${shown}`);
        if (i === current[0] && j === current[1]) rect.setAttribute('tabindex', 0);
        if (marked && i === marked[0] && j === marked[1]) rect.classList.add(`is-${marked[2]}`);
        cellPart.append(rect);
        cells[i * cols + j] = rect;
        if (masked) hatch.append(svg('line', { x1: x + 3, y1: y + cell - 3, x2: x + cell - 3, y2: y + 3 }));
        if (numbers) {
          const text = valueText.cloneNode(false);
          text.setAttribute('x', x + cell / 2);
          text.setAttribute('y', y + cell / 2);
          text.setAttribute('fill', masked ? '#ffffff' : inkOn(t));
          text.textContent = shown;
          numberPart.append(text);
          texts[i * cols + j] = text;
        }
      }
    }
    if (hatch.firstChild && !hatch.parentNode) root.insertBefore(hatch, numbers ?? ring);
    root.insertBefore(cellPart, hatch.parentNode ? hatch : numbers ?? ring);
    numbers?.append(numberPart);
    drawnRows = end;
    return drawnRows < rows;
  }
  function drawNext() {
    if (!labelled) { drawColumnLabels(); return rows > 0; }
    return drawRows(Math.max(1, Math.floor(SLICE_CELLS / cols)));
  }
  function drawAll() {
    if (!labelled) drawColumnLabels();
    drawRows(rows);
  }

  function update(next, nextDescribe = describe) {
    if (next.length !== rows * cols) throw new Error(`heatmap.update: ${next.length} values for a ${rows} × ${cols} map`);
    values = next;
    describe = nextDescribe;
    for (let k = 0; k < drawnRows * cols; k++) {
      const i = Math.floor(k / cols), j = k % cols;
      const v = values[k], t = (v - min) / span;
      const masked = allowed ? !allowed[k] : false;
      const shown = masked ? maskedText : formatNumber(v, { digits });
      cells[k].setAttribute('aria-label', describe ? describe(i, j) : `${rowLabels[i]} → ${colLabels[j]}: ${shown}`);
      if (masked) continue;  // grey, with its mark, whatever the value
      cells[k].setAttribute('fill', viridis(t));
      if (texts[k]) {
        texts[k].textContent = shown;
        texts[k].setAttribute('fill', inkOn(t));
      }
    }
  }

  // the ring on cell (i, j), and the cell's class: is-selected or is-partner
  function mark(i, j, kind = 'selected') {
    if (marked) cells[marked[0] * cols + marked[1]]?.classList.remove('is-selected', 'is-partner');
    marked = [i, j, kind];
    cells[i * cols + j]?.classList.add(`is-${kind}`);
    ring.dataset.kind = kind;
    ring.setAttribute('transform', `translate(${left + j * cell} ${top + i * cell})`);
  }
  function choose(i, j, focus) {
    cells[current[0] * cols + current[1]]?.setAttribute('tabindex', -1);
    current = [i, j];
    const node = cells[i * cols + j];
    node?.setAttribute('tabindex', 0);
    mark(i, j);
    if (focus && node && document.activeElement !== node) node.focus();
    onCell(i, j);
  }
  // one listener of each kind for every cell: the cell is the event's nearest .heatmap-cell
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
    const c = cellOf(event);
    if (c && (c[0] !== current[0] || c[1] !== current[1])) choose(c[0], c[1], false);
  });
  root.addEventListener('click', (event) => { const c = cellOf(event); if (c) choose(c[0], c[1], true); });
  root.addEventListener('keydown', (event) => {
    let [i, j] = current;
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
  const [si, sj] = selected && selected[0] < rows && selected[1] < cols ? selected : [0, 0];
  current = [si, sj];
  mark(si, sj);
  if (!inSlices) drawAll();
  // where a cell is drawn, in the map's own coordinates: { x, y, size }
  const box = (i, j) => ({ x: left + j * cell, y: top + i * cell, size: cell });
  return { element: root, select: (i, j) => choose(i, j, true), mark, box, drawNext, drawAll, update };
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
