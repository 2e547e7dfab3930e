// Browser test of the training widget (web/widgets/training/widget.js): the numbers it
// shows are the core's for the same options and step count (a trainer run in
// this process's own module), one step is one step, reset returns to step 0,
// a link with steps=N retrains to the same numbers, the worker keeps the main
// thread free, the main-thread fallback works and says so, reverse is learned
// (the probe's map is the anti-diagonal), Chinese, 375 px, exports.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { MODEL } from '../../web/widgets/training/engine.js';
import { assertClean, assertShown, eventually, mainThreadTasks, openPage, startBrowser, openWithErrors, withPage } from './harness.mjs';

const WIDGET = '[data-widget="training"]';
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
let browser, att;

before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// The core's numbers after `steps` steps, as the widget asks for them.
async function expected({ task = 'reverse', seed = 1, heads = 1, learningRate = 0.01 } = {}, steps = 0) {
  const trainer = await att.createTrainer({ ...MODEL, task, seed, heads, learningRate });
  try {
    let loss = NaN;
    for (let k = 0; k < steps; k++) loss = trainer.step(1).loss;
    const e = trainer.evaluate();
    const probe = trainer.probe();
    return { loss, heldLoss: e.loss, accuracy: e.accuracy, prediction: Array.from(probe.prediction) };
  } finally {
    trainer.delete();
  }
}

const text = async (page, field) => (await page.locator(`${WIDGET} [data-field="${field}"]`).first().textContent()).replace(/\u00a0/g, ' ').trim();
async function shown(page) {
  return { step: Number((await text(page, 'step')).replace(/,/g, '')), loss: await text(page, 'loss'),
    heldLoss: await text(page, 'heldLoss'), accuracy: await text(page, 'accuracy') };
}
async function ready(page) {
  await page.locator(`${WIDGET}[data-ready="true"]`).waitFor({ timeout: 20000 });
}
// training rests (not running, not replaying) at a step
async function resting(page, step, timeout = 20000) {
  await eventually(async () => {
    const status = page.locator(`${WIDGET} [data-field="status"]`);
    return (await status.getAttribute('data-running')) === 'false' && (await status.getAttribute('data-replaying')) === 'false'
      && (step === undefined || (await shown(page)).step === step);
  }, { timeout, message: `training at rest${step === undefined ? '' : ` at step ${step}`}` });
}
function assertNumbers(view, want, what) {
  if (Number.isNaN(want.loss)) assert.equal(view.loss, '—', `${what}: no batch loss before the first step`);
  else assertShown(view.loss, want.loss, 4, `${what}: batch loss`);
  assertShown(view.heldLoss, want.heldLoss, 4, `${what}: held-out loss`);
  assertShown(view.accuracy.replace('%', ''), 100 * want.accuracy, 1, `${what}: accuracy`);
}
const button = (page, action) => page.locator(`${WIDGET} button[data-action="${action}"]`);

test('step 0, one step, reset: the core\'s numbers each time, and the steps in the URL', () => withPage(browser, 'embed.html?widget=training', async ({ page }) => {
  await ready(page);
  await resting(page, 0);
  assertNumbers(await shown(page), await expected({}, 0), 'step 0');
  await eventually(async () => (await page.locator(`${WIDGET} [data-field="status"]`).getAttribute('data-mode')) === 'worker', { message: 'the worker' });
  assert.equal(await page.locator(`${WIDGET} .tr-note`).isVisible(), false, 'no fallback note with a worker');
  // step 0 came from the worker too: the page itself never loaded the trainers' module
  const pageLoaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.ok(pageLoaded.some((url) => url.endsWith('/wasm/attention.mjs')), 'the page\'s own module');
  assert.deepEqual(pageLoaded.filter((url) => url.includes('attention-training')), [], 'no trainer on the page');

  await button(page, 'step').click();
  await resting(page, 1);
  assertNumbers(await shown(page), await expected({}, 1), 'one step');
  await eventually(async () => new URL(page.url()).searchParams.get('steps') === '1', { message: 'steps=1 in the URL' });
  await button(page, 'step').click();
  await resting(page, 2);
  assertNumbers(await shown(page), await expected({}, 2), 'two steps');

  await button(page, 'reset').click();
  await resting(page, 0);
  assertNumbers(await shown(page), await expected({}, 0), 'after reset');
  await eventually(async () => new URL(page.url()).searchParams.get('steps') === '0', { message: 'steps=0 in the URL' });
}));

