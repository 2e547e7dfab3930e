// Widget "windows": windows and sinks. A mask designer over 12 positions
// (causal; a sliding window; a window with sinks; a prefix read both ways,
// then causal; the reader's own cells), each the mask and weights the core's
// attention() returns; the cost of each as n grows, from generationCost; and
// two small language models on the names, one trained with a window and a
// sink, generating through their caches: the windowed cache stays flat past
// the context, the other grows until its context ends; then the one without,
// read along one long text with a window keeping 0, 1 or 4 sinks, the loss of
// each next character as a sliding cache meets it. Every number is the
// core's (mask.js, costs.js, experiment.js); this file lays them out.
// Why: Mistral's and Gemma's sliding windows and StreamingLLM's sinks are
// exactly these masks, and their point is the flat cache.
import { element, liveElement } from '../../render/dom.js';
import { formatNumber, formatRatio } from '../../render/format.js';
import { CORPORA } from '../language-model/engine.js';
import { COST_WINDOWS, computeCosts, costPlot, costTable } from './costs.js';
import { N, PRESETS, cellsOf, computeMask, maskGrid } from './mask.js';
import { runPart, summarise } from './generation.js';
import { sinksPart } from './sinks.js';

export const name = 'windows';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'designs attention masks (causal, sliding window, window with sinks, prefix, or cell by cell), sees their cost as n grows, and watches a model trained with a window generate past its context with a cache that stays flat, then reads one trained without a window along a long text through a sliding cache with 0, 1 and 4 sinks';
// its models, corpus and worker load when it comes near, not with the page
export const lazy = true;
// the release's files it loads beside embed.js, besides the core (docs/embedding.md)
export const assets = ['wasm/attention-training.js', CORPORA.names.file];

export const defaults = { preset: 'sinks', w: 4, s: 1, p: 4, seed: 1, cells: '', costWindow: '1024', run: null };

export const controls = [
  { key: 'preset', type: 'choice', label: 'preset', options: PRESETS.map((p) => ({ value: p, label: `preset_${p}` })) },
  { key: 'w', type: 'range', label: 'w', min: 1, max: N - 1, step: 1, enabled: (s) => s.preset === 'window' || s.preset === 'sinks' },
  { key: 's', type: 'range', label: 's', min: 1, max: 4, step: 1, enabled: (s) => s.preset === 'sinks' },
  { key: 'p', type: 'range', label: 'p', min: 1, max: N - 1, step: 1, enabled: (s) => s.preset === 'prefix' },
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 9, step: 1 },
  { key: 'costWindow', type: 'select', label: 'costWindow', options: COST_WINDOWS.map((v) => ({ value: v, label: formatNumber(Number(v), { digits: 0 }) })) },
  { key: 'cells', type: 'text', label: 'cells', maxLength: N * N, hidden: true },
];

export function compute(att, state, t) {
  const mask = computeMask(att, state, t);
  const costs = computeCosts(att, { window: Number(state.costWindow), sinks: state.s });
  return { preset: state.preset, w: state.w, s: state.s, p: state.p, mask, costs, run: state.run ?? null, generation: summarise(state.run) };
}

function part(body, heading) {
  const box = element('section', 'win-part');
  box.append(element('h3', 'win-heading', heading));
  body.append(box);
  return box;
}

export function build(body, ctx) {
  const { t } = ctx;
  const one = part(body, t.rich('maskHeading'));
  // a click makes the reader's own mask: the mask shown, with that cell turned
  const grid = maskGrid(t, (i, j, shown) => {
    const mask = [...shown];
    mask[i * N + j] = 1 - mask[i * N + j];
    ctx.setState({ preset: 'custom', cells: cellsOf(mask) });
  });
  const box = element('div', 'win-grid-box');
  box.append(grid.element);
  const maskNote = liveElement('p', 'win-sentence');
  maskNote.dataset.part = 'mask';
  one.append(element('p', 'win-text', t.rich('maskText')), box, maskNote);

  const two = part(body, t.rich('costHeading'));
  const plots = element('div', 'win-plots'), tables = element('div', 'win-tables');
  const costSentence = liveElement('p', 'win-sentence');
  costSentence.dataset.part = 'cost';
  two.append(element('p', 'win-text', t.rich('costText')), plots, costSentence, tables);

  const three = part(body, t.rich('genHeading'));
  const run = runPart(three, ctx);
  const four = part(body, t.rich('sinkHeading'));
  const sinks = sinksPart(four, t, CORPORA.names.options.context);
  body.append(element('p', 'note win-method', t.rich('sinkNote')));
  return { grid, maskNote, plots, tables, costSentence, run, sinks };
}

function plotPair(data, t, which) {
  const fig = element('figure', 'win-plot');
  const wide = costPlot(data, t, which), compact = costPlot(data, t, which, { compact: true });
  wide.classList.add('is-wide');
  compact.classList.add('is-compact');
  fig.append(wide, compact);
  return fig;
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  view.grid.update(data.mask);
  const seen = data.mask.mask.reduce((a, b) => a + b, 0);
  view.maskNote.replaceChildren(t.rich(data.mask.empty.length ? 'maskEmpty' : 'maskSeen',
    { seen, all: N * N, rows: data.mask.empty.join(', '), preset: t(`preset_${data.preset}`) }));
  const c = data.costs;
  view.plots.replaceChildren(plotPair(c, t, 'totalCached'), plotPair(c, t, 'cacheNumbers'));
  view.tables.replaceChildren(costTable(c, t, 'totalCached'), costTable(c, t, 'cacheNumbers'));
  const last = c.rows.at(-1);
  view.costSentence.replaceChildren(t.rich('costSentence', {
    n: formatNumber(last.n, { digits: 0 }), w: formatNumber(c.window, { digits: 0 }), s: c.sinks,
    work: formatRatio(last.causal.totalCached / last.window.totalCached), cache: formatRatio(last.causal.cacheNumbers / last.window.cacheNumbers),
    causalCache: formatNumber(last.causal.cacheNumbers, { digits: 0 }), windowCache: formatNumber(last.window.cacheNumbers, { digits: 0 }),
    sinksCache: formatNumber(last.sinks.cacheNumbers, { digits: 0 }),
  }));
  view.run.update(data.run, data.generation);
  view.sinks.update(data.generation ? data.run.sinks : null);
}

// unmounted: the worker ends (ctx.signal does too)
export function dispose(view) {
  view.run.end();
}

// CSV: the costs, one line per n and preset; JSON: the mask, the costs and the generation's caches
export function exports(data) {
  return {
    csv: () => ({
      header: ['n', 'preset', 'multiply-adds (all n tokens, cached)', 'cache numbers'],
      rows: data.costs.rows.flatMap((r) => ['causal', 'window', 'sinks'].map((p) => [r.n, p, r[p].totalCached, r[p].cacheNumbers])),
    }),
    json: () => ({
      preset: data.preset, w: data.w, s: data.s, p: data.p, mask: data.mask, costs: data.costs,
      generation: data.run?.status === 'done' ? data.run.models : null,
      sinks: data.run?.status === 'done' ? data.run.sinks : null,
    }),
  };
}
