// Browser tests of the "positions" section: nothing trains before the button;
// the five models train in a worker and the table, the plot and the findings
// show exactly what the same experiment gives in Node (the core is
// deterministic), each finding's kind decided again here from those numbers;
// learned positions refused past the context; another step count stops a
// run; the URL restores the section alone and on the full page; Chinese.
//   node --test tests/browser/positions.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { POSITIONS, runExperiment } from '../../web/widgets/positions/experiment.js';
import { startBrowser, whenReady, withPage } from './harness.mjs';

const W = '[data-widget="positions"]';
const ready = whenReady(W);
let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const HOLD = 0.15;  // the widget's method note: "at 4x at most 0.15 above its loss at 1x"
const three = (x) => x.toFixed(3);

// The same experiment in Node, and each model's finding decided from its numbers.
async function expected(steps, seed) {
  const run = await runExperiment(createAttention, `${browser.url}data/names.json`, { steps, seed }, () => {});
  const kinds = run.models.map((m) => {
    const read = m.losses.filter((l) => l.loss !== undefined);
    if (m.losses.some((l) => l.refused)) return 'stops';
    if (read.at(-1).loss >= run.unigram) return 'worse';
    return read.at(-1).loss <= read[0].loss + HOLD ? 'held' : 'rose';
  });
  return { run, kinds };
}

test('positions: nothing trains before the button; then the five models of the Node run, their findings decided from the numbers, learned refused past 16', () => withPage(browser, 'embed.html?widget=positions&steps=200&seed=2', async ({ page }) => {
  await ready(page);
  const status = page.locator(`${W} .pos-status`);
  assert.equal(await status.getAttribute('data-status'), 'idle');
  assert.equal(page.workers().length, 0, 'no worker before the button');
  assert.equal(await page.locator(`${W} .pos-plot`).isVisible(), false);
  assert.equal(await page.locator(`${W} .pos-table`).isVisible(), false, 'no table of losses before a run');
  const want = expected(200, 2);
  await page.locator(`${W} [data-action="train"]`).click();
  await page.locator(`${W} .pos-status[data-status="done"]`).waitFor({ timeout: 120000 });
  const { run, kinds } = await want;
  assert.deepEqual(run.models.map((m) => m.position), POSITIONS);

  // the table: every loss the Node run gave, to 3 decimals, and — where the core refused
  const rows = await page.locator(`${W} .pos-table tbody tr`).evaluateAll((trs) => trs.map((tr) => [tr.dataset.position, [...tr.querySelectorAll('td')].map((td) => td.textContent)]));
  assert.deepEqual(rows, run.models.map((m) => [m.position, m.losses.map((l) => (l.loss === undefined ? '—' : three(l.loss)))]));
  const learned = run.models.find((m) => m.position === 'learned');
  assert.ok(learned.losses[0].loss !== undefined && learned.losses.slice(1).every((l) => l.refused?.code === 'BAD_ARGUMENT'), 'learned: read at 16, refused at 32, 48, 64');

  // the findings: one per model, of the kind its numbers give, with its numbers; the lowest at 64
  const findings = await page.locator(`${W} .pos-finding[data-position]`).evaluateAll((ps) => ps.map((p) => [p.dataset.position, p.dataset.kind, p.textContent]));
  assert.deepEqual(findings.map(([p, k]) => [p, k]), POSITIONS.map((p, i) => [p, kinds[i]]));
  for (const [position, kind, text] of findings) {
    const m = run.models.find((x) => x.position === position);
    assert.ok(text.includes(three(m.losses[0].loss)), `${position}: its loss at 16 in "${text}"`);
    if (kind !== 'stops') assert.ok(text.includes(three(m.losses[3].loss)), `${position}: its loss at 64 in "${text}"`);
    else assert.match(text, /past 16 characters.*BAD_ARGUMENT/);
  }
  const reached = run.models.filter((m) => m.losses[3].loss !== undefined);
  const best = reached.reduce((a, b) => (b.losses[3].loss < a.losses[3].loss ? b : a));
  assert.ok((await page.locator(`${W} [data-field="best"]`).textContent()).includes(three(best.losses[3].loss)), 'the lowest at 4x');

  // the plot: a point per loss read (and one in each model's legend swatch), a line per model read at
  // more than one length and the unigram's
  const plot = page.locator(`${W} .pos-plot .plot.is-wide`);
  const read = run.models.map((m) => m.losses.filter((l) => l.loss !== undefined).length);
  assert.equal(await plot.locator('circle').count(), read.reduce((a, b) => a + b, 0) + run.models.length);
  assert.equal(await plot.locator('.plot-line').count(), read.filter((k) => k > 1).length + 1);
  assert.ok((await plot.textContent()).includes('unigram'));
  // 375 px wide, the compact plot: its legend under the plot area, clear of the "trained: 16" label and of every line
  await page.setViewportSize({ width: 375, height: 800 });
  const compact = page.locator(`${W} .pos-plot .plot.is-compact`);
  await compact.waitFor({ state: 'visible' });
  const boxes = await compact.evaluate((svg) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
    const label = [...svg.querySelectorAll('text')].find((e) => e.textContent === 'trained: 16');
    return { legend: box(svg.querySelector('.plot-legend')), label: box(label), lines: [...svg.querySelectorAll('.plot-line, circle:not(.plot-swatch)')].map(box) };
  });
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  assert.ok(boxes.legend.bottom - boxes.legend.top > 80, 'the legend\'s six rows drawn');
  assert.ok(!meets(boxes.legend, boxes.label), `the legend ${JSON.stringify(boxes.legend)} clear of the label ${JSON.stringify(boxes.label)}`);
  assert.ok(boxes.lines.length > 10 && boxes.lines.every((b) => !meets(boxes.legend, b)), 'the legend clear of every line and point');
  assert.equal(page.workers().length, 0, 'the worker ended with the run');
}));

test('positions: another step count during a run stops it; the URL restores the section alone and on the full page', async () => {
  await withPage(browser, 'embed.html?widget=positions&steps=800&seed=3', async ({ page }) => {
    await ready(page);
    assert.equal(await page.locator(`${W} select`).inputValue(), '800');
    assert.equal(await page.locator(`${W} input[type="range"]`).inputValue(), '3');
    await page.locator(`${W} [data-action="train"]`).click();
    await page.locator(`${W} .pos-status[data-status="running"]`).waitFor();
    await page.locator(`${W} select`).selectOption('200');
    await page.locator(`${W} .pos-status[data-status="idle"]`).waitFor();
    assert.equal(await page.locator(`${W} [data-action="train"]`).textContent(), 'Train the five models', 'the run for 800 steps stopped, and 200 has none');
    assert.equal(new URL(page.url()).searchParams.get('steps'), '200');
  });
  await withPage(browser, '?positions.steps=800&positions.seed=4', async ({ page }) => {
    await whenReady(`main ${W}`)(page);
    assert.equal(await page.locator(`main ${W} select`).inputValue(), '800');
    assert.equal(await page.locator(`main ${W} input[type="range"]`).inputValue(), '4');
  });
});

test('positions in Chinese: its words, the status before a run, no error', () => withPage(browser, 'embed.html?widget=positions&lang=zh', async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator(`${W} .widget-title`).textContent(), '哪些位置编码能外推');
  assert.match(await page.locator(`${W} .pos-status`).textContent(), /还没有按 400 步训练/);
  assert.equal(await page.locator(`${W} [data-action="train"]`).textContent(), '训练这五个模型');
}));
