// Widget "speed": our kernel against a plain JS loop, timed live in the
// visitor's browser for growing n. The same inputs go to both: the module's
// public call att.attention({ query, key, value, intermediates: false }) (the
// fused WebAssembly kernel, which never forms the n × n matrix, the copies in
// and out included) and the textbook triple loop of baseline.js. Time per call against
// n on log-log axes; the slope of each line, fitted by the core, is about 2:
// quadratic, not exponential. The table gives the machine's ratio, and the
// core's max |difference| of the two outputs shows they compute the same thing.
//
// Nothing runs until the Run button: a measurement keeps one core busy for a
// few seconds. It runs in small steps (a macrotask between two timings), and
// each step puts what it measured into the state (`run`, not in the URL), so
// state -> compute -> render draws it like any other widget.
import { element } from '../../render/dom.js';
import { runBar } from '../../render/parts.js';
import { callout } from '../../render/callout.js';
import { formatMs, formatNumber, formatPower, formatRatio } from '../../render/format.js';
import { PALETTE, linePlot } from '../../render/plot.js';
import { headerCell, headerRow } from '../../render/table.js';
import { BATCHES, FEW_BATCHES, LONG_BATCH_MS, MIN_BATCH_MS, nextTask, timeCall } from '../../runtime/timing.js';
import { attentionLoop } from './baseline.js';

export const name = 'speed';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'times the core\'s kernel against a plain JS loop on the reader\'s machine';

const N_VALUES = [32, 64, 128, 256, 512, 1024, 2048, 4096];
const JS_MAX_N = 1024;       // beyond it one call of the JS loop takes seconds
const FIT_FROM = 128;        // below it a call is mostly fixed costs, not n² work
const SEED = 7;              // the core's initialiser: Q, K, V are streams 0, 1, 2

export const defaults = { d: '64', maxN: '4096', run: null };

export const controls = [
  { key: 'd', type: 'choice', label: 'd', options: ['32', '64', '128'].map((v) => ({ value: v, label: v })) },
  { key: 'maxN', type: 'select', label: 'maxN',
    options: N_VALUES.filter((n) => n >= 256).map((n) => ({ value: String(n), label: n.toLocaleString('en-US') })) },
];

// ---- the measurement ---------------------------------------------------------

// Entries uniform on ±√3 (variance 1, so the scores spread as in a model),
// from the core's seeded initialiser.
function randomInput(att, n, d, stream) {
  return att.initUniform(n, d, SEED, Math.sqrt(3), stream);
}

// The timings of a run, in order: [{ n, impl: 'js' | 'kernel' }]
function planOf(maxN) {
  return N_VALUES.filter((n) => n <= maxN).flatMap((n) => (n <= JS_MAX_N ? ['js', 'kernel'] : ['kernel']).map((impl) => ({ n, impl })));
}

// Times both at every n of the plan; report(run) after every step.
// session.stopped: set by the Stop button, or when the widget leaves the page or changes d or n.
async function measure(att, config, session, report) {
  const { d, maxN } = config;
  const plan = planOf(maxN);
  const points = [];
  const run = (status, current = null) => ({ d, maxN, status, current, done: points.reduce((k, p) => k + (p.js !== null) + (p.kernel !== null), 0), total: plan.length,
    points: points.map((p) => ({ ...p, batches: { ...p.batches } })) });
  const stopped = () => session.stopped();
  const calls = (n) => {
    const Q = randomInput(att, n, d, 0), K = randomInput(att, n, d, 1), V = randomInput(att, n, d, 2);
    const outputs = {};
    return {
      outputs,
      js: () => { outputs.js = attentionLoop(Q.data, K.data, V.data, n, d); },
      kernel: () => { outputs.kernel = att.attention({ query: Q, key: K, value: V, intermediates: false }).output; },
    };
  };
  // warm-up: both once through the timing loop at the smallest n, not kept
  report(run('running', { impl: 'js', n: plan[0].n }));
  await nextTask();
  const warm = calls(plan[0].n);
  if ((await timeCall(warm.js, stopped)) === null || (await timeCall(warm.kernel, stopped)) === null) return run('stopped');
  let current = null;
  for (const { n, impl } of plan) {
    if (!current || current.n !== n) {
      current = { n, ...calls(n) };
      points.push({ n, js: null, kernel: null, diff: null, batches: { js: null, kernel: null } });
    }
    report(run('running', { impl, n }));
    await nextTask();
    const time = await timeCall(current[impl], stopped);
    if (time === null) return run('stopped');
    const point = points.at(-1);
    point[impl] = time.ms;
    point.batches[impl] = time.batches;
    if (point.js !== null && point.kernel !== null) {
      point.diff = att.maxAbsDifference(current.outputs.kernel, { rows: n, cols: d, data: current.outputs.js });
    }
  }
  return run('done');
}