test('Train moves the numbers; the link with those steps reproduces them', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=training&task=shift&seed=3&heads=2&lr=0.02');
  await ready(page);
  await resting(page, 0);
  await button(page, 'train').click();
  await eventually(async () => (await shown(page)).step >= 20, { timeout: 20000, message: '20 steps trained' });
  await button(page, 'train').click();  // the same button pauses
  await resting(page);
  const view = await shown(page);
  assert.ok(view.step >= 20);
  const options = { task: 'shift', seed: 3, heads: 2, learningRate: 0.02 };
  assertNumbers(view, await expected(options, view.step), `trained to ${view.step}`);
  await eventually(async () => new URL(page.url()).searchParams.get('steps') === String(view.step), { message: 'the steps in the URL' });
  assert.equal(await page.locator(`${WIDGET} .tr-map[data-head]`).count(), 2, 'one map per head');
  // one worker, and why: the step's time, measured
  assert.equal(await text(page, 'threads'), '1');
  const rate = Number((await text(page, 'stepsRate')).replace(/,/g, ''));
  assert.ok(rate > 0, 'steps per second measured');
  const ms = Number((await text(page, 'threadsWhy')).match(/^One worker: a step of this model takes (\d+\.\d\d) ms/)?.[1]);
  assert.ok(Math.abs(ms - 1000 / rate) <= 0.02 + 0.01 * ms, `the step's time (${ms} ms) is the rate's (${rate} a second)`);

  const again = await openPage(browser, new URL(page.url()).search.replace(/^\?/, 'embed.html?'));
  await ready(again.page);
  await resting(again.page, view.step);
  assert.deepEqual(await shown(again.page), view, 'the same numbers from the link');
  assertClean(log, browser.origin);
  assertClean(again.log, browser.origin);
  await page.close();
  await again.page.close();
});

test('a link\'s replay can be paused: the button says Pause while it replays, and it rests where it stopped, with those steps in the URL', () => withPage(browser, 'embed.html?widget=training&steps=5000', async ({ page }) => {
  await ready(page);
  const status = page.locator(`${WIDGET} [data-field="status"]`);
  await eventually(async () => (await status.getAttribute('data-replaying')) === 'true' && (await shown(page)).step > 0,
    { timeout: 20000, message: 'replaying' });
  assert.equal(await button(page, 'train').textContent(), 'Pause');
  assert.equal(await button(page, 'train').getAttribute('aria-pressed'), 'true');
  await button(page, 'train').click();
  await resting(page);
  const view = await shown(page);
  assert.ok(view.step > 0 && view.step < 5000, `stopped at ${view.step}`);
  assert.equal(await button(page, 'train').textContent(), 'Train');
  await eventually(async () => new URL(page.url()).searchParams.get('steps') === String(view.step), { message: 'the steps in the URL' });
  assertNumbers(view, await expected({}, view.step), `paused at ${view.step}`);
}));

test('reverse is learned: 99% held-out accuracy and the anti-diagonal map, right predictions marked', async () => {
  const { page } = await openPage(browser, 'embed.html?widget=training&steps=150');
  await ready(page);
  await resting(page, 150);
  const view = await shown(page);
  const want = await expected({}, 150);
  assertNumbers(view, want, 'step 150');
  assert.ok(want.accuracy >= 0.99, `the core learns reverse: ${want.accuracy}`);
  assert.ok(Number(view.accuracy.replace('%', '')) >= 99, `shown ${view.accuracy}`);
  assert.equal(await page.locator(`${WIDGET} .tr-map[data-head="0"]`).getAttribute('data-argmax'), '7,6,5,4,3,2,1,0');
  const predicted = (await page.locator(`${WIDGET} [data-field="prediction"]`).allTextContents()).map((s) => Number.parseInt(s, 10));
  assert.deepEqual(predicted, want.prediction);
  const marks = await page.locator(`${WIDGET} [data-field="prediction"].is-right`).count();
  assert.equal(marks, want.prediction.length, 'every position right and marked');
  // the quiz: the anti-diagonal, with its choices drawn
  assert.equal(await page.locator(`${WIDGET} .quiz-option canvas`).count(), 4);
  await page.locator(`${WIDGET} .quiz-option input[value="anti"]`).check();
  await page.locator(`${WIDGET} .quiz-reveal`).click();
  assert.match(await page.locator(`${WIDGET} .quiz-answer`).textContent(), /Right!.*anti-diagonal.*step 150/);
  await page.close();
});

