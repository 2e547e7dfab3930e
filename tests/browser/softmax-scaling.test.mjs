// Browser test of the softmax-scaling widget: softmax and sigmoid of the typed
// scores with both sums, saturation to exactly [0, 1] without NaN, the q·k
// histograms whose bars are the core's bin counts (variance ≈ d, and ≈ 1 after
// /√d), the entropy with and without scaling, the quiz, bad input as a
// message, the URL state both ways, and the embed alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { startBrowser, withPage, openPage, assertClean, eventually, assertShown, parseShown, whenReady } from './harness.mjs';

const W = '[data-widget="softmax-scaling"]';
const KEYS = Array.from({ length: 12 }, (_, i) => `k${i + 1}`);
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the core's numbers for these scores at this scale
function expectedScores(scores, scale = 1) {
  const x = scores.map((s) => s * scale);
  const softmax = Array.from(att.softmax([x]).data), sigmoid = Array.from(att.sigmoid([x]).data);
  return { x, softmax, sigmoid, softmaxSum: softmax.reduce((a, b) => a + b, 0), sigmoidSum: sigmoid.reduce((a, b) => a + b, 0) };
}

function expectedRandom(d, seed = 1) {
  const samples = att.dotProductSamples({ d, count: 2000, seed });
  const q = att.embedTokens({ tokens: ['q'], d, seed }), K = att.embedTokens({ tokens: KEYS, d, seed });
  const off = att.attention({ query: q, key: K, value: K, score: 'dot', scale: 1 });
  const on = att.attention({ query: q, key: K, value: K, score: 'dot' });
  return {
    samples,
    raw: att.histogram({ values: samples.dots, bins: 25, from: -75, to: 75 }),
    scaled: att.histogram({ values: samples.scaled, bins: 25, from: -3.125, to: 3.125 }),
    dots: off.scores.data, off: off.weights.data, on: on.weights.data,
    entropyOff: att.entropy(off.weights)[0], entropyOn: att.entropy(on.weights)[0],
  };
}

const ready = whenReady(W);

const texts = (page, field) => page.locator(`${W} [data-field="${field}"]`).allTextContents();
const text = (page, field) => page.locator(`${W} [data-field="${field}"]`).textContent();

async function assertScores(page, want, what) {
  await eventually(async () => (await texts(page, 'softmax')).length === want.x.length, { message: `${what}: rows` });
  const [scaled, softmax, sigmoid] = await Promise.all(['scaled', 'softmax', 'sigmoid'].map((f) => texts(page, f)));
  want.x.forEach((x, i) => {
    assertShown(scaled[i], x, 3, `${what}: scaled ${i}`);
    assertShown(softmax[i], want.softmax[i], 3, `${what}: softmax ${i}`);
    assertShown(sigmoid[i], want.sigmoid[i], 3, `${what}: sigmoid ${i}`);
  });
  assertShown(await text(page, 'softmaxSum'), want.softmaxSum, 3, `${what}: softmax sum`);
  assertShown(await text(page, 'sigmoidSum'), want.sigmoidSum, 3, `${what}: sigmoid sum`);
}

// The bars of a histogram are the core's counts: heights proportional to them.
async function assertHistogram(page, field, h, what) {
  const heights = await page.locator(`${W} [data-field="${field}"] svg rect`).evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
  assert.equal(heights.length, 25, `${what}: 25 bars`);
  const counts = Array.from(h.counts), top = Math.max(...counts), tallest = Math.max(...heights);
  counts.forEach((c, k) => assert.ok(Math.abs(heights[k] / tallest - c / top) < 1e-6, `${what}: bar ${k} is ${c} of ${top}`));
}

