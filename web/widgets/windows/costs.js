// The "windows" widget's costs: one self-attention layer of a decoder writing
// n tokens (n = 256 ... 16,384) with each preset, from the core's
// generationCost: the multiply-adds of all n tokens through the cache
// (totalCached) and the numbers the cache holds after them (cacheNumbers).
// A window and sinks: token m meets the sinks and its last w keys, at most
// w + s, so its counts are generationCost's with window w + s. A prefix is
// read once and the tokens after it are causal: its counts are causal's.
//
//   computeCosts(att, { window, sinks }) -> { layer, rows: [{ n, causal, window, sinks }] } (each a GenerationCost)
//   costPlot(data, t, which, options) -> svg      which: 'totalCached' | 'cacheNumbers'
//   costTable(data, t, which) -> table
import { element } from '../../render/dom.js';
import { formatCount, formatNumber } from '../../render/format.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { headerCell, headerRow } from '../../render/table.js';

export const LENGTHS = [256, 512, 1024, 2048, 4096, 8192, 16384];
// a layer of the size open models of 2024-2026 have: width 4,096, 32 heads sharing 8 key/value heads
export const LAYER = { d: 4096, heads: 32, kvHeads: 8 };
export const COST_PRESETS = ['causal', 'window', 'sinks'];
export const COST_WINDOWS = ['256', '1024', '4096'];

export function computeCosts(att, { window, sinks }) {
  const rows = LENGTHS.map((n) => ({
    n,
    causal: att.generationCost({ n, ...LAYER }),
    window: att.generationCost({ n, ...LAYER, window }),
    sinks: att.generationCost({ n, ...LAYER, window: window + sinks }),
  }));
  return { layer: LAYER, window, sinks, rows };
}

const label = (t, preset, data) => t(`cost_${preset}`, { w: formatNumber(data.window, { digits: 0 }), s: data.sinks });

export function costPlot(data, t, which, { compact = false } = {}) {
  const series = COST_PRESETS.map((preset, k) => ({
    label: label(t, preset, data), x: data.rows.map((r) => r.n), y: data.rows.map((r) => r[preset][which]),
    points: true, color: PALETTE[k], ...(preset === 'sinks' ? { dash: '5 4' } : {}),
  }));
  const ys = series.flatMap((s) => s.y);
  return linePlot({
    title: t(`plot_${which}`), series, xLog: true, yLog: true, xTicks: LENGTHS, xDomain: [LENGTHS[0] / 1.2, LENGTHS.at(-1) * 1.4],  // room for the last tick's label
    yDomain: [Math.min(...ys) / 2, Math.max(...ys) * 2], xLabel: t('costX'), yLabel: t(`costY_${which}`),
    ...(compact ? { width: 340, height: 300 } : { width: 420, height: 300 }),
  });
}

export function costTable(data, t, which) {
  const table = element('table', 'win-table');
  table.dataset.which = which;
  table.append(element('caption', 'table-caption', t.rich(`table_${which}`)),
    headerRow([headerCell(t('costN'), { className: 'num' }), ...COST_PRESETS.map((p) => headerCell(label(t, p, data), { className: 'num' }))]));
  const body = element('tbody');
  body.append(...data.rows.map((r) => {
    const tr = element('tr');
    tr.dataset.n = String(r.n);
    tr.append(headerCell(formatNumber(r.n, { digits: 0 }), { scope: 'row', className: 'num' }),
      ...COST_PRESETS.map((p) => {
        const td = element('td', 'num', formatCount(r[p][which]));
        td.dataset.preset = p;
        td.dataset.value = String(r[p][which]);
        return td;
      }));
    return tr;
  }));
  table.append(body);
  const box = element('div', 'table-scroll win-table-box');
  box.append(table);
  return box;
}