// ---- compute ---------------------------------------------------------------

// What the ratios show, said only as far as they support it (kind):
//   grows / falls     every step from one n to the next goes the same way, and the
//                     last ratio is over TREND_BAND times the first (or under 1 / TREND_BAND)
//   steady            every ratio within TREND_BAND times the smallest
//   growsFit / fallsFit  not every step, but the core's fit of log ratio on log n is
//                     good (r² >= FIT_R2), its line moves by over TREND_BAND across the
//                     n both ran, and the last ratio lies on the same side of the first
//   mixed             none of these: the sentence gives the range and claims no direction
// Timings on a shared machine move by ±10% from run to run, and one disturbed
// point can move far more: one ratio out of line makes a run "mixed", not "grows".
const TREND_BAND = 1.25;
const FIT_R2 = 0.8;

function trendOf(att, both) {
  const ratios = both.map((r) => r.ratio);
  const first = ratios[0], last = ratios.at(-1);
  const steps = ratios.slice(1).map((r, i) => Math.sign(r - ratios[i]));
  const low = Math.min(...ratios), high = Math.max(...ratios);
  const fit = att.fitLine(both.map((r) => Math.log2(r.n)), ratios.map((r) => Math.log2(r)));
  const span = Math.log2(both.at(-1).n / both[0].n);  // doublings of n across the points
  let kind = 'mixed';
  if (steps.every((s) => s > 0) && last > first * TREND_BAND) kind = 'grows';
  else if (steps.every((s) => s < 0) && last * TREND_BAND < first) kind = 'falls';
  else if (high <= low * TREND_BAND) kind = 'steady';
  else if (both.length >= 3 && fit.rSquared >= FIT_R2 && Math.abs(fit.slope) * span > Math.log2(TREND_BAND)) {
    if (fit.slope > 0 && last > first) kind = 'growsFit';
    else if (fit.slope < 0 && last < first) kind = 'fallsFit';
  }
  return {
    kind, first: both[0], last: both.at(-1), low: both[ratios.indexOf(low)], high: both[ratios.indexOf(high)],
    fit: { slope: fit.slope, rSquared: fit.rSquared },
  };
}

const configOf = (state) => ({ d: Number(state.d), maxN: Number(state.maxN) });

