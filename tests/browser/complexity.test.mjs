// Browser test of the complexity widget (web/widgets/complexity/widget.js): the table,
// the doubling factor (4 for self-attention: quadratic), the crossover n = d
// and the fully-connected parameters are the core's costModel numbers; the
// controls and the URL drive them; the quiz answers from the core; the embed
// renders alone.
//   node --test tests/browser/complexity.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { assertClean, eventually, openPage, startBrowser, withPage, whenReady } from './harness.mjs';

const WIDGET = '[data-widget="complexity"]';
const TABLE = ['convolutional', 'convolutional (dilated)', 'recurrent', 'self-attention'];

let browser;
let att;  // the reference for every number shown

before(async () => {
  [browser, att] = await Promise.all([startBrowser(), createAttention()]);
});
after(async () => { await browser?.close(); });

const byLayer = (rows) => Object.fromEntries(rows.map((r) => [r.layer, r]));
function expected({ n = 256, d = 512, k = 3 } = {}) {
  return { now: byLayer(att.costModel({ n, d, k })), doubled: byLayer(att.costModel({ n: 2 * n, d, k })) };
}

// "6.71 × 10⁷" or "786,432" -> the number
const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function parseCount(text) {
  const t = text.replace(/\u00a0/g, ' ').replace(/\u2212/g, '-').replace(/,/g, '').trim();
  const m = t.match(/^(-?\d+(?:\.\d+)?) × 10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/);
  if (m) return Number(m[1]) * 10 ** Number([...m[2]].map((c) => SUP.indexOf(c)).join(''));
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}
// shown to 3 significant digits (exactly below a million)
function assertCount(text, want, what) {
  const shown = parseCount(text);
  const tolerance = want < 1e6 ? 0 : 0.005 * 10 ** Math.floor(Math.log10(want)) * 1.0001;
  assert.ok(Math.abs(shown - want) <= tolerance, `${what}: shows "${text}", expected ${want}`);
}

const ready = whenReady(WIDGET);

// Waits for the caption to name n, d, k, then checks the table against the core.
async function assertTable(page, { n = 256, d = 512, k = 3 } = {}) {
  const caption = page.locator(`${WIDGET} .cx-main caption`);
  await eventually(async () => (await caption.textContent()).includes(`n = ${n.toLocaleString('en-US')}, d = ${d}, k = ${k}`), { message: `n ${n}, d ${d}, k ${k}` });
  const want = expected({ n, d, k });
  for (const layer of TABLE) {
    const row = page.locator(`${WIDGET} tr[data-layer="${layer}"]`);
    const field = (f) => row.locator(`[data-field="${f}"]`).textContent();
    const r = want.now[layer];
    assertCount(await field('multiplyAdds'), r.multiplyAdds, `${layer} multiply-adds`);
    assertCount(await field('sequentialOps'), r.sequentialOps, `${layer} sequential`);
    assertCount(await field('maxPathLength'), r.maxPathLength, `${layer} path`);
    assert.equal(await field('ratio'), `× ${(want.doubled[layer].multiplyAdds / r.multiplyAdds).toFixed(2)}`, `${layer} doubling`);
    assert.ok((await field('multiplyAdds')) !== '—');
  }
  return want;
}

