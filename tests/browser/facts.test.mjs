// Browser test of the page's statements of fact: each sentence that speaks of
// numbers says what the numbers beside it show, and no sentence claims more
// than is known.
//   - kv-query: the legend draws each series as the plot does (the table as
//     dots), and the table's own line (weight = height − 105 for the article's
//     table, 67 kg at 172 cm) is drawn and stated as the yardstick, from the
//     core's least-squares fit;
//   - training: the shift task is cyclic, and the intro says where output 0
//     reads, as the core's map of the task has it;
//   - real model: the Winograd note does not read a resolution into a head;
//   - language model: parallelism is named as the rule it is.
// The speed widget's sentence on its measured slopes and ratios is checked in
// speed.test.mjs, after its run.
//   node --test tests/browser/facts.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { MODEL } from '../../web/widgets/training/engine.js';
import { loadEveryWidget } from '../../web/widgets/list.js';
import { startBrowser, whenReady, withPage } from './harness.mjs';

let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

const plain = (text) => text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

// least squares in float64: the reference for the core's fitLine
function leastSquares(xs, ys) {
  const n = xs.length, mx = xs.reduce((a, b) => a + b) / n, my = ys.reduce((a, b) => a + b) / n;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) { sxx += (xs[i] - mx) ** 2; sxy += (xs[i] - mx) * (ys[i] - my); }
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

test('kv-query: the legend draws the table as dots; the table\'s own line is the yardstick, 67 kg at 172 cm', () => withPage(browser, 'embed.html?widget=kv-query', async ({ page }) => {
  const W = '[data-widget="kv-query"]';
  await whenReady(W)(page);
  const plot = page.locator(`${W} .kv-curve svg.plot`);
  // the legend: one swatch group per series, in the plot's order; a dots-only series has a circle and no line
  const swatches = await plot.evaluate((svg) => [...svg.querySelectorAll('text')]
    .filter((t) => t.previousElementSibling?.classList.contains('plot-swatch'))
    .map((t) => {
      const kinds = [];
      for (let e = t.previousElementSibling; e?.classList.contains('plot-swatch'); e = e.previousElementSibling) kinds.unshift(e.tagName);
      return { label: t.textContent, kinds };
    }));
  assert.deepEqual(swatches, [
    { label: 'estimate', kinds: ['line'] },
    { label: 'the table', kinds: ['circle'] },
    { label: 'query', kinds: ['circle'] },
    { label: 'the table’s line: weight = height − 105', kinds: ['line'] },
  ]);
  // the table's line, from the core, against a float64 reference: slope 1, intercept −105
  const keys = [160, 165, 170, 175], values = [55, 60, 65, 70];
  const core = att.fitLine(keys, values), ref = leastSquares(keys, values);
  assert.ok(Math.abs(core.slope - ref.slope) < 1e-6 && Math.abs(core.intercept - ref.intercept) < 1e-4, JSON.stringify(core));
  assert.ok(Math.abs(ref.slope - 1) < 1e-12 && Math.abs(ref.intercept + 105) < 1e-9);
  const yardstick = plain(await page.locator(`${W} [data-part="yardstick"]`).textContent());
  assert.match(yardstick, /is weight = height − 105 \(r² = 1\.000\)\. At q = 172\.0 cm it gives 67 kg; attention’s estimate is 66\.73 kg\./);
  // the line is drawn: a second polyline, dashed, through (150, 45) and (185, 80) in the plot's coordinates
  assert.equal(await plot.locator('polyline').count(), 2);
  // another table: the line follows it (keys 150, 160, 170; values 50, 70, 80 → slope 1.5, intercept −173.3)
  await page.goto(new URL('embed.html?widget=kv-query&keys=150,160,170&values=50,70,80', browser.url).href);
  await whenReady(W)(page);
  const other = leastSquares([150, 160, 170], [50, 70, 80]);
  assert.deepEqual([other.slope, Math.round(other.intercept * 10) / 10], [1.5, -173.3]);
  const moved = plain(await page.locator(`${W} [data-part="yardstick"]`).textContent());
  assert.match(moved, /is weight = 1\.5 × height − 173\.3 \(r² = 0\.964\)\. At q = 172\.0 cm it gives 84\.7 kg/);
  // with the article's hand-picked weights there is no curve, and no yardstick
  await page.goto(new URL('embed.html?widget=kv-query&score=article', browser.url).href);
  await whenReady(W)(page);
  assert.ok(await page.locator(`${W} [data-part="yardstick"]`).isHidden());
}));

test('training: the shift is cyclic, and the intro says output 0 reads position 7, as the core\'s map of the task has it', async () => {
  const trainer = await att.createTrainer({ ...MODEL, task: 'shift', seed: 1 });
  let needed;
  try {
    needed = trainer.probe().needed;
  } finally {
    trainer.delete();
  }
  const n = needed.cols, row0 = Array.from(needed.data.subarray(0, n));
  assert.equal(row0.indexOf(1), n - 1, 'output 0 reads the last input');
  for (const [lang, want] of [['en', /output 0 copies the last input, position 7, so the map is the sub-diagonal plus one cell in the top-right corner/],
    ['zh', /输出 0 复制最后一个输入（位置 7），所以正确的图是次对角线，再加右上角的一格/]]) {
    await withPage(browser, `embed.html?widget=training&lang=${lang}`, async ({ page }) => {
      await whenReady('[data-widget="training"]', 30000)(page);
      const intro = plain(await page.locator('[data-widget="training"] .widget-intro').textContent());
      assert.match(intro, want);
      assert.doesNotMatch(intro, /output i copies input i − 1, the sub-diagonal\./);
    });
  }
});

test('real model and language model: no claim beyond what is known', async () => {
  // the two widgets' words (web/widgets/<id>/<lang>.js), by section as in the catalog
  const { strings } = await loadEveryWidget(['en', 'zh']);
  const { en, zh } = strings;
  // the Winograd note: what the head shows, and why that does not tell whether the model resolved "it"
  assert.match(en['real-model'].pairNote, /does not tell whether the model resolved the pronoun.*Attention is not Explanation/);
  assert.doesNotMatch(en['real-model'].pairNote, /would move the attention/);
  assert.match(zh['real-model'].pairNote, /并不能说明模型是否消解了代词.*Attention is not Explanation/);
  assert.match(en['real-model'].about2, /do not show whether it resolves hard Winograd cases/);
  // the quatrains: parallelism as the optional device it is in a quatrain
  assert.match(en['language-model'].intro, /a rule only for the middle couplets of eight-line regulated verse, optional in a quatrain/);
  assert.doesNotMatch(en['language-model'].intro, /often mirrors/);
  assert.match(zh['language-model'].intro, /对仗只是八句律诗中间两联的规则，绝句可对可不对/);
  // and the page shows those catalogs' sentences (the language model's intro, from a fresh page)
  await withPage(browser, 'embed.html?widget=language-model', async ({ page }) => {
    await page.locator('[data-widget="language-model"] .widget-intro').waitFor({ timeout: 20000 });
    assert.match(plain(await page.locator('[data-widget="language-model"] .widget-intro').textContent()), /optional in a quatrain/);
  });
});
