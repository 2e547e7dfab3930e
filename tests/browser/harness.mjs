// Shared set-up of the browser tests: a static server for web/ and a fresh
// headless Chromium (Debian's, driven by playwright-core), plus a page opener
// that records console errors, page errors and every request URL.
//
//   const browser = await startBrowser();            // in before()
//   const { page, log } = await openPage(browser, '?q=165');
//   assertClean(log, browser.origin);                // no error, nothing off-origin
//   await browser.close();                           // in after()
// or, for a whole test on one page (opened, checked clean, closed):
//   test('…', () => withPage(browser, '?q=165', async ({ page, log }) => { … }));
// and, for the hostile-input, DOM and heap tests, a page opener that installs
// in-page helpers (window.__page) and a recorder of NaN/Infinity/undefined
// before the page's scripts: openInstrumented, eachWidget, ready, assertSafe.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveWith } from '../server.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Starts the server (any free port; root defaults to web/) and the browser.
// Resolves to { url, origin, context, close() }; close() stops both and removes the profile.
export function startBrowser({ root } = {}) {
  return serveWith(async () => {
    const profile = mkdtempSync(join(tmpdir(), 'attention-wasm-chromium-'));
    const removeProfile = () => rmSync(profile, { recursive: true, force: true });
    let context;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
        viewport: { width: 1280, height: 900 },
      });
    } catch (error) {
      removeProfile();
      throw error;
    }
    return { context, async close() { await context.close(); removeProfile(); } };
  }, { root });
}

// Opens path (relative to the server's root URL) in a new page.
// log: { consoleErrors, pageErrors, requests } filled as the page runs.
export async function openPage(browser, path = '', { viewport } = {}) {
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const log = recordLog(page);
  await page.goto(new URL(path, browser.url).href);
  return { page, log };
}

// A page at url (another origin's, a file:// one) recording its uncaught
// errors: { page, errors } (their messages).
export async function openWithErrors(browser, url) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

