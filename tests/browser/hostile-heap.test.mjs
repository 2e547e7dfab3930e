// Browser test of the page's memory: 10,000 slider moves and 1,000 model
// encodes leave the WASM heap (the module's debug.memoryStats), the JS heap (after
// a forced GC) and the DOM (its live nodes and listeners) flat.
//   node --test tests/browser/hostile-heap.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, openInstrumented, ready, startBrowser, widget } from './harness.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });
const open = (path, options) => openInstrumented(browser, path, options);

// ---- 4, 5. the heaps stay flat ----------------------------------------------

// The WASM heap (the module's debug.memoryStats: its memory's size, and the bytes
// malloc holds) and the JS heap after a full garbage collection (V8's used
// size; the DOM's, Oilpan's, beside it: the smallest of a few readings, 100 ms
// apart, each after its own collection), and the DOM's live nodes and event
// listeners (CDP Memory.getDOMCounters).
async function heaps(page, cdp) {
  const wasm = await page.evaluate(async () => {
    const { loadAttention } = await import(new URL('runtime/compute.js', document.baseURI).href);
    return (await loadAttention()).debug.memoryStats();
  });
  let js = Infinity, dom = Infinity;
  for (let reading = 0; reading < 4; reading++) {
    for (let k = 0; k < 3; k++) await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize, embedderHeapUsedSize } = await cdp.send('Runtime.getHeapUsage');
    js = Math.min(js, usedSize);
    dom = Math.min(dom, embedderHeapUsedSize);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const counters = await cdp.send('Memory.getDOMCounters');
  return { ...wasm, js, dom, nodes: counters.nodes, listeners: counters.jsEventListeners };
}

const MB = 1024 * 1024;
function assertFlat(before, now, what) {
  const shown = (h) => `malloc ${h.allocatedBytes} B, WASM memory ${h.heapBytes} B, JS ${(h.js / MB).toFixed(2)} MB, DOM ${(h.dom / MB).toFixed(2)} MB`;
  console.log(`${what}: before ${shown(before)}; after ${shown(now)}`);
  console.log(`${what}: nodes ${before.nodes} -> ${now.nodes}, listeners ${before.listeners} -> ${now.listeners}`);
  assert.equal(now.allocatedBytes, before.allocatedBytes, `${what}: the bytes malloc holds`);
  assert.equal(now.heapBytes, before.heapBytes, `${what}: the WASM memory did not grow`);
  assert.ok(now.js - before.js < MB, `${what}: the JS heap grew by ${((now.js - before.js) / MB).toFixed(2)} MB`);
  // the DOM: its live nodes and listeners, counted (a leak of elements grows
  // them with every move or encode; a few nodes more is where a render left
  // the widget), and its bytes as a backstop: Oilpan's reading after a
  // collection varies by up to 1.5 MB from run to run with the same nodes
  assert.ok(now.nodes - before.nodes <= 16, `${what}: ${now.nodes - before.nodes} DOM nodes more`);
  assert.equal(now.listeners, before.listeners, `${what}: the event listeners`);
  assert.ok(now.dom - before.dom < 4 * MB, `${what}: the DOM heap grew by ${((now.dom - before.dom) / MB).toFixed(2)} MB`);
}

// Counts the page's calls to one function of the module in window.__calls:
// the module's object is frozen, so a wrapper module in front of the real one
// (fetched as attention.mjs?counted) hands the widgets a copy with that
// function counted. Installed before the page loads.
async function countCalls(page, name) {
  const key = JSON.stringify(name);
  await page.route('**/wasm/attention.mjs', (route) => route.fulfill({
    contentType: 'text/javascript',
    body: `import create from './attention.mjs?counted';
export default async function createAttention(options) {
  const att = await create(options), f = att[${key}];
  globalThis.__calls = 0;  // also in a worker's copy (the encoder's), which counts apart
  return Object.freeze(Object.assign({}, att, { [${key}]: function counted(...args) { globalThis.__calls++; return f.apply(this, args); } }));
}`,
  }));
}

// In the page: `moves` input events on the slider, end to end and back one
// step at a time, in chunks: every event runs the widget's compute (the
// runtime drops a stale result only after computing it), the last of each
// chunk is also drawn; a frame every 10 chunks. Returns the module calls made.
async function moveSlider(slider, { moves, chunk }) {
  const root = slider.closest('[data-widget]');
  const min = Number(slider.min), step = Number(slider.step), n = Math.round((Number(slider.max) - min) / step);
  let i = Math.round((Number(slider.value) - min) / step), direction = 1;
  const calls = window.__calls;
  for (let m = 0; m < moves; m++) {
    if (i + direction < 0 || i + direction > n) direction = -direction;
    i += direction;
    slider.value = String(min + i * step);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    if (m % chunk === chunk - 1 || m === moves - 1) await window.__page.idle(root);
    if (m % (10 * chunk) === 10 * chunk - 1) await new Promise(requestAnimationFrame);
  }
  return window.__calls - calls;
}

