// A heatmap of a matrix (rows = queries, columns = keys) as SVG, operable with
// the keyboard: one cell is in the tab order; arrow keys, Home and End move;
// focusing or hovering a cell calls onCell(i, j). Pure: data in, element out.
//
//   heatmap({ rowLabels, colLabels, values, allowed, min, max, digits, onCell, selected,
//             describe(i, j) }) -> { element, select(i, j), box(i, j) -> { x, y, size } }
//   values: row-major Float32Array (rows * cols); allowed: optional Uint8Array,
//   0 = masked (drawn grey with "−∞" or "0"); describe(i, j): the cell's label for screen readers.
import { MASKED, inkOn, viridis } from './color.js';
import { svg, textWidth } from './svg.js';
import { formatNumber } from './format.js';

export function heatmap({
  rowLabels, colLabels, values, allowed = null, min = 0, max = 1, digits = 2,
  onCell = () => {}, selected = null, describe = null, title = '', maskedText = '−∞',
}) {
  const rows = rowLabels.length, cols = colLabels.length;
  const cell = Math.max(18, Math.min(48, Math.floor(420 / Math.max(rows, cols))));
  const font = Math.max(9, Math.min(13, cell * 0.34));
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

  colLabels.forEach((label, j) => {
    const x = left + j * cell + cell / 2, y = top - 6;
    root.append(svg('text', { x, y, 'font-size': 12, fill: 'currentColor', transform: `rotate(-45 ${x} ${y})`, class: 'heatmap-col' }, label));
  });
  rowLabels.forEach((label, i) => {
    root.append(svg('text', { x: left - 6, y: top + i * cell + cell / 2, 'font-size': 12, fill: 'currentColor',
      'text-anchor': 'end', 'dominant-baseline': 'central', class: 'heatmap-row' }, label));
  });

  const span = max - min || 1;
  // one cell drawn at (0, 0), then cloned and moved into place: a map of a
  // few hundred cells sets a few attributes a cell, not thirty (on a slow
  // phone the difference is tens of milliseconds of one task)
  const prototype = (masked) => {
    const g = svg('g', { class: 'heatmap-cell', tabindex: -1, role: 'img' });
    g.append(svg('rect', { x: 0.5, y: 0.5, width: cell - 1, height: cell - 1, rx: 2 }));
    if (masked) g.append(svg('line', { x1: 3, y1: cell - 3, x2: cell - 3, y2: 3, stroke: '#ffffff', 'stroke-opacity': 0.45 }));
    if (cell >= 26) {
      g.append(svg('text', { x: cell / 2, y: cell / 2, 'font-size': font, 'text-anchor': 'middle', 'dominant-baseline': 'central',
        'pointer-events': 'none' }));
    }
    g.append(svg('rect', { class: 'heatmap-ring', x: 1.5, y: 1.5, width: cell - 3, height: cell - 3, rx: 2, fill: 'none' }));
    return g;
  };
  const plain = prototype(false), hatched = prototype(true);
  const cells = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = values[i * cols + j];
      const masked = allowed ? !allowed[i * cols + j] : false;
      const t = (v - min) / span;
      const g = (masked ? hatched : plain).cloneNode(true);
      g.setAttribute('transform', `translate(${left + j * cell} ${top + i * cell})`);
      g.dataset.i = i;
      g.dataset.j = j;
      g.setAttribute('aria-label', describe ? describe(i, j) : `${rowLabels[i]} → ${colLabels[j]}: ${masked ? maskedText : formatNumber(v, { digits })}`);
      g.firstChild.setAttribute('fill', masked ? MASKED : viridis(t));
      if (cell >= 26) {
        const text = g.querySelector('text');
        text.setAttribute('fill', masked ? '#ffffff' : inkOn(t));
        text.textContent = masked ? maskedText : formatNumber(v, { digits });
      }
      root.append(g);
      cells.push(g);
    }
  }

  let current = [0, 0];
  function choose(i, j, focus) {
    const previous = cells[current[0] * cols + current[1]];
    previous?.setAttribute('tabindex', -1);
    previous?.classList.remove('is-selected');
    current = [i, j];
    const node = cells[i * cols + j];
    node.setAttribute('tabindex', 0);
    node.classList.add('is-selected');
    if (focus && document.activeElement !== node) node.focus();
    onCell(i, j);
  }
  // one listener of each kind for every cell: the cell is the event's nearest .heatmap-cell
  const cellOf = (event) => {
    const g = event.target.closest?.('.heatmap-cell');
    return g && root.contains(g) ? [Number(g.dataset.i), Number(g.dataset.j)] : null;
  };
  root.addEventListener('focusin', (event) => { const c = cellOf(event); if (c) choose(c[0], c[1], false); });
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
  cells[si * cols + sj].setAttribute('tabindex', 0);
  cells[si * cols + sj].classList.add('is-selected');
  // where a cell is drawn, in the map's own coordinates: { x, y, size }
  const box = (i, j) => ({ x: left + j * cell, y: top + i * cell, size: cell });
  return { element: root, select: (i, j) => choose(i, j, true), box };
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
