// Browser test of the "flash" widget (web/widgets/flash/): the tile outlined
// and the running maximum, factor and sum shown at each step are the core's
// trace for the same inputs (flashAttention in this process); Step, Back,
// Start and the keys move through it, and the URL keeps the step; at the last
// tile the output shown is the core's and the difference printed from
// attention()'s is the core's, at most 1e-5; a row chosen shows its weights
// recovered from the saved log-sum-exp, equal to the full matrix's row; the
// memory measurement runs in a worker from its button, leaves the page free,
// and finds the full chain stopping below the tiled kernel; Stop ends it; a
// link restores the state; English and Chinese render clean.
//   node --test tests/browser/flash.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { assertShown, eventually, startBrowser, whenReady, withPage } from './harness.mjs';

const W = '[data-widget="flash"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });
const ready = whenReady(W);

// The widget's inputs and the core's answers for a state, in this process.
function expected({ seed = 1, blockRows = 4, blockCols = 4, causal = false } = {}) {
  const [query, key, value] = [[8, 0], [12, 1], [12, 2]].map(([n, stream]) => att.initUniform(n, 4, seed, 2, stream));
  const flash = att.flashAttention({ query, key, value, causal, blockRows, blockCols, trace: true });
  const full = att.attention({ query, key, value, causal });
  const recovered = (row) => att.weightsFromLogSumExp({ query, key, logSumExp: flash.logSumExp, rows: [row], causal }).weights;
  return { flash, full, recovered, diff: att.maxAbsDifference(flash.output, full.output) };
}