// What page does from now on: { consoleErrors, pageErrors, requests } (the
// requested URLs), filled as it runs. A Playwright or a Puppeteer page: both
// name these events alike.
export function recordLog(page) {
  const log = { consoleErrors: [], pageErrors: [], requests: [] };
  page.on('console', (message) => { if (message.type() === 'error') log.consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => log.pageErrors.push(error.message));
  page.on('request', (request) => log.requests.push(request.url()));
  return log;
}

// The wait for a widget's first render on a page: whenReady(selector, timeout)
// is page => (resolves once the element of selector has data-ready="true").
// It is brought into view first: on the full page a section mounts when it
// comes near the screen (an embed's widget is in view already).
export const whenReady = (selector, timeout = 15000) => async (page) => {
  const root = page.locator(selector).first();
  const end = Date.now() + timeout;
  await root.waitFor({ state: 'attached', timeout });
  // scrolled to until it is ready, not only until it begins to mount: the sections above may
  // still grow (their styles loading) and push it away, and a lazy widget (kv-heads, training,
  // the language model) draws only once it is near the screen
  const ready = page.locator(`${selector}[data-ready="true"]`).first();
  while (await ready.count() === 0 && Date.now() < end) {
    await root.scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
  }
  await ready.waitFor({ timeout: Math.max(1000, end - Date.now()) });
};

// Scrolls the full page to the widget of selector once every widget of the
// page has drawn, shown its error, or waits to come near the screen (a lazy
// one, or a model widget's loader). Before that the sections are short: a widget scrolled to then is pushed
// far below the screen as those above it fill, and a widget that waits to be
// near (training, the language model, real-model) would wait for ever.
export async function scrollToWidget(page, selector) {
  await page.waitForFunction(() => [...document.querySelectorAll('main [data-widget]')]
    .every((root) => root.dataset.ready === 'true' || root.querySelector('[role="alert"]:not([hidden])')
      || root.querySelector('.widget-body > .widget-loading, .model-loader[data-phase="waiting"]')), null, { timeout: 30000 });
  await page.locator(selector).scrollIntoViewIfNeeded();
}

// A test's page from start to end: opens path (options as openPage's, optional),
// runs body({ page, log }), asserts the page stayed clean (assertClean) and
// closes it, also when body throws. Resolves to what body returned.
//   test('…', () => withPage(browser, 'embed.html?widget=masking', async ({ page }) => { … }));
export async function withPage(browser, path, options, body) {
  if (typeof options === 'function') [options, body] = [{}, options];
  const { page, log } = await openPage(browser, path, options);
  try {
    const result = await body({ page, log });
    assertClean(log, browser.origin);
    return result;
  } finally {
    await page.close();
  }
}

// The requested URLs that left the page's origin (data: and blob: stay in the page).
export function offOriginRequests(log, origin) {
  return log.requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
}

// No console error, no uncaught error, no request outside origin.
export function assertClean(log, origin) {
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(log.pageErrors, [], 'page errors');
  assert.deepEqual(offOriginRequests(log, origin), [], 'requests outside the page origin');
}

// Retries check() (sync or async) until it returns true; throws after timeout ms.
// For values that a page updates asynchronously; assert the final values afterwards.
export async function eventually(check, { timeout = 5000, interval = 25, message = 'condition' } = {}) {
  const start = Date.now(), end = start + timeout;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${message}`);
    // a long wait (a model training) polls less often: at most a tenth of the time waited late
    await new Promise((done) => setTimeout(done, Math.max(interval, Math.min(250, (Date.now() - start) / 10))));
  }
}

// 500 words: more than any sentence box takes.
export const OVERLONG = Array.from({ length: 500 }, () => 'a').join(' ');

// A sentence box's errors as the page shows them: each [text, message] of bad,
// typed into box, shows alert with message (a RegExp); then good, typed, makes
// the alert go.
export async function assertSentenceAlerts(box, alert, bad, good) {
  for (const [text, message] of bad) {
    await box.fill(text);
    await eventually(async () => (await alert.isVisible()) && message.test(await alert.textContent()), { message: `the alert ${message}` });
  }
  await box.fill(good);
  await eventually(async () => !(await alert.isVisible()), { message: 'the alert gone' });
}

// A number as a page shows it ("−6.125", "27,520", "66.73 kg") -> 6.125 etc.;
// "<0.001" -> { below: 0.001 }; anything else (—, NaN) -> NaN.
export function parseShown(text) {
  const t = text.trim().replace(/\u2212/g, '-').replace(/,/g, '').replace(/\s*(kg|cm)$/, '');
  if (t.startsWith('<')) return { below: Number(t.slice(1)) };
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

// Asserts that text shows expected, rounded to `decimals` decimals.
export function assertShown(text, expected, decimals, what = 'value') {
  const shown = parseShown(text);
  if (typeof shown === 'object') {
    assert.ok(expected > 0 && expected < shown.below, `${what}: shows "${text}", expected ${expected}`);
    return;
  }
  const tolerance = 0.5 * 10 ** -decimals + 1e-9;
  assert.ok(Math.abs(shown - expected) <= tolerance, `${what}: shows "${text}", expected ${expected} to ${decimals} decimals`);
}

// ---- instrumented pages: the hostile-input, DOM and heap tests --------------

export const LOAD = 60000;  // ms: the real-model widget reads 8 MB (from the network once, then the cache)

// Installed before the page's own scripts: records every text node and
// attribute value the page writes (also values it overwrote within one task,
// from the old values) that shows NaN, Infinity or undefined. No prose of the
// page uses these words (masked scores read "−∞"): any match is a defect.
export function recordBadText() {
  const BAD = /\bNaN\b|Infinity|undefined/;
  const found = [];
  window.__badText = found;
  const note = (where, text) => { if (typeof text === 'string' && BAD.test(text)) found.push(`${where}: ${text.slice(0, 160)}`); };
  const scan = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return note('text', node.data);
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (!BAD.test(node.outerHTML)) return;  // the fast path: one serialisation, searched natively
    for (const a of node.attributes) note(`<${node.localName} ${a.name}>`, a.value);
    for (const child of node.childNodes) scan(child);
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') r.addedNodes.forEach(scan);
      else if (r.type === 'characterData') { note('text', r.target.data); note('text (old)', r.oldValue); }
      else {
        note(`<${r.target.localName} ${r.attributeName}>`, r.target.getAttribute(r.attributeName));
        note(`<${r.target.localName} ${r.attributeName}> (old)`, r.oldValue);
      }
    }
  });
  const options = { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true, characterDataOldValue: true };
  observer.observe(document, options);
  // the script embed puts each widget in a shadow root: watch those too
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function attachShadow(init) {
    const root = attach.call(this, init);
    observer.observe(root, options);
    return root;
  };
}

// Elements that only markup in the text could have made: any <img>, a <script>
// without src, any on* attribute; in the document and in open shadow roots.
export function injectedElements() {
  const found = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      const handler = [...el.attributes].some((a) => /^on/i.test(a.name));
      if (el.localName === 'img' || (el.localName === 'script' && !el.src) || handler) found.push(el.outerHTML.slice(0, 120));
    }
  };
  visit(document);
  return found;
}

// In the page, window.__page:
//   idle(root)   resolves once the widget has finished state -> compute -> render
//                (the runtime marks it aria-busy meanwhile): when the attribute goes;
//   ready(root)  scrolls the widget into view (real-model loads its model only
//                then) and waits for its first render;
//   show(root)   what it shows: visible messages (alert, status), the text of
//                its body, the values of its text boxes, typeof window.__pwned;
//   snapshot(root) its controls as shown (slider values, checked boxes, chosen
//                options, text) and the text of its body but the model's
//                loader (it says how long the load took).
export function installHelpers() {
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const until = async (check, wait, what) => {
    const end = performance.now() + 60000;
    while (!check()) {
      if (performance.now() > end) throw new Error(`timed out: ${what}`);
      await wait();
    }
  };
  // woken by the attribute's change, not by polling (a poll by message kept a
  // core busy while a worker built a model)
  const idle = (root) => new Promise((done, fail) => {
    const free = () => root.getAttribute('aria-busy') !== 'true';
    if (free()) { done(); return; }
    const watch = new MutationObserver(() => { if (free()) { finish(); done(); } });
    const timer = setTimeout(() => { finish(); fail(new Error(`timed out: ${root.dataset.widget} busy`)); }, 60000);
    const finish = () => { watch.disconnect(); clearTimeout(timer); };
    watch.observe(root, { attributes: true, attributeFilter: ['aria-busy'] });
  });
  const ready = async (root) => {
    root.scrollIntoView({ block: 'center' });
    await until(() => root.dataset.ready === 'true', () => sleep(10), `${root.dataset.widget} ready`);
    await idle(root);
    // a trainer still choosing between its worker and the page's thread says "starting…"
    await until(() => !root.querySelector('[data-mode="starting"]'), () => sleep(10), `${root.dataset.widget} started`);
  };
  const visible = (n) => !n.hidden && n.checkVisibility() && n.textContent.trim() !== '';
  const show = (root) => ({
    message: [...root.querySelectorAll('[role="alert"], [role="status"]')].filter(visible).map((n) => n.textContent).join(' | '),
    body: root.querySelector('.widget-body')?.textContent ?? '',
    values: [...root.querySelectorAll('input[type="text"]')].map((input) => input.value),
    pwned: typeof window.__pwned,
  });
  const snapshot = (root) => {
    const body = root.querySelector('.widget-body').cloneNode(true);
    body.querySelector('.model-loader')?.remove();
    return {
      controls: [...root.querySelectorAll('.controls input, .controls select')]
        .map((c) => (c.type === 'radio' || c.type === 'checkbox' ? c.checked : c.value)),
      body: body.textContent,
    };
  };
  window.__page = { idle, ready, show, snapshot };
}

// In the page: every widget of the full page, in order, brought into view;
// what each shows (what: 'show' or 'snapshot').
export async function eachWidget(what) {
  const out = {};
  for (const root of document.querySelectorAll('main [data-widget]')) {
    await window.__page.ready(root);
    out[root.dataset.widget] = window.__page[what](root);
  }
  return out;
}

// Opens path with the helpers, the dialog log and (record) the NaN recorder installed first.
export async function openInstrumented(browser, path, { record = true, route = null } = {}) {
  const { page, log } = await openPage(browser, 'about:blank');
  log.dialogs = [];
  page.on('dialog', (dialog) => { log.dialogs.push(dialog.message()); dialog.dismiss().catch(() => {}); });
  await page.addInitScript(installHelpers);
  if (record) await page.addInitScript(recordBadText);
  if (route) await route(page);
  await page.goto(new URL(path, browser.url).href);
  return { page, log };
}

export const widget = (page, name, scope = 'main ') => page.locator(`${scope}[data-widget="${name}"]`);

export async function ready(root) {
  await root.waitFor();
  await root.evaluate((el) => window.__page.ready(el));
}

// No script ran, no dialog, no element made from text, nothing bad written,
// no prototype polluted, no error, nothing off-origin.
export async function assertSafe(browser, page, log, what) {
  assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined', `${what}: no script ran`);
  assert.deepEqual(log.dialogs, [], `${what}: no dialog`);
  assert.deepEqual(await page.evaluate(injectedElements), [], `${what}: no element made from the text`);
  assert.deepEqual(await page.evaluate(() => window.__badText ?? []), [], `${what}: NaN, Infinity or undefined written into the DOM`);
  assert.deepEqual(await page.evaluate(() => [({}).polluted, [].polluted, Object.prototype.polluted]), [undefined, undefined, undefined],
    `${what}: Object.prototype not polluted`);
  assertClean(log, browser.origin);
}

// every widget's text controls but the model address (tested apart), from the definitions: { name: [{ key, fallback }] }
// (widgets: web/widgets/list.js's)
export async function textKeysOf(widgets) {
  const keys = {};
  for (const name of widgets.names) {
    const def = await widgets.definition(name);
    // (a hidden one, windows' cells, has no box: its value comes from clicks and the URL)
    keys[name] = def.controls.filter((c) => c.type === 'text' && !c.hidden && c.key !== 'model')
      .map((c) => ({ key: c.key, fallback: def.defaults[c.key], maxLength: c.maxLength ?? 2000 }));
  }
  return keys;
}

// ---- the pretrained encoder: expected values from the page's own model file ----

export const MODEL_FILE = new URL('../../web/model/encoder.q.bin', import.meta.url);  // what the page loads

// The module and its encoder for MODEL_FILE, in this process: { att, encoder } (encoder.delete() when done).
export async function openEncoder() {
  const { default: createAttention } = await import('../../web/wasm/attention.mjs');
  const att = await createAttention();
  return { att, encoder: await att.loadEncoder(readFileSync(MODEL_FILE)) };
}

// No NaN, Infinity, undefined or [object …] in the text of the page.
export async function assertNoBadText(page) {
  assert.doesNotMatch(await page.locator('body').innerText(), /\bNaN\b|\bInfinity\b|\bundefined\b|\[object /);
}

// Records a trace of the page (cdp: its CDP session) while body() runs: the
// tasks of the renderer's main thread, less the test driver's own, as
// [{ ms: thread time, wallMs }]. Thread time is the CPU the page's thread
// spent (as a throttled browser runs it); wall time also counts the moments
// another process of a shared machine held the CPU.
export async function mainThreadTasks(cdp, body) {
  const events = [];
  const collect = ({ value }) => events.push(...value);
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.start', { categories: 'disabled-by-default-devtools.timeline,devtools.timeline,toplevel', transferMode: 'ReportEvents' });
  try {
    await body();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
  }
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}/${e.tid}`, e.args.name);
  const main = events.filter((e) => threads.get(`${e.pid}/${e.tid}`) === 'CrRendererMain');
  // the test's own tasks: the browser driver's messages to the page (its injected
  // script, its queries), not work of the page
  const driver = main.filter((e) => e.name === 'Receive mojo message'
    && e.args?.chrome_mojo_event_info?.mojo_interface_tag?.startsWith('blink.mojom.DevTools'));
  return main.filter((e) => e.ph === 'X' && e.name === 'RunTask' && !driver.some((d) => d.ts >= e.ts && d.ts <= e.ts + e.dur))
    // (a task of a few microseconds has no thread time in the trace: its wall time, an upper bound, stands in)
    .map((e) => ({ ms: (e.tdur ?? e.dur) / 1000, wallMs: e.dur / 1000 }));
}
