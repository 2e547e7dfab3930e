// The arc view: the tokens in a row; from the chosen query token, one arc to
// every key token, as thick and opaque as its weight. Pure: data in, element out.
import { svg, textWidth, FONT_FAMILY } from './svg.js';
import { formatNumber } from './format.js';

// tokens: labels; weights: row-major (n, n); query: the row to draw.
export function arcs({ tokens, weights, query = 0, title = '', minWeight = 0.02 }) {
  const n = tokens.length;
  const gaps = tokens.map((t) => Math.max(textWidth(t, 13) + 14, 34));
  const xs = [];
  let x = 10;
  for (const g of gaps) { xs.push(x + g / 2); x += g; }
  const width = x + 10, height = 30 + Math.min(160, width / 3);
  const base = height - 26;
  const root = svg('svg', { class: 'arcs', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, 'font-family': FONT_FAMILY });
  root.append(svg('title', {}, title));
  for (let j = 0; j < n; j++) {
    const w = weights[query * n + j];
    if (!(w >= minWeight)) continue;
    const x0 = xs[query], x1 = xs[j];
    const stroke = { stroke: '#0072b2', 'stroke-opacity': Math.min(1, 0.25 + w), 'stroke-width': 1 + 9 * w, fill: 'none' };
    if (j === query) {
      root.append(svg('circle', { cx: x0, cy: base - 14, r: 9, ...stroke }));
    } else {
      const h = Math.min(base - 12, Math.abs(x1 - x0) * 0.45 + 10);
      root.append(svg('path', { d: `M ${x0} ${base - 4} C ${x0} ${base - 4 - h}, ${x1} ${base - 4 - h}, ${x1} ${base - 4}`, ...stroke }));
    }
    root.append(svg('text', { x: x1, y: base - 8, 'font-size': 10, 'text-anchor': 'middle', fill: 'currentColor', 'fill-opacity': 0.8 },
      formatNumber(w, { digits: 2 })));
  }
  tokens.forEach((t, j) => {
    root.append(svg('text', { x: xs[j], y: base + 14, 'font-size': 13, 'text-anchor': 'middle', fill: j === query ? '#d55e00' : 'currentColor',
      'font-weight': j === query ? 700 : 400 }, t));
  });
  return root;
}
