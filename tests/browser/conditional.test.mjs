// Browser test of the conditional widget (web/widgets/conditional/widget.js): the two
// maps and max |Δ| are the core's numbers for the condition and for c = 0, the
// fused shape follows the fusion, the controls and the URL drive it, bad input
// shows an alert, and it renders alone in an embed.
//   node --test tests/browser/conditional.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { assertShown, eventually, parseShown, startBrowser, withPage, whenReady } from './harness.mjs';

const WIDGET = '[data-widget="conditional"]';
const LABELS = ['formal', 'casual', 'question'];

let browser;
let att;  // the same module, in this process: the reference for every number shown

before(async () => {
  [browser, att] = await Promise.all([startBrowser(), createAttention()]);
});
after(async () => { await browser?.close(); });

// The core's answer for a state, asked the way the widget asks it.
function expected({ tokens = ['i', 'have', 'a', 'dream'], label = 'casual', strength = 2, fusion = 'concat', seed = 1 } = {}) {
  const X = att.embedTokens({ tokens, d: 16, seed });
  const c = LABELS.map((l) => (l === label ? strength : 0));
  const cond = att.conditionalAttention({ input: X, condition: c, fusion, seed });
  const base = att.conditionalAttention({ input: X, condition: [0, 0, 0], fusion, seed });
  return { n: tokens.length, cond, base, fused: cond.fused, delta: att.maxAbsDifference(cond.weights, base.weights) };
}

const ready = whenReady(WIDGET);

const root = (page) => page.locator(WIDGET);
const plain = (text) => text.replace(/\u00a0/g, ' ');

// Waits for max |Δ| to show want.delta, then checks both maps cell by cell and the fused shape.
async function assertShows(page, want, what) {
  const delta = root(page).locator('[data-field="delta"]');
  await eventually(async () => Math.abs(parseShown(await delta.textContent()) - want.delta) <= 0.00005 + 1e-9,
    { message: `${what}: max |Δ| ${want.delta}` });
  assertShown(await delta.textContent(), want.delta, 4, `${what}: max |Δ|`);
  for (const [which, result] of [['base', want.base], ['cond', want.cond]]) {
    const cells = await root(page).locator(`.cond-panel[data-map="${which}"] .heatmap-values text`).allTextContents();
    assert.equal(cells.length, want.n * want.n, `${what}: ${which} map is n × n`);
    cells.forEach((text, k) => assertShown(text, result.weights.data[k], 2, `${what}: ${which} cell ${k}`));
  }
  const shape = plain(await root(page).locator('[data-field="fused-shape"]').textContent());
  assert.ok(shape.endsWith(`${want.fused.rows} × ${want.fused.cols}`), `${what}: fused shape "${shape}"`);
  return shape;
}

async function assertNoBadNumbers(page) {
  assert.doesNotMatch(await page.locator('body').innerText(), /\bNaN\b|Infinity|undefined|null/);
}

test('the default view: the core\'s maps with c = [0, 2, 0] and with c = 0, max |Δ|, the concat shape n × (d + d_c)', () => withPage(browser, 'embed.html?widget=conditional', async ({ page }) => {
  await ready(page);
  const want = expected();
  assert.ok(want.delta > 0.01, 'the condition changes the map');
  const shape = await assertShows(page, want, 'default');
  assert.match(shape, /4 × \(16 \+ 3\) = 4 × 19$/);
  assert.deepEqual((await root(page).locator('[data-field="c"]').allTextContents()).map(plain), ['formal: 0', 'casual: 2', 'question: 0']);
  assert.match(await root(page).locator('.illustrative').textContent(), /^Illustrative: /);
  assert.equal(await page.getByRole('alert').count(), 0);
  // the selected cell shows both weights
  assertShown(await root(page).locator('.cell-details [data-field="base"]').textContent(), want.base.weights.data[0], 4, 'cell base');
  assertShown(await root(page).locator('.cell-details [data-field="cond"]').textContent(), want.cond.weights.data[0], 4, 'cell cond');
  await assertNoBadNumbers(page);
}));

