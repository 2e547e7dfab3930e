// Browser test of the score-functions widget: four cards show the core's
// scores, weights and parameters for the same query; the query buttons, the
// seed and the widths change them; concat's map has identical rows; with
// d_q ≠ d_k the dot card shows the core's error message (not an alert); the
// state round-trips through the URL; the embed renders alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, eventually, assertShown, whenReady } from './harness.mjs';

const W = '[data-widget="score-functions"]';
const SCORES = ['dot', 'general', 'concat', 'additive'];
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the widget's computation, in this process
function expected({ sentence = 'i have a dream', dQ = 4, dK = 4, seed = 1 } = {}) {
  const tokens = tokenize(sentence);
  const Q = att.embedTokens({ tokens, d: dQ, seed: 3 }), K = att.embedTokens({ tokens, d: dK, seed: 3 });
  const out = { tokens, n: tokens.length };
  SCORES.forEach((score, k) => {
    try {
      out[score] = att.attention({ query: Q, key: K, value: K, score, scale: 1, params: score === 'dot' ? undefined : { seed: 4 * seed + k } });
    } catch (error) {
      out[score] = { error: error.message };
    }
  });
  return out;
}

const ready = whenReady(W);

const card = (page, score) => page.locator(`${W} .sf-card[data-score="${score}"]`);

// Checks the table of one card (scores and weights of query i) against the core.
async function assertCard(page, want, score, i, what) {
  const r = want[score];
  const c = card(page, score);
  const scores = await c.locator('[data-field="score"]').allTextContents();
  const weights = await c.locator('[data-field="weight"]').allTextContents();
  assert.equal(scores.length, want.n, `${what} ${score}: one row per key`);
  for (let j = 0; j < want.n; j++) {
    assertShown(scores[j], r.scores.data[i * want.n + j], 3, `${what} ${score} score ${j}`);
    assertShown(weights[j], r.weights.data[i * want.n + j], 3, `${what} ${score} weight ${j}`);
  }
}

async function assertNoBadText(page) {
  assert.doesNotMatch(await page.locator(W).innerText(), /\bNaN\b|\bInfinity\b|undefined|\[object /);
}

test('four cards on the full page: the core\'s scores, weights, maps and parameters; concat\'s rows are all equal', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  const want = expected();
  assert.equal(await page.locator(`${W} .sf-card`).count(), 4);
  for (const score of SCORES) await assertCard(page, want, score, 3, 'default');  // query "dream"
  assert.equal(await page.locator(`${W} .sf-word[aria-pressed="true"]`).textContent(), 'dream');
  // each map: every query (rows) × every key, the core's weights
  for (const score of SCORES) {
    const cells = await card(page, score).locator('.heatmap-values text').allTextContents();
    assert.equal(cells.length, 16);
    cells.forEach((text, k) => assertShown(text, want[score].weights.data[k], 2, `${score} map cell ${k}`));
  }
  // concat: every row the same, and the query term is one number for every key
  const concat = want.concat.weights.data;
  for (let i = 1; i < 4; i++) for (let j = 0; j < 4; j++) assert.ok(Math.abs(concat[i * 4 + j] - concat[j]) < 1e-6, 'concat rows equal in the core');
  const rows = await card(page, 'concat').locator('.heatmap-values text').allTextContents();
  for (let i = 1; i < 4; i++) assert.deepEqual(rows.slice(4 * i, 4 * i + 4), rows.slice(0, 4), 'concat rows equal on screen');
  const v = want.concat.params.v;
  const term = att.attention({ query: att.embedTokens({ tokens: want.tokens, d: 4, seed: 3 }), key: [[0, 0, 0, 0]], value: [[0]],
    score: 'concat', scale: 1, params: { v: [...v.slice(0, 4), 0, 0, 0, 0] } }).scores.data[3];
  const termText = await card(page, 'concat').locator('[data-field="queryTerm"]').textContent();
  assertShown(termText.match(/=\s*([−\d.]+)/)[1], term, 3, 'query term');
  // parameters: none for dot, W for general (d_q × d_k), w_q and w_k for concat, W, U, v for additive
  assert.match(await card(page, 'dot').locator('.sf-params').textContent(), /none/);
  const general = await card(page, 'general').locator('.sf-params table tbody td').allTextContents();
  assert.equal(general.length, 16);
  general.forEach((text, k) => assertShown(text, want.general.params.W.data[k], 2, `W ${k}`));
  assert.equal(await card(page, 'concat').locator('.sf-params table').count(), 2);
  assert.equal(await card(page, 'additive').locator('.sf-params table').count(), 3);
  assert.match(await card(page, 'dot').locator('.sf-explain').textContent(), /No learned parameters/);
  assert.match(await card(page, 'concat').locator('.sf-explain').textContent(), /softmax cancels it/);
  assert.match(await page.locator(`${W} .illustrative`).textContent(), /Illustrative/);
  assert.equal(await page.locator(W).getByRole('alert').count(), 0);
  await assertNoBadText(page);
}));

