// The "windows" widget's last part: StreamingLLM's experiment at this scale.
// The model trained without a window (experiment.js) reads one long text as
// trained (up to 4x its context) and through a cache with a window keeping 0,
// 1 and 4 sinks; the core's loss of each next token along it, drawn in bins of
// BIN positions; a table of the means over four stretches of the text; the
// sentences decided from those numbers (did the window alone jump once the
// opening ⏎ left it, did a sink lower the loss past the context), and its
// heads' weight on the opening ⏎. JS only averages the core's losses.
//
//   sinksPart(body, t, context) -> { update(sinks | null) }
//   sinkFinding(sinks, context) -> { kind, jumped, stretches, ... }: what the sentences say
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { headerCell, headerRow } from '../../render/table.js';
import { ALONG, SINK_WINDOW } from './experiment.js';

// positions averaged in one point of the plot
export const BIN = 8;
// the window alone "jumps" when, just after the opening ⏎ leaves it, its mean loss is this much above the full cache's
export const JUMP = 0.1;

const loss = (x) => formatNumber(x, { digits: 3 });
const nameOf = (t, read, window) => (read.sinks === null ? t('sinkFull') : t('sinkRead', { w: window, s: read.sinks }));
// the mean of losses[from..to), or null when the reading stopped before from
function meanOf(losses, from, to) {
  const part = losses.slice(from, to);
  return part.length ? part.reduce((a, b) => a + b, 0) / part.length : null;
}

// The stretches of the table, [from, to) in positions: the window before its first
// eviction, just after it, past the context while the full reading lasts, and to the end.
// Each reading's mean over each (null where it read none of it).
export function stretchMeans(sinks, context) {
  const w = sinks.window, full = sinks.reads[0].losses.length, end = sinks.reads[1].losses.length;
  const stretches = [[0, w], [w, 2 * w], [context, full], [context, end]];
  return { stretches, means: sinks.reads.map((r) => stretches.map(([from, to]) => (to <= r.losses.length ? meanOf(r.losses, from, to) : null))) };
}

export function sinkFinding(sinks, context) {
  const { stretches, means } = stretchMeans(sinks, context);
  const at = (sinkCount, k) => means[sinks.reads.findIndex((r) => r.sinks === sinkCount)][k];
  // just after the first eviction (stretch 1): the window alone against the full cache and one sink
  const jump = { zero: at(0, 1), full: at(null, 1), one: at(1, 1) };
  // past the context to the end (stretch 3): the window alone against each count of sinks
  const kept = sinks.reads.filter((r) => r.sinks > 0).map((r) => ({ sinks: r.sinks, loss: at(r.sinks, 3) }));
  const best = kept.reduce((a, b) => (b.loss < a.loss ? b : a));
  const firsts = sinks.first.map((f) => f.weight);
  return {
    stretches, means, jump, jumped: jump.zero - jump.full > JUMP, alone: at(0, 3), kept, best,
    kind: best.loss < at(0, 3) ? 'helped' : 'none', low: Math.min(...firsts), high: Math.max(...firsts),
  };
}

// each reading's losses averaged over bins of BIN positions, at the bins' middles
function plot(sinks, t, compact) {
  const series = sinks.reads.map((r, k) => {
    const x = [], y = [];
    for (let from = 0; from < r.losses.length; from += BIN) {
      const to = Math.min(from + BIN, r.losses.length);
      x.push((from + to - 1) / 2);
      y.push(meanOf(r.losses, from, to));
    }
    return { label: nameOf(t, r, sinks.window), x, y, color: PALETTE[k] };
  });
  const ys = series.flatMap((s) => s.y), low = Math.min(...ys), high = Math.max(...ys), pad = Math.max(0.05, (high - low) * 0.1);
  return linePlot({
    title: t('sinkPlot', { bin: BIN }), series, xDomain: [0, sinks.reads[1].losses.length], yDomain: [low - pad, high + pad],
    xLabel: t('sinkX'), yLabel: t('sinkY'), markers: [{ x: sinks.window, label: t('sinkEvicted') }], legend: 'below',
    ...(compact ? { width: 340, height: 280 } : { width: 560, height: 320 }),
  });
}

function table(sinks, finding, t) {
  const box = element('div', 'table-scroll win-table-box');
  const tb = element('table', 'win-table win-sink-table');
  const body = element('tbody');
  body.append(...sinks.reads.map((r, k) => {
    const tr = element('tr');
    tr.dataset.sinks = r.sinks === null ? 'full' : String(r.sinks);
    tr.append(headerCell(nameOf(t, r, sinks.window), { scope: 'row' }), ...finding.means[k].map((m) => {
      const td = element('td', 'num', m === null ? t('sinkNotRead') : loss(m));
      if (m !== null) td.dataset.value = String(m);
      return td;
    }));
    return tr;
  }));
  tb.append(element('caption', 'table-caption', t.rich('sinkTable')),
    headerRow([headerCell(t('sinkReadAs')), ...finding.stretches.map(([from, to]) => headerCell(t('sinkStretch', { from, to: to - 1 }), { className: 'num' }))]), body);
  box.append(tb);
  return box;
}

// the two sentences under the table: the jump at the first eviction, and the sinks past the context
function sentences(sinks, f, context, t) {
  const w = sinks.window, [, to] = f.stretches[3];
  const jump = t.rich(f.jumped ? 'sinkJump' : 'sinkNoJump', {
    from: w, to: 2 * w - 1, zero: loss(f.jump.zero), full: loss(f.jump.full), one: loss(f.jump.one),
    up: loss(f.jump.zero - f.jump.full), limit: JUMP,
  });
  const found = t.rich(`sink_${f.kind}`, {
    from: context, to: to - 1, w, alone: loss(f.alone),
    kept: f.kept.map((k) => t('sinkPair', { s: k.sinks, loss: loss(k.loss) })).join(t('listSep')),
  });
  return { jump, found };
}

export function sinksPart(body, t, context) {
  const figure = element('figure', 'win-plot win-sink-plot');
  const tableBox = element('div', 'win-tables');
  const jump = liveElement('p', 'win-sentence');
  jump.dataset.part = 'jump';
  const sentence = liveElement('p', 'win-sentence');
  sentence.dataset.part = 'sinks';
  const first = element('p', 'win-sentence');
  first.dataset.part = 'first';
  const parts = [figure, tableBox, jump, sentence, first];
  body.append(element('p', 'win-text', t.rich('sinkText', { w: SINK_WINDOW, chars: ALONG, full: 4 * context, bin: BIN })), ...parts);
  return {
    update(sinks) {
      for (const p of parts) p.hidden = !sinks;
      if (!sinks) return;
      const wide = plot(sinks, t, false), compact = plot(sinks, t, true);
      wide.classList.add('is-wide');
      compact.classList.add('is-compact');
      figure.replaceChildren(wide, compact);
      const f = sinkFinding(sinks, context);
      tableBox.replaceChildren(table(sinks, f, t));
      const said = sentences(sinks, f, context, t);
      jump.dataset.kind = f.jumped ? 'jump' : 'none';
      jump.replaceChildren(said.jump);
      sentence.dataset.kind = f.kind;
      sentence.replaceChildren(said.found);
      first.replaceChildren(t.rich('sinkFirst', { low: formatNumber(f.low, { digits: 2 }), high: formatNumber(f.high, { digits: 2 }), heads: sinks.first.length }));
    },
  };
}
