// The pretrained encoder off the page's thread: its model file is read, the
// encoder loaded and sentences encoded in a Web Worker (web/encoder-worker.js),
// so that, with the CPU throttled 4x as on a phone, the page's own thread only
// draws, from the moment the model starts loading until its maps are drawn
// and while a typed sentence is encoded and drawn: its longest task is at
// most 50 ms in the median of three runs, and under 200 ms in each. The
// script embed, which has no module worker, loads it on the page instead
// (real-model.test.mjs).
//
// A task's length is its thread time in Chromium's trace (RunTask events of
// the page's main thread, tdur, less the test driver's own): the CPU the
// page's thread spent on it, as the throttled browser runs it. Its wall time (dur, and what the
// long-task observer reports) also counts the moments another process of this
// shared machine held the CPU, so it is printed, not asserted. Thread time
// too grows when another browser runs beside the page on a 2-core machine, so
// scripts/test.sh runs this file alone, after the other browser files (its
// name is outside node's test patterns: node --test tests/browser/ skips it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, assertClean, eventually, mainThreadTasks, LOAD } from './harness.mjs';

const W = '[data-widget="real-model"]';
let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

// One watch: the model's load from the network, its first maps, and a typed
// sentence encoded and drawn, at 4x. Returns its main-thread tasks.
async function watchOnce() {
  const { page, log } = await openPage(browser, 'embed.html?widget=kv-query');
  try {
    const cdp = await browser.context.newCDPSession(page);
    // the model's file from the network (no cached copy), so the whole load is watched
    await page.evaluate(() => caches.delete('attention-wasm-model-v1'));
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(new URL('embed.html?widget=real-model', browser.url).href);
    // the watch starts once the loader has left "waiting": the page's own module is compiled by then
    const loader = page.locator(`${W} .model-loader`);
    await eventually(async () => ['fetching', 'preparing'].includes(await loader.getAttribute('data-phase')),
      { timeout: LOAD, interval: 2, message: 'the model starts loading' });

    const tasks = await mainThreadTasks(cdp, async () => {
      await page.locator(`${W}[data-ready="true"] .rm-map .heatmap-cell`).first().waitFor({ timeout: LOAD });
      await eventually(async () => (await page.locator(W).getAttribute('aria-busy')) !== 'true', { timeout: LOAD });
      assert.equal(await loader.getAttribute('data-phase'), 'ready');
      // a new sentence: encoded in the worker, drawn when it answers
      await page.locator(`${W} .controls input[type="text"]`).first().fill('My father told me his car was broken.');
      await eventually(async () => (await page.locator(`${W} .rm-map .heatmap-row`).allTextContents()).includes('father'),
        { timeout: LOAD, message: 'the new sentence drawn' });
      await eventually(async () => (await page.locator(W).getAttribute('aria-busy')) !== 'true', { timeout: LOAD });
      await page.waitForTimeout(300);
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    assert.ok(tasks.length > 20, `the trace holds the page's tasks (${tasks.length})`);
    assert.ok(log.requests.some((url) => url.endsWith('/encoder-worker.js')), 'the encoder ran in its worker');
    assertClean(log, browser.origin);
    return tasks;
  } finally {
    await page.close();
  }
}

test('at 4x CPU throttling, the model loads and a sentence is encoded off the main thread: no task over 50 ms (median of 3 runs)', async () => {
  const worst = [];
  for (let run = 0; run < 3; run++) {
    const tasks = await watchOnce();
    const longest = Math.max(...tasks.map((t) => t.ms)), wall = Math.max(...tasks.map((t) => t.wallMs));
    console.log(`run ${run + 1}: ${tasks.length} main-thread tasks while loading and encoding at 4x: the longest ` +
                `${longest.toFixed(1)} ms of thread time (wall: up to ${wall.toFixed(1)} ms)`);
    // on the page's thread, the load alone is one task of 1.37 s at 4x
    assert.ok(longest <= 200, `a main-thread task of ${longest.toFixed(1)} ms: the encoder's work is back on the page's thread`);
    worst.push(longest);
  }
  // What is left on the page's thread is drawing: the frame that lays out the
  // big map, the map built after the worker answers, the typed sentence's
  // input events. Those tasks take 15-30 ms here; one run's longest depends on
  // what else this shared machine runs in that moment (one run in ten alone
  // had a frame of 70 ms whose work took 25 ms in the others), so the target
  // holds for the median.
  const median = worst.slice().sort((a, b) => a - b)[1];
  assert.ok(median <= 50, `the longest main-thread task is ${median.toFixed(1)} ms in the median of 3 runs (${worst.map((w) => w.toFixed(1)).join(', ')})`);
});
