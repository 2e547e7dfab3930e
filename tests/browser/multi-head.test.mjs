// Browser test of the multi-head widget: one map per head holding the core's
// weights, the shapes printed from the core's matrices, the concatenation and
// the output after W^O with their numbers on focus, the heads control, the URL
// state, bad input as a visible message, and the widget alone in an embed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, openPage, assertClean, eventually, assertShown, assertSentenceAlerts, OVERLONG, whenReady } from './harness.mjs';

const W = '[data-widget="multi-head"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the widget's computation, in this process
function expected(sentence, { heads = 4, seed = 1 } = {}) {
  const tokens = tokenize(sentence);
  const X = att.embedTokens({ tokens, d: 32, seed });
  return { tokens, ...att.multiHeadAttention({ input: X, heads, seed }) };
}

const ready = whenReady(W);

// every head's map shows the core's weights, to 2 decimals
async function assertMaps(page, want, what) {
  const n = want.tokens.length;
  const maps = page.locator(`${W} .mh-head`);
  await eventually(async () => (await maps.count()) === want.perHead.length, { message: `${what}: ${want.perHead.length} maps` });
  for (let h = 0; h < want.perHead.length; h++) {
    const cells = maps.nth(h).locator('.heatmap-cell');
    assert.equal(await cells.count(), n * n, `${what}: head ${h + 1} is ${n} × ${n}`);
    const texts = await maps.nth(h).locator('.heatmap-values text').allTextContents();
    if (texts.length === n * n) want.perHead[h].weights.data.forEach((w, k) => assertShown(texts[k], w, 2, `${what}: head ${h + 1} cell ${k}`));
    // every cell also names its weight for screen readers
    const label = await cells.nth(n * n - 1).getAttribute('aria-label');
    assert.match(label, new RegExp(`^(head ${h + 1}, |第 ${h + 1} 个头，)`));
  }
}

test('default: 4 heads of "i have a dream", shapes from the core, numbers of Concat and the output on focus', () => withPage(browser, 'embed.html?widget=multi-head', async ({ page }) => {
  await ready(page);
  const want = expected('i have a dream');
  await assertMaps(page, want, 'default');
  for (const head of want.perHead) {
    for (let i = 0; i < 4; i++) {
      const sum = head.weights.data.subarray(4 * i, 4 * i + 4).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-6, 'rows of the core sum to 1');
    }
  }
  const shapes = await page.locator(`${W} .mh-shapes li`).allTextContents();
  assert.equal(shapes.length, 4);
  assert.match(shapes[0], /4 × 32 each, cut into 4 slices of 4 × 8/);
  assert.match(shapes[1], /map Ah 4 × 4/);
  assert.match(shapes[2], /4 × \(4 × 8\) → 4 × 32/);
  assert.match(shapes[3], /\(32 × 32\): 4 × 32/);
  assert.match(await page.locator(`${W} .illustrative`).textContent(), /Illustrative/);
  assert.equal(await page.locator(`${W} .mh-divider`).count(), 3, 'lines between the 4 heads’ blocks of Concat');

  // a head's map explains its focused cell
  const head3 = page.locator(`${W} .mh-head`).nth(2).locator('.heatmap-cell');
  await head3.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');  // head 3, row "have", column "a"
  const field = (f) => page.locator(`${W} [data-field="${f}"]`).textContent();
  await eventually(async () => (await page.locator(`${W} .steps-title`).textContent()) === 'Head 3: “have” → “a”');
  assertShown(await field('weight'), want.perHead[2].weights.data[1 * 4 + 2], 4, 'weight');
  assertShown(await field('scaled'), want.perHead[2].scaled.data[1 * 4 + 2], 3, 'scaled');
  assertShown(await field('dot'), want.perHead[2].scores.data[1 * 4 + 2], 3, 'q·k');
  assertShown(await field('scale'), 1 / Math.sqrt(8), 4, 'scale');
  let url = new URL(page.url()).searchParams;
  assert.deepEqual([url.get('part'), url.get('head'), url.get('row'), url.get('col')], ['map', '2', '1', '2']);
  assert.equal(await page.locator(`${W} .is-selected`).count(), 1, 'one selected cell in the whole widget');

  // Concat: row "i", column 10 = head 2, its column 2
  const concat = page.locator(`${W} .mh-figure`).nth(0).locator('.heatmap-cell');
  assert.equal(await concat.count(), 4 * 32);
  await concat.nth(0).focus();
  for (let k = 0; k < 9; k++) await page.keyboard.press('ArrowRight');
  await eventually(async () => /column 10: head 2’s output Z2, its column 2/.test(await page.locator(`${W} .steps-title`).textContent()));
  assertShown(await field('value'), want.concat.data[9], 4, 'Concat value');
  assertShown(await field('value'), want.perHead[1].output.data[1], 4, 'Concat = the head outputs side by side');
  // the output after W^O: row "dream", last column
  const output = page.locator(`${W} .mh-figure`).nth(1).locator('.heatmap-cell');
  await output.nth(3 * 32).focus();
  await page.keyboard.press('End');
  await eventually(async () => /row “dream”, column 32/.test(await page.locator(`${W} .steps-title`).textContent()));
  assertShown(await field('value'), want.output.data[3 * 32 + 31], 4, 'output value');
  url = new URL(page.url()).searchParams;
  assert.deepEqual([url.get('part'), url.get('row'), url.get('col')], ['output', '3', '31']);
}));

