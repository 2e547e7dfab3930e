// Widget "positions": which ways of giving positions still work past the
// length a model was trained on. A button trains five small language models
// in a Web Worker (experiment.js: none, sinusoidal, learned, rotary, alibi;
// the same size, data, seed and steps) and reads each on held-out names at
// 1x to 4x its context. The plot shows the five curves and the unigram's
// line; the sentences under it are decided from those numbers: which held
// (at 4x within HOLD of its loss at 1x and below the unigram), which grew
// worse, which fell to or past the unigram, which cannot be read so far.
// Why: a model card's "RoPE" or "ALiBi" is a claim about exactly this.
import { element } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { actionButton, runBar } from '../../render/parts.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { headerCell, headerRow } from '../../render/table.js';
import { assetUrl } from '../../runtime/assets.js';
import { workerJob } from '../../runtime/workers.js';
import { CORPORA } from '../language-model/engine.js';
import { MODEL, MULTIPLES, POSITIONS } from './experiment.js';

export const name = 'positions';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'trains five small language models (no positions, sinusoidal, learned, rotary, ALiBi) in a worker and plots their held-out loss from 1x to 4x the trained context';

// the release's files it loads beside embed.js, besides the core (docs/embedding.md)
export const assets = ['wasm/attention-training.js', 'data/names.json'];

// a model "held" when its loss at 4x the context is at most this much above its loss at 1x (nats)
export const HOLD = 0.15;
const STEPS = ['200', '400', '800'];

export const defaults = { steps: '400', seed: 1, run: null };

export const controls = [
  { key: 'steps', type: 'select', label: 'steps', options: STEPS.map((s) => ({ value: s, label: s })) },
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 9, step: 1 },
];

// ---- compute: the run of the state's steps and seed, as curves and findings ----

// One model's finding, decided from its numbers: { kind, position, first, last, refused }
//   held     read at 4x, within HOLD of its loss at 1x, below the unigram
//   rose     read at 4x, more than HOLD above its loss at 1x, still below the unigram
//   worse    at 4x (or already at 1x) no better than the unigram
//   stops    refused past the context (a table of positions that ends there)
function findingOf(model, unigram) {
  const read = model.losses.filter((l) => l.loss !== undefined);
  const first = read[0] ?? null, last = read.at(-1) ?? null;
  const refused = model.losses.find((l) => l.refused)?.refused ?? null;
  let kind;
  if (refused) kind = 'stops';
  else if (last.loss >= unigram) kind = 'worse';
  else if (last.loss <= first.loss + HOLD) kind = 'held';
  else kind = 'rose';
  return { kind, position: model.position, first, last, refused };
}

export function compute(att, state) {
  const steps = Number(state.steps), seed = Number(state.seed);
  const run = state.run?.steps === steps && state.run?.seed === seed ? state.run : null;
  const context = CORPORA.names.options.context;
  const done = run?.status === 'done';
  const findings = done ? run.models.map((m) => findingOf(m, run.unigram)) : [];
  const reached = findings.filter((f) => !f.refused && f.last.length === MULTIPLES.at(-1) * context);
  const best = reached.length ? reached.reduce((a, b) => (b.last.loss < a.last.loss ? b : a)) : null;
  return {
    steps, seed, context, lengths: MULTIPLES.map((k) => k * context), model: MODEL,
    status: run?.status ?? 'idle', message: run?.message ?? '', current: run?.current ?? null,
    done: run?.done ?? 0, total: run?.total ?? POSITIONS.length * steps,
    models: run?.models ?? [], unigram: run?.unigram ?? null, findings, best,
  };
}

// ---- build: the button, the worker, the drawing --------------------------------

export function build(body, ctx) {
  const { t } = ctx;
  let runFor = null;  // { steps, seed } of the run
  const job = workerJob('positions', (run) => ctx.setState({ run }),
    (message) => ({ ...runFor, status: 'failed', message: message || t('workerFailed') }));
  // Stop keeps the run as it stands, marked stopped
  const button = actionButton(t, 'train', 'train', () => (job.running ? job.stop() : start()));
  function start() {
    const steps = Number(ctx.state.steps), seed = Number(ctx.state.seed);
    runFor = { steps, seed };
    const why = job.start({ type: 'run', url: assetUrl(CORPORA.names.file), steps, seed },
      { steps, seed, status: 'running', current: null, done: 0, models: [] });
    if (why) ctx.setState({ run: { steps, seed, status: 'noWorker', message: why } });
  }
  ctx.signal.addEventListener('abort', job.end, { once: true });

  const { bar, progress, status } = runBar(button, t('progress'), 'pos');
  status.dataset.part = 'status';
  const plot = element('figure', 'pos-plot');
  const findings = element('div', 'pos-findings');
  findings.dataset.part = 'findings';
  const table = element('table', 'pos-table');
  const caption = element('caption', 'table-caption');
  const tbody = element('tbody');
  const context = CORPORA.names.options.context;
  table.append(caption, headerRow([headerCell(t.rich('colPosition')),
    ...MULTIPLES.map((k) => headerCell(t('colLength', { length: k * context, k }), { className: 'num' }))]), tbody);
  const scroll = element('div', 'table-scroll pos-table-box');
  scroll.append(table);
  const method = element('p', 'note pos-method');
  body.append(bar, plot, findings, scroll, method);
  return {
    button, progress, status, plot, findings, table: scroll, caption, tbody, method, end: job.end,
    // another number of steps or seed chosen while a run goes: that run stops where it is
    follow(steps, seed) {
      if (!job.running || (steps === runFor.steps && seed === runFor.seed)) return;
      queueMicrotask(job.stop);
    },
  };
}