test('the worker keeps the main thread free: no task over 50 ms while training', async () => {
  const { page } = await openPage(browser, 'embed.html?widget=training&speed=20');
  await ready(page);
  await resting(page, 0);
  const cdp = await browser.context.newCDPSession(page);
  await button(page, 'train').click();
  // from a moment after the click (the click's own handling is not training)
  await page.waitForTimeout(200);
  const tasks = await mainThreadTasks(cdp, () => page.waitForTimeout(2000));
  await button(page, 'train').click();
  await resting(page);
  const view = await shown(page);
  assert.ok(view.step >= 100, `trained ${view.step} steps in 2 s`);
  assert.ok(tasks.length > 20, `the trace holds the page's tasks (${tasks.length})`);
  const long = tasks.filter((task) => task.ms > 50);
  assert.deepEqual(long, [], 'no long task on the main thread while training (thread time)');
  await page.close();
});

test('where no worker starts, it trains on the main thread in slices and says so', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    window.Worker = function Worker() { throw new Error('workers are refused here'); };
  });
  await page.goto(new URL('embed.html?widget=training', browser.url).href);
  await ready(page);
  await resting(page, 0);
  await eventually(async () => page.locator(`${WIDGET} .tr-note`).isVisible(), { message: 'the fallback note' });
  assert.match(await page.locator(`${WIDGET} .tr-note`).textContent(), /No Web Worker/);
  assert.equal(await page.locator(`${WIDGET} [data-field="status"]`).getAttribute('data-mode'), 'main');
  await button(page, 'step').click();
  await resting(page, 1);
  assertNumbers(await shown(page), await expected({}, 1), 'one step on the main thread');
  // the slices' own time on the thread (the trace's thread time), not their
  // wall time, which a busy machine stretches
  const cdp = await browser.context.newCDPSession(page);
  await button(page, 'train').click();
  const tasks = await mainThreadTasks(cdp, () => eventually(async () => (await shown(page)).step >= 30,
    { timeout: 20000, message: '30 steps on the main thread' }));
  await button(page, 'train').click();
  await resting(page);
  const view = await shown(page);
  assertNumbers(view, await expected({}, view.step), `main thread, step ${view.step}`);
  assert.ok(tasks.length > 20, `the trace holds the page's tasks (${tasks.length})`);
  const long = tasks.filter((task) => task.ms >= 100).map((task) => task.ms.toFixed(1));
  assert.deepEqual(long, [], 'slices stay short (thread time, ms)');
  await page.close();
});

test('the script-tag embed from file:// falls back to the main thread and says so', async () => {
  const { page, errors } = await openWithErrors(browser, pathToFileURL(fixtures + 'host.html').href + '?mode=script&widget=training&state=' + encodeURIComponent('steps=3'));
  await eventually(async () => (await page.locator(`${WIDGET} [data-field="step"]`).count()) > 0
    && (await text(page, 'step')) === '3', { timeout: 20000, message: 'step 3 in the script embed' });
  assert.ok(await page.locator(`${WIDGET} .tr-note`).isVisible(), 'the fallback note');
  assertNumbers(await shown(page), await expected({}, 3), 'script embed, step 3');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Chinese at 375 px: translated, no horizontal overflow; exports after one step', () => withPage(browser, 'embed.html?widget=training&lang=zh', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
  await ready(page);
  await resting(page, 0);
  assert.match(await page.locator(`${WIDGET} .widget-title`).textContent(), /训练/);
  assert.match(await button(page, 'train').textContent(), /训练/);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'fits 375 px');
  await button(page, 'step').click();
  await resting(page, 1);
  const save = async (kind) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`${WIDGET} [data-export="${kind}"]`).click()]);
    return readFileSync(await file.path());
  };
  const csv = save('csv').then((b) => b.toString('utf8').trim().split('\r\n'));
  const lines = await csv;
  assert.equal(lines[0], 'step,batch loss,held-out loss,held-out accuracy');
  const want0 = await expected({}, 0), want1 = await expected({}, 1);
  const row0 = lines[1].split(','), row1 = lines[2].split(',');
  assert.equal(Number(row0[0]), 0);
  assert.ok(Math.abs(Number(row0[2]) - want0.heldLoss) < 1e-6);
  assert.equal(Number(row1[0]), 1);
  assert.ok(Math.abs(Number(row1[1]) - want1.loss) < 1e-6);
  const json = JSON.parse((await save('json')).toString('utf8'));
  assert.equal(json.step, 1);
  assert.equal(json.parameters.Wq.rows, MODEL.dModel);
  assert.equal(json.parameters.Wq.data.length, MODEL.dModel * MODEL.dModel);
  assert.equal(json.parameters.embedding.rows, MODEL.vocab);
  const svg = (await save('svg')).toString('utf8');
  assert.ok(await page.evaluate((s) => !new DOMParser().parseFromString(s, 'image/svg+xml').querySelector('parsererror'), svg));
  assert.ok((svg.match(/class="heatmap"/g) ?? []).length >= 3, 'the maps in the SVG');
}));
