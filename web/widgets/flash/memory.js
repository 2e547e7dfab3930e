// The memory part of the "flash" widget: its button starts the measurement
// (measure.js) in a Web Worker of its own (runtime/workers.js), so that the
// page never waits for a call: one call of the full chain at n = 4,096 takes
// seconds. Each snapshot the worker posts goes into the state (`run`, not in
// the URL) and is drawn like any other data. Stop, a new run, another largest
// n or the widget leaving the page ends the worker, whatever call it is in.
// Where no worker starts, nothing runs on the page (it would hold it for
// seconds): the part says so.
import { element } from '../../render/dom.js';
import { formatCount, formatMs, formatNumber, formatPower } from '../../render/format.js';
import { actionButton, runBar } from '../../render/parts.js';
import { headerCell, headerRow } from '../../render/table.js';
import { workerJob } from '../../runtime/workers.js';
import { D, IMPLS, N_VALUES } from './measure.js';

// the largest n a run may ask for (the select's options)
export const MAX_N = N_VALUES.filter((n) => n >= 2048).map(String);

// ---- compute: the run of the state's largest n, as rows and findings ---------

// a side's cell at n: its point, its refusal, running now, or after its refusal (never run)
function cellOf(run, impl, n) {
  const side = run?.sides?.[impl];
  if (!side) return null;
  const point = side.points.find((p) => p.n === n);
  if (point) return { kind: 'point', ...point };
  if (side.refused?.n === n) return { kind: 'refused', ...side.refused };
  if (run.status === 'running' && run.current?.impl === impl && run.current.n === n) return { kind: 'running' };
  if (side.refused && side.refused.n < n) return { kind: 'after' };
  return null;
}

export function memoryData(state) {
  const maxN = Number(state.maxN);
  const run = state.run?.maxN === maxN ? state.run : null;
  const sizes = N_VALUES.filter((n) => n <= maxN);
  const rows = sizes.map((n) => ({ n, full: cellOf(run, 'full', n), kernel: cellOf(run, 'kernel', n) }));
  const finding = (impl) => {
    const side = run?.sides?.[impl];
    return side ? { reached: side.points.at(-1) ?? null, refused: side.refused } : null;
  };
  const diffs = (run?.sides?.kernel?.points ?? []).filter((p) => p.diff !== undefined).map((p) => p.diff);
  const done = rows.reduce((k, r) => k + [r.full, r.kernel].filter((c) => c && c.kind !== 'running').length, 0);
  return {
    maxN, d: D, rows, status: run?.status ?? 'idle', message: run?.message ?? '', current: run?.current ?? null,
    done, total: 2 * sizes.length, full: finding('full'), kernel: finding('kernel'), maxDiff: diffs.length ? Math.max(...diffs) : null,
  };
}

// ---- the part: its button, the worker, the drawing ----------------------------

export function buildMemory(ctx) {
  const { t } = ctx;
  const box = element('section', 'flash-memory');
  box.dataset.part = 'memory';
  const heading = element('h3', 'section-heading', t.rich('memoryTitle'));
  const intro = element('p', 'flash-memory-intro', t.rich('memoryIntro', { d: D }));
  let runningFor = 0;  // the largest n the run measures to
  const job = workerJob('flash', (run) => ctx.setState({ run }),
    (message) => ({ maxN: runningFor, status: 'failed', message: message || t('workerFailed') }));
  // Stop keeps the run as it stands, marked stopped
  const button = actionButton(t, 'measure', 'measure', () => (job.running ? job.stop() : start()));
  function start() {
    const maxN = Number(ctx.state.maxN);
    runningFor = maxN;
    const why = job.start({ type: 'run', maxN }, { maxN, status: 'running', current: null, sides: null });
    if (why) ctx.setState({ run: { maxN, status: 'noWorker', message: why } });
  }
  ctx.signal.addEventListener('abort', job.end, { once: true });

  const { bar, progress, status } = runBar(button, t('progress'), 'flash', 'flash-memory-status');
  status.dataset.part = 'memory-status';

  const table = element('table', 'flash-memory-table');
  table.append(element('caption', 'table-caption', t.rich('tableCaption', { d: D })),
    headerRow([headerCell(t.rich('colN'), { className: 'num' }), headerCell(t.rich('full'), { sub: t.rich('fullSub') }),
      headerCell(t.rich('kernel'), { sub: t.rich('kernelSub') })]));
  const tbody = element('tbody');
  table.append(tbody);
  const scroll = element('div', 'table-scroll flash-memory-box');
  scroll.append(table);

  const findings = element('div', 'flash-findings');
  findings.dataset.part = 'findings';
  const method = element('p', 'note', t.rich('method'));
  box.append(heading, intro, bar, scroll, findings, method);
  return {
    element: box, button, progress, status, tbody, findings, end: job.end,
    // another largest n chosen while a run goes: that run stops where it is (after the render that shows the new n)
    follow(maxN) {
      if (!job.running || maxN === runningFor) return;
      queueMicrotask(job.stop);
    },
  };
}