const loss = (x) => formatNumber(x, { digits: 3 });

function curves(data, t, { compact = false } = {}) {
  const series = data.models.map((m, k) => {
    const read = m.losses.filter((l) => l.loss !== undefined);
    return { label: t(m.position), x: read.map((l) => l.length), y: read.map((l) => l.loss), points: true, color: PALETTE[k % PALETTE.length] };
  });
  if (data.unigram !== null) {
    series.push({ label: t('unigram'), x: [data.lengths[0], data.lengths.at(-1)], y: [data.unigram, data.unigram], dash: '2 4', color: 'currentColor' });
  }
  // a margin above and below the points, so that none sits on the axis
  const ys = series.flatMap((s) => s.y);
  const low = Math.min(...ys), high = Math.max(...ys), pad = Math.max(0.05, (high - low) * 0.08);
  return linePlot({
    title: t('plotTitle', { steps: data.steps }), series, xDomain: [data.lengths[0], data.lengths.at(-1)], xTicks: data.lengths,
    yDomain: [low - pad, high + pad],
    xLabel: t('xAxis'), yLabel: t('yAxis'), markers: [{ x: data.context, label: t('trained', { context: data.context }) }],
    // narrow, the lines fill every corner: the legend goes under the plot
    ...(compact ? { width: 360, height: 300, legend: 'below' } : { height: 360 }),
  });
}

function findingNode(f, data, t) {
  const p = element('p', 'pos-finding');
  p.dataset.position = f.position;
  p.dataset.kind = f.kind;
  p.replaceChildren(t.rich(`finding_${f.kind}`, {
    name: t(f.position), from: loss(f.first.loss), at1: f.first.length, to: loss(f.last.loss), at4: f.last.length,
    unigram: loss(data.unigram), context: data.context, code: f.refused?.code ?? '',
  }));
  return p;
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const running = data.status === 'running';
  view.follow(data.steps, data.seed);
  view.button.replaceChildren(t.rich(running ? 'stop' : data.status === 'idle' ? 'train' : 'trainAgain'));
  view.button.classList.toggle('is-running', running);
  view.progress.hidden = !running;
  view.progress.max = data.total;
  view.progress.value = data.done;
  view.status.dataset.status = data.status;
  view.status.textContent = running && data.current
    ? t('running', { name: t(data.current), done: formatNumber(data.done, { digits: 0 }), total: formatNumber(data.total, { digits: 0 }) })
    : t(`status_${data.status}`, { message: data.message, steps: data.steps });
  const drawn = data.models.length > 0;
  view.plot.hidden = !drawn;
  view.table.hidden = !drawn;
  if (drawn) {
    const wide = curves(data, t), compact = curves(data, t, { compact: true });
    wide.classList.add('is-wide');
    compact.classList.add('is-compact');
    view.plot.replaceChildren(wide, compact);
  }
  const parts = data.findings.map((f) => findingNode(f, data, t));
  if (data.best) {
    const best = element('p', 'pos-finding pos-best', t.rich('best', { name: t(data.best.position), loss: loss(data.best.last.loss), at4: data.best.last.length }));
    best.dataset.field = 'best';
    parts.push(best);
  }
  view.findings.replaceChildren(...parts);
  view.findings.hidden = parts.length === 0;
  view.caption.replaceChildren(t.rich('tableCaption', { steps: data.steps }));
  view.tbody.replaceChildren(...data.models.map((m) => {
    const tr = element('tr');
    tr.dataset.position = m.position;
    tr.append(headerCell(t(m.position), { scope: 'row' }), ...m.losses.map((l) => {
      const td = element('td', 'num', l.loss !== undefined ? loss(l.loss) : '—');
      if (l.refused) td.title = l.refused.message;
      return td;
    }));
    return tr;
  }));
  view.method.replaceChildren(t.rich('method', { ...data.model, context: data.context }));
}

// unmounted: the worker ends (ctx.signal does too)
export function dispose(view) {
  view.end();
}

// CSV: one line per model and length (the losses empty before a run).
export function exports(data) {
  const plan = POSITIONS.map((position) => data.models.find((m) => m.position === position)
    ?? { position, losses: data.lengths.map((length) => ({ length })) });
  return {
    csv: () => ({
      header: ['position', 'length', 'held-out loss', 'refused'],
      rows: plan.flatMap((m) => m.losses.map((l) => [m.position, l.length, l.loss ?? '', l.refused?.code ?? ''])),
    }),
    json: () => ({
      steps: data.steps, seed: data.seed, context: data.context, model: data.model, corpus: 'names', unigram: data.unigram,
      models: data.models, findings: data.findings.map((f) => ({ position: f.position, kind: f.kind })),
    }),
  };
}
