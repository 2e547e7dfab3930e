// Horizontal bars, drawn as SVG. Pure: data and labels in, a new element out.
import { doc } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svgElement(name, attributes) {
  const node = doc.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

// One bar showing value as a share of max (a track, filled from the left).
// label is read by screen readers. CSS sizes it; the classes style it.
export function hbar({ value, max = 1, label = '' }) {
  const share = Number.isFinite(value) && max > 0 ? Math.min(Math.max(value / max, 0), 1) : 0;
  const svg = svgElement('svg', {
    class: 'hbar', viewBox: '0 0 100 10', preserveAspectRatio: 'none',
    role: 'img', 'aria-label': label,
  });
  svg.append(
    svgElement('rect', { class: 'hbar-track', x: 0, y: 0, width: 100, height: 10, rx: 2 }),
    svgElement('rect', { class: 'hbar-fill', x: 0, y: 0, width: share * 100, height: 10, rx: 2 }),
  );
  return svg;
}
