// Line plots and bar charts as SVG, with axes, ticks and labels. Pure: data in,
// element out. Colours come from the Okabe–Ito palette (colour-blind safe), and
// each series also differs by dash pattern, so colour is never the only cue.
import { svg } from './svg.js';
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

// series: [{ label, x: number[], y: number[], points?: boolean, line?: boolean, dash?: string, tag?: string }]
// (dash: its own dash pattern; tag: a name written at its right end, for a series
// left out of the legend)
// markers: [{ x, label }] vertical guides.   xTicks: where to label x (default: round numbers)
// Returns an <svg>.
// The top of a y range that leaves the legend of `entries` labelled series
// clear of the data, for a plot of `height` (the legend stands top-left inside)
export function legendHeadroom(top, entries, height) {
  const inner = height - 14 - 46, legend = 12 + 16 * entries + 8;
  return top * inner / Math.max(inner / 3, inner - legend);
}

export function linePlot({ series, xLabel = '', yLabel = '', xLog = false, yLog = false, width = 560, height = 300,
  xDomain = null, yDomain = null, xTicks = null, markers = [], title = '' }) {
  const m = { left: 62, right: 16, top: 14, bottom: 46 };
  const all = (key) => series.flatMap((s) => s[key]).filter((v) => Number.isFinite(v) && (!(key === 'x' ? xLog : yLog) || v > 0));
  const [x0, x1] = xDomain ?? [Math.min(...all('x')), Math.max(...all('x'))];
  let [y0, y1] = yDomain ?? [Math.min(...all('y')), Math.max(...all('y'))];
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const f = (log) => (v) => (log ? Math.log10(v) : v);
  const fx = f(xLog), fy = f(yLog);
  const sx = (v) => m.left + ((fx(v) - fx(x0)) / (fx(x1) - fx(x0) || 1)) * (width - m.left - m.right);
  const sy = (v) => height - m.bottom - ((fy(v) - fy(y0)) / (fy(y1) - fy(y0) || 1)) * (height - m.top - m.bottom);
  const root = svg('svg', { class: 'plot', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, 'font-family': 'system-ui, sans-serif' });
  root.append(svg('title', {}, title));
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
  for (const marker of markers) {
    root.append(svg('line', { x1: sx(marker.x), x2: sx(marker.x), y1: m.top, y2: height - m.bottom, stroke: 'currentColor', 'stroke-dasharray': '3 3', 'stroke-opacity': 0.7 }));
    root.append(svg('text', { x: sx(marker.x) + 4, y: m.top + 10, 'font-size': 11, fill: 'currentColor' }, marker.label));
  }
  const tagged = [];  // the y of each tag written
  series.forEach((s, k) => {
    const color = s.color ?? PALETTE[k % PALETTE.length];
    const pts = s.x.map((x, i) => [x, s.y[i]]).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!xLog || x > 0) && (!yLog || y > 0));
    if (s.line !== false && pts.length > 1) {
      root.append(svg('polyline', { points: pts.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' '),
        fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': s.dash ?? DASHES[k % DASHES.length], class: 'plot-line' }));
    }
    if (s.tag && pts.length) {
      // above its line's end, or higher where another tag already stands
      const [x, y] = pts[pts.length - 1];
      let at = sy(y) - 4;
      while (tagged.some((other) => Math.abs(other - at) < 11)) at -= 11;
      tagged.push(at);
      root.append(svg('text', { x: sx(x) - 2, y: at, 'text-anchor': 'end', 'font-size': 10, fill: color, class: 'plot-tag' }, s.tag));
    }
    if (s.points) for (const [x, y] of pts) root.append(svg('circle', { cx: sx(x), cy: sy(y), r: 4, fill: color, stroke: '#fff', 'stroke-width': 1 }));
  });
  // legend, top-left inside the plot
  series.forEach((s, k) => {
    if (!s.label) return;
    const y = m.top + 12 + k * 16, color = s.color ?? PALETTE[k % PALETTE.length];
    // the swatch draws the series as the plot does: its line, its dot, or both
    if (s.line !== false) {
      root.append(svg('line', { x1: m.left + 8, x2: m.left + 30, y1: y, y2: y, stroke: color, 'stroke-width': 2, 'stroke-dasharray': s.dash ?? DASHES[k % DASHES.length], class: 'plot-swatch' }));
    }
    if (s.points) root.append(svg('circle', { cx: m.left + 19, cy: y, r: 4, fill: color, stroke: '#fff', 'stroke-width': 1, class: 'plot-swatch' }));
    root.append(svg('text', { x: m.left + 36, y, 'font-size': 11, 'dominant-baseline': 'central', fill: 'currentColor' }, s.label));
  });
  return root;
}

// Vertical bars: one per bin. bins: [{ from, to, count }] (a histogram), or labelled bars.
export function barChart({ bars, xLabel = '', yLabel = '', width = 560, height = 240, title = '', color = PALETTE[0] }) {
  const m = { left: 52, right: 12, top: 12, bottom: 42 };
  const top = Math.max(...bars.map((b) => b.value), 1e-12);
  const w = (width - m.left - m.right) / bars.length;
  const root = svg('svg', { class: 'plot', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, 'font-family': 'system-ui, sans-serif' });
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