// The rows of the table (one per n of the plan, measured or not), the core's
// fits of log time on log n, the ratio at the largest n both ran, and the
// largest difference of the two outputs.
export function compute(att, state) {
  const { d, maxN } = configOf(state);
  const run = state.run && state.run.d === d && state.run.maxN === maxN ? state.run : null;
  const measured = new Map((run?.points ?? []).map((p) => [p.n, p]));
  const rows = N_VALUES.filter((n) => n <= maxN).map((n) => {
    const p = measured.get(n) ?? { js: null, kernel: null, diff: null, batches: { js: null, kernel: null } };
    return {
      n, hasJs: n <= JS_MAX_N, js: p.js, kernel: p.kernel, diff: p.diff, batches: p.batches,
      ratio: p.js !== null && p.kernel !== null ? p.js / p.kernel : null,  // a ratio of two measurements
    };
  });
  const fit = (impl) => {
    const points = rows.filter((r) => r.n >= FIT_FROM && r[impl] !== null);
    if (points.length < 2) return null;
    const line = att.fitLine(points.map((r) => Math.log2(r.n)), points.map((r) => Math.log2(r[impl])));
    return { ...line, fromN: points[0].n, toN: points.at(-1).n, points: points.length };
  };
  const both = rows.filter((r) => r.ratio !== null);
  const diffs = rows.filter((r) => r.diff !== null).map((r) => r.diff);
  return {
    d, maxN, rows,
    status: run?.status ?? 'idle', current: run?.current ?? null, done: run?.done ?? 0, total: run?.total ?? planOf(maxN).length,
    fits: { js: fit('js'), kernel: fit('kernel') },
    headline: both.at(-1) ?? null,
    // how the ratio moves from the smallest n both ran to the largest
    trend: both.length < 2 ? null : trendOf(att, both),
    maxDiff: diffs.length ? Math.max(...diffs) : null,
  };
}

// ---- display ---------------------------------------------------------------

const slopeText = (fit) => (fit ? formatNumber(fit.slope, { digits: 2 }) : '—');
const r2Text = (fit) => (fit ? formatNumber(fit.rSquared, { digits: 3 }) : '—');

export function build(body, ctx) {
  const { t } = ctx;
  const button = element('button', 'sp-button', t.rich('run'));
  button.type = 'button';
  button.dataset.part = 'run';
  const { bar, progress, status } = runBar(button, t('progress'), 'sp');

  const headline = element('p', 'sp-headline');
  headline.dataset.part = 'headline';
  const headlineRatio = element('span', 'sp-headline-ratio');
  headlineRatio.dataset.field = 'headline-ratio';
  const headlineText = element('span', 'sp-headline-text');
  headline.append(headlineRatio, headlineText);

  const plot = element('figure', 'sp-plot');
  const plotCaption = element('figcaption', 'sp-plot-caption');
  const plotBox = element('div', 'plot-box');
  plot.append(plotCaption, plotBox);

  const slopes = callout(t.rich('slopeTitle'), { part: 'slopes', key: true, texts: ['', t.rich('slopeMeaning'), ''] });
  const [slopeFit, , trend] = slopes.paragraphs;
  trend.dataset.part = 'trend';

  const table = element('table', 'sp-table');
  const caption = element('caption', 'table-caption');
  const th = (label, sub) => headerCell(t.rich(label), { sub: sub && t.rich(sub), className: 'num' });
  const thead = headerRow([th('colN'), th('colJs', 'subMs'), th('colKernel', 'subMs'), th('colRatio', 'subRatio')]);
  const tbody = element('tbody');
  table.append(caption, thead, tbody);
  const tableBox = element('div', 'table-scroll sp-table-box');
  tableBox.append(table);
  const jsStops = element('p', 'note', t.rich('jsStops'));

  const check = callout(t.rich('checkTitle'), { part: 'check' });
  const checkText = check.paragraphs[0];
  const method = element('p', 'note sp-method', t.rich('method'));

  body.append(bar, headline, plot, slopes.box, tableBox, jsStops, check.box, method);

  // the run: one at a time per widget; its results go into the state
  let session = null;
  async function start() {
    const config = configOf(ctx.state);
    const mine = {
      stop: false,
      // the Stop button, another d or largest n, a newer run, or the widget unmounted (ctx.signal)
      stopped: () => mine.stop || session !== mine || ctx.signal.aborted ||
        configOf(ctx.state).d !== config.d || configOf(ctx.state).maxN !== config.maxN,
    };
    session = mine;
    // a stale run (stopped by a newer one, or for another d or n) reports nothing more
    const report = (run) => { if (session === mine && !(run.status === 'running' && mine.stopped())) ctx.setState({ run }); };
    try {
      const att = await ctx.module();
      report(await measure(att, config, mine, report));
    } finally {
      if (session === mine) session = null;
    }
  }
  // Stop while a run for the shown d and n is going; else (re-)run
  button.addEventListener('click', () => {
    if (session && !session.stopped()) session.stop = true;
    else start();
  });

  return { button, progress, status, headline, headlineRatio, headlineText, plotCaption, plotBox, slopeFit, trend, caption, tbody, jsStops, checkText };
}

