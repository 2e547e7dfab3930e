// The pretrained encoder off the page's thread: its model file is read, the
// encoder loaded and sentences encoded in a Web Worker (web/encoder-worker.js),
// so that, with the CPU throttled 4x as on a phone, the page's own thread only
// draws, from the moment the model starts loading until its maps are drawn
// and while a typed sentence is encoded and drawn: its longest task is
// printed (the target is 50 ms; see the test) and held under 200 ms. The
// script embed, which has no module worker, loads it on the page instead
// (real-model.test.mjs).
//
// A task's length is its thread time in Chromium's trace (RunTask events of
// the page's main thread, tdur, less the test driver's own): the CPU the
// page's thread spent on it, as the throttled browser runs it. Its wall time (dur, and what the
// long-task observer reports) also counts the moments another process of this
// shared machine held the CPU, so it is printed, not asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, assertClean, eventually, mainThreadTasks, LOAD } from './harness.mjs';

const W = '[data-widget="real-model"]';
let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

test('at 4x CPU throttling, the model loads and a sentence is encoded off the main thread (its longest task printed; target 50 ms)', async () => {
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
    const worst = tasks.reduce((a, b) => (b.ms > a.ms ? b : a));
    const wall = Math.max(...tasks.map((t) => t.wallMs));
    console.log(`${tasks.length} main-thread tasks while loading and encoding at 4x: the longest ${worst.ms.toFixed(1)} ms of thread time (wall: up to ${wall.toFixed(1)} ms)`);
    // The target is 50 ms (measured here: 42-46 ms). How long the page takes
    // to lay out and draw its first maps depends on the machine and on what
    // else it runs, so the test guards what does not: the model's load and the
    // encoding stay off this thread (on it, the load alone is one task of
    // 1.37 s at 4x).
    assert.ok(worst.ms <= 200, `a main-thread task of ${worst.ms.toFixed(1)} ms: the encoder's work is back on the page's thread`);
    assert.ok(log.requests.some((url) => url.endsWith('/encoder-worker.js')), 'the encoder ran in its worker');
    assertClean(log, browser.origin);
  } finally {
    await page.close();
  }
});
