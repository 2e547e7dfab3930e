// Browser tests of the "windows" section: each preset's grid is the mask and
// the weights the core's attention() gives for it (computed here again); a
// click turns one cell and the map follows, the mask kept in the URL; the
// cost tables are generationCost's numbers; the generation part trains its
// two models in a worker and shows what the same experiment gives in Node
// (the core is deterministic), the windowed cache flat once full, and the
// model without a window read along a long text through a window with 0, 1
// and 4 sinks, the same losses as in Node; the URL
// restores the section alone and on the full page; Chinese.
//   node --test tests/browser/windows.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { runGeneration } from '../../web/widgets/windows/experiment.js';
import { eventually, startBrowser, whenReady, withPage } from './harness.mjs';

const W = '[data-widget="windows"]';
const ready = whenReady(W);
const N = 12;
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the core's mask and weights for the preset's options, on the widget's seeded inputs
function expected(options, seed = 1) {
  const [query, key, value] = [0, 1, 2].map((stream) => att.initUniform(N, 4, seed, 1, stream));
  const r = att.attention({ query, key, value, ...options });
  return { mask: Array.from(r.mask.data), weights: Array.from(r.weights.data) };
}
const prefix = (p) => Array.from({ length: N * N }, (_, k) => (k % N <= Math.floor(k / N) || (Math.floor(k / N) < p && k % N < p) ? 1 : 0));
const shownGrid = (page) => page.locator(`${W} .win-cell`).evaluateAll((cells) => ({
  mask: cells.map((b) => Number(b.dataset.allowed)), weights: cells.map((b) => Number(b.dataset.weight)),
  pressed: cells.map((b) => b.getAttribute('aria-pressed')),
}));
async function assertGrid(page, want, what) {
  const shown = await shownGrid(page);
  assert.deepEqual(shown.mask, want.mask, `${what}: the mask`);
  assert.deepEqual(shown.weights, want.weights, `${what}: the weights`);
  assert.deepEqual(shown.pressed, want.mask.map((m) => String(m === 1)), `${what}: aria-pressed`);
}

test('windows: each preset draws the core\'s mask and weights; a click and the keyboard turn a cell', () => withPage(browser, 'embed.html?widget=windows&preset=causal&seed=3', async ({ page }) => {
  await ready(page);
  await assertGrid(page, expected({ causal: true }, 3), 'causal');
  const presets = [
    ['window', { w: 3 }, { causal: true, window: 3 }],
    ['sinks', { w: 3, s: 2 }, { causal: true, window: 3, sinks: 2 }],
    ['prefix', { p: 5 }, { mask: prefix(5) }],
  ];
  for (const [preset, sliders, options] of presets) {
    await page.locator(`${W} input[type="radio"][value="${preset}"]`).check();
    for (const [key, v] of Object.entries(sliders)) await page.locator(`${W} input[type="range"][name="${key}"]`).fill(String(v));
    await eventually(async () => JSON.stringify((await shownGrid(page)).mask) === JSON.stringify(expected(options, 3).mask), { message: preset });
    await assertGrid(page, expected(options, 3), preset);
  }
  // a click on (2, 7), masked under the prefix of 5: the reader's own mask, with that cell on
  const before = expected({ mask: prefix(5) }, 3).mask;
  assert.equal(before[2 * N + 7], 0);
  await page.locator(`${W} .win-cell[data-row="2"][data-col="7"]`).click();
  const own = before.map((m, k) => (k === 2 * N + 7 ? 1 : m));
  await eventually(async () => (await shownGrid(page)).mask[2 * N + 7] === 1, { message: 'the cell turned on' });
  await assertGrid(page, expected({ mask: own }, 3), 'custom');
  const url = new URL(page.url()).searchParams;
  assert.equal(url.get('preset'), 'custom');
  assert.equal(url.get('cells'), own.join(''));
  assert.equal(await page.locator(`${W} input[type="radio"][value="custom"]`).isChecked(), true);
  // the keyboard: from the focused cell, right arrow and Enter turn (2, 8) on
  await page.locator(`${W} .win-cell[data-row="2"][data-col="7"]`).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const own2 = own.map((m, k) => (k === 2 * N + 8 ? 1 : m));
  await eventually(async () => (await shownGrid(page)).mask[2 * N + 8] === 1, { message: 'Enter turned (2, 8) on' });
  await assertGrid(page, expected({ mask: own2 }, 3), 'custom by keyboard');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.col), '8', 'the focus stays on the cell');
}));

