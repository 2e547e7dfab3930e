// The "rotary" widget's drawings, from the core's numbers: the plane of one
// pair with q and k as arrows (render/plane.js), the score against the
// distance and against the shift (render/plot.js), and how a number is written.
import { formatNumber } from '../../render/format.js';
import { plane } from '../../render/plane.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { MAX_POSITION } from './scores.js';

// the plane shows [−EXTENT, EXTENT]: a pair of entries in [−√3, √3] is at most √6 ≈ 2.45 long
const EXTENT = 2.5;
// q blue, k vermillion (Okabe–Ito); the page's stylesheet gives the dark theme's
const COLORS = { q: PALETTE[0], k: PALETTE[1] };
const SIZE = { width: 360, height: 260 };

// a y range around every value with room above and below (a flat line at the
// edge would lie on the axis): display only
function around(...lists) {
  let lo = Infinity, hi = -Infinity;
  for (const list of lists) for (const v of list) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const room = 0.08 * (hi - lo || Math.abs(hi) || 1);
  return [lo - room, hi + room];
}

export const formatScore = (x, digits = 6) => formatNumber(x, { digits });

// a |difference|: six decimals, or "< 0.000001" for one too small to show
export function gapText(x, t) {
  return x > 0 && x < 5e-7 ? t('tiny') : formatScore(x);
}

// the arrows: both at shift 0, faint and unlabelled, then both at shift t
function planeVectors(data, t) {
  const arrow = (name, at, p, faint) => ({ ...at, kind: name, color: COLORS[name], weight: faint ? 0 : 1, label: faint ? '' : t('arrowAt', { name, p }) });
  return [arrow('q', data.plane.q0, 0, true), arrow('k', data.plane.k0, 0, true),
    arrow('q', data.plane.q, data.qAt, false), arrow('k', data.plane.k, data.kAt, false)];
}

// the plane of the pair drawn: { element, update, title, next } (next: what update() takes)
export function planeOf(data, t) {
  const title = t('planeTitle', { i: data.pair, m: data.qAt, n: data.kAt });
  const vectors = planeVectors(data, t);
  return { ...plane({ vectors, extent: EXTENT, title }), title, next: { vectors } };
}

// The rotary score at every distance m − n, the distance now marked and its point drawn.
export function distancePlot(data, state, t) {
  const delta = state.qPos - state.kPos;
  return linePlot({
    ...SIZE, title: t('distanceTitle', { base: t(`base${state.base}`), d: data.d }), xLabel: t('distanceX'), yLabel: t('scoreY'),
    series: [
      { label: '', x: Array.from(data.distances), y: Array.from(data.byDistance), color: COLORS.q, dash: '' },
      { label: t('distanceMarker', { delta: formatNumber(delta, { digits: 0 }) }), x: [delta], y: [data.byDistance[delta + MAX_POSITION]], points: true, line: false, color: COLORS.q },
    ],
    xDomain: [-MAX_POSITION, MAX_POSITION], yDomain: around(data.byDistance), markers: [{ x: delta, label: '' }],
  });
}

// The score at every shift: rotary (flat) and sinusoidal, the shift now marked
// (a dashed line and a point on each; the caption says so).
export function shiftPlot(data, state, t) {
  const now = state.shift;
  const colors = [COLORS.q, PALETTE[2]];
  const lines = [['seriesRotary', data.byShift.rotary], ['seriesSinusoidal', data.byShift.sinusoidal]];
  return linePlot({
    ...SIZE, title: t('shiftTitle', { m: state.qPos, n: state.kPos }), xLabel: t('shiftX'), yLabel: t('scoreY'),
    series: [
      // the flat rotary line dashed, the sinusoidal one solid (dashes on a line that swings read as noise)
      ...lines.map(([label, y], k) => ({ label: t(label), x: Array.from(data.shifts), y: Array.from(y), color: colors[k], dash: k === 0 ? '6 4' : '' })),
      ...lines.map(([, y], k) => ({ label: '', x: [now], y: [y[now]], points: true, line: false, color: colors[k] })),
    ],
    xDomain: [0, data.shifts.at(-1)], yDomain: around(data.byShift.rotary, data.byShift.sinusoidal), markers: [{ x: now, label: '' }],
  });
}