const heapText = (bytes) => formatNumber(bytes / 2 ** 20, { digits: 1 });

function cellNode(cell, t) {
  const td = element('td', 'flash-cell');
  if (!cell) return td;
  td.dataset.kind = cell.kind;
  if (cell.kind === 'point') {
    const numbers = element('span', 'flash-cell-numbers', t('cellNumbers', { numbers: formatCount(cell.numbers) }));
    numbers.dataset.field = 'numbers';
    const heap = element('span', 'flash-cell-heap', t('cellHeap', { heap: heapText(cell.heap), ms: formatMs(cell.ms) }));
    heap.dataset.field = 'heap';
    td.append(numbers, heap);
  } else if (cell.kind === 'refused') {
    td.append(element('span', 'flash-cell-refused', t('cellRefused', { code: cell.code })));
    td.title = cell.message;
  } else td.textContent = cell.kind === 'running' ? '…' : '—';
  return td;
}

// one side's finding: how far it got, and what stopped it
function findingNode(impl, f, t) {
  const p = element('p', 'flash-finding');
  p.dataset.impl = impl;
  const vars = { name: t(impl), heap: f.reached ? heapText(f.reached.heap) : '', ms: f.reached ? formatMs(f.reached.ms) : '',
    n: f.reached ? formatNumber(f.reached.n, { digits: 0 }) : '' };
  const refusal = f.refused && { refusedN: formatNumber(f.refused.n, { digits: 0 }), code: f.refused.code, message: f.refused.message };
  p.textContent = !f.reached ? t('foundNone', { ...vars, ...refusal }) : refusal ? t('foundRefused', { ...vars, ...refusal }) : t('foundAll', vars);
  return p;
}

export function renderMemory(view, data, t) {
  const running = data.status === 'running';
  view.button.replaceChildren(t.rich(running ? 'stop' : data.status === 'idle' ? 'measure' : 'measureAgain'));
  view.button.classList.toggle('is-running', running);
  view.progress.hidden = !running;
  view.progress.max = data.total;
  view.progress.value = data.done;
  const now = data.current;
  view.status.textContent = running && now
    ? t('memoryRunning', { name: t(now.impl), n: formatNumber(now.n, { digits: 0 }) })
    : t(`memory_${data.status}`, { message: data.message });
  view.status.dataset.status = data.status;
  view.tbody.replaceChildren(...data.rows.map((row) => {
    const tr = element('tr');
    tr.dataset.n = String(row.n);
    tr.append(headerCell(formatNumber(row.n, { digits: 0 }), { className: 'num', scope: 'row' }), cellNode(row.full, t), cellNode(row.kernel, t));
    return tr;
  }));
  const parts = [];
  if (data.status === 'done') {
    const [full, kernel] = [data.full, data.kernel];
    const n = (f) => f.reached?.n ?? 0;
    const key = n(full) < n(kernel) ? 'limitsBelow' : n(full) === n(kernel) ? 'limitsSame' : 'limitsAbove';
    parts.push(element('p', 'flash-limits', t.rich(key, { full: formatNumber(n(full), { digits: 0 }), kernel: formatNumber(n(kernel), { digits: 0 }) })));
    for (const impl of IMPLS) parts.push(findingNode(impl, data[impl], t));
    if (data.maxDiff !== null) {
      const check = element('p', 'flash-finding', t('memoryCheck', { diff: formatPower(data.maxDiff) }));
      check.dataset.field = 'memory-check';
      parts.push(check);
    }
  }
  view.findings.replaceChildren(...parts);
  view.findings.hidden = parts.length === 0;
}
