// Browser test of the cross-attention widget: a rectangular map (rows = target
// words, columns = source words) of the core's weights beside the target's
// self-attention; focused cells explain their weight; the example pairs, the
// view and the URL state; bad input as a message; the widget alone in an embed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, eventually, assertShown, assertSentenceAlerts, OVERLONG, whenReady } from './harness.mjs';

const W = '[data-widget="cross-attention"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the widget's computation, in this process
function expected(source, target, { dK = 16, seed = 1 } = {}) {
  const s = tokenize(source), t = tokenize(target);
  const Xs = att.embedTokens({ tokens: s, d: 32, seed }), Xt = att.embedTokens({ tokens: t, d: 32, seed });
  return { source: s, target: t,
    cross: att.crossAttention({ input: Xt, memory: Xs, dK, seed }), self: att.selfAttention({ input: Xt, dK, seed }) };
}

const ready = whenReady(W);

// the map of kind ('cross' or 'self') shows the core's weights with its labels
async function assertMap(page, want, kind, what) {
  const map = page.locator(`${W} .ca-${kind}`);
  const cols = kind === 'cross' ? want.source : want.target;
  await eventually(async () => (await map.locator('.heatmap-cell').count()) === want.target.length * cols.length,
    { message: `${what}: a ${want.target.length} × ${cols.length} ${kind} map` });
  assert.deepEqual(await map.locator('.heatmap-row').allTextContents(), want.target, `${what}: rows = target words`);
  assert.deepEqual(await map.locator('.heatmap-col').allTextContents(), cols, `${what}: columns`);
  const texts = await map.locator('.heatmap-values text').allTextContents();
  want[kind].weights.data.forEach((w, k) => assertShown(texts[k], w, 2, `${what}: ${kind} cell ${k}`));
}

test('i have a dream ↔ 我有一个梦想: a 6 × 4 cross map beside the 6 × 6 self map, from the core', () => withPage(browser, 'embed.html?widget=cross-attention', async ({ page }) => {
  await ready(page);
  const want = expected('i have a dream', '我有一个梦想');
  await assertMap(page, want, 'cross', 'default');
  await assertMap(page, want, 'self', 'default');
  for (let i = 0; i < 6; i++) {
    const row = want.cross.weights.data.subarray(4 * i, 4 * i + 4).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(row - 1) < 1e-6, 'each target word’s row sums to 1');
  }
  // the claim on the page: both maps use the same queries
  assert.equal(att.maxAbsDifference(want.cross.Q, want.self.Q), 0);
  assert.match(await page.locator(`${W} .ca-same`).textContent(), /same queries/);
  assert.match(await page.locator(`${W} .ca-explain`).textContent(), /K and V come from the same source/);
  assert.match(await page.locator(`${W} .ca-cross .ca-shape`).textContent(), /Q 6 × 16 from the target; K 4 × 16 and V 4 × 16 from the source → map 6 × 4, output 6 × 16/);
  assert.match(await page.locator(`${W} .ca-self .ca-shape`).textContent(), /map 6 × 6/);
  assert.match(await page.locator(`${W} .illustrative`).textContent(), /Illustrative/);

  // keyboard: row "梦", column "dream" of the cross map
  const cells = page.locator(`${W} .ca-cross .heatmap-cell`);
  await cells.nth(0).focus();
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await eventually(async () => (await page.locator(`${W} .steps-title`).textContent()) === 'Cross-attention: “梦” → “dream”');
  const field = (f) => page.locator(`${W} [data-field="${f}"]`).textContent();
  const at = (m) => m.data[4 * 4 + 3];
  assertShown(await field('dot'), at(want.cross.scores), 3, 'q·k');
  assertShown(await field('scaled'), at(want.cross.scaled), 3, 'scaled');
  assertShown(await field('weight'), at(want.cross.weights), 4, 'weight');
  let url = new URL(page.url()).searchParams;
  assert.deepEqual([url.get('map'), url.get('row'), url.get('col')], ['cross', '4', '3']);
  // the self map: its own cell
  await page.locator(`${W} .ca-self .heatmap-cell`).nth(0).focus();
  await page.keyboard.press('ArrowRight');
  await eventually(async () => (await page.locator(`${W} .steps-title`).textContent()) === 'Self-attention (target): “我” → “有”');
  assertShown(await field('weight'), want.self.weights.data[1], 4, 'self weight');
  assert.equal(await page.locator(`${W} .is-selected`).count(), 1, 'one selected cell');
  url = new URL(page.url()).searchParams;
  assert.deepEqual([url.get('map'), url.get('row'), url.get('col')], ['self', '0', '1']);
}));

