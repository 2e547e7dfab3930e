// The pretrained encoder off the page's thread: its model file is read, the
// encoder loaded and sentences encoded in a Web Worker (web/encoder/encoder-worker.js),
// so that, with the CPU throttled 4x as on a phone, the page's own thread only
// draws, from the moment the model starts loading until its maps are drawn
// and while a typed sentence of 28 words is encoded and drawn (its map a row
// or two per frame): its longest task is at most 50 ms, and in every run the
// encoder loads in its worker (the loader's data-where; on the page the load
// alone is one task of 1.37 s at 4x). The script embed from file://, which
// can start no worker, loads it on the page instead (real-model.test.mjs).
//
// A task's length is its thread time in Chromium's trace (RunTask events of
// the page's main thread, tdur, less the test driver's own): the CPU the
// page's thread spent on it, as the throttled browser runs it. Its wall time (dur, and what the
// long-task observer reports) also counts the moments another process of this
// shared machine held the CPU, so it is printed, not asserted. Thread time
// too grows when the machine is busy: another browser beside the page on a
// 2-core machine doubles it, so scripts/test.sh runs this file alone, after
// the other browser files (its name is outside node's test patterns: node
// --test tests/browser/ skips it); and in some phases of this shared host
// the same frames take twice their usual thread time in every run for
// minutes. As the page's timings do (web/runtime/timing.js), the test keeps the least
// disturbed of three runs: other work only ever adds time.
// "As on a phone" is a speed, not a factor: the throttling emulates a CPU 4x
// slower than the machine these bounds were set on. Before each run the page
// times a fixed piece of work (a loop and a grid laid out, the least of 7
// tries): 45 ms there; on a machine that takes twice as long the rate is 2,
// not 4 (a CI machine took 2.6x the thread time on every task of this test at
// a rate of 4, and failed). The rate stays between 1 and 8.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, openEncoder, assertClean, eventually, mainThreadTasks, LOAD } from './harness.mjs';

const W = '[data-widget="real-model"]';
const LONG = 'My father told me that his old car was broken again, so we walked to the station in the rain and waited there for the last train home.';
let browser, longWords;

// a fixed piece of the page thread's work: a loop and a 40-column grid of 1,600 cells laid out (ms)
function calibrationWork() {
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:-10000px;top:0;display:grid;grid-template-columns:repeat(40,12px)';
  document.body.append(host);
  const start = performance.now();
  let x = 1;
  for (let i = 0; i < 3e6; i++) x = (x * 48271) % 2147483647;
  for (let i = 0; i < 1600; i++) {
    const cell = document.createElement('div');
    cell.textContent = (x % (i + 7)).toString(36);
    host.append(cell);
  }
  const height = host.offsetHeight;  // the layout
  const ms = performance.now() - start;
  host.remove();
  return height > 0 ? ms : NaN;
}
const REFERENCE_MS = 45;  // calibrationWork on the machine where 4x and 50 ms were set (41-46 ms measured)
async function throttlingRate(page) {
  const times = [];
  for (let i = 0; i < 7; i++) times.push(await page.evaluate(calibrationWork));
  const ms = Math.min(...times);
  assert.ok(Number.isFinite(ms), 'the calibration grid was laid out');
  return { ms, rate: Math.min(8, Math.max(1, 4 * REFERENCE_MS / ms)) };
}
before(async () => {
  browser = await startBrowser();
  const { encoder } = await openEncoder();
  longWords = encoder.encode(LONG).words.length;
  encoder.delete();
});
after(async () => { await browser?.close(); });

// One watch: the model's load from the network, its first maps, and a typed
// sentence encoded and drawn, at the phone's speed (4x on the reference machine).
// Returns its main-thread tasks.
async function watchOnce() {
  const { page, log } = await openPage(browser, 'embed.html?widget=kv-query');
  try {
    const cdp = await browser.context.newCDPSession(page);
    // the model's file from the network (no cached copy), so the whole load is watched
    await page.evaluate(() => caches.delete('attention-wasm-model-v1'));
    const { ms, rate } = await throttlingRate(page);
    console.log(`calibration: ${ms.toFixed(1)} ms (${REFERENCE_MS} ms on the reference machine): throttling at ${rate.toFixed(2)}x`);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(new URL('embed.html?widget=real-model', browser.url).href);
    // the watch starts once the loader has left "waiting": the page's own module is compiled by then
    const loader = page.locator(`${W} .model-loader`);
    await eventually(async () => ['fetching', 'preparing'].includes(await loader.getAttribute('data-phase')),
      { timeout: LOAD, interval: 2, message: 'the model starts loading' });

    const tasks = await mainThreadTasks(cdp, async () => {
      await page.locator(`${W}[data-ready="true"] .rm-map .heatmap-cell`).first().waitFor({ timeout: LOAD });
      await eventually(async () => (await page.locator(W).getAttribute('aria-busy')) !== 'true', { timeout: LOAD });
      assert.equal(await loader.getAttribute('data-phase'), 'ready');
      // a new sentence: encoded in the worker, drawn when it answers (28 words:
      // drawn at once, its map alone was a frame of 60-80 ms here)
      await page.locator(`${W} .controls input[type="text"]`).first().fill(LONG);
      await eventually(async () => (await page.locator(`${W} .rm-map .heatmap-row`).allTextContents()).includes('father'),
        { timeout: LOAD, message: 'the new sentence drawn' });
      await eventually(async () => (await page.locator(`${W} .rm-map .heatmap-row`).count()) === longWords,
        { timeout: LOAD, message: `each of its ${longWords} words a row` });
      await eventually(async () => (await page.locator(W).getAttribute('aria-busy')) !== 'true', { timeout: LOAD });
      await page.waitForTimeout(300);
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    assert.ok(tasks.length > 20, `the trace holds the page's tasks (${tasks.length})`);
    assert.ok(log.requests.some((url) => url.endsWith('/encoder-worker.js')), 'the encoder\'s worker was asked for');
    assert.equal(await loader.getAttribute('data-where'), 'worker', 'the encoder loaded in its worker, not on the page');
    assertClean(log, browser.origin);
    return tasks;
  } finally {
    await page.close();
  }
}

test('at a phone\'s speed (4x throttling on the reference machine), the model loads and a sentence is encoded off the main thread: no task over 50 ms (the least disturbed of 3 runs)', async () => {
  const worst = [];
  for (let run = 0; run < 3; run++) {
    const tasks = await watchOnce();
    const longest = Math.max(...tasks.map((t) => t.ms)), wall = Math.max(...tasks.map((t) => t.wallMs));
    console.log(`run ${run + 1}: ${tasks.length} main-thread tasks while loading and encoding: the longest ` +
                `${longest.toFixed(1)} ms of thread time (wall: up to ${wall.toFixed(1)} ms)`);
    worst.push(longest);
  }
  // What is left on the page's thread is drawing: a frame for each part of
  // the big map, the small maps' picture, the typed sentence's input events.
  // Those tasks take 15-30 ms here when the machine is quiet.
  const least = Math.min(...worst);
  assert.ok(least <= 50, `the longest main-thread task is ${least.toFixed(1)} ms in the least disturbed of 3 runs (${worst.map((w) => w.toFixed(1)).join(', ')})`);
});