test('the heads control and the URL state, in an embed and on the full page', async () => {
  await withPage(browser, 'embed.html?widget=multi-head&heads=8&seed=5&sentence=Thinking%20Machines', async ({ page }) => {
    await ready(page);
    await assertMaps(page, expected('Thinking Machines', { heads: 8, seed: 5 }), '8 heads');
    assert.ok(await page.locator(W).getByRole('radio', { name: '8', exact: true }).isChecked());
    assert.match((await page.locator(`${W} .mh-shapes li`).allTextContents())[0], /2 × 32 each, cut into 8 slices of 2 × 4/);

    await page.locator(W).getByRole('radio', { name: '2', exact: true }).check();
    await assertMaps(page, expected('Thinking Machines', { heads: 2, seed: 5 }), '2 heads');
    assert.equal(await page.locator(`${W} .mh-divider`).count(), 1);
    await page.locator(W).getByRole('button', { name: '“i have a dream”' }).click();
    await assertMaps(page, expected('i have a dream', { heads: 2, seed: 5 }), 'preset');
    const params = new URL(page.url()).searchParams;
    assert.deepEqual([params.get('heads'), params.get('seed'), params.get('sentence')], ['2', '5', 'i have a dream']);
    await page.reload();
    await ready(page);
    await assertMaps(page, expected('i have a dream', { heads: 2, seed: 5 }), 'reloaded');
    // a value the control does not offer (3 does not divide 32) falls back to the default
    await page.goto(new URL('embed.html?widget=multi-head&heads=3', browser.url).href);
    await ready(page);
    await assertMaps(page, expected('i have a dream'), 'heads=3 ignored');
  });

  // on the full page the keys carry the widget's name
  const full = await openPage(browser, '?multi-head.heads=1&multi-head.seed=7');
  await ready(full.page);
  await assertMaps(full.page, expected('i have a dream', { heads: 1, seed: 7 }), 'full page');
  await full.page.locator(W).getByRole('radio', { name: '8', exact: true }).check();
  await assertMaps(full.page, expected('i have a dream', { heads: 8, seed: 7 }), 'full page, 8 heads');
  assert.equal(new URL(full.page.url()).searchParams.get('multi-head.heads'), '8');
  assertClean(full.log, browser.origin);
  await full.page.close();
});

test('bad sentences are visible messages; the widget recovers; text stays text', () => withPage(browser, 'embed.html?widget=multi-head&lang=zh', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /多头注意力/);
  const box = page.locator(`${W} input[type="text"]`);
  const alert = page.locator(`${W} [role="alert"]`);
  await assertSentenceAlerts(box, alert, [['   ', /请输入一个句子/], [OVERLONG, /500/]], '<b>bold</b> 我有一个梦想');
  await assertMaps(page, expected('<b>bold</b> 我有一个梦想'), 'after recovery');
  assert.equal(await page.locator(`${W} b`).count(), 0, 'no element made from the text');
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));