test('fusion, label, strength and seed change the maps; strength 0 gives max |Δ| = 0; the URL follows and comes back', () => withPage(browser, 'embed.html?widget=conditional', async ({ page }) => {
  await ready(page);
  await page.getByRole('radio', { name: 'Add', exact: true }).check();
  let shape = await assertShows(page, expected({ fusion: 'add' }), 'add');
  assert.match(shape, /: 4 × 16$/, 'add keeps the width d');
  assert.match(plain(await root(page).locator('.cond-shapes').textContent()), /P: 3 × 16/);

  await page.getByRole('radio', { name: 'Fully-connected layer' }).check();
  shape = await assertShows(page, expected({ fusion: 'fc' }), 'fc');
  assert.match(shape, /: 4 × 16$/, 'fc maps back to width d');
  assert.match(plain(await root(page).locator('.cond-shapes').textContent()), /Wf: 19 × 16, b: 16/);

  await page.getByRole('radio', { name: 'question' }).check();
  await assertShows(page, expected({ fusion: 'fc', label: 'question' }), 'fc, question');

  const strength = page.getByLabel('Strength of c');
  await strength.focus();
  await page.keyboard.press('ArrowRight');  // 2 -> 2.25
  await assertShows(page, expected({ fusion: 'fc', label: 'question', strength: 2.25 }), 'strength 2.25');
  await page.keyboard.press('Home');  // 0: c = 0, the same map twice
  const zero = expected({ fusion: 'fc', label: 'question', strength: 0 });
  assert.equal(zero.delta, 0);
  await assertShows(page, zero, 'strength 0');
  assert.equal(await root(page).locator('[data-field="delta"]').textContent(), '0.0000');
  assert.match(await root(page).locator('.cond-delta-note').textContent(), /identical/);

  const seed = page.getByLabel('Random parameters (seed)');
  await seed.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await strength.focus();
  await page.keyboard.press('End');  // 4
  const want = expected({ fusion: 'fc', label: 'question', strength: 4, seed: 3 });
  await assertShows(page, want, 'seed 3, strength 4');

  const params = Object.fromEntries(new URL(page.url()).searchParams);
  assert.deepEqual([params.fusion, params.label, params.strength, params.seed], ['fc', 'question', '4', '3']);
  await page.reload();
  await ready(page);
  await assertShows(page, want, 'reloaded');
  assert.ok(await page.getByRole('radio', { name: 'Fully-connected layer' }).isChecked());
  assert.equal(await strength.inputValue(), '4');
}));

test('on the full page the state is read from prefixed keys; choosing a cell marks it in both maps', async () => {
  const search = '?conditional.sentence=Thinking%20Machines&conditional.label=formal&conditional.fusion=add&conditional.strength=3.5&conditional.seed=7';
  await withPage(browser, search, async ({ page }) => {
    await ready(page);
    const want = expected({ tokens: ['Thinking', 'Machines'], label: 'formal', fusion: 'add', strength: 3.5, seed: 7 });
    await assertShows(page, want, search);
    assert.equal(new URL(page.url()).search, search, 'loading does not rewrite the URL');

    const cell = root(page).locator('.cond-panel[data-map="cond"] .heatmap-cell[data-i="1"][data-j="0"]');
    await cell.click();
    await eventually(async () => new URL(page.url()).searchParams.get('conditional.row') === '1', { message: 'row in the URL' });
    assert.equal(new URL(page.url()).searchParams.get('conditional.col'), '0');
    assert.equal(await root(page).locator('.cond-panel[data-map="base"] .heatmap-cell.is-selected').getAttribute('data-i'), '1');
    assert.equal(await root(page).locator('.cond-panel .heatmap-cell.is-selected').count(), 2, 'one selected cell per map');
    assertShown(await root(page).locator('.cell-details [data-field="base"]').textContent(), want.base.weights.data[2], 4, 'cell base');
    assertShown(await root(page).locator('.cell-details [data-field="cond"]').textContent(), want.cond.weights.data[2], 4, 'cell cond');
    assert.match(await root(page).locator('.steps-title').textContent(), /“Machines” → “Thinking”/);
  });
});

test('an empty or too long sentence is a visible message, never NaN; the widget recovers', () => withPage(browser, 'embed.html?widget=conditional&sentence=%20', async ({ page }) => {
  await ready(page);
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Type a sentence/);
  const input = page.getByLabel('Sentence');
  await input.fill(Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '));
  await eventually(async () => /17 words/.test(await alert.textContent()), { message: 'too many words' });
  assert.match(await alert.textContent(), /at most 16/);
  await assertNoBadNumbers(page);
  await input.fill('i have a dream');
  await assertShows(page, expected(), 'recovered');
  assert.equal(await page.getByRole('alert').count(), 0, 'the alert is gone');
}));

test('the embed renders the widget alone, in Chinese, from bare URL keys', () => withPage(browser, 'embed.html?widget=conditional&fusion=fc&label=formal&lang=zh', async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator('[data-widget]').count(), 1, 'one widget');
  assert.equal(await page.locator('.widget-title').textContent(), '条件注意力：用标签调整注意力图');
  await assertShows(page, expected({ fusion: 'fc', label: 'formal' }), 'embed zh');
  assert.ok(await page.getByRole('radio', { name: '全连接层' }).isChecked());
  assert.match(await root(page).locator('.illustrative').textContent(), /^示意图：/);
  assert.equal(await page.locator('.embed').count(), 0, 'no embed snippet inside an embed');
}));
