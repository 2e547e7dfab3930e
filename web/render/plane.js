// A plane of 2-D vectors drawn as arrows from the origin, one of which (the
// query) the reader may move: by dragging its tip, or with the arrow keys once
// its handle has the focus (Shift for larger steps). Pure: data in, element out.
//
//   plane({ vectors: [{ x, y, label, weight?, kind?, color? }], query?: { x, y, label }, extent, step,
//           circle?, title, describe(x, y) -> text, onMove(x, y) }) -> { element, update({ vectors, query, circle }) }
//   update: the keys and the circle drawn anew, the query moved (no event); the
//   handle stays the same element, so a reader moving it keeps the focus.
//   Without a query the plane is a picture (role img): its arrows only, no handle.
//   extent: the plane shows [−extent, extent] on both axes; step: a key press
//   moves the query this much (the tip snaps to it when dragged).
//   weight: in [0, 1], how strongly a vector's arrow is drawn (its softmax weight).
//   kind: a name for a stylesheet (data-kind); color: the arrow's colour (its
//   SVG color, which a stylesheet may override: drawn in currentColor, so an
//   exported copy keeps it); an empty label writes none.
//   circle: a radius to draw as a dashed circle (keys of one length lie on it).
import { svg } from './svg.js';

// PAD: room around the plane for what stands beyond a vector's end at the
// extent: the query's head, its handle (r 9 and its focus ring) and its label
// (12 px out, 14 px type); the keys' labels
const SIZE = 320, PAD = 30;
// arrowheads: length and half-width (px) of the keys' and the query's
const HEADS = { key: [10, 4], query: [13, 5.5] };
const QUERY_COLOR = '#0072b2';

// An arrow from (x0, y0) to (x1, y1), screen px: a shaft that stops where its
// head begins, and the head, a triangle whose tip is the vector's end (drawn,
// not a marker, so that its tip is exactly the point shown, and its box is
// known). A vector of length 0 has no head.
function setArrow(shaft, head, [x0, y0, x1, y1], [length, half]) {
  const d = Math.hypot(x1 - x0, y1 - y0);
  const ux = d ? (x1 - x0) / d : 0, uy = d ? (y1 - y0) / d : 0;
  const back = Math.min(length, d);  // the head's base, from the tip
  const bx = x1 - ux * back, by = y1 - uy * back;
  shaft.setAttribute('x1', x0);
  shaft.setAttribute('y1', y0);
  shaft.setAttribute('x2', bx);
  shaft.setAttribute('y2', by);
  const w = d ? half : 0;
  head.setAttribute('d', `M${x1},${y1} L${bx - uy * w},${by + ux * w} L${bx + uy * w},${by - ux * w} Z`);
}

// the axes and a grid line at each whole unit
function gridLines(extent, px, py) {
  const grid = svg('g', { class: 'plane-grid', 'aria-hidden': 'true' });
  for (let v = -Math.floor(extent); v <= extent; v++) {
    // currentColor at an opacity where no stylesheet goes (an exported copy)
    const look = { stroke: 'currentColor', 'stroke-opacity': v === 0 ? 0.5 : 0.15, class: v === 0 ? 'plane-axis' : '' };
    grid.append(svg('line', { x1: px(v), y1: py(-extent), x2: px(v), y2: py(extent), ...look }),
      svg('line', { x1: px(-extent), y1: py(v), x2: px(extent), y2: py(v), ...look }));
  }
  return grid;
}

// The arrows of the vectors (and the circle) in keys, anew
function drawKeys(keys, list, radius, { px, py, unit }) {
  keys.replaceChildren();
  if (radius) keys.append(svg('circle', { class: 'plane-circle', cx: px(0), cy: py(0), r: radius * unit, fill: 'none', stroke: 'currentColor', 'stroke-dasharray': '4 4' }));
  for (const v of list) {
    const g = svg('g', { class: 'plane-key', 'data-kind': v.kind, color: v.color });
    g.style.opacity = String(0.35 + 0.65 * (v.weight ?? 1));
    const shaft = svg('line', { stroke: 'currentColor', 'stroke-width': 2 }), head = svg('path', { class: 'plane-head-key', fill: 'currentColor' });
    setArrow(shaft, head, [px(0), py(0), px(v.x), py(v.y)], HEADS.key);
    g.append(shaft, head);
    const away = Math.hypot(v.x, v.y) || 1;
    if (v.label) {
      g.append(svg('text', { x: px(v.x) + (10 * v.x) / away, y: py(v.y) - (10 * v.y) / away, 'text-anchor': v.x < 0 ? 'end' : 'start',
        'dominant-baseline': 'central', 'font-size': 13, class: 'plane-label', fill: 'currentColor' }, v.label));
    }
    keys.append(g);
  }
}