// compact: a narrower drawing with the same points, readable on a phone
function timePlot(data, t, { compact = false } = {}) {
  const of = (impl) => data.rows.filter((r) => r[impl] !== null);
  const kernel = of('kernel'), js = of('js');
  // the legend names the slope once it is fitted
  const label = (impl, key) => (data.fits[impl] ? t(key, { slope: slopeText(data.fits[impl]) }) : t(impl));
  const series = [
    { label: label('kernel', 'seriesKernel'), x: kernel.map((r) => r.n), y: kernel.map((r) => r.kernel), points: true, color: PALETTE[0] },
    { label: label('js', 'seriesJs'), x: js.map((r) => r.n), y: js.map((r) => r.js), points: true, color: PALETTE[1] },
  ];
  // whole decades of ms around what was measured (before a run: 0.001 to 1000)
  const times = [...kernel.map((r) => r.kernel), ...js.map((r) => r.js)];
  const yDomain = times.length
    ? [10 ** Math.floor(Math.log10(Math.min(...times))), 10 ** Math.ceil(Math.log10(Math.max(...times)) + 1e-9)]
    : [1e-3, 1e3];
  const ns = data.rows.map((r) => r.n);
  return linePlot({
    title: t('plotTitle', { d: data.d }), series, xLog: true, yLog: true,
    xDomain: [ns[0], ns.at(-1)], yDomain, xTicks: ns,
    xLabel: t('xAxis'), yLabel: t('yAxis'),
    ...(compact ? { width: 360, height: 300 } : { height: 320 }),
  });
}

function bothPlots(draw) {
  const wide = draw({}), compact = draw({ compact: true });
  wide.classList.add('is-wide');
  compact.classList.add('is-compact');
  return [wide, compact];
}

function tableRow(row, data, t) {
  const tr = element('tr');
  tr.dataset.n = String(row.n);
  const n = headerCell(formatNumber(row.n, { digits: 0 }), { className: 'num', scope: 'row' });
  const cell = (field, text, title) => {
    const td = element('td', 'num', text);
    td.dataset.field = field;
    if (title) td.title = title;
    return td;
  };
  const timing = (impl) => {
    if (impl === 'js' && !row.hasJs) return cell(impl, '—', t('notRun'));
    if (row[impl] !== null) return cell(impl, formatMs(row[impl]), t('medianOf', { batches: row.batches[impl] }));
    const now = data.status === 'running' && data.current?.n === row.n && data.current?.impl === impl;
    const td = cell(impl, now ? '…' : '', now ? t('pending') : '');
    td.classList.toggle('is-pending', now);
    return td;
  };
  tr.append(n, timing('js'), timing('kernel'), cell('ratio', row.ratio === null ? '' : `${formatRatio(row.ratio)}×`));
  return tr;
}

