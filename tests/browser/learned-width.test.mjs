// Browser test of the learned-width widget (web/widgets/learned-width/widget.js): the
// width w, its σ, the loss and the pooled weights are the core's for the same
// options and step count (a width trainer in this process's own module);
// Train moves them and w grows, the steps land in the URL and a link
// reproduces them, reset returns to step 0, and the widget is clean.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { assertClean, assertShown, eventually, openPage, startBrowser, withPage } from './harness.mjs';

const WIDGET = '[data-widget="learned-width"]';
let browser, att;

before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

async function expected({ seed = 1, noise = 2, learningRate = 0.01 } = {}, steps = 0) {
  const trainer = await att.createWidthTrainer({ seed, noise, learningRate });
  try {
    if (steps > 0) trainer.step(steps);
    const e = trainer.evaluate();
    const pooled = trainer.weights({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], queries: [172] });
    return { width: e.width, loss: e.trainingLoss, weights: Array.from(pooled.weights.data) };
  } finally {
    trainer.delete();
  }
}

const plain = (s) => s.replace(/\u00a0/g, ' ').trim();
async function shown(page) {
  const field = async (name) => plain(await page.locator(`${WIDGET} [data-field="${name}"]`).first().textContent());
  return {
    step: Number((await field('step')).replace(/,/g, '')), width: await field('width'), sigma: await field('sigma'), loss: await field('loss'),
    weights: (await page.locator(`${WIDGET} [data-field="weight"]`).allTextContents()).map(plain),
  };
}
function assertNumbers(view, want, what) {
  assertShown(view.width, want.width, 4, `${what}: w`);
  assertShown(view.sigma.split(' ')[0], 1 / want.width, 2, `${what}: σ`);  // "3.84 cm", "3.84 厘米"
  assertShown(view.loss, want.loss, 3, `${what}: loss`);
  want.weights.forEach((w, i) => assertShown(view.weights[i], w, 3, `${what}: weight ${i}`));
}
const ready = (page) => page.locator(`${WIDGET}[data-ready="true"]`).waitFor({ timeout: 20000 });

test('step 0, Train, pause: the core\'s numbers; w grows and the weights sharpen; the link reproduces them', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=learned-width');
  await ready(page);
  const start = await shown(page);
  assert.equal(start.step, 0);
  assertNumbers(start, await expected({}, 0), 'step 0');

  await page.locator(`${WIDGET} button[data-action="train"]`).click();
  await eventually(async () => (await shown(page)).step >= 60, { timeout: 20000, message: '60 steps' });
  await page.locator(`${WIDGET} button[data-action="train"]`).click();
  await eventually(async () => new URL(page.url()).searchParams.get('steps') !== null && Number(new URL(page.url()).searchParams.get('steps')) >= 60,
    { message: 'the steps in the URL' });
  const steps = Number(new URL(page.url()).searchParams.get('steps'));
  await eventually(async () => (await shown(page)).step === steps, { message: 'the view at the URL\'s step' });
  const trained = await shown(page);
  const want = await expected({}, steps);
  assertNumbers(trained, want, `step ${steps}`);
  assert.ok(want.width > (await expected({}, 0)).width, 'w grows from its wide start');
  assert.ok(Math.max(...want.weights) > Math.max(...(await expected({}, 0)).weights), 'the weights sharpen');

  const again = await openPage(browser, `embed.html?widget=learned-width&steps=${steps}`);
  await ready(again.page);
  assert.deepEqual(await shown(again.page), trained, 'the same numbers from the link');

  await page.locator(`${WIDGET} button[data-action="reset"]`).click();
  await eventually(async () => (await shown(page)).step === 0, { message: 'reset' });
  assertNumbers(await shown(page), await expected({}, 0), 'after reset');
  assertClean(log, browser.origin);
  assertClean(again.log, browser.origin);
  await page.close();
  await again.page.close();
});

test('other options from the URL, in Chinese at 375 px', () => withPage(browser, 'embed.html?widget=learned-width&seed=4&noise=5&lr=0.02&steps=40&lang=zh', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
  await ready(page);
  const view = await shown(page);
  assert.equal(view.step, 40);
  assertNumbers(view, await expected({ seed: 4, noise: 5, learningRate: 0.02 }, 40), 'seed 4, step 40');
  assert.match(await page.locator(`${WIDGET} .widget-title`).textContent(), /核宽度/);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'fits 375 px');
}));
