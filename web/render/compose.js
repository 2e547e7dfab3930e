// Several drawn SVGs in one, each under its title: the export of a widget
// that shows more than one map. Pure: elements in, a new element out (the
// given SVGs are moved into it, so pass freshly drawn ones).
import { svg, textWidth, FONT_FAMILY } from './svg.js';

// items: [{ title, svg, newRow? }]; newRow starts a new line of figures.
export function composite(items, { gap = 24, title = '' } = {}) {
  const head = 22;
  const root = svg('svg', { role: 'img', 'aria-label': title, 'font-family': FONT_FAMILY });
  let x = 0, y = 0, rowHeight = 0, width = 0;
  for (const item of items) {
    const w = Number(item.svg.getAttribute('width')), h = Number(item.svg.getAttribute('height')) + head;
    if (item.newRow && x > 0) { x = 0; y += rowHeight + gap; rowHeight = 0; }
    root.append(svg('text', { x, y: y + 15, 'font-size': 13, 'font-weight': 600, fill: 'currentColor' }, item.title));
    item.svg.removeAttribute('style');
    item.svg.setAttribute('x', x);
    item.svg.setAttribute('y', y + head);
    root.append(item.svg);
    x += Math.max(w, textWidth(item.title, 13)) + gap;
    width = Math.max(width, x - gap);
    rowHeight = Math.max(rowHeight, h);
  }
  const height = y + rowHeight;
  for (const [key, value] of Object.entries({ viewBox: `0 0 ${width} ${height}`, width, height })) root.setAttribute(key, value);
  return root;
}
