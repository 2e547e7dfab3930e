// Widget "speed": our kernel against a plain JS loop, timed live in the
// visitor's browser for growing n. The same inputs go to both: the module's
// public call att.attention({ query, key, value, intermediates: false }) (the
// fused WebAssembly kernel, which never forms the n × n matrix, the copies in
// and out included) and the textbook triple loop below. Time per call against
// n on log-log axes; the slope of each line, fitted by the core, is about 2:
// quadratic, not exponential. The table gives the machine's ratio, and the
// core's max |difference| of the two outputs shows they compute the same thing.
//
// Nothing runs until the Run button: a measurement keeps one core busy for a
// few seconds. It runs in small steps (a macrotask between two timings), and
// each step puts what it measured into the state (`run`, not in the URL), so
// state -> compute -> render draws it like any other widget.
import { loadAttention } from '../compute.js';
import { element } from '../dom.js';
import { formatNumber } from '../render/format.js';
import { PALETTE, linePlot } from '../render/plot.js';

export const name = 'speed';

const N_VALUES = [32, 64, 128, 256, 512, 1024, 2048, 4096];
const JS_MAX_N = 1024;       // beyond it one call of the JS loop takes seconds
const FIT_FROM = 128;        // below it a call is mostly fixed costs, not n² work
const MIN_BATCH_MS = 5;      // a timed batch of calls: well above the browser's coarse clock (0.1 ms)
const MIN_POINT_MS = 30;     // at least this long, and 3 batches, per point...
const MAX_POINT_MS = 1000;   // ...but no longer than this
const SEED = 7;              // the core's initialiser: Q, K, V are streams 0, 1, 2