async function assertRandom(page, d, what) {
  const want = expectedRandom(d);
  await eventually(async () => (await page.locator(`${W} [data-field="raw"] .ss-hist-name`).count()) === 1
    && (await page.locator(`${W} [data-field="scaled"] .ss-hist-name`).textContent()) === `q·k / √${d}`, { message: `${what}: d = ${d}` });
  const stats = async (field) => (await page.locator(`${W} [data-field="${field}"] .ss-stats`).textContent()).match(/variance ([−\d.,]+)/)[1];
  assertShown(await stats('raw'), want.samples.variance, 2, `${what}: variance of q·k`);
  assertShown(await stats('scaled'), want.samples.scaledVariance, 2, `${what}: variance of q·k/√d`);
  assert.ok(Math.abs(want.samples.variance / d - 1) < 0.15, 'the variance is about d');
  assert.ok(Math.abs(want.samples.scaledVariance - 1) < 0.15, 'scaled, about 1');
  await assertHistogram(page, 'raw', want.raw, `${what} raw`);
  await assertHistogram(page, 'scaled', want.scaled, `${what} scaled`);
  const [dots, off, on] = await Promise.all(['dot', 'off', 'on'].map((f) => texts(page, f)));
  KEYS.forEach((_, j) => {
    assertShown(dots[j], want.dots[j], 2, `${what}: q·k ${j}`);
    assertShown(off[j], want.off[j], 3, `${what}: unscaled weight ${j}`);
    assertShown(on[j], want.on[j], 3, `${what}: scaled weight ${j}`);
  });
  assertShown(await text(page, 'entropyOff'), want.entropyOff, 3, `${what}: entropy unscaled`);
  assertShown(await text(page, 'entropyOn'), want.entropyOn, 3, `${what}: entropy scaled`);
  return want;
}

test('default: softmax sums to 1, sigmoid does not; histograms and entropies are the core\'s', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  const want = expectedScores([1, 2, 3]);
  await assertScores(page, want, '1, 2, 3');
  assert.equal(await text(page, 'softmaxSum'), '1.000');
  assert.equal(await text(page, 'sigmoidSum'), '2.564');
  assert.match(await text(page, 'saturation'), /still spread/);
  await assertRandom(page, 64, 'd = 64');
  assert.equal(await page.locator(W).getByRole('alert').count(), 0);
}));

test('saturation: 1000, 10000 gives exactly [0, 1], no NaN; ×1000 saturates 1, 2, 3', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  await page.locator(`${W} .preset`, { hasText: '1000, 10000' }).click();
  await eventually(async () => (await texts(page, 'softmax')).length === 2, { message: 'two scores' });
  assert.deepEqual(Array.from(att.softmax([[1000, 10000]]).data), [0, 1]);
  assert.deepEqual(await texts(page, 'softmax'), ['0.000', '1.000']);
  assert.deepEqual(await texts(page, 'sigmoid'), ['1.000', '1.000']);
  assert.equal(await text(page, 'softmaxSum'), '1.000');
  assert.equal(await text(page, 'sigmoidSum'), '2.000');
  assert.match(await text(page, 'saturation'), /saturated/);
  await page.locator(`${W} .preset`, { hasText: '1, 2, 3' }).click();
  await page.getByRole('radio', { name: '×1000' }).check();
  await assertScores(page, expectedScores([1, 2, 3], 1000), '1, 2, 3 × 1000');
  assert.deepEqual(await texts(page, 'softmax'), ['0.000', '0.000', '1.000']);
  assert.equal(new URL(page.url()).searchParams.get('softmax-scaling.scale'), '1000');
  await page.getByRole('radio', { name: '×0.1' }).check();
  await assertScores(page, expectedScores([1, 2, 3], 0.1), '× 0.1');
  assert.doesNotMatch(await page.locator(W).innerText(), /\bNaN\b|\bInfinity\b|undefined/);
}));

