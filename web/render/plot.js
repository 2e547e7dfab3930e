// Line plots and bar charts as SVG, with axes, ticks and labels. Pure: data in,
// element out. Colours come from the Okabe–Ito palette (colour-blind safe), and
// each series also differs by dash pattern, so colour is never the only cue.
import { svg, FONT_FAMILY, textWidth as roughWidth } from './svg.js';
import { formatNumber } from './format.js';

export const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'];
const DASHES = ['', '6 4', '2 3', '8 3 2 3', '1 2', '4 2'];

function ticks(lo, hi, log, count = 5) {
  if (log) {
    const out = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      const v = 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
    return out.length >= 2 ? out : [lo, hi];
  }
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function tickLabel(v, log) {
  if (log) {
    // a power of ten far from 1 as 1e-5; any other value (given ticks: 4,096) in digits
    const e = Math.round(Math.log10(v));
    if (Math.abs(e) >= 4 && Math.abs(v / 10 ** e - 1) < 1e-9) return `1e${e}`;
    return formatNumber(v, { digits: Math.max(0, -Math.floor(Math.log10(v))) });
  }
  return formatNumber(v, { digits: Math.abs(v) < 10 && v % 1 ? 2 : 0, minDigits: 0 });
}

// how wide a label is at most, for a layout that must not overlap (svg.js)
const textWidth = (text, size) => roughWidth(text, size, { narrow: 0.62 });

// Labels in one column, each wanting its y: the y's given, moved apart so that
// any two are at least gap apart and all lie in [lo, hi] (when (n - 1) gap
// fits in it; else they keep the gap and the top ones pass lo). Order kept.
export function spreadLabels(wanted, gap, lo, hi) {
  const order = wanted.map((y, i) => [y, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const ys = order.map(([y]) => Math.min(hi, Math.max(lo, y)));
  for (let k = 1; k < ys.length; k++) ys[k] = Math.max(ys[k], ys[k - 1] + gap);  // pushed down
  if (ys.length && ys[ys.length - 1] > hi) {  // then up from the bottom
    ys[ys.length - 1] = hi;
    for (let k = ys.length - 2; k >= 0; k--) ys[k] = Math.min(ys[k], ys[k + 1] - gap);
  }
  const out = new Array(wanted.length);
  order.forEach(([, i], k) => { out[i] = ys[k]; });
  return out;
}

// Where a legend box of w × h goes in the plot's area { left, right, top,
// bottom }: the corner (top-left, top-right, bottom-left, bottom-right, in that
// order of preference) whose box covers the fewest of the points [x, y] it must
// not hide (samples of the data, the tags and the markers). Returns { x, y, hidden }.
export function legendCorner(area, w, h, points) {
  const corners = [[area.left + 4, area.top + 2], [area.right - 4 - w, area.top + 2],
    [area.left + 4, area.bottom - 2 - h], [area.right - 4 - w, area.bottom - 2 - h]];
  let best = null;
  for (const [x, y] of corners) {
    const hidden = points.filter(([px, py]) => px >= x - 2 && px <= x + w + 2 && py >= y - 2 && py <= y + h + 2).length;
    if (!best || hidden < best.hidden) best = { x, y, hidden };
  }
  return best;
}

// points every `step` px along a polyline of screen points
function samplesOf(points, step = 3) {
  const out = [];
  points.forEach(([x, y], i) => {
    out.push([x, y]);
    if (i === 0) return;
    const [x0, y0] = points[i - 1], n = Math.ceil(Math.hypot(x - x0, y - y0) / step);
    for (let k = 1; k < n; k++) out.push([x0 + ((x - x0) * k) / n, y0 + ((y - y0) * k) / n]);
  });
  return out;
}
// points every 3 px over a box
const boxSamples = ({ x, y, width, height }) => samplesOf([[x, y], [x + width, y], [x + width, y + height], [x, y + height], [x, y]])
  .concat(samplesOf([[x, y + height / 2], [x + width, y + height / 2]]));

// the grid, the ticks, the axes and their names
function drawAxes(root, { m, width, height, sx, sy, x0, x1, y0, y1, xLog, yLog, xTicks, xLabel, yLabel }) {
  const axis = svg('g', { class: 'plot-axis', fill: 'currentColor', 'font-size': 11 });
  for (const v of xTicks ?? ticks(x0, x1, xLog)) {
    axis.append(svg('line', { x1: sx(v), x2: sx(v), y1: m.top, y2: height - m.bottom, stroke: 'currentColor', 'stroke-opacity': 0.12 }));
    axis.append(svg('text', { x: sx(v), y: height - m.bottom + 16, 'text-anchor': 'middle' }, tickLabel(v, xLog)));
  }
  for (const v of ticks(y0, y1, yLog)) {
    axis.append(svg('line', { x1: m.left, x2: width - m.right, y1: sy(v), y2: sy(v), stroke: 'currentColor', 'stroke-opacity': 0.12 }));
    axis.append(svg('text', { x: m.left - 6, y: sy(v), 'text-anchor': 'end', 'dominant-baseline': 'central' }, tickLabel(v, yLog)));
  }
  axis.append(
    svg('line', { x1: m.left, x2: width - m.right, y1: height - m.bottom, y2: height - m.bottom, stroke: 'currentColor', 'stroke-opacity': 0.5 }),
    svg('line', { x1: m.left, x2: m.left, y1: m.top, y2: height - m.bottom, stroke: 'currentColor', 'stroke-opacity': 0.5 }),
    svg('text', { x: (m.left + width - m.right) / 2, y: height - 8, 'text-anchor': 'middle', 'font-size': 12 }, xLabel),
    svg('text', { x: 14, y: (m.top + height - m.bottom) / 2, 'text-anchor': 'middle', 'font-size': 12,
      transform: `rotate(-90 14 ${(m.top + height - m.bottom) / 2})` }, yLabel),
  );
  root.append(axis);
}

// Every series' line and dots; returns the points the legend must not hide
// and the tags to write, [{ x, y (the line's end), text, color }].
function drawSeries(root, series, { sx, sy, xLog, yLog }) {
  const avoid = [], tags = [];
  series.forEach((s, k) => {
    const color = s.color ?? PALETTE[k % PALETTE.length];
    const pts = s.x.map((x, i) => [x, s.y[i]]).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!xLog || x > 0) && (!yLog || y > 0));
    const screen = pts.map(([x, y]) => [sx(x), sy(y)]);
    if (s.line !== false && pts.length > 1) {
      root.append(svg('polyline', { points: screen.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '),
        fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': s.dash ?? DASHES[k % DASHES.length], class: 'plot-line' }));
      avoid.push(...samplesOf(screen));
    }
    if (s.points) {
      for (const [x, y] of screen) {
        root.append(svg('circle', { cx: x, cy: y, r: 4, fill: color, stroke: '#fff', 'stroke-width': 1 }));
        avoid.push([x, y], [x - 4, y], [x + 4, y], [x, y - 4], [x, y + 4]);
      }
    }
    if (s.tag && screen.length) tags.push({ x: screen.at(-1)[0], y: screen.at(-1)[1], text: s.tag, color });
  });
  return { avoid, tags };
}

// The tags, in the plot's right margin, each level with its line's end and
// moved apart so that none overlaps another, a thin leader from the line's end
// to its tag; returns their boxes.
const TAG = { size: 10, gap: 12 };
function drawTags(root, tags, { m, width, height }) {
  const x = width - m.right + 6;
  // a baseline 3.5 px below a line's level centres a 10 px tag on it
  const placed = spreadLabels(tags.map((tag) => tag.y + 3.5), TAG.gap, m.top + TAG.size - 2, height - m.bottom + 2);
  return tags.map((tag, k) => {
    const y = placed[k];
    root.append(svg('line', { x1: tag.x + 1, x2: x - 2, y1: tag.y, y2: y - 3.5, stroke: tag.color, 'stroke-width': 0.75, class: 'plot-leader' }));
    root.append(svg('text', { x, y, 'font-size': TAG.size, fill: tag.color, class: 'plot-tag' }, tag.text));
    return { x, y: y - TAG.size + 1, width: textWidth(tag.text, TAG.size), height: TAG.size + 2 };
  });
}

// The legend (the series with a label), in the corner where it hides the least.
// below: under the x axis's name (the plot made taller by legendRows), from the plot's left edge
function drawLegend(root, series, { m, width, height, avoid, below }) {
  const entries = series.map((s, k) => ({ s, k })).filter(({ s }) => s.label);
  if (!entries.length) return;
  const w = 36 + Math.max(...entries.map(({ s }) => textWidth(s.label, 11))), h = 16 * entries.length;
  const at = below ? { x: m.left - 4, y: height + 2 }
    : legendCorner({ left: m.left, right: width - m.right, top: m.top, bottom: height - m.bottom }, w, h, avoid);
  const legend = svg('g', { class: 'plot-legend' });
  entries.forEach(({ s, k }, row) => {
    const y = at.y + 8 + row * 16, color = s.color ?? PALETTE[k % PALETTE.length];
    // the swatch draws the series as the plot does: its line, its dot, or both
    if (s.line !== false) {
      legend.append(svg('line', { x1: at.x + 4, x2: at.x + 26, y1: y, y2: y, stroke: color, 'stroke-width': 2, 'stroke-dasharray': s.dash ?? DASHES[k % DASHES.length], class: 'plot-swatch' }));
    }
    if (s.points) legend.append(svg('circle', { cx: at.x + 15, cy: y, r: 4, fill: color, stroke: '#fff', 'stroke-width': 1, class: 'plot-swatch' }));
    legend.append(svg('text', { x: at.x + 32, y, 'font-size': 11, 'dominant-baseline': 'central', fill: 'currentColor' }, s.label));
  });
  root.append(legend);
}

// series: [{ label, x: number[], y: number[], points?: boolean, line?: boolean, dash?: string, tag?: string }]
// (dash: its own dash pattern; tag: a name written in the right margin beside
// its line's end, for a series left out of the legend; tags never overlap)
// markers: [{ x, label }] vertical guides.   xTicks: where to label x (default: round numbers)
// The legend goes in the corner of the plot where it hides the fewest data points,
// or (legend: 'below') under the plot, which grows by a row of 16 px per entry:
// for a narrow plot whose lines leave no corner free.
// Returns an <svg>.
// The top of a y range that leaves the top-left corner, where a legend of
// `entries` labelled series fits, clear of data, for a plot of `height`
export function legendHeadroom(top, entries, height) {
  const inner = height - 14 - 46, legend = 12 + 16 * entries + 8;
  return top * inner / Math.max(inner / 3, inner - legend);
}

export function linePlot({ series, xLabel = '', yLabel = '', xLog = false, yLog = false, width = 560, height = 300,
  xDomain = null, yDomain = null, xTicks = null, markers = [], title = '', legend = 'inside' }) {
  // the right margin holds the tags, when there are any
  const tagWidth = Math.max(0, ...series.filter((s) => s.tag).map((s) => textWidth(s.tag, TAG.size) + 10));
  const m = { left: 62, right: 16 + tagWidth, top: 14, bottom: 46 };
  const all = (key) => series.flatMap((s) => s[key]).filter((v) => Number.isFinite(v) && (!(key === 'x' ? xLog : yLog) || v > 0));
  const [x0, x1] = xDomain ?? [Math.min(...all('x')), Math.max(...all('x'))];
  let [y0, y1] = yDomain ?? [Math.min(...all('y')), Math.max(...all('y'))];
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const f = (log) => (v) => (log ? Math.log10(v) : v);
  const fx = f(xLog), fy = f(yLog);
  const sx = (v) => m.left + ((fx(v) - fx(x0)) / (fx(x1) - fx(x0) || 1)) * (width - m.left - m.right);
  const sy = (v) => height - m.bottom - ((fy(v) - fy(y0)) / (fy(y1) - fy(y0) || 1)) * (height - m.top - m.bottom);
  const below = legend === 'below', full = height + (below ? 16 * series.filter((s) => s.label).length + 6 : 0);
  const root = svg('svg', { class: 'plot', viewBox: `0 0 ${width} ${full}`, width, height: full, role: 'img', 'aria-label': title, 'font-family': FONT_FAMILY });
  root.append(svg('title', {}, title));
  drawAxes(root, { m, width, height, sx, sy, x0, x1, y0, y1, xLog, yLog, xTicks, xLabel, yLabel });
  const avoid = [];
  for (const marker of markers) {
    root.append(svg('line', { x1: sx(marker.x), x2: sx(marker.x), y1: m.top, y2: height - m.bottom, stroke: 'currentColor', 'stroke-dasharray': '3 3', 'stroke-opacity': 0.7 }));
    root.append(svg('text', { x: sx(marker.x) + 4, y: m.top + 10, 'font-size': 11, fill: 'currentColor' }, marker.label));
    avoid.push(...samplesOf([[sx(marker.x), m.top], [sx(marker.x), height - m.bottom]]),
      ...boxSamples({ x: sx(marker.x) + 4, y: m.top, width: textWidth(marker.label, 11), height: 12 }));
  }
  const drawn = drawSeries(root, series, { sx, sy, xLog, yLog });
  avoid.push(...drawn.avoid);
  for (const box of drawTags(root, drawn.tags, { m, width, height })) avoid.push(...boxSamples(box));
  drawLegend(root, series, { m, width, height, avoid, below });
  return root;
}

// Vertical bars: one per bin. bins: [{ from, to, count }] (a histogram), or labelled bars.
export function barChart({ bars, xLabel = '', yLabel = '', width = 560, height = 240, title = '', color = PALETTE[0] }) {
  const m = { left: 52, right: 12, top: 12, bottom: 42 };
  const top = Math.max(...bars.map((b) => b.value), 1e-12);
  const w = (width - m.left - m.right) / bars.length;
  const root = svg('svg', { class: 'plot', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, 'font-family': FONT_FAMILY });
  root.append(svg('title', {}, title));
  const sy = (v) => height - m.bottom - (v / top) * (height - m.top - m.bottom);
  for (const v of ticks(0, top, false, 4)) {
    root.append(svg('line', { x1: m.left, x2: width - m.right, y1: sy(v), y2: sy(v), stroke: 'currentColor', 'stroke-opacity': 0.12 }));
    root.append(svg('text', { x: m.left - 6, y: sy(v), 'text-anchor': 'end', 'dominant-baseline': 'central', 'font-size': 11, fill: 'currentColor' }, tickLabel(v, false)));
  }
  bars.forEach((b, k) => {
    root.append(svg('rect', { x: m.left + k * w + 0.5, y: sy(b.value), width: Math.max(w - 1, 0.5), height: Math.max(height - m.bottom - sy(b.value), 0), fill: b.color ?? color }));
  });
  const every = Math.ceil(bars.length / 8);
  bars.forEach((b, k) => {
    if (k % every === 0 && b.label !== undefined) {
      root.append(svg('text', { x: m.left + k * w + w / 2, y: height - m.bottom + 14, 'text-anchor': 'middle', 'font-size': 10, fill: 'currentColor' }, b.label));
    }
  });
  root.append(
    svg('line', { x1: m.left, x2: width - m.right, y1: height - m.bottom, y2: height - m.bottom, stroke: 'currentColor', 'stroke-opacity': 0.5 }),
    svg('text', { x: (m.left + width - m.right) / 2, y: height - 6, 'text-anchor': 'middle', 'font-size': 12, fill: 'currentColor' }, xLabel),
    svg('text', { x: 12, y: (m.top + height - m.bottom) / 2, 'text-anchor': 'middle', 'font-size': 12, fill: 'currentColor', transform: `rotate(-90 12 ${(m.top + height - m.bottom) / 2})` }, yLabel),
  );
  return root;
}