test('10,000 moves of a slider that calls the core on every move leave the WASM and JS heaps flat; the URL keeps up', async () => {
  const { page, log } = await open('embed.html?widget=kv-query', {
    record: false,
    // counts the page's writes into its address
    route: async (p) => {
      await p.addInitScript(() => {
        const replace = history.replaceState;
        window.__writes = 0;
        history.replaceState = function counted(...args) { window.__writes++; return replace.apply(this, args); };
      });
      await countCalls(p, 'kernelRegression');
    },
  });
  const cdp = await page.context().newCDPSession(page);
  const root = widget(page, 'kv-query', '');
  await ready(root);
  // three kernel regressions per move: the estimate, the curve, the quiz's
  const slider = root.locator('input[name="q"]');
  assert.equal(await slider.evaluate(moveSlider, { moves: 1000, chunk: 20 }), 3000, 'warm-up: the core on every move');
  const before = await heaps(page, cdp);
  const writes = await page.evaluate(() => window.__writes);
  const start = Date.now();
  assert.equal(await slider.evaluate(moveSlider, { moves: 10000, chunk: 20 }), 30000, 'the core on every move');
  const seconds = (Date.now() - start) / 1000;
  const now = await heaps(page, cdp);
  console.log(`10,000 moves (500 drawn) in ${seconds.toFixed(1)} s`);
  const q = await slider.inputValue();
  assert.equal(await root.locator('output[for^="control-q"]').textContent(), `${Number(q).toFixed(1)}\u00a0cm`, 'the last move is drawn');
  assertFlat(before, now, '10,000 slider moves');
  // Chromium ignores history writes beyond 200 in 10 s: the page stays well below, and its URL ends on the last state
  await page.waitForFunction((value) => new URLSearchParams(location.search).get('q') === value, q, { timeout: 1000 });
  const written = await page.evaluate(() => window.__writes) - writes;
  assert.ok(written <= 20 + 10 * (seconds + 1), `${written} URL writes in ${seconds.toFixed(1)} s`);
  assertClean(log, browser.origin);
  await page.close();
});

// In the page: `count` different sentences (none from the widget's cache) typed
// into the first box of the sentence-similarity widget (the encoder it shares
// with real-model); each is encoded, the last of each chunk drawn.
// Returns the computes that got past the encoder (each then scores the
// similarities with one call of att.dotProducts).
async function typeMany(root, { count, chunk, from }) {
  const box = root.querySelector('.controls input[type="text"]');
  const calls = window.__calls;
  for (let k = from; k < from + count; k++) {
    box.value = `My father told me his car ${k} was broken.`;
    box.dispatchEvent(new Event('input', { bubbles: true }));
    if ((k - from) % chunk === chunk - 1) await window.__page.idle(root);
  }
  await window.__page.idle(root);
  return window.__calls - calls;
}

test('1,000 sentences typed into the sentence-similarity widget, each encoded, leave the WASM and JS heaps flat', async () => {
  const { page, log } = await open('embed.html?widget=sentence-similarity', { record: false, route: (p) => countCalls(p, 'dotProducts') });
  const cdp = await page.context().newCDPSession(page);
  const root = widget(page, 'sentence-similarity', '');
  await ready(root);
  assert.equal(await root.evaluate(typeMany, { count: 100, chunk: 10, from: 0 }), 100, 'warm-up: every sentence encoded');
  const before = await heaps(page, cdp);
  const start = Date.now();
  assert.equal(await root.evaluate(typeMany, { count: 1000, chunk: 10, from: 100 }), 1000, 'every sentence encoded');
  console.log(`1,000 encodes (100 drawn) in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  const now = await heaps(page, cdp);
  assert.equal(await root.locator('.controls input[type="text"]').first().inputValue(), 'My father told me his car 1099 was broken.');
  const shown = await root.locator('.sim-pair-value').allTextContents();
  assert.equal(shown.length, 3, 'the last sentence is drawn: its pairs');
  for (const text of shown) assert.match(text, /^−?\d\.\d\d$/, 'a similarity');
  assertFlat(before, now, '1,000 encodes');
  assertClean(log, browser.origin);
  await page.close();
});