export const strings = {
  en: {
    title: 'How fast? Our kernel against a plain JS loop, on your machine',
    intro: 'The same attention, softmax(QKᵀ/√d)·V for n queries and n keys of width d, computed two ways in this tab: by the WebAssembly kernel of this page and by the textbook JavaScript loop. Press Run to time both for growing n.',
    d: 'Width d', maxN: 'Largest n (the JS loop stops at 1,024)',
    run: 'Run', stop: 'Stop', again: 'Run again', progress: 'Progress of the measurement',
    idle: 'Nothing runs until you press Run: timing keeps one core of this machine busy for a few seconds.',
    running: 'Timing {impl} at n = {n} ({done} of {total} done)…',
    done: 'Done: {total} timings on this machine.',
    stopped: 'Stopped after {done} of {total} timings.',
    js: 'JS loop', kernel: 'our kernel',
    headline: 'On this machine our kernel is {ratio}× faster than the JS loop, at n = {n} and d = {d}.',
    headlineSlower: 'On this machine our kernel is slower than the JS loop at n = {n} and d = {d}: it takes {ratio}× the time.',
    plotTitle: 'Time per call against n (d = {d}), log-log',
    xAxis: 'sequence length n', yAxis: 'milliseconds per call',
    seriesJs: 'JS loop, slope {slope}', seriesKernel: 'our kernel, slope {slope}',
    slopeTitle: 'Quadratic, not exponential',
    slopes: 'The fitted slopes, least squares of log time on log n over the points with n\u00a0≥\u00a0{from}: JS loop {js} (r² = {jsR2}), our kernel {kernel} (r² = {kernelR2}).',
    slopesWaiting: 'The slopes appear once two points with n\u00a0≥\u00a0{from} are timed.',
    slopeMeaning: 'A slope of 2 means time ∝ n²: twice the length, four times the time, at every n. Both do the 2n²d multiply-adds of attention, so both lines rise with the same slope, and the kernel is faster by a constant factor. On log-log axes such a power law is a straight line; an exponential cost would curve upward, ever more steeply.',
    tableCaption: 'Time per call (ms) on this machine, d = {d}',
    colN: 'n', colJs: 'JS loop', colKernel: 'our kernel', colRatio: 'ratio', subMs: 'ms per call', subRatio: 'JS ÷ kernel',
    notRun: 'not run: one call would take seconds', pending: 'timing…',
    jsStops: 'The JS loop stops at n = 1,024: beyond it one call keeps the page busy for seconds.',
    checkTitle: 'The same result',
    check: 'Both compute the same output: the largest |difference| between the two, over every entry at every n both ran, is {diff} (float32 rounding), computed by the core.',
    checkWaiting: 'Once both have run, the core compares their outputs entry by entry.',
    method: 'How it is timed: one thread, in this tab. Each point is the fastest time per call of several batches of calls (each batch at least 5 ms; at least 3 batches and 30 ms per point, at most about 1 s), the one least disturbed by other work on the machine; a warm-up run comes first. Our kernel is the module’s public call att.attention({ query, key, value, intermediates: false }), the copies into and out of WebAssembly included; the JS loop is a plain triple loop over Float32Arrays (scores of a query against every key, their maximum, exp and sum, the weighted sum of V). The inputs are the same random (n, d) matrices from the core’s seeded initialiser. Other tabs and programs move the times; the slopes move much less.',
    csvN: 'n', csvJs: 'JS loop ms per call', csvKernel: 'kernel ms per call', csvRatio: 'ratio JS / kernel', csvDiff: 'max abs difference',
  },
  zh: {
    title: '有多快？我们的内核与普通 JS 循环在你的电脑上比一比',
    intro: '同一个注意力计算 softmax(QKᵀ/√d)·V（n 个查询、n 个键，宽度为 d），在这个页面里用两种方式完成：本页的 WebAssembly 内核，以及教科书式的 JavaScript 循环。点击“运行”，对逐渐增大的 n 给两者计时。',
    d: '宽度 d', maxN: '最大的 n（JS 循环最多到 1,024）',
    run: '运行', stop: '停止', again: '再运行一次', progress: '测量进度',
    idle: '点击“运行”之前不会执行任何计算：计时会让这台电脑的一个核心忙上几秒钟。',
    running: '正在计时：{impl}，n = {n}（已完成 {done}/{total}）…',
    done: '完成：在这台电脑上计时 {total} 次。',
    stopped: '已停止，完成了 {total} 次中的 {done} 次计时。',
    js: 'JS 循环', kernel: '我们的内核',
    headline: '在这台电脑上，n = {n}、d = {d} 时，我们的内核比 JS 循环快 {ratio} 倍。',
    headlineSlower: '在这台电脑上，n = {n}、d = {d} 时，我们的内核比 JS 循环慢：用时是它的 {ratio} 倍。',
    plotTitle: '每次调用的时间随 n 的变化（d = {d}），双对数坐标',
    xAxis: '序列长度 n', yAxis: '每次调用的毫秒数',
    seriesJs: 'JS 循环，斜率 {slope}', seriesKernel: '我们的内核，斜率 {slope}',
    slopeTitle: '是二次方，不是指数',
    slopes: '拟合的斜率（对 n\u00a0≥\u00a0{from} 的点，用最小二乘法拟合 log 时间与 log n）：JS 循环 {js}（r² = {jsR2}），我们的内核 {kernel}（r² = {kernelR2}）。',
    slopesWaiting: '测出两个 n\u00a0≥\u00a0{from} 的点之后，这里会显示斜率。',
    slopeMeaning: '斜率为 2 意味着时间 ∝ n²：长度加倍，时间变为 4 倍，对每个 n 都一样。两者都要做注意力的 2n²d 次乘加，所以两条直线的斜率相同，内核只是快了一个常数倍。在双对数坐标上，这样的幂律是一条直线；指数增长则会向上弯曲，而且越来越陡。',
    tableCaption: '在这台电脑上每次调用的时间（毫秒），d = {d}',
    colN: 'n', colJs: 'JS 循环', colKernel: '我们的内核', colRatio: '倍数', subMs: '毫秒/次', subRatio: 'JS ÷ 内核',
    notRun: '未运行：一次调用要好几秒', pending: '计时中…',
    jsStops: 'JS 循环最多到 n = 1,024：再大的话，一次调用就会让页面卡住好几秒。',
    checkTitle: '结果相同',
    check: '两者算出的输出相同：在两者都运行过的每个 n 上，比较输出的每一个元素，最大的 |差| 为 {diff}（float32 舍入误差），由计算核心算出。',
    checkWaiting: '两者都运行之后，计算核心会逐个元素比较它们的输出。',
    method: '计时方法：单线程，就在这个标签页里。每个点取多批调用中最快的一批折算出的每次调用时间（每批至少 5 毫秒；每个点至少 3 批、30 毫秒，最多约 1 秒），因为它受电脑上其他任务的干扰最少；正式计时之前先预热一轮。我们的内核就是模块的公开调用 att.attention({ query, key, value, intermediates: false })，包括数据拷入和拷出 WebAssembly 的时间；JS 循环是对 Float32Array 的普通三重循环（查询对每个键的得分、最大值、exp 与求和、V 的加权和）。两者的输入相同：由计算核心的固定种子初始化器生成的随机 (n, d) 矩阵。其他标签页和程序会让时间波动，斜率则稳定得多。',
    csvN: 'n', csvJs: 'JS 循环 毫秒/次', csvKernel: '内核 毫秒/次', csvRatio: '倍数 JS / 内核', csvDiff: '最大绝对差',
  },
};