export function render(view, data, state, { t }) {
  const { d, status } = data;
  view.button.replaceChildren(t.rich(status === 'running' ? 'stop' : status === 'idle' ? 'run' : 'again'));
  view.button.classList.toggle('is-running', status === 'running');
  view.progress.hidden = status !== 'running';
  view.progress.max = data.total;
  view.progress.value = data.done;
  const impl = data.current ? t(data.current.impl) : '';
  view.status.textContent = status === 'running'
    ? t('running', { impl, n: formatNumber(data.current?.n ?? 0, { digits: 0 }), done: data.done, total: data.total })
    : t(status, { done: data.done, total: data.total });
  view.status.dataset.status = status;

  const h = data.headline;
  view.headline.hidden = !h;
  if (h) {
    const faster = h.ratio >= 1;
    view.headlineRatio.textContent = `${formatRatio(faster ? h.ratio : 1 / h.ratio)}×`;
    view.headlineText.replaceChildren(t.rich(faster ? 'headline' : 'headlineSlower',
      { ratio: formatRatio(faster ? h.ratio : 1 / h.ratio), n: formatNumber(h.n, { digits: 0 }), d }));
  }

  view.plotCaption.replaceChildren(t.rich('plotTitle', { d }));
  view.plotBox.replaceChildren(...bothPlots((o) => timePlot(data, t, o)));

  const { js, kernel } = data.fits;
  if (js || kernel) {
    view.slopeFit.replaceChildren(t.rich('slopes', { from: FIT_FROM, js: slopeText(js), jsR2: r2Text(js), kernel: slopeText(kernel), kernelR2: r2Text(kernel) }));
  } else {
    view.slopeFit.replaceChildren(t.rich('slopesWaiting', { from: FIT_FROM }));
  }
  view.slopeFit.dataset.jsSlope = js ? String(js.slope) : '';
  view.slopeFit.dataset.kernelSlope = kernel ? String(kernel.slope) : '';
  // what the measured slopes and ratios show, said from them
  const tr = data.trend;
  view.trend.hidden = !tr;
  view.trend.dataset.trend = tr ? tr.kind : '';
  if (tr) {
    const n = (row) => formatNumber(row.n, { digits: 0 });
    view.trend.replaceChildren(t.rich(`trend_${tr.kind}`, {
      js: slopeText(js), kernel: slopeText(kernel), ratioSlope: slopeText(tr.fit), ratioR2: r2Text(tr.fit),
      firstN: n(tr.first), firstRatio: formatRatio(tr.first.ratio), lastN: n(tr.last), lastRatio: formatRatio(tr.last.ratio),
      lowN: n(tr.low), low: formatRatio(tr.low.ratio), highN: n(tr.high), high: formatRatio(tr.high.ratio),
    }));
  }

  view.caption.replaceChildren(t.rich('tableCaption', { d }));
  view.tbody.replaceChildren(...data.rows.map((row) => tableRow(row, data, t)));
  view.jsStops.hidden = data.maxN <= JS_MAX_N;

  view.checkText.textContent = data.maxDiff === null ? t('checkWaiting') : t('check', { diff: formatPower(data.maxDiff) });
  view.checkText.dataset.field = data.maxDiff === null ? '' : 'max-diff';
}

export function exports(data, state, t) {
  const value = (x) => (x === null ? '' : x);
  return {
    visual: () => timePlot(data, t),
    csv: () => ({
      header: [t('csvN'), t('csvJs'), t('csvKernel'), t('csvRatio'), t('csvDiff')],
      rows: data.rows.map((r) => [r.n, value(r.js), value(r.kernel), value(r.ratio), value(r.diff)]),
    }),
    json: () => ({
      d: data.d, maxN: data.maxN, status: data.status,
      timing: `ms per call: the median of ${BATCHES} batches of calls (${FEW_BATCHES} when a batch takes over ${LONG_BATCH_MS} ms), each batch >= ${MIN_BATCH_MS} ms, after warm-up batches; one thread`,
      rows: data.rows.map((r) => ({ n: r.n, jsMs: r.js, kernelMs: r.kernel, ratio: r.ratio, maxAbsDifference: r.diff,
        jsBatches: r.batches.js, kernelBatches: r.batches.kernel })),
      fits: { fromN: FIT_FROM, js: data.fits.js, kernel: data.fits.kernel },
      ratioAtLargestN: data.headline ? { n: data.headline.n, ratio: data.headline.ratio } : null,
      ratioTrend: data.trend ? { kind: data.trend.kind, fromN: data.trend.first.n, fromRatio: data.trend.first.ratio,
        toN: data.trend.last.n, toRatio: data.trend.last.ratio, lowest: data.trend.low.ratio, highest: data.trend.high.ratio,
        fitOfLogRatio: data.trend.fit } : null,
      maxAbsDifference: data.maxDiff,
    }),
  };
}