// "8.9 × 10⁻⁸" (formatPower) -> 8.9e-8; "0" -> 0
const SUPER = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function parsePower(text) {
  const t = text.replace(/\u00a0/g, ' ').replace(/\u2212/g, '-');
  const m = /(-?\d+(?:\.\d+)?) × 10([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/.exec(t);
  if (!m) return /(^|\s)0(\s|;|,|\.|$)/.test(t) ? 0 : NaN;
  const e = [...m[2]].map((c) => (c === '⁻' ? '-' : SUPER.indexOf(c))).join('');
  return Number(m[1]) * 10 ** Number(e);
}

const current = (page) => page.locator(`${W} .flash-current`);
async function shownTile(page) {
  if (await current(page).count() === 0) return null;
  return current(page).evaluate((r) => ['row0', 'col0', 'rows', 'cols'].map((k) => Number(r.dataset[k])));
}
const tileOf = (tile) => [tile.row0, tile.col0, tile.rows, tile.cols];

// the table of the tile's rows shows the trace's running values
async function assertTileShown(page, tile, what) {
  await eventually(async () => JSON.stringify(await shownTile(page)) === JSON.stringify(tileOf(tile)), { message: `${what}: tile ${tileOf(tile)}` });
  const rows = page.locator(`${W} .flash-table tbody tr`);
  assert.equal(await rows.count(), tile.rows, `${what}: one row per query of the tile`);
  for (let r = 0; r < tile.rows; r++) {
    const row = rows.nth(r);
    assert.equal(await row.getAttribute('data-row'), String(tile.row0 + r));
    const cell = (field) => row.locator(`[data-field="${field}"]`).textContent();
    const max = async (field, x) => (x === -Infinity ? assert.equal(await cell(field), '−∞', `${what}: ${field}`) : assertShown(await cell(field), x, 3, `${what}: ${field} ${r}`));
    await max('max-before', tile.maxBefore[r]);
    await max('max-after', tile.maxAfter[r]);
    const factor = await cell('rescale');  // 4 decimals, or a power of ten below 0.001
    if (factor.includes('×')) assert.ok(Math.abs(parsePower(factor) - tile.rescale[r]) <= 0.005 * tile.rescale[r], `${what}: rescale ${r} ${factor}`);
    else assertShown(factor, tile.rescale[r], 4, `${what}: rescale ${r}`);
    assertShown(await cell('sum-before'), tile.sumBefore[r], 4, `${what}: sum before ${r}`);
    assertShown(await cell('sum-after'), tile.sumAfter[r], 4, `${what}: sum after ${r}`);
  }
}

const press = (page, action) => page.locator(`${W} [data-action="${action}"]`).click();
const stepInUrl = (page) => new URL(page.url()).searchParams.get('step');

test('Step, Back, Start and the keys move the tile outlined and the running values shown, as the core\'s trace', () => withPage(browser, 'embed.html?widget=flash', async ({ page }) => {
  await ready(page);
  const { flash } = expected();
  const tiles = flash.tiles;
  assert.equal(tiles.length, 6, 'a 4 × 4 tile over 8 queries and 12 keys: 6 visits');
  assert.equal(await shownTile(page), null, 'no tile before the first step');
  assert.match(await page.locator(`${W} [data-part="status"]`).textContent(), /^6 tiles to read/);
  await press(page, 'step');
  await assertTileShown(page, tiles[0], 'step 1');
  assert.match(await page.locator(`${W} [data-part="status"]`).textContent(), /^Tile 1 of 6: queries 1–4 against keys 1–4\. These rows see their first keys/);
  await press(page, 'step');
  await assertTileShown(page, tiles[1], 'step 2');
  // the second tile of a row block starts from where the first left each row
  assert.deepEqual(Array.from(tiles[1].sumBefore), Array.from(tiles[0].sumAfter));
  assert.equal(stepInUrl(page), '2', 'the step in the URL');
  await press(page, 'back');
  await assertTileShown(page, tiles[0], 'back to step 1');
  // the keys, from the step bar: → and ← step, End and Home jump
  await page.locator(`${W} [data-action="step"]`).focus();
  await page.keyboard.press('ArrowRight');
  await assertTileShown(page, tiles[1], '→');
  await page.keyboard.press('ArrowRight');
  await assertTileShown(page, tiles[2], '→ again');
  await page.keyboard.press('ArrowLeft');
  await assertTileShown(page, tiles[1], '←');
  await page.keyboard.press('End');
  await assertTileShown(page, tiles[5], 'End');
  assert.ok(await page.locator(`${W} [data-action="step"]`).isDisabled(), 'no step past the last tile');
  await page.locator(`${W} [data-action="back"]`).focus();
  await page.keyboard.press('Home');
  await eventually(async () => (await shownTile(page)) === null, { message: 'Home: back to the start' });
  assert.equal(stepInUrl(page), '0');
  // a tile whose rows' maximum rose: the row named, its factor the core's
  const risen = tiles.findIndex((t, k) => k > 0 && Array.from(t.rescale).some((x, r) => x < 1 && t.maxBefore[r] !== -Infinity));
  assert.ok(risen > 0, 'some tile raises a maximum');
  for (let k = 0; k <= risen; k++) await press(page, 'step');
  await assertTileShown(page, tiles[risen], `step ${risen + 1}`);
  const tile = tiles[risen];
  // the row said: the smallest factor below 1 of a row that had a maximum
  let r = -1;
  for (let k = 0; k < tile.rows; k++) {
    if (tile.maxBefore[k] !== -Infinity && tile.rescale[k] < 1 && (r < 0 || tile.rescale[k] < tile.rescale[r])) r = k;
  }
  const status = await page.locator(`${W} [data-part="status"]`).textContent();
  const said = /Row q\S+ maximum rose from (\S+) to (\S+), so its l and o were multiplied by e.+? = (\S+) before/.exec(status.replace(/\u00a0/g, ' '));
  assert.ok(said, status);
  assertShown(said[3], tile.rescale[r], 4, 'the factor said');
  assertShown(said[1], tile.maxBefore[r], 3, 'the maximum before');
  assertShown(said[2], tile.maxAfter[r], 3, 'the maximum after');
}));

test('Play steps on by itself and stops at the last tile; Pause holds it', () => withPage(browser, 'embed.html?widget=flash&blockRows=8&blockCols=4', async ({ page }) => {
  await ready(page);
  const { flash } = expected({ blockRows: 8, blockCols: 4 });
  assert.equal(flash.tiles.length, 3);
  const play = page.locator(`${W} [data-action="play"]`);
  await play.click();
  assert.equal(await play.getAttribute('aria-pressed'), 'true');
  await assertTileShown(page, flash.tiles[0], 'played one tile');
  await play.click();
  assert.equal(await play.getAttribute('aria-pressed'), 'false');
  const held = stepInUrl(page);
  await page.waitForTimeout(2000);
  assert.equal(stepInUrl(page), held, 'paused: no step for 2 s');
  await play.click();
  await assertTileShown(page, flash.tiles[2], 'played to the end');
  await eventually(async () => (await play.getAttribute('aria-pressed')) === 'false', { message: 'Play stops at the end' });
}));

test('at the last tile: o / l is the core\'s output, and the difference from attention() printed is the core\'s, at most 1e-5', () => withPage(browser, 'embed.html?widget=flash&seed=3&blockRows=3&blockCols=5', async ({ page }) => {
  await ready(page);
  const want = expected({ seed: 3, blockRows: 3, blockCols: 5 });
  assert.ok(await page.locator(`${W} [data-part="compare"]`).isHidden(), 'hidden before the end');
  await page.locator(`${W} [data-action="step"]`).focus();
  await page.keyboard.press('End');
  await assertTileShown(page, want.flash.tiles.at(-1), 'End');
  const compare = page.locator(`${W} [data-part="compare"]`);
  await compare.waitFor();
  const difference = await compare.locator('[data-field="difference"]').textContent();
  const shown = parsePower(difference);
  assert.ok(shown <= 1e-5, `the difference printed, ${difference}`);
  assert.ok(Math.abs(shown - want.diff) <= Math.max(0.05 * want.diff, 1e-12), `the core's difference ${want.diff}, shown ${difference}`);
  // the tiled output, cell by cell, and attention()'s beside it
  const tables = compare.locator('table.matrix');
  for (const [k, m] of [[0, want.flash.output], [1, want.full.output]]) {
    const cells = await tables.nth(k).locator('tbody td').allTextContents();
    assert.equal(cells.length, 32);
    m.data.forEach((x, i) => assertShown(cells[i], x, 4, `output ${k}, entry ${i}`));
  }
  // the quiz answers from the same difference
  await page.locator(W).getByRole('radio', { name: want.diff === 0 ? /^Exactly the same/ : /^The same up to float rounding/ }).check();
  await page.locator(W).getByRole('button', { name: 'Reveal' }).click();
  assert.match(await page.locator(`${W} .quiz-answer`).textContent(), /^Your guess: .*Right! The core’s largest difference is/);
}));

test('a row chosen: its weights recovered from the saved log-sum-exp equal the full matrix\'s row', () => withPage(browser, 'embed.html?widget=flash', async ({ page }) => {
  await ready(page);
  const want = expected();
  const assertRow = async (row) => {
    const recover = page.locator(`${W} [data-part="recover"]`);
    await eventually(async () => (await recover.locator(`[data-action="row-${row}"]`).getAttribute('aria-pressed')) === 'true', { message: `row ${row} chosen` });
    await eventually(async () => (await recover.locator('caption').count()) === 1 && /q/.test(await recover.locator('caption').textContent()), { message: 'the table' });
    const rows = recover.locator('table.matrix tbody tr');
    const recovered = await rows.nth(0).locator('td').allTextContents(), fullRow = await rows.nth(1).locator('td').allTextContents();
    const core = want.recovered(row).data, full = want.full.weights.data.subarray(row * 12, row * 12 + 12);
    for (let j = 0; j < 12; j++) {
      assertShown(recovered[j], core[j], 4, `recovered weight ${j}`);
      assertShown(fullRow[j], full[j], 4, `the full matrix's weight ${j}`);
    }
    const says = await recover.locator('[data-field="recover-difference"]').textContent();
    const diff = parsePower(says.replace(/^.*by the core: /, ''));
    assert.ok(diff <= 1e-6, `the difference shown: ${says}`);
    assert.ok(Math.abs(diff - att.maxAbsDifference(want.recovered(row), { rows: 1, cols: 12, data: full })) <= 1e-8);
    assertShown(/log-sum-exp of q\S+ is (\S+)\./.exec(says)[1], want.flash.logSumExp[row], 4, 'the log-sum-exp said');
  };
  await page.locator(`${W} [data-action="row-2"]`).click();
  await assertRow(2);
  assert.equal(new URL(page.url()).searchParams.get('row'), '2');
  // a click on a cell of the grid chooses its row
  await page.locator(`${W} .flash-grid .heatmap-cell[data-i="6"][data-j="3"]`).click();
  await assertRow(6);
  await page.locator(`${W} .flash-grid .heatmap-cell[data-i="6"][data-j="3"]`).click();
  await eventually(async () => (await page.locator(`${W} [data-part="recover"] table`).count()) === 0, { message: 'the same row again: none' });
}));

test('the memory measurement: from its button, in a worker, the page free; the full chain stops below the tiled kernel', () => withPage(browser, 'embed.html?widget=flash&maxN=8192', async ({ page }) => {
  await ready(page);
  const status = page.locator(`${W} [data-part="memory-status"]`);
  assert.equal(await status.getAttribute('data-status'), 'idle');
  assert.equal(page.workers().length, 0, 'no worker before the button');
  await press(page, 'measure');
  await eventually(() => page.workers().length === 1, { message: 'a worker', timeout: 10000 });
  // while it runs the page draws frames: a frame comes within a second, twice
  for (let k = 0; k < 2; k++) {
    const ms = await page.evaluate(() => new Promise((done) => { const t0 = performance.now(); requestAnimationFrame(() => done(performance.now() - t0)); }));
    assert.ok(ms < 1000, `a frame after ${ms} ms`);
  }
  await eventually(async () => (await status.getAttribute('data-status')) === 'done', { message: 'the run done', timeout: 120000 });
  await eventually(() => page.workers().length === 0, { message: 'the worker ended', timeout: 10000 });
  const limits = await page.locator(`${W} .flash-limits`).textContent();
  const [, full, kernel] = /n = ([\d,]+);.*n = ([\d,]+)/.exec(limits).map((x) => Number(String(x).replace(/,/g, '')));
  assert.ok(full < kernel, `the full chain's largest n ${full} below the kernel's ${kernel}: ${limits}`);
  assert.equal(kernel, 8192, 'the kernel reaches the largest n asked');
  // the table: the full chain refused the next n, the kernel ran it; at n = full the full chain's heap is larger
  const cell = (n, k) => page.locator(`${W} .flash-memory-table tr[data-n="${n}"] td`).nth(k);
  assert.equal(await cell(full * 2, 0).getAttribute('data-kind'), 'refused');
  assert.match(await cell(full * 2, 0).textContent(), /^refused \([A-Z_]+\)$/);
  assert.equal(await cell(full * 2, 1).getAttribute('data-kind'), 'point');
  const heap = async (k) => Number(/heap ([\d,.]+) MB/.exec(await cell(full, k).textContent())[1].replace(/,/g, ''));
  assert.ok(await heap(0) > 2 * await heap(1), `the full chain's heap ${await heap(0)} MB against the kernel's ${await heap(1)} MB`);
  const finding = await page.locator(`${W} .flash-finding[data-impl="full"]`).textContent();
  assert.match(finding, /the module refused it \([A-Z_]+: .+\)\.$/);
  const check = await page.locator(`${W} [data-field="memory-check"]`).textContent();
  assert.ok(parsePower(check) <= 1e-5, `the outputs agree: ${check}`);
  // again, then Stop: the worker ends in the middle of the run
  await press(page, 'measure');
  await eventually(async () => (await page.locator(`${W} [data-action="measure"]`).textContent()) === 'Stop', { message: 'running again' });
  await press(page, 'measure');
  await eventually(async () => (await status.getAttribute('data-status')) === 'stopped', { message: 'Stop' });
  await eventually(() => page.workers().length === 0, { message: 'no worker after Stop', timeout: 10000 });
  // another largest n chosen while a run goes ends that run; the new n has none yet
  await press(page, 'measure');
  await eventually(() => page.workers().length === 1, { message: 'a worker again', timeout: 10000 });
  await page.locator(`${W} select`).selectOption('2048');
  await eventually(() => page.workers().length === 0, { message: 'no worker after another n', timeout: 10000 });
  await eventually(async () => (await status.getAttribute('data-status')) === 'idle', { message: 'nothing measured for 2,048' });
}));

test('a link restores the state: seed, tile sizes, mask, step and row', () => withPage(browser, 'embed.html?widget=flash&seed=7&blockRows=2&blockCols=3&causal=1&step=5&row=4', async ({ page }) => {
  await ready(page);
  const want = expected({ seed: 7, blockRows: 2, blockCols: 3, causal: true });
  assert.ok(want.flash.tilesSkipped > 0, 'the causal mask hides whole tiles');
  await assertTileShown(page, want.flash.tiles[4], 'step 5 from the link');
  const sliders = await page.locator(`${W} input[type="range"]`).evaluateAll((inputs) => inputs.map((i) => i.value));
  assert.deepEqual(sliders, ['7', '2', '3']);
  assert.ok(await page.locator(W).getByLabel(/Causal mask/).isChecked());
  assert.equal(await page.locator(`${W} [data-action="row-4"]`).getAttribute('aria-pressed'), 'true');
  const recovered = await page.locator(`${W} [data-part="recover"] table.matrix tbody tr`).nth(0).locator('td').allTextContents();
  want.recovered(4).data.forEach((w, j) => assertShown(recovered[j], w, 4, `recovered weight ${j}`));
  await page.locator(`${W} [data-action="start"]`).click();
  assert.match(await page.locator(`${W} [data-part="status"]`).textContent(),
    new RegExp(`^${want.flash.tiles.length} tiles to read; ${want.flash.tilesSkipped} more are hidden entirely by the mask`));
}));

for (const lang of ['en', 'zh']) {
  test(`${lang}: renders and steps to the end with no console error`, () => withPage(browser, `embed.html?widget=flash&lang=${lang}`, async ({ page }) => {
    await ready(page);
    if (lang === 'zh') assert.match(await page.locator(`${W} .widget-title`).textContent(), /分块/);
    await page.locator(`${W} [data-action="step"]`).focus();
    await page.keyboard.press('End');
    await page.locator(`${W} [data-part="compare"]`).waitFor();
    await page.locator(`${W} [data-action="row-0"]`).click();
    await page.locator(`${W} [data-part="recover"] table`).waitFor();
    assert.doesNotMatch(await page.locator('body').innerText(), /\bNaN\b|\bInfinity\b|\bundefined\b/);
  }));
}