test('the query buttons and the seed slider change the numbers, and the URL', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  await page.locator(`${W} .sf-word`, { hasText: 'have' }).click();
  await eventually(async () => (await page.locator(`${W} .sf-word[aria-pressed="true"]`).textContent()) === 'have');
  let want = expected();
  for (const score of SCORES) await assertCard(page, want, score, 1, 'query have');
  // concat ranks the keys the same for every query: its weights did not move
  const seed = page.getByLabel('Learned parameters (seed)');
  const before = await card(page, 'general').locator('.sf-params tbody td').allTextContents();
  await seed.focus();
  await page.keyboard.press('ArrowRight');
  want = expected({ seed: 2 });
  await eventually(async () => (await card(page, 'general').locator('.sf-params tbody td').first().textContent()) !== before[0], { message: 'new W' });
  for (const score of SCORES) await assertCard(page, want, score, 1, 'seed 2');
  const params = new URL(page.url()).searchParams;
  assert.deepEqual([params.get('score-functions.query'), params.get('score-functions.seed')], ['1', '2']);
  // the URL brings it back
  await page.reload();
  await ready(page);
  assert.equal(await page.locator(`${W} .sf-word[aria-pressed="true"]`).textContent(), 'have');
  assert.equal(await seed.inputValue(), '2');
  for (const score of SCORES) await assertCard(page, want, score, 1, 'reloaded');
}));

test('d_q ≠ d_k: dot shows the core\'s message in its card, the others still score', () => withPage(browser, '?score-functions.dQ=6&score-functions.query=0', async ({ page }) => {
  await ready(page);
  assert.equal(await page.getByLabel('Width dq of the query').inputValue(), '6');
  const want = expected({ dQ: 6 });
  assert.equal(want.dot.error, 'attention: key has 4 columns but query has 6; the dot score needs equal widths');
  const why = card(page, 'dot').locator('[data-field="unavailable"]');
  assert.match(await why.textContent(), /dq = 6 and dk = 4/);
  assert.equal(await why.locator('.sf-core-message').textContent(), want.dot.error);
  assert.equal(await page.locator(W).getByRole('alert').count(), 0, 'not an alert');
  for (const score of ['general', 'concat', 'additive']) await assertCard(page, want, score, 0, 'd_q = 6');
  const W6 = card(page, 'general').locator('.sf-params tbody tr');
  assert.equal(await W6.count(), 6, 'W is (d_q × d_k) = (6 × 4)');
  // back to equal widths: the dot card has numbers again
  const dK = page.getByLabel('Width dk of the keys');
  await dK.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await eventually(async () => (await card(page, 'dot').locator('[data-field="score"]').count()) === 4, { message: 'dot back' });
  await assertCard(page, expected({ dQ: 6, dK: 6 }), 'dot', 0, 'd = 6');
  assert.equal(new URL(page.url()).searchParams.get('score-functions.dK'), '6');
  await assertNoBadText(page);
}));

test('a sentence of its own; empty or too long is a visible message, not NaN', () => withPage(browser, 'embed.html?widget=score-functions', async ({ page }) => {
  await ready(page);
  const box = page.getByLabel('Words (the keys, and the queries to choose from)');
  await box.fill('the cat sat on the mat');
  await eventually(async () => (await page.locator(`${W} .sf-word`).count()) === 6, { message: 'six words' });
  await assertCard(page, expected({ sentence: 'the cat sat on the mat' }), 'general', 3, 'cat sentence');  // query 3 = "on"
  await box.fill('');
  const alert = page.locator(W).getByRole('alert');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.textContent(), /empty/);
  await box.fill('one two three four five six seven eight nine ten eleven');
  await eventually(async () => /11 words/.test(await alert.textContent()), { message: 'too many words' });
  await box.fill('i have a dream');
  await alert.waitFor({ state: 'hidden' });
  await assertNoBadText(page);
}));

test('the embed renders alone, in Chinese, with its state from the URL', () => withPage(browser, 'embed.html?widget=score-functions&query=2&seed=5&dK=3&lang=zh', async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator('[data-widget]').count(), 1);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /评分函数/);
  const want = expected({ seed: 5, dK: 3 });
  for (const score of ['general', 'concat', 'additive']) await assertCard(page, want, score, 2, 'embed');
  assert.match(await card(page, 'dot').locator('[data-field="unavailable"]').textContent(), /长度相同/);
  await assertNoBadText(page);
}));
