// The two build outputs load where embedders put them: the ES module in a
// page, the classic script from another origin and from file://; each finds
// the modules it loads on first use (the trainers', the encoder's) beside it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { startBrowser, openPage, assertClean, whenReady, withPage, openWithErrors } from './harness.mjs';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
let browser, other;

before(async () => {
  browser = await startBrowser();
  other = await serve({ root: fixtures.replace(/\/$/, '') }); // a second origin (another port)
});
after(async () => {
  await browser?.close();
  other?.server.closeAllConnections();
  other?.server.close();
});

test('the ES module imports in the page and computes', async () => {
  const { page, log } = await openPage(browser, '');
  const estimate = await page.evaluate(async () => {
    const { default: createAttention } = await import('/wasm/attention.mjs');
    const att = await createAttention();
    return {
      estimate: att.kernelRegression({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], weights: [0.1, 0.15, 0.45, 0.3] }).estimate,
      frozen: Object.isFrozen(att), hidden: Object.keys(att).filter((k) => /^(HEAP|_|raw_|asm$|run$)/.test(k)),
    };
  });
  assert.deepEqual(estimate, { estimate: 64.75, frozen: true, hidden: [] });
  assertClean(log, browser.origin);
});

// tests/cpp/training/test_trainer.cpp's golden losses of the default model at steps 1, 10 and 50 (%a)
const GOLDEN = [0x14f55c399606e2 * 2 ** -51, 0x115f0876cd6d7 * 2 ** -47, 0x1023c76586f3a3 * 2 ** -55];
// what the encoder's module says of three bytes that are no model file
const NOT_A_MODEL = /^loadEncoder: model file: /;

test('a trainer in the page gives the same losses, bit for bit, as in Node and natively', async () => {
  const { page, log } = await openPage(browser, '');
  const trained = await page.evaluate(async () => {
    const { default: createAttention } = await import('/wasm/attention.mjs');
    const att = await createAttention();
    const t = await att.createTrainer();
    const losses = Array.from(t.step(50).losses);
    const accuracy = t.evaluate().accuracy;
    t.delete();
    return { losses, accuracy };
  });
  assert.deepEqual([trained.losses[0], trained.losses[9], trained.losses[49]], GOLDEN);
  assert.ok(trained.accuracy > 0.5, String(trained.accuracy));
  assertClean(log, browser.origin);
});

test('the classic script works from another origin with <script src>', async () => {
  const page = await browser.context.newPage();
  const src = new URL('wasm/attention.js', browser.url).href;
  await page.goto(`${other.url}classic.html?src=${encodeURIComponent(src)}`);
  await page.waitForFunction(() => document.getElementById('out').textContent !== 'loading');
  assert.notEqual(new URL(other.url).origin, browser.origin);
  assert.equal(await page.textContent('#out'), '64.75');
  assert.equal(await page.getAttribute('#out', 'data-facade'), 'true');
  // the trainers' and the encoder's modules, from beside attention.js on that origin
  assert.equal(Number(await page.getAttribute('#out', 'data-loss')), GOLDEN[0]);
  assert.match(await page.getAttribute('#out', 'data-encoder'), NOT_A_MODEL);
  await page.close();
});

test('the classic script works from file://', async () => {
  const { page, errors } = await openWithErrors(browser, pathToFileURL(fixtures + 'classic.html').href);
  await page.waitForFunction(() => document.getElementById('out').textContent !== 'loading');
  assert.equal(await page.textContent('#out'), '64.75');
  assert.equal(Number(await page.getAttribute('#out', 'data-loss')), GOLDEN[0]);
  assert.match(await page.getAttribute('#out', 'data-encoder'), NOT_A_MODEL);
  assert.deepEqual(errors, []);
  await page.close();
});

// the requests of a page for the modules loaded on first use
const partsAsked = (log) => log.requests.filter((u) => /\/wasm\/attention-(encoder|training)\.m?js$/.test(u))
  .map((u) => new URL(u).pathname.replace(/.*\//, '')).sort();

test('a widget that neither trains nor encodes downloads neither module; the real model downloads the encoder\'s alone', async () => {
  await withPage(browser, 'embed.html?widget=kv-query', async ({ page, log }) => {
    await whenReady('[data-widget="kv-query"]')(page);
    assert.deepEqual(partsAsked(log), []);
  });
  await withPage(browser, 'embed.html?widget=real-model', async ({ page, log }) => {
    await whenReady('[data-widget="real-model"]', 60000)(page);
    // asked by the encoder's worker (its requests are the page's too)
    assert.deepEqual([...new Set(partsAsked(log))], ['attention-encoder.mjs']);
  });
  await withPage(browser, 'embed.html?widget=learned-width', async ({ page, log }) => {
    await whenReady('[data-widget="learned-width"]')(page);
    assert.deepEqual(partsAsked(log), ['attention-training.mjs']);
  });
});
