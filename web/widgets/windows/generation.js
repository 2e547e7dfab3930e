// The "windows" widget's generation part: the button that runs experiment.js
// in the widget's worker, and the drawing of its result (the cache per
// position of the two models, their texts, and the sentence decided from the
// numbers: the windowed cache stayed flat once full, or did not).
//
//   summarise(run) -> null | { windowed, full: each model's { first, last, top, flatFrom, flat } }
//   runPart(body, ctx) -> { update(data), end() }
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { actionButton, runBar } from '../../render/parts.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { assetUrl } from '../../runtime/assets.js';
import { workerJob } from '../../runtime/workers.js';
import { CORPORA } from '../language-model/engine.js';
import { MODEL, WINDOWED } from './experiment.js';

export const RUN_STEPS = 300;

// one model's cache: its largest, from which position it held it, and whether it held it to the end
function cacheOf(model) {
  const ps = model.positions, top = Math.max(...ps.map((p) => p.cacheNumbers));
  const from = ps.findIndex((p) => p.cacheNumbers === top);
  return {
    first: ps[0], last: ps.at(-1), top, entries: ps[from].cacheEntries, flatFrom: ps[from].position,
    flat: ps.slice(from).every((p) => p.cacheNumbers === top),
  };
}

export function summarise(run) {
  if (run?.status !== 'done') return null;
  const [windowed, full] = run.models;
  return { windowed: { ...windowed, cache: cacheOf(windowed) }, full: { ...full, cache: cacheOf(full) } };
}

function cachePlot(run, t, compact) {
  const series = run.models.map((m, k) => ({
    label: t(m.window ? 'genWindowed' : 'genFull', { w: m.window, s: m.sinks }),
    x: m.positions.map((p) => p.position), y: m.positions.map((p) => p.cacheNumbers), color: PALETTE[k],
  }));
  const xs = series.flatMap((s) => s.x), ys = series.flatMap((s) => s.y);
  return linePlot({
    title: t('genPlot'), series, xDomain: [0, Math.max(...xs)], yDomain: [0, Math.max(...ys) * 1.1],
    xLabel: t('genX'), yLabel: t('genY'), markers: [{ x: run.context, label: t('genContext', { context: run.context }) }],
    ...(compact ? { width: 340, height: 280 } : { width: 560, height: 300 }),
  });
}

function textLine(t, m) {
  const p = element('p', 'win-gen-text');
  p.dataset.model = m.window ? 'windowed' : 'full';
  const prompt = element('span', 'win-prompt', m.prompt), written = element('mark', 'win-written', m.text.slice(m.prompt.length));
  written.hidden = written.textContent === '';
  p.append(element('span', 'win-gen-label', t(m.window ? 'genWindowed' : 'genFull', { w: m.window, s: m.sinks })), ' ', prompt, written);
  return p;
}

export function runPart(body, ctx) {
  const { t } = ctx;
  const job = workerJob('windows', (run) => ctx.setState({ run }),
    (message) => ({ status: 'failed', message: message || t('workerFailed') }));
  const start = () => {
    const why = job.start({ type: 'run', url: assetUrl(CORPORA.names.file), steps: RUN_STEPS },
      { status: 'running', done: 0, total: 2 * RUN_STEPS, models: [] });
    if (why) ctx.setState({ run: { status: 'noWorker', message: why } });
  };
  // Stop keeps the run as it stands, marked stopped
  const button = actionButton(t, 'genTrain', 'generate', () => (job.running ? job.stop() : start()));
  ctx.signal.addEventListener('abort', job.end, { once: true });
  const { bar, progress, status } = runBar(button, t('genProgress'), 'win');
  const plot = element('figure', 'win-plot win-gen-plot');
  const texts = element('div', 'win-gen-texts');
  const sentence = liveElement('p', 'win-sentence');
  sentence.dataset.part = 'generation';
  body.append(element('p', 'win-text', t.rich('genText', { steps: RUN_STEPS, ...MODEL, ...WINDOWED, context: CORPORA.names.options.context })), bar, plot, texts, sentence);
  return {
    end: job.end,
    update(run, summary) {
      const running = run?.status === 'running', state = run?.status ?? 'idle';
      button.replaceChildren(t.rich(running ? 'genStop' : state === 'idle' ? 'genTrain' : 'genAgain'));
      progress.hidden = !running;
      progress.max = run?.total ?? 1;
      progress.value = run?.done ?? 0;
      status.dataset.status = state;
      status.textContent = t(`gen_${state}`, { message: run?.message ?? '', done: run?.done ?? 0, total: run?.total ?? 0 });
      plot.hidden = texts.hidden = sentence.hidden = !summary;
      if (!summary) return;
      const wide = cachePlot(run, t, false), compact = cachePlot(run, t, true);
      wide.classList.add('is-wide');
      compact.classList.add('is-compact');
      plot.replaceChildren(wide, compact);
      texts.replaceChildren(...run.models.map((m) => textLine(t, m)));
      const { windowed: a, full: b } = summary;
      sentence.dataset.kind = a.cache.flat ? 'flat' : 'grew';
      const fullSaid = t(b.done === 'context' ? 'genFullContext' : 'genFullBoundary', {
        fullTop: formatNumber(b.cache.top, { digits: 0 }), fullLast: b.cache.last.position, fullEntries: b.cache.last.cacheEntries, limit: run.context - 1,
      });
      sentence.dataset.full = b.done;
      sentence.replaceChildren(t.rich(a.cache.flat ? 'genFlat' : 'genGrew', {
        top: formatNumber(a.cache.top, { digits: 0 }), entries: a.cache.entries, from: a.cache.flatFrom, last: a.cache.last.position,
        times: formatNumber((a.cache.last.position + 1) / run.context, { digits: 1 }), context: run.context, fullSaid,
      }));
    },
  };
}