export const defaults = { d: '64', maxN: '4096', run: null };

export const controls = [
  { key: 'd', type: 'choice', label: 'd', options: ['32', '64', '128'].map((v) => ({ value: v, label: v })) },
  { key: 'maxN', type: 'select', label: 'maxN',
    options: N_VALUES.filter((n) => n >= 256).map((n) => ({ value: String(n), label: n.toLocaleString('en-US') })) },
];

// ---- the plain JS loop -----------------------------------------------------

// softmax(Q Kᵀ / √d) V, one query at a time, as a tutorial writes it.
// Q, K, V: (n, d) row-major Float32Arrays. Returns the output (n, d).
export function attentionLoop(Q, K, V, n, d) {
  const out = new Float32Array(n * d);
  const scores = new Float64Array(n);  // (n) query i against every key
  const row = new Float64Array(d);     // (d) the weighted sum for query i
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    // scores, and their maximum (subtracted before exp, so exp never overflows)
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += Q[i * d + c] * K[j * d + c];
      scores[j] = dot * scale;
      if (scores[j] > max) max = scores[j];
    }
    // exp and sum
    let sum = 0;
    for (let j = 0; j < n; j++) {
      scores[j] = Math.exp(scores[j] - max);
      sum += scores[j];
    }
    // the weighted sum of the values, normalised
    row.fill(0);
    for (let j = 0; j < n; j++) {
      const w = scores[j] / sum;
      for (let c = 0; c < d; c++) row[c] += w * V[j * d + c];
    }
    out.set(row, i * d);
  }
  return out;
}

// ---- timing ----------------------------------------------------------------

// A macrotask: the page paints and answers input between two timings (a
// message, not setTimeout, which browsers clamp to 4 ms when chained).
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

// The time of one call of fn, in ms: the fastest of batches of calls (other
// work on the machine only ever adds time, so the fastest batch is the least
// disturbed one). A batch shorter than MIN_BATCH_MS is not kept, and the next
// one has twice the calls (those short batches warm the code up).
// null when stopped() says so.
async function timeCall(fn, stopped) {
  const perCall = [];
  let batch = 1, spent = 0;
  for (;;) {
    if (stopped()) return null;
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const elapsed = performance.now() - start;
    spent += elapsed;
    if (elapsed < MIN_BATCH_MS) batch *= 2;
    else perCall.push(elapsed / batch);
    if (perCall.length && ((perCall.length >= 3 && spent >= MIN_POINT_MS) || spent >= MAX_POINT_MS)) break;
    await nextTask();
  }
  await nextTask();
  return Math.min(...perCall);
}