test('windows: the cost tables are generationCost\'s numbers for each preset and n', () => withPage(browser, 'embed.html?widget=windows&costWindow=256&s=2', async ({ page }) => {
  await ready(page);
  const layer = { d: 4096, heads: 32, kvHeads: 8 };
  for (const which of ['totalCached', 'cacheNumbers']) {
    const rows = await page.locator(`${W} .win-table[data-which="${which}"] tbody tr`).evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.n),
      [...tr.querySelectorAll('td')].map((td) => [td.dataset.preset, Number(td.dataset.value)])]));
    assert.deepEqual(rows.map(([n]) => n), [256, 512, 1024, 2048, 4096, 8192, 16384]);
    for (const [n, cells] of rows) {
      assert.deepEqual(cells, [
        ['causal', att.generationCost({ n, ...layer })[which]],
        ['window', att.generationCost({ n, ...layer, window: 256 })[which]],
        ['sinks', att.generationCost({ n, ...layer, window: 258 })[which]],
      ], `${which} at ${n}`);
    }
  }
  const last = { causal: att.generationCost({ n: 16384, ...layer }), window: att.generationCost({ n: 16384, ...layer, window: 256 }) };
  const sentence = await page.locator(`${W} [data-part="cost"]`).textContent();
  assert.ok(sentence.includes(`${(last.causal.totalCached / last.window.totalCached).toFixed(1)}×`), sentence);
  assert.ok(sentence.includes(last.window.cacheNumbers.toLocaleString('en-US')), sentence);
  assert.equal(await page.locator(`${W} .win-plot .plot.is-wide`).count(), 2);
}));

test('windows: the two models train in a worker and generate; the windowed cache stays flat, as in Node', () => withPage(browser, 'embed.html?widget=windows', async ({ page }) => {
  await ready(page);
  assert.equal(page.workers().length, 0, 'no worker before the button');
  const want = runGeneration(createAttention, `${browser.url}data/names.json`, { steps: 300 }, () => {});
  await page.locator(`${W} [data-action="generate"]`).click();
  await page.locator(`${W} .win-status[data-status="done"]`).waitFor({ timeout: 120000 });
  const run = await want;
  const [windowed, full] = run.models;
  // in Node: the windowed cache at sinks + window positions from there on, past 4x the context less one
  const top = Math.max(...windowed.positions.map((p) => p.cacheNumbers));
  const from = windowed.positions.findIndex((p) => p.cacheNumbers === top);
  assert.equal(windowed.positions[from].cacheEntries, windowed.window + windowed.sinks);
  assert.ok(windowed.positions.slice(from).every((p) => p.cacheNumbers === top));
  assert.ok(windowed.positions.length >= 4 * run.context, `it read and wrote ${windowed.positions.length} positions`);
  assert.deepEqual(full.positions.map((p) => p.cacheEntries), full.positions.map((_, i) => i + 1), 'the full cache grows by one each token');
  // on the page: the same texts and the sentence with the same numbers
  const texts = await page.locator(`${W} .win-gen-text`).evaluateAll((ps) => ps.map((p) => [p.dataset.model, p.querySelector('.win-prompt').textContent + p.querySelector('.win-written').textContent]));
  assert.deepEqual(texts, [['windowed', windowed.text], ['full', full.text]]);
  const sentence = page.locator(`${W} [data-part="generation"]`);
  assert.equal(await sentence.getAttribute('data-kind'), 'flat');
  assert.equal(await sentence.getAttribute('data-full'), full.done);
  const said = await sentence.textContent();
  for (const x of [top.toLocaleString('en-US'), `position ${windowed.positions[from].position}`, `position ${windowed.positions.at(-1).position}`,
    full.positions.at(-1).cacheNumbers.toLocaleString('en-US')]) assert.ok(said.includes(x), `"${x}" in "${said}"`);
  assert.equal(await page.locator(`${W} .win-gen-plot .plot.is-wide .plot-line`).count(), 2);
  // the model trained without a window, read along one long text as trained and through a window of 8 keeping 0, 1, 4
  // sinks: the page's table holds the Node run's means over each stretch (the core's positionLosses, averaged)
  const { reads } = run.sinks;
  assert.deepEqual(reads.map((r) => [r.sinks, r.losses.length]), [[null, 63], [0, 320], [1, 320], [4, 320]]);
  assert.ok(reads.every((r) => r.losses.every((l) => Number.isFinite(l) && l > 0)), 'every loss finite and positive');
  assert.equal(run.sinks.text.length, 320);
  const mean = (r, from, to) => (to <= r.losses.length ? r.losses.slice(from, to).reduce((a, b) => a + b, 0) / (to - from) : null);
  const stretches = [[0, 8], [8, 16], [16, 63], [16, 320]];
  const means = reads.map((r) => stretches.map(([from, to]) => mean(r, from, to)));
  // the first 8 positions see every key whichever the reading: the same losses, bit for bit
  for (const r of reads) assert.deepEqual(r.losses.slice(0, 8), reads[0].losses.slice(0, 8));
  const rows = await page.locator(`${W} .win-sink-table tbody tr`).evaluateAll((trs) => trs.map((tr) => [tr.dataset.sinks,
    [...tr.querySelectorAll('td')].map((td) => [td.textContent, td.dataset.value === undefined ? null : Number(td.dataset.value)])]));
  assert.deepEqual(rows, reads.map((r, k) => [r.sinks === null ? 'full' : String(r.sinks), means[k].map((m) => (m === null ? ['—', null] : [m.toFixed(3), m]))]));
  assert.deepEqual(await page.locator(`${W} .win-sink-table thead th`).allTextContents(), ['read', 'positions 0–7', 'positions 8–15', 'positions 16–62', 'positions 16–319']);
  // the plot: four curves, each bin of 8 positions a point
  assert.equal(await page.locator(`${W} .win-sink-plot .plot.is-wide .plot-line`).count(), 4);
  // the sentences, decided from the same numbers: a jump once ⏎ leaves the window, and whether the sinks helped
  const at = (s, k) => means[reads.findIndex((r) => r.sinks === s)][k];
  const jump = page.locator(`${W} [data-part="jump"]`);
  assert.equal(await jump.getAttribute('data-kind'), at(0, 1) - at(null, 1) > 0.1 ? 'jump' : 'none');
  for (const x of [at(0, 1), at(null, 1), at(1, 1)]) assert.ok((await jump.textContent()).includes(x.toFixed(3)), `${x} in the jump's sentence`);
  const kind = Math.min(at(1, 3), at(4, 3)) < at(0, 3) ? 'helped' : 'none';
  const sinkSentence = page.locator(`${W} [data-part="sinks"]`);
  assert.equal(await sinkSentence.getAttribute('data-kind'), kind);
  for (const s of [0, 1, 4]) assert.ok((await sinkSentence.textContent()).includes(at(s, 3).toFixed(3)), `the mean past the context with ${s} sinks`);
  const firsts = run.sinks.first.map((f) => f.weight);
  assert.equal(firsts.length, 8);
  const first = await page.locator(`${W} [data-part="first"]`).textContent();
  assert.ok(first.includes(Math.min(...firsts).toFixed(2)) && first.includes(Math.max(...firsts).toFixed(2)) && first.includes('“first”'), first);
  assert.equal(page.workers().length, 0, 'the worker ended with the run');
}));

