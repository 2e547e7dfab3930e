// Browser test of the attention-map widget: the map shows the core's weights,
// a focused cell explains its weight, arrow keys move over the cells, the
// views and presets work, the URL keeps the view, and bad input is a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, eventually, assertShown, assertSentenceAlerts, OVERLONG, whenReady } from './harness.mjs';

const W = '[data-widget="attention-map"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the widget's computation, in this process
function expected(sentence, { dK = 16, seed = 1 } = {}) {
  const tokens = tokenize(sentence);
  const X = att.embedTokens({ tokens, d: 32, seed });
  return { tokens, ...att.selfAttention({ input: X, dK, seed }) };
}

const ready = whenReady(W);

test('"i have a dream": a 4 x 4 map of the core\'s weights; each focused cell explains its weight', () => withPage(browser, 'embed.html?widget=attention-map', async ({ page }) => {
  await ready(page);
  const want = expected('i have a dream');
  const cells = page.locator(`${W} .heatmap-cell`);
  assert.equal(await cells.count(), 16);
  const texts = await page.locator(`${W} .heatmap-values text`).allTextContents();
  assert.equal(texts.length, 16, 'a number in every cell');
  for (let k = 0; k < 16; k++) assertShown(texts[k], want.weights.data[k], 2, `cell ${k}`);
  for (let i = 0; i < 4; i++) {
    const row = want.weights.data.subarray(4 * i, 4 * i + 4).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(row - 1) < 1e-6, 'rows of the core sum to 1');
  }
  assert.match(await page.locator(`${W} .illustrative`).textContent(), /Illustrative/);
  // keyboard: the first cell is in the tab order; arrows move and explain
  await cells.nth(0).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');  // row 1 ("have"), column 1 ("have")
  const at = (m) => m.data[1 * 4 + 1];
  const field = (f) => page.locator(`${W} [data-field="${f}"]`).textContent();
  await eventually(async () => (await page.locator(`${W} .steps-title`).textContent()).includes('“have” → “have”'));
  assertShown(await field('dot'), at(want.scores), 3, 'q·k');
  assertShown(await field('scaled'), at(want.scaled), 3, 'scaled');
  assertShown(await field('exp'), at(want.exps), 4, 'exp');
  assertShown(await field('rowSum'), want.rowSums[1], 4, 'row sum');
  assertShown(await field('weight'), at(want.weights), 4, 'weight');
  assert.ok(Math.abs(at(want.weights) - at(want.exps) / want.rowSums[1]) < 1e-6, 'weight = exp / row sum');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.i + ',' + document.activeElement.dataset.j), '1,1', 'focus moved');
  const url = new URL(page.url()).searchParams;
  assert.deepEqual([url.get('row'), url.get('col')], ['1', '1'], 'the selected cell is in the URL');
}));

test('presets, the arc and table views, and the URL state on the full page', () => withPage(browser, '?attention-map.view=table&attention-map.dK=64&attention-map.seed=7', async ({ page }) => {
  await ready(page);
  const want = expected('i have a dream', { dK: 64, seed: 7 });
  const table = page.locator(`${W} table.matrix`);
  assert.equal(await table.locator('tbody tr').count(), 4);
  assertShown(await table.locator('tbody tr').nth(2).locator('td').nth(3).textContent(), want.weights.data[2 * 4 + 3], 3, 'table cell');
  await page.locator(W).getByRole('button', { name: 'the Law sentence' }).click();
  await eventually(async () => (await table.locator('tbody tr').count()) === 25);
  const law = expected('The Law will never be perfect, but its application should be just - this is what we are missing, in my opinion.', { dK: 64, seed: 7 });
  assert.equal(law.tokens.length, 25);
  await page.locator(W).getByRole('radio', { name: 'Arcs' }).check();
  await page.locator(`${W} svg.arcs`).waitFor();
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get('attention-map.view'), 'arcs');
  assert.match(params.get('attention-map.sentence'), /^The Law will never be perfect/);
}));

test('hostile and bad sentences: text stays text, errors are visible, the widget recovers', () => withPage(browser, 'embed.html?widget=attention-map', async ({ page }) => {
  await ready(page);
  await page.evaluate(() => { window.__ran = false; });
  const box = page.locator(`${W} input[type="text"]`);
  await box.fill('<img src=x onerror="window.__ran=true"> </script> hello');
  await eventually(async () => (await page.locator(`${W} .heatmap-row`).allTextContents()).includes('img'));
  assert.equal(await page.evaluate(() => window.__ran), false, 'no script ran');
  assert.equal(await page.locator(`${W} img`).count(), 0, 'no element was made from the text');
  const alert = page.locator(`${W} [role="alert"]`);
  await assertSentenceAlerts(box, alert, [[OVERLONG, /500 words/], ['   ', /empty/]], 'attention is all you need');
  assert.equal(await page.locator(`${W} .heatmap-cell`).count(), 25);
}));
