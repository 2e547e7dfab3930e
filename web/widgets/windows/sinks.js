// The "windows" widget's last part: StreamingLLM's question at this scale. The
// model trained without a window (experiment.js) read as trained and with a
// window keeping 0, 1 and 4 sinks, its held-out loss against the length read;
// the sentence decided from those numbers (did a sink lower the loss at 4x the
// context, against the window alone), and its heads' weight on the opening ⏎.
//
//   sinksPart(body, t) -> { update(run | null) }
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { headerCell, headerRow } from '../../render/table.js';
import { MULTIPLES, SINK_WINDOW } from './experiment.js';

const loss = (x) => formatNumber(x, { digits: 3 });
const nameOf = (t, read, window) => (read.sinks === null ? t('sinkFull') : t('sinkRead', { w: window, s: read.sinks }));

function plot(sinks, t, compact) {
  const series = sinks.reads.map((r, k) => ({
    label: nameOf(t, r, sinks.window), x: r.losses.map((l) => l.length), y: r.losses.map((l) => l.loss), points: true, color: PALETTE[k],
  }));
  const ys = series.flatMap((s) => s.y), low = Math.min(...ys), high = Math.max(...ys), pad = Math.max(0.02, (high - low) * 0.1);
  const lengths = series[0].x;
  return linePlot({
    title: t('sinkPlot'), series, xTicks: lengths, xDomain: [lengths[0] - 2, lengths.at(-1) + 3], yDomain: [low - pad, high + pad],
    xLabel: t('sinkX'), yLabel: t('sinkY'), ...(compact ? { width: 340, height: 300 } : { width: 560, height: 320 }),
  });
}

function table(sinks, t) {
  const box = element('div', 'table-scroll win-table-box');
  const tb = element('table', 'win-table win-sink-table');
  const body = element('tbody');
  body.append(...sinks.reads.map((r) => {
    const tr = element('tr');
    tr.dataset.sinks = r.sinks === null ? 'full' : String(r.sinks);
    tr.append(headerCell(nameOf(t, r, sinks.window), { scope: 'row' }), ...r.losses.map((l) => element('td', 'num', loss(l.loss))));
    return tr;
  }));
  tb.append(element('caption', 'table-caption', t.rich('sinkTable')),
    headerRow([headerCell(t('sinkReadAs')), ...sinks.reads[0].losses.map((l, k) => headerCell(t('sinkLength', { length: l.length, k: MULTIPLES[k] }), { className: 'num' }))]), body);
  box.append(tb);
  return box;
}

// at the longest length: the window alone against each count of sinks
export function sinkFinding(sinks) {
  const at = (r) => r.losses.at(-1).loss;
  const alone = sinks.reads.find((r) => r.sinks === 0), kept = sinks.reads.filter((r) => r.sinks > 0);
  const best = kept.reduce((a, b) => (at(b) < at(a) ? b : a));
  const firsts = sinks.first.map((f) => f.weight);
  return { kind: at(best) < at(alone) ? 'helped' : 'none', alone, best, kept, low: Math.min(...firsts), high: Math.max(...firsts) };
}

export function sinksPart(body, t) {
  const figure = element('figure', 'win-plot win-sink-plot');
  const tableBox = element('div', 'win-tables');
  const sentence = liveElement('p', 'win-sentence');
  sentence.dataset.part = 'sinks';
  const first = element('p', 'win-sentence');
  first.dataset.part = 'first';
  const parts = [figure, sentence, tableBox, first];
  body.append(element('p', 'win-text', t.rich('sinkText', { w: SINK_WINDOW })), ...parts);
  return {
    update(sinks) {
      for (const p of parts) p.hidden = !sinks;
      if (!sinks) return;
      const wide = plot(sinks, t, false), compact = plot(sinks, t, true);
      wide.classList.add('is-wide');
      compact.classList.add('is-compact');
      figure.replaceChildren(wide, compact);
      tableBox.replaceChildren(table(sinks, t));
      const f = sinkFinding(sinks), length = f.alone.losses.at(-1).length;
      sentence.dataset.kind = f.kind;
      sentence.replaceChildren(t.rich(`sink_${f.kind}`, {
        length, w: sinks.window, alone: loss(f.alone.losses.at(-1).loss), best: f.best.sinks, bestLoss: loss(f.best.losses.at(-1).loss),
        kept: f.kept.map((r) => t('sinkPair', { s: r.sinks, loss: loss(r.losses.at(-1).loss) })).join(t('listSep')),
        full: loss(sinks.reads[0].losses.at(-1).loss),
      }));
      first.replaceChildren(t.rich('sinkFirst', { low: formatNumber(f.low, { digits: 2 }), high: formatNumber(f.high, { digits: 2 }), heads: sinks.first.length }));
    },
  };
}