test('d = 512 from the URL: variance about 512, unscaled entropy near 0, scaled higher; the select updates the URL', () => withPage(browser, '?softmax-scaling.d=512&softmax-scaling.seed=4', async ({ page }) => {
  await ready(page);
  const select = page.getByLabel('Width d of q and k (panels 3 and 4)');
  assert.equal(await select.inputValue(), '512');
  const want = expectedRandom(512, 4);
  const entropyOff = parseShown(await text(page, 'entropyOff')), entropyOn = parseShown(await text(page, 'entropyOn'));
  assertShown(await text(page, 'entropyOff'), want.entropyOff, 3, 'entropy unscaled');
  assert.ok(entropyOff < 0.1, `one key takes all: ${entropyOff}`);
  assert.ok(entropyOn > entropyOff + 1, `scaled is spread: ${entropyOn}`);
  const variance = (await page.locator(`${W} [data-field="raw"] .ss-stats`).textContent()).match(/variance ([−\d.,]+)/)[1];
  assertShown(variance, want.samples.variance, 2, 'variance at d = 512');
  await select.selectOption('4');
  await page.getByLabel('Random vectors (seed)').focus();
  await page.keyboard.press('Home');  // seed 0
  await eventually(async () => new URL(page.url()).searchParams.get('softmax-scaling.seed') === '0');
  assert.equal(new URL(page.url()).searchParams.get('softmax-scaling.d'), '4');
  const back = expectedRandom(4, 0);
  await eventually(async () => (await page.locator(`${W} [data-field="scaled"] .ss-hist-name`).textContent()) === 'q·k / √4');
  await assertHistogram(page, 'raw', back.raw, 'd = 4 raw');
  assertShown(await text(page, 'entropyOn'), back.entropyOn, 3, 'entropy scaled at d = 4');
}));

test('predict, then reveal: the answer comes from the core', () => withPage(browser, 'embed.html?widget=softmax-scaling', async ({ page }) => {
  await ready(page);
  const want = expectedRandom(512, 1);
  const top = Math.max(...want.off);
  const right = top >= 0.85 ? 'nearly all of it' : top >= 0.3 ? 'about half' : 'about 1/12, an even share';
  await page.getByRole('radio', { name: right }).check();
  await page.getByRole('button', { name: 'Reveal' }).click();
  const answer = page.locator(`${W} .quiz-answer`);
  await answer.waitFor({ state: 'visible' });
  assert.match(await answer.textContent(), /Right!/);
  assert.ok((await answer.textContent()).includes(top > 0.9995 ? '1.000' : top.toFixed(3)));
}));

test('bad scores are a visible message; the embed renders alone in Chinese with its state', async () => {
  await withPage(browser, 'embed.html?widget=softmax-scaling&scores=1%2C%20abc', async ({ page }) => {
    await ready(page);
    const alert = page.locator(W).getByRole('alert');
    await alert.waitFor({ state: 'visible' });
    assert.match(await alert.textContent(), /Entry 2 of the scores, “abc”, is not a number/);
    const box = page.getByLabel('Scores (numbers separated by commas)');
    await box.fill(Array.from({ length: 13 }, (_, i) => i).join(', '));
    await eventually(async () => /13 scores/.test(await alert.textContent()), { message: 'too many' });
    await box.fill('1, 1e7');
    await eventually(async () => /too large/.test(await alert.textContent()), { message: 'too large' });
    await box.fill('');
    await eventually(async () => /empty/.test(await alert.textContent()), { message: 'empty' });
    await box.fill('14, 12');
    await alert.waitFor({ state: 'hidden' });
    await assertScores(page, expectedScores([14, 12]), '14, 12');
    assert.equal((await texts(page, 'softmax')).join(' '), '0.881 0.119');
    assert.doesNotMatch(await page.locator(W).innerText(), /\bNaN\b|\bInfinity\b|undefined/);
  });

  const zh = await openPage(browser, 'embed.html?widget=softmax-scaling&lang=zh&scores=1000%2C%2010000&d=16');
  await ready(zh.page);
  assert.equal(await zh.page.locator('[data-widget]').count(), 1);
  assert.match(await zh.page.locator(`${W} .widget-title`).textContent(), /缩放/);
  assert.deepEqual(await texts(zh.page, 'softmax'), ['0.000', '1.000']);
  assert.match(await text(zh.page, 'saturation'), /饱和/);
  const want = expectedRandom(16);
  assertShown(await text(zh.page, 'entropyOn'), want.entropyOn, 3, 'zh entropy');
  assertClean(zh.log, browser.origin);
  await zh.page.close();
});