test('example pairs, the view and d_k change the maps; the URL keeps them (full page)', () => withPage(browser, '?cross-attention.mode=cross&cross-attention.dK=64&cross-attention.seed=3', async ({ page }) => {
  await ready(page);
  let want = expected('i have a dream', '我有一个梦想', { dK: 64, seed: 3 });
  await assertMap(page, want, 'cross', 'from the URL');
  assert.equal(await page.locator(`${W} .ca-self`).count(), 0, 'only the cross map');
  assert.ok(await page.locator(`${W} .ca-same`).isHidden());
  assert.ok(await page.locator(W).getByRole('radio', { name: 'Cross-attention' }).isChecked());

  await page.locator(W).getByRole('button', { name: 'Thinking Machines ↔ 思考的机器' }).click();
  want = expected('Thinking Machines', '思考的机器', { dK: 64, seed: 3 });
  await assertMap(page, want, 'cross', 'Thinking Machines');
  assert.equal(await page.locator(W).getByLabel('Source sentence (gives K and V)').inputValue(), 'Thinking Machines');
  assert.equal(await page.locator(W).getByLabel('Target sentence (gives Q)').inputValue(), '思考的机器');

  await page.locator(W).getByRole('radio', { name: 'Self-attention (target)' }).check();
  await assertMap(page, want, 'self', 'self only');
  assert.equal(await page.locator(`${W} .ca-cross`).count(), 0);
  await page.locator(W).getByRole('radio', { name: '4', exact: true }).check();
  want = expected('Thinking Machines', '思考的机器', { dK: 4, seed: 3 });
  await assertMap(page, want, 'self', 'd_k = 4');
  const params = new URL(page.url()).searchParams;
  assert.deepEqual(['source', 'target', 'mode', 'dK', 'seed'].map((k) => params.get(`cross-attention.${k}`)),
    ['Thinking Machines', '思考的机器', 'self', '4', '3']);
  await page.reload();
  await ready(page);
  await assertMap(page, want, 'self', 'reloaded');
}));

