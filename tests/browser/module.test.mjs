// The two build outputs load where embedders put them: the ES module in a
// page, the classic script from another origin and from file://.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { startBrowser, openPage, assertClean } from './harness.mjs';

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

test('a trainer in the page gives the same losses, bit for bit, as in Node and natively', async () => {
  const { page, log } = await openPage(browser, '');
  const trained = await page.evaluate(async () => {
    const { default: createAttention } = await import('/wasm/attention.mjs');
    const att = await createAttention();
    const t = att.createTrainer();
    const losses = Array.from(t.step(50).losses);
    const accuracy = t.evaluate().accuracy;
    t.delete();
    return { losses, accuracy };
  });
  // tests/cpp/test_trainer.cpp's golden losses of the default model at steps 1, 10 and 50 (%a)
  const golden = [0x14f55c399606e2 * 2 ** -51, 0x115f0876cd6d7 * 2 ** -47, 0x1023c76586f3a3 * 2 ** -55];
  assert.deepEqual([trained.losses[0], trained.losses[9], trained.losses[49]], golden);
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
  await page.close();
});

test('the classic script works from file://', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(fixtures + 'classic.html').href);
  await page.waitForFunction(() => document.getElementById('out').textContent !== 'loading');
  assert.equal(await page.textContent('#out'), '64.75');
  assert.deepEqual(errors, []);
  await page.close();
});