export function plane({ vectors, query = null, extent, step, circle = null, title = '', describe, onMove }) {
  const unit = (SIZE / 2 - PAD) / extent;
  const px = (x) => SIZE / 2 + x * unit, py = (y) => SIZE / 2 - y * unit;
  const root = svg('svg', { class: 'plane', viewBox: `0 0 ${SIZE} ${SIZE}`, width: SIZE, height: SIZE, role: query ? 'group' : 'img', 'aria-label': title });
  root.append(svg('title', {}, title));
  const keys = svg('g', { 'aria-hidden': 'true' });
  root.append(gridLines(extent, px, py), keys);
  const frame = { px, py, unit };
  drawKeys(keys, vectors, circle, frame);
  if (!query) {
    return { element: root, update: (next) => drawKeys(keys, next.vectors, next.circle ?? null, frame) };
  }
  // the query in the page's accent (styles/shared.css), Okabe–Ito blue in an exported copy
  const arrow = svg('line', { class: 'plane-query', 'aria-hidden': 'true', stroke: QUERY_COLOR, 'stroke-width': 3 });
  const tip = svg('path', { class: 'plane-head-query', 'aria-hidden': 'true', fill: QUERY_COLOR });
  const label = svg('text', { class: 'plane-query-label', 'aria-hidden': 'true', fill: QUERY_COLOR, 'font-size': 14, 'font-weight': 700, 'font-style': 'italic' }, query.label);
  const handle = svg('circle', { class: 'plane-handle', r: 9, tabindex: 0, role: 'slider', 'aria-roledescription': '2-D slider' });
  root.append(arrow, tip, label, handle);
  let at = { x: query.x, y: query.y };
  const place = () => {
    setArrow(arrow, tip, [px(0), py(0), px(at.x), py(at.y)], HEADS.query);
    handle.setAttribute('cx', px(at.x));
    handle.setAttribute('cy', py(at.y));
    label.setAttribute('x', px(at.x) + 12);
    label.setAttribute('y', py(at.y) - 12);
    handle.setAttribute('aria-valuetext', describe(at.x, at.y));
    handle.setAttribute('aria-label', describe(at.x, at.y));
  };
  place();
  const clamp = (v) => Math.min(extent, Math.max(-extent, Math.round(v / step) * step));
  const move = (x, y) => {
    const next = { x: Number(clamp(x).toFixed(6)), y: Number(clamp(y).toFixed(6)) };
    if (next.x === at.x && next.y === at.y) return;
    at = next;
    place();
    onMove(at.x, at.y);
  };
  handle.addEventListener('keydown', (event) => {
    const by = event.shiftKey ? 5 * step : step;
    const delta = { ArrowLeft: [-by, 0], ArrowRight: [by, 0], ArrowUp: [0, by], ArrowDown: [0, -by] }[event.key];
    if (!delta) return;
    event.preventDefault();
    move(at.x + delta[0], at.y + delta[1]);
  });
  // a drag anywhere on the plane puts the tip under the pointer
  const fromPointer = (event) => {
    const box = root.getBoundingClientRect();
    const scale = SIZE / box.width;
    move(((event.clientX - box.left) * scale - SIZE / 2) / unit, (SIZE / 2 - (event.clientY - box.top) * scale) / unit);
  };
  root.addEventListener('pointerdown', (event) => {
    root.setPointerCapture?.(event.pointerId);
    fromPointer(event);
    handle.focus({ preventScroll: true });
  });
  root.addEventListener('pointermove', (event) => { if (event.buttons & 1) fromPointer(event); });
  return {
    element: root,
    update(next) {
      drawKeys(keys, next.vectors, next.circle ?? null, frame);
      at = { x: next.query.x, y: next.query.y };
      place();
    },
  };
}