// Entries uniform on ±√3 (variance 1, so the scores spread as in a model):
// the core's seeded Xavier matrix, rescaled by its largest entry.
function randomInput(att, n, d, stream) {
  const m = att.initXavier(n, d, SEED, stream);
  let top = 0;
  for (const x of m.data) top = Math.max(top, Math.abs(x));
  const scale = Math.sqrt(3) / top;
  for (let i = 0; i < m.data.length; i++) m.data[i] *= scale;
  return m;
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
  const run = (status, current = null) => ({ d, maxN, status, current, done: points.reduce((k, p) => k + (p.js !== null) + (p.kernel !== null), 0), total: plan.length, points: points.map((p) => ({ ...p })) });
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
      points.push({ n, js: null, kernel: null, diff: null });
    }
    report(run('running', { impl, n }));
    await nextTask();
    const time = await timeCall(current[impl], stopped);
    if (time === null) return run('stopped');
    const point = points.at(-1);
    point[impl] = time;
    if (point.js !== null && point.kernel !== null) {
      point.diff = att.maxAbsDifference(current.outputs.kernel, { rows: n, cols: d, data: current.outputs.js });
    }
  }
  return run('done');
}

// ---- compute ---------------------------------------------------------------

const configOf = (state) => ({ d: Number(state.d), maxN: Number(state.maxN) });