test('windows: the URL restores the section alone and on the full page', async () => {
  const cells = prefix(3).map((m, k) => (k === 5 ? 1 : m)).join('');
  await withPage(browser, `embed.html?widget=windows&preset=custom&cells=${cells}&seed=2`, async ({ page }) => {
    await ready(page);
    await assertGrid(page, expected({ mask: Array.from(cells, Number) }, 2), 'custom from the URL');
  });
  await withPage(browser, '?windows.preset=window&windows.w=2&windows.seed=5&windows.costWindow=4096', async ({ page }) => {
    await whenReady(`main ${W}`)(page);
    assert.equal(await page.locator(`main ${W} input[type="radio"][value="window"]`).isChecked(), true);
    assert.equal(await page.locator(`main ${W} select`).inputValue(), '4096');
    const shown = await page.locator(`main ${W} .win-cell`).evaluateAll((cs) => cs.map((b) => Number(b.dataset.allowed)));
    assert.deepEqual(shown, expected({ causal: true, window: 2 }, 5).mask);
  });
});

test('windows in Chinese: its words, no error; your own mask starts causal; a bad mask in the URL is a message', async () => {
  await withPage(browser, 'embed.html?widget=windows&lang=zh', async ({ page }) => {
    await ready(page);
    assert.equal(await page.locator(`${W} .widget-title`).textContent(), '窗口与汇聚点');
    assert.equal(await page.locator(`${W} [data-action="generate"]`).textContent(), '训练两个模型并生成');
    assert.match(await page.locator(`${W} [data-part="cost"]`).textContent(), /在 n = 16,384 时/);
  });
  await withPage(browser, 'embed.html?widget=windows&preset=custom', async ({ page }) => {
    await ready(page);
    await assertGrid(page, expected({ causal: true }), 'your own before any click: causal');
  });
  await withPage(browser, 'embed.html?widget=windows&preset=custom&cells=0101', async ({ page }) => {
    await page.locator(`${W} .widget-error:not([hidden])`).waitFor();
    assert.match(await page.locator(`${W} .widget-error`).textContent(), /144 digits 0 or 1/);
  });
});