test('the table is the core\'s cost model: O(n²·d) and × 4.00 for self-attention, the crossover and fully connected', () => withPage(browser, 'embed.html?widget=complexity', async ({ page }) => {
  await ready(page);
  const want = await assertTable(page);
  assert.equal(want.doubled['self-attention'].multiplyAdds / want.now['self-attention'].multiplyAdds, 4);
  const sa = page.locator(`${WIDGET} tr[data-layer="self-attention"]`);
  assert.deepEqual(await sa.locator('.cx-big').allTextContents(), ['O(n²·d)', 'O(1)', 'O(1)']);
  assert.deepEqual(await page.locator(`${WIDGET} tr[data-layer="convolutional"] .cx-big`).allTextContents(), ['O(k·n·d²)', 'O(1)', 'O(n/k)']);
  assert.deepEqual(await page.locator(`${WIDGET} tr[data-layer="convolutional (dilated)"] .cx-big`).allTextContents(), ['O(k·n·d²)', 'O(1)', 'O(logₖ\u00a0n)']);
  assert.deepEqual(await page.locator(`${WIDGET} tr[data-layer="recurrent"] .cx-big`).allTextContents(), ['O(n·d²)', 'O(n)', 'O(n)']);
  // quadratic, not exponential, with the core's numbers
  // m × 10ⁿ is written with no-break spaces (render/format.js)
  const quadratic = (await page.locator(`${WIDGET} [data-part="quadratic"]`).textContent()).replace(/\u00a0/g, ' ');
  assert.match(quadratic, /Quadratic, not exponential/);
  assert.match(quadratic, /“exponentially”/);
  assert.match(quadratic, /from 256 to 512 takes self-attention from 6\.71 × 10⁷ to 2\.68 × 10⁸ multiply-adds, × 4\.00/);
  assert.match(quadratic, /slope log₂ 4\.00 = 2\.00/);
  // n = 256 < d = 512: self-attention is cheaper than the recurrent layer
  // writing one token at a time: the core's generation cost for n = 256, d = 512
  const g = att.generationCost({ n: 256, d: 512 });
  const writing = (await page.locator(`${WIDGET} [data-part="generation"] .callout-text`).textContent()).replace(/[\u00a0\u202f]/g, " ");
  for (const [what, value] of [['2nd', g.tokenCached], ['n(n + 1)d', g.totalCached], ['the last one n(n + 1)d', g.tokenUncached],
    ['n(n + 1)(n + 2)d/3', g.totalUncached], ['2n²d', want.now['self-attention'].multiplyAdds]]) {
    const shown = new RegExp(`${what.replace(/[()+]/g, '\\$&')} = (\\d[\\d.,]*\\d(?: × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?)`).exec(writing);
    assert.ok(shown, `${what} in: ${writing}`);
    assert.ok(Math.abs(parseCount(shown[1]) - value) <= 0.005 * value, `${what}: shows ${shown[1]}, the core ${value}`);
  }
  // with the cache, exactly a causal training pass (n(n + 1)d), not "about" the table's 2n²d: true for every n
  assert.match(writing, /n\(n \+ 1\)d = [^:]+: exactly what one training pass over the text counts with the causal mask/);
  assert.doesNotMatch(writing, /about one training pass/);
  const crossover = page.locator(`${WIDGET} [data-part="crossover"] .callout-text`).first();
  assert.equal(await crossover.getAttribute('data-field'), 'cheaper');
  assert.ok(want.now['self-attention'].multiplyAdds < want.now.recurrent.multiplyAdds);
  // the plot: one line per layer, the crossover marked
  const plot = page.locator(`${WIDGET} .cx-plot .plot.is-wide`).first();
  assert.equal(await plot.locator('polyline').count(), 4);
  assert.ok((await plot.locator('text').allTextContents()).includes('n = d = 512'));
  // fully connected: (n d)^2 parameters, self-attention 3 d^2 whatever n
  const fc = (field) => page.locator(`${WIDGET} .cx-fc-table [data-field="${field}"]`).allTextContents();
  const [fcN, saN] = await fc('parameters');
  const [fc2N, sa2N] = await fc('parameters2');
  assertCount(fcN, want.now['fully connected'].parameters, 'FC parameters');
  assertCount(fc2N, want.doubled['fully connected'].parameters, 'FC parameters at 2n');
  assert.equal(saN, '786,432');
  assert.equal(sa2N, '786,432', 'self-attention has the same parameters for 2n');
  assert.equal(await page.getByRole('alert').count(), 0);
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

test('n, d and k change every count, the crossover flips at n = d, and the URL follows', () => withPage(browser, 'embed.html?widget=complexity', async ({ page }) => {
  await ready(page);
  const crossover = page.locator(`${WIDGET} [data-part="crossover"] .callout-text`).first();
  await page.getByLabel('Sequence length n').selectOption('1024');
  await assertTable(page, { n: 1024 });
  assert.equal(await crossover.getAttribute('data-field'), 'dearer', 'n = 1024 > d = 512');

  const d = page.getByLabel('Width d (channels)');
  await d.focus();
  await page.keyboard.press('End');  // 1024 = n
  await assertTable(page, { n: 1024, d: 1024 });
  assert.equal(await crossover.getAttribute('data-field'), 'equal');
  await page.keyboard.press('ArrowRight');  // stays 1024
  await page.keyboard.press('ArrowLeft');   // 1016 < n
  await assertTable(page, { n: 1024, d: 1016 });
  assert.equal(await crossover.getAttribute('data-field'), 'dearer');

  const k = page.getByLabel('Kernel width k');
  await k.focus();
  await page.keyboard.press('End');  // 9
  const want = await assertTable(page, { n: 1024, d: 1016, k: 9 });
  assert.equal(want.now['convolutional (dilated)'].maxPathLength, 4, 'ceil(log_9 1024)');
  assert.equal(want.now.convolutional.maxPathLength, 128, 'ceil(1023 / 8)');

  const params = Object.fromEntries(new URL(page.url()).searchParams);
  assert.deepEqual([params.n, params.d, params.k], ['1024', '1016', '9']);
  await page.reload();
  await ready(page);
  await assertTable(page, { n: 1024, d: 1016, k: 9 });
  assert.equal(await page.getByLabel('Sequence length n').inputValue(), '1024');
}));

test('on the full page the prefixed URL state is applied; the quiz answers ×4 from the core', async () => {
  const search = '?complexity.n=4096&complexity.d=64&complexity.k=5';
  await withPage(browser, search, async ({ page }) => {
    await ready(page);
    const want = await assertTable(page, { n: 4096, d: 64, k: 5 });
    assert.equal(want.now['convolutional (dilated)'].maxPathLength, 6, 'ceil(log_5 4096)');
    assert.equal(new URL(page.url()).search, search);
    const quiz = page.locator(`${WIDGET} .quiz`);
    // the paragraph that says "quadratic" is covered until Reveal
    const covered = () => page.locator(WIDGET).evaluate((root) => {
      const box = root.querySelector('.quiz-concealed');
      return box ? [box.inert, /quadratic|× 4/.test(box.textContent)] : null;
    });
    assert.deepEqual(await covered(), [true, true]);
    await quiz.getByRole('radio', { name: '4 (quadratic)' }).check();
    await quiz.getByRole('button', { name: 'Reveal' }).click();
    assert.equal(await covered(), null);
    const answer = (await quiz.locator('.quiz-answer').textContent()).replace(/\u00a0/g, ' ');
    assert.match(answer, /Right!/);
    assert.match(answer, /at n = 4,096 and .* at n = 8,192: × 4\.00/);
    // bad values fall back to the defaults
    const bad = await openPage(browser, '?complexity.n=3&complexity.d=abc&complexity.k=99');
    await ready(bad.page);
    await assertTable(bad.page);
    assertClean(bad.log, browser.origin);
    await bad.page.close();
  });
});

test('the embed renders the widget alone, in Chinese; the table becomes cards on a phone', () => withPage(browser, 'embed.html?widget=complexity&n=64&d=128&lang=zh', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator('[data-widget]').count(), 1);
  assert.equal(await page.locator('.widget-title').textContent(), '一层的代价：卷积、循环与自注意力');
  await eventually(async () => (await page.locator(`${WIDGET} .cx-main caption`).textContent()).includes('n = 64'));
  const quadratic = await page.locator(`${WIDGET} [data-part="quadratic"]`).textContent();
  assert.match(quadratic, /是二次方，不是指数/);
  assert.match(quadratic, /× 4\.00/);
  assert.equal(await page.locator(`${WIDGET} [data-part="crossover"] .callout-text`).first().getAttribute('data-field'), 'cheaper');
  assert.ok(await page.locator(`${WIDGET} .cx-plot .plot.is-compact`).first().isVisible(), 'the compact plot on a phone');
  assert.ok(!(await page.locator(`${WIDGET} .cx-plot .plot.is-wide`).first().isVisible()));
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
}));
