// The "kv-heads" widget's drawings, from the core's numbers: the 8 query heads
// joined to the key/value head each reads (an SVG, a colour per key/value
// head, its number written too), one head's map (render/heatmap.js), the two
// loss curves (render/plot.js), and how a size in bytes is written.
import { formatNumber, formatWeight } from '../../render/format.js';
import { heatmap } from '../../render/heatmap.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { svg, FONT_FAMILY } from '../../render/svg.js';

// a colour per key/value head: Okabe–Ito's, then two more (the number says it too)
export const GROUP_COLORS = [...PALETTE, '#b8a200', '#7a7f87'];
// the ink of a head's number on its colour: dark on the light ones
const GROUP_INK = ['#ffffff', '#ffffff', '#1d1f21', '#1d1f21', '#1d1f21', '#1d1f21', '#1d1f21', '#ffffff'];

// bytes in the largest binary unit that keeps the number at 1 or more: 1,073,741,824 -> "1.00 GiB"
export function formatBytes(x, t) {
  const units = [['unitGiB', 2 ** 30], ['unitMiB', 2 ** 20], ['unitKiB', 2 ** 10]];
  for (const [unit, size] of units) if (x >= size) return t(unit, { x: formatNumber(x / size, { digits: 2 }) });
  return t('unitBytes', { x: formatNumber(x, { digits: 0 }) });
}

// The query heads over the key/value heads, each joined to the one it reads.
// groups: [kvHead of query head h]; kvHeads: how many.
export function groupDiagram(groups, kvHeads, t) {
  const width = 480, height = 150, heads = groups.length;
  const qx = (h) => 30 + (h * (width - 60)) / (heads - 1);
  const kx = (g) => (kvHeads === 1 ? width / 2 : 30 + (g * (width - 60)) / (kvHeads - 1));
  const title = t('diagramTitle', { heads, kv: kvHeads });
  const root = svg('svg', { class: 'kvh-diagram', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': title, 'font-family': FONT_FAMILY });
  root.append(svg('title', {}, title));
  root.append(svg('text', { x: 4, y: 12, 'font-size': 11, fill: 'currentColor', class: 'kvh-diagram-axis' }, t('diagramQueries')));
  root.append(svg('text', { x: 4, y: height - 4, 'font-size': 11, fill: 'currentColor', class: 'kvh-diagram-axis' }, t('diagramKeys')));
  groups.forEach((g, h) => {
    root.append(svg('line', { x1: qx(h), y1: 38, x2: kx(g), y2: 104, stroke: GROUP_COLORS[g], 'stroke-width': 2 }));
  });
  groups.forEach((g, h) => {
    const node = svg('g', { class: 'kvh-query', 'data-head': h, 'data-group': g });
    node.append(svg('circle', { cx: qx(h), cy: 30, r: 13, fill: GROUP_COLORS[g] }),
      svg('text', { x: qx(h), y: 34, 'text-anchor': 'middle', 'font-size': 11, fill: GROUP_INK[g], 'font-weight': 700 }, t('queryShort', { h: h + 1 })));
    root.append(node);
  });
  for (let g = 0; g < kvHeads; g++) {
    const node = svg('g', { class: 'kvh-kv', 'data-group': g });
    node.append(svg('rect', { x: kx(g) - 24, y: 104, width: 48, height: 26, rx: 5, fill: GROUP_COLORS[g] }),
      svg('text', { x: kx(g), y: 121, 'text-anchor': 'middle', 'font-size': 11, fill: GROUP_INK[g], 'font-weight': 700 }, t('kvShort', { g: g + 1 })));
    root.append(node);
  }
  return root;
}

// one head's map over the sentence
export function headMap(data, h, t) {
  const m = data.heads[h].weights;
  const title = t('mapTitle', { h: h + 1, g: data.heads[h].kvHead + 1 });
  return heatmap({
    rowLabels: data.tokens, colLabels: data.tokens, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: m.data, min: 0, max: 1, digits: 2, title,
    describe: (i, j) => t('mapCell', { h: h + 1, q: data.tokens[i], k: data.tokens[j], w: formatWeight(m.data[i * data.n + j]) }),
  });
}

// the two batch-loss curves over the steps
export function lossPlot(models, t) {
  return linePlot({
    width: 560, height: 280, title: t('lossTitle'), xLabel: t('lossX'), yLabel: t('lossY'),
    series: models.map((m, k) => ({
      label: t('lossSeries', { kv: m.kvHeads }), x: Array.from(m.losses, (_, i) => i + 1), y: Array.from(m.losses),
      color: GROUP_COLORS[k], dash: k === 0 ? '' : '6 4',
    })),
  });
}