// The rows of the table (one per n of the plan, measured or not), the core's
// fits of log time on log n, the ratio at the largest n both ran, and the
// largest difference of the two outputs.
export function compute(att, state) {
  const { d, maxN } = configOf(state);
  const run = state.run && state.run.d === d && state.run.maxN === maxN ? state.run : null;
  const measured = new Map((run?.points ?? []).map((p) => [p.n, p]));
  const rows = N_VALUES.filter((n) => n <= maxN).map((n) => {
    const p = measured.get(n) ?? { js: null, kernel: null, diff: null };
    return {
      n, hasJs: n <= JS_MAX_N, js: p.js, kernel: p.kernel, diff: p.diff,
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
    maxDiff: diffs.length ? Math.max(...diffs) : null,
  };
}

// ---- display ---------------------------------------------------------------

// ms with 3 significant digits: 0.00512, 0.0871, 1.23, 331, 1,234
export function formatMs(x) {
  if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) return '—';
  return formatNumber(x, { digits: Math.min(6, Math.max(0, 2 - Math.floor(Math.log10(x)))) });
}
export function formatRatio(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  return formatNumber(x, { digits: x >= 100 ? 0 : x >= 10 ? 1 : 2 });
}
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
// 2.4 × 10⁻⁷ (no-break spaces); 0 as 0
export function formatSmall(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  let e = Math.floor(Math.log10(Math.abs(x)));
  let m = x / 10 ** e;
  if (Number(m.toFixed(1)) >= 10) { m /= 10; e += 1; }
  const exponent = String(e).replace('-', '⁻').replace(/\d/g, (c) => SUPERSCRIPT[c]);
  return `${formatNumber(m, { digits: 1 })}\u00a0×\u00a010${exponent}`;  // never broken across lines
}
const slopeText = (fit) => (fit ? formatNumber(fit.slope, { digits: 2 }) : '—');
const r2Text = (fit) => (fit ? formatNumber(fit.rSquared, { digits: 3 }) : '—');

export function build(body, ctx) {
  const { t } = ctx;
  // the run bar: button, progress, status
  const bar = element('div', 'sp-run');
  const button = element('button', 'sp-button', t('run'));
  button.type = 'button';
  button.dataset.part = 'run';
  const progress = element('progress', 'sp-progress');
  progress.setAttribute('aria-label', t('progress'));
  const status = element('p', 'sp-status');
  status.setAttribute('aria-live', 'polite');
  bar.append(button, progress, status);

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

  const slopes = element('section', 'cx-callout is-key sp-slopes');
  slopes.dataset.part = 'slopes';
  const slopeFit = element('p', 'cx-callout-text');
  slopes.append(element('h3', 'cx-heading', t('slopeTitle')), slopeFit, element('p', 'cx-callout-text', t('slopeMeaning')));

  const table = element('table', 'sp-table');
  const caption = element('caption', 'cx-table-caption');
  const head = element('tr');
  const th = (label, sub) => {
    const cell = element('th', 'num');
    cell.scope = 'col';
    cell.append(element('span', 'th-name', t(label)));
    if (sub) cell.append(element('span', 'th-sub', t(sub)));
    return cell;
  };
  head.append(th('colN'), th('colJs', 'subMs'), th('colKernel', 'subMs'), th('colRatio', 'subRatio'));
  const thead = element('thead');
  thead.append(head);
  const tbody = element('tbody');
  table.append(caption, thead, tbody);
  const tableBox = element('div', 'table-scroll sp-table-box');
  tableBox.append(table);
  const jsStops = element('p', 'cx-note', t('jsStops'));

  const check = element('section', 'cx-callout sp-check');
  check.dataset.part = 'check';
  const checkText = element('p', 'cx-callout-text');
  check.append(element('h3', 'cx-heading', t('checkTitle')), checkText);
  const method = element('p', 'cx-note sp-method', t('method'));

  body.append(bar, headline, plot, slopes, tableBox, jsStops, check, method);

  // the run: one at a time per widget; its results go into the state
  let session = null;
  async function start() {
    const config = configOf(ctx.state);
    const mine = {
      stop: false,
      // the Stop button, another d or largest n, a newer run, or the widget gone (a language switch re-mounts it)
      stopped: () => mine.stop || session !== mine || !body.isConnected ||
        configOf(ctx.state).d !== config.d || configOf(ctx.state).maxN !== config.maxN,
    };
    session = mine;
    // a stale run (stopped by a newer one, or for another d or n) reports nothing more
    const report = (run) => { if (body.isConnected && session === mine && !(run.status === 'running' && mine.stopped())) ctx.setState({ run }); };
    try {
      const att = await loadAttention();
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

  return { button, progress, status, headline, headlineRatio, headlineText, plotCaption, plotBox, slopeFit, caption, tbody, jsStops, checkText };
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
  const n = element('th', 'num', formatNumber(row.n, { digits: 0 }));
  n.scope = 'row';
  const cell = (field, text, title) => {
    const td = element('td', 'num', text);
    td.dataset.field = field;
    if (title) td.title = title;
    return td;
  };
  const timing = (impl) => {
    if (impl === 'js' && !row.hasJs) return cell(impl, '—', t('notRun'));
    if (row[impl] !== null) return cell(impl, formatMs(row[impl]));
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
  view.button.textContent = t(status === 'running' ? 'stop' : status === 'idle' ? 'run' : 'again');
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
    view.headlineText.textContent = t(faster ? 'headline' : 'headlineSlower',
      { ratio: formatRatio(faster ? h.ratio : 1 / h.ratio), n: formatNumber(h.n, { digits: 0 }), d });
  }

  view.plotCaption.textContent = t('plotTitle', { d });
  view.plotBox.replaceChildren(...bothPlots((o) => timePlot(data, t, o)));

  const { js, kernel } = data.fits;
  if (js || kernel) {
    view.slopeFit.textContent = t('slopes', { from: FIT_FROM, js: slopeText(js), jsR2: r2Text(js), kernel: slopeText(kernel), kernelR2: r2Text(kernel) });
  } else {
    view.slopeFit.textContent = t('slopesWaiting', { from: FIT_FROM });
  }
  view.slopeFit.dataset.jsSlope = js ? String(js.slope) : '';
  view.slopeFit.dataset.kernelSlope = kernel ? String(kernel.slope) : '';

  view.caption.textContent = t('tableCaption', { d });
  view.tbody.replaceChildren(...data.rows.map((row) => tableRow(row, data, t)));
  view.jsStops.hidden = data.maxN <= JS_MAX_N;

  view.checkText.textContent = data.maxDiff === null ? t('checkWaiting') : t('check', { diff: formatSmall(data.maxDiff) });
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
      timing: 'ms per call: the fastest of several batches of calls (each >= 5 ms; >= 3 batches and 30 ms per point, about 1 s at most), one thread',
      rows: data.rows.map((r) => ({ n: r.n, jsMs: r.js, kernelMs: r.kernel, ratio: r.ratio, maxAbsDifference: r.diff })),
      fits: { fromN: FIT_FROM, js: data.fits.js, kernel: data.fits.kernel },
      ratioAtLargestN: data.headline ? { n: data.headline.n, ratio: data.headline.ratio } : null,
      maxAbsDifference: data.maxDiff,
    }),
  };
}