test('an empty or overlong sentence is a visible message (in Chinese too); typed text stays text', () => withPage(browser, 'embed.html?widget=cross-attention&lang=zh&source=attention%20is%20all%20you%20need', async ({ page }) => {
  await ready(page);
  await assertMap(page, expected('attention is all you need', '我有一个梦想'), 'cross', 'source from the URL');
  const alert = page.locator(`${W} [role="alert"]`);
  const target = page.locator(W).getByLabel('目标句（提供 Q）');
  await assertSentenceAlerts(target, alert, [['  ', /请输入一个句子/], [OVERLONG, /500/]], '<i>x</i> 梦想');
  await assertMap(page, expected('attention is all you need', '<i>x</i> 梦想'), 'cross', 'recovered');
  assert.equal(await page.locator(`${W} i`).count(), 0, 'no element made from the text');
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

// the learned projections: the date model trained here as the widget trains it (the same seed and
// steps give the same weights in any process)
async function dateModel(seed) {
  const trainer = await att.createTrainer({ task: 'date', cross: true, seed });
  try {
    const before = trainer.probe();
    const accuracyBefore = trainer.evaluate().accuracy;
    for (let done = 0; done < 200; done += 20) trainer.step(20);
    return { before, after: trainer.probe(), accuracyBefore, accuracy: trainer.evaluate().accuracy };
  } finally {
    trainer.delete();
  }
}

test('learned projections: the date model\'s map before and after training, the core\'s; the learned one is the reordering', () =>
  withPage(browser, 'embed.html?widget=cross-attention&projections=learned&seed=2', async ({ page }) => {
    await ready(page);
    const want = await dateModel(2);
    for (const [kind, probe] of [['before', want.before], ['after', want.after]]) {
      const map = page.locator(`${W} .ca-date-${kind}`);
      await eventually(async () => (await map.locator('.heatmap-cell').count()) === 64, { message: `the ${kind} map drawn`, timeout: 20000 });
      const labels = await map.locator('.heatmap-cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
      labels.forEach((label, k) => assertShown(/(\S+)$/.exec(label)[1], probe.weights[0].data[k], 3, `${kind} cell ${k}`));
      const cols = await map.locator('.heatmap-col').allTextContents();
      assert.deepEqual(cols, Array.from(probe.input, (digit, j) => `${'YYYYMMDD'[j]} ${digit}`));
    }
    // after training every row's largest weight is on the digit it copies: the day on the input's 7th and 8th
    const w = want.after.weights[0].data, source = [6, 7, 4, 5, 0, 1, 2, 3];
    for (let i = 0; i < 8; i++) {
      const row = Array.from(w.subarray(i * 8, i * 8 + 8));
      assert.equal(row.indexOf(Math.max(...row)), source[i], `output ${i} reads input ${source[i]}`);
    }
    const verdict = await page.locator(`${W} .ca-learned-verdict`).textContent();
    assert.match(verdict, /: \d of 8 before training, 8 of 8 after 200 steps;/);
    assert.ok(verdict.includes(`${(100 * want.accuracy).toFixed(1)}% after`), verdict);
    assert.ok(await page.locator(`${W} .ca-sentences`).isHidden(), 'the sentence maps are hidden');
    assert.ok(await page.locator(W).getByLabel('Target sentence (gives Q)', { exact: true }).isDisabled());
    // and look it: the boxes' controls greyed as the other sentence controls are
    assert.deepEqual(await page.locator(`${W} .control:has(input[type="text"])`).evaluateAll((boxes) => boxes.map((b) => b.classList.contains('is-disabled'))), [true, true]);
    // back to random projections: the sentence maps again
    await page.locator(W).getByLabel('Random (sentences)', { exact: true }).check();
    await assertMap(page, expected('i have a dream', '我有一个梦想', { seed: 2 }), 'cross', 'random again');
    assert.ok(await page.locator(`${W} .ca-learned`).isHidden());
    assert.deepEqual(await page.locator(`${W} .control:has(input[type="text"])`).evaluateAll((boxes) => boxes.map((b) => b.classList.contains('is-disabled'))), [false, false]);
  }));

test('the seed slider says what it seeds: the random projections, or the training of the date model', async () => {
  for (const [lang, random, learned, learnedChoice, randomChoice] of [
    ['en', 'Random projections (seed)', 'Training seed (the first weights and the batches)', 'Learned (dates)', 'Random (sentences)'],
    ['zh', '随机投影（种子）', '训练种子（初始权重和批次）', '学到的（日期）', '随机（句子）'],
  ]) {
    await withPage(browser, `embed.html?widget=cross-attention&lang=${lang}&seed=3`, async ({ page }) => {
      await ready(page);
      const slider = page.locator(`${W} input[type="range"][name="seed"]`);
      const name = () => slider.evaluate((input) => input.labels[0].textContent);
      assert.equal(await name(), random, `${lang}: random projections`);
      assert.equal(await page.locator(W).getByLabel(random, { exact: true }).inputValue(), '3');
      await page.locator(W).getByLabel(learnedChoice, { exact: true }).check();
      await eventually(async () => (await name()) === learned, { message: `${lang}: the label in learned mode` });
      assert.equal(await page.locator(W).getByLabel(learned, { exact: true }).inputValue(), '3', `${lang}: the same slider, named anew`);
      await page.locator(W).getByLabel(randomChoice, { exact: true }).check();
      await eventually(async () => (await name()) === random, { message: `${lang}: back to random` });
    });
  }
});
