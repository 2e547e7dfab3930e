// Browser test of the speed widget (web/widgets/speed.js): nothing runs before
// the Run button; a run fills the table, the plot, the slopes and the check.
// Timings are never asserted (the machine is shared and noisy): what is checked
// is that the page is consistent with itself: each ratio is JS ÷ kernel of the
// times shown, each slope a least-squares fit of the times shown, one plotted
// point per time; and that both outputs agree (max |difference| < 1e-4).
//   node --test tests/browser/speed.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertClean, eventually, openPage, startBrowser, withPage, whenReady } from './harness.mjs';

const WIDGET = '[data-widget="speed"]';
const KERNEL_COLOUR = '#0072b2', JS_COLOUR = '#d55e00';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const ready = whenReady(WIDGET, 20000);
async function run(page) {
  await page.locator(`${WIDGET} [data-part="run"]`).click();
  await page.locator(`${WIDGET} .sp-status[data-status="done"]`).waitFor({ timeout: 60000 });
}

// "1,234" "0.0512" -> the number; "" (not yet), "…" (timing now), "—" (not run) -> null
function parseNumber(text) {
  const t = text.replace(/[,×\u00a0\s]/g, '').replace(/\u2212/g, '-');
  if (t === '' || t === '—' || t === '…') return null;
  assert.match(t, /^-?\d+(\.\d+)?$/, `a number: "${text}"`);
  return Number(t);
}
const decimals = (text) => (text.includes('.') ? text.trim().replace(/×$/, '').split('.')[1].length : 0);
// half a unit of the last shown digit
const halfUlp = (text) => 0.5 * 10 ** -decimals(text);

// The table as shown: [{ n, js, kernel, ratio, texts }]
async function table(page) {
  const rows = await page.locator(`${WIDGET} .sp-table tbody tr`).evaluateAll((trs) => trs.map((tr) => ({
    n: tr.dataset.n,
    js: tr.querySelector('[data-field="js"]').textContent,
    kernel: tr.querySelector('[data-field="kernel"]').textContent,
    ratio: tr.querySelector('[data-field="ratio"]').textContent,
  })));
  return rows.map((r) => ({ n: Number(r.n), js: parseNumber(r.js), kernel: parseNumber(r.kernel), ratio: parseNumber(r.ratio), texts: r }));
}

// least squares of y on x, in float64
function fit(xs, ys) {
  const n = xs.length, mx = xs.reduce((a, b) => a + b) / n, my = ys.reduce((a, b) => a + b) / n;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) { sxx += (xs[i] - mx) ** 2; sxy += (xs[i] - mx) * (ys[i] - my); }
  return sxy / sxx;
}

// "4.2 × 10⁻⁷" -> 4.2e-7; "0" -> 0
function parseSmall(text) {
  if (text === '0') return 0;
  const m = text.replace(/\u00a0/g, ' ').match(/^(\d\.\d) × 10⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/);
  assert.ok(m, `a small number: "${text}"`);
  return Number(m[1]) * 10 ** -Number([...m[2]].map((c) => '⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)).join(''));
}

async function assertNoBadText(page) {
  assert.doesNotMatch(await page.locator('body').innerText(), /\bNaN\b|\bInfinity\b|\bundefined\b|\[object /);
}

test('nothing runs before Run; a run shows ratios, slopes and a plot consistent with its own table', () => withPage(browser, 'embed.html?widget=speed&maxN=512', async ({ page, log }) => {
  await ready(page);
  const status = page.locator(`${WIDGET} .sp-status`);
  assert.equal(await status.getAttribute('data-status'), 'idle');
  assert.ok(await page.locator(`${WIDGET} [data-part="headline"]`).isHidden(), 'no headline before a run');
  assert.deepEqual((await table(page)).map((r) => [r.n, r.js, r.kernel]), [32, 64, 128, 256, 512].map((n) => [n, null, null]));
  await assertNoBadText(page);

  await run(page);
  assert.equal(await page.locator(`${WIDGET} [data-part="run"]`).textContent(), 'Run again');
  assert.match(await status.textContent(), /^Done: 10 timings on this machine\.$/);
  const rows = await table(page);
  assert.deepEqual(rows.map((r) => r.n), [32, 64, 128, 256, 512]);
  for (const r of rows) {
    assert.ok(r.js > 0 && r.kernel > 0, `n = ${r.n}: both timed`);
    // ratio = JS ÷ kernel of the shown times, to their rounding and the ratio's
    const want = r.js / r.kernel;
    const slack = want * (halfUlp(r.texts.js) / r.js + halfUlp(r.texts.kernel) / r.kernel) + halfUlp(r.texts.ratio) + 1e-9;
    assert.ok(Math.abs(r.ratio - want) <= slack, `n = ${r.n}: ratio ${r.texts.ratio}, JS ${r.texts.js} ÷ kernel ${r.texts.kernel} = ${want}`);
  }

  // the slopes: least squares of log time on log n over n >= 128, from the shown table
  const slopes = await page.locator(`${WIDGET} [data-part="slopes"]`).textContent();
  const m = slopes.match(/JS loop (\d\.\d\d) \(r² = (\d\.\d{3})\), our kernel (\d\.\d\d) \(r² = (\d\.\d{3})\)/);
  assert.ok(m, slopes);
  assert.match(slopes, /over the points with n\u00a0≥\u00a0128/);
  assert.match(slopes, /Quadratic, not exponential/);
  const big = rows.filter((r) => r.n >= 128);
  const logs = (key) => big.map((r) => Math.log2(r[key]));
  const x = big.map((r) => Math.log2(r.n));
  for (const [key, shown] of [['js', m[1]], ['kernel', m[3]]]) {
    const want = fit(x, logs(key));
    assert.ok(Math.abs(Number(shown) - want) <= 0.02, `${key}: slope ${shown}, refitted from the table ${want}`);
  }
  for (const r2 of [m[2], m[4]]) assert.ok(Number(r2) >= 0 && Number(r2) <= 1);
  // the sentence on what they show: read from the table's first and last ratios
  // (grows or falls by more than 1.25 times, else steady), naming them and both slopes
  assert.doesNotMatch(slopes, /both lines rise with the same slope/);
  const trend = page.locator(`${WIDGET} [data-part="trend"]`);
  const trendText = (await trend.textContent()).replace(/\u00a0/g, ' ');
  const [first, lastRow] = [rows[0], rows.at(-1)];
  const kind = lastRow.ratio > first.ratio * 1.25 ? 'grows' : lastRow.ratio * 1.25 < first.ratio ? 'falls' : 'steady';
  // the shown ratios are rounded: away from the band's edges the kind is certain
  const edge = Math.abs(Math.log(lastRow.ratio / first.ratio)) - Math.log(1.25);
  if (Math.abs(edge) > 0.05) assert.equal(await trend.getAttribute('data-trend'), kind, trendText);
  const said = await trend.getAttribute('data-trend');
  assert.ok(trendText.includes(`slope ${m[3]} against ${m[1]}`) || trendText.includes(`slopes ${m[3]} and ${m[1]}`), trendText);
  if (said === 'steady') {
    const ratios = rows.map((r) => r.ratio);
    const [low, high] = [rows[ratios.indexOf(Math.min(...ratios))], rows[ratios.indexOf(Math.max(...ratios))]];
    assert.ok(trendText.includes(`between ${low.texts.ratio} and ${high.texts.ratio} the kernel’s time`), trendText);
  } else {
    assert.ok(trendText.includes(`${first.texts.ratio} the kernel’s time at n = 32 and ${lastRow.texts.ratio} at n = 512`), trendText);
    assert.doesNotMatch(trendText, /constant factor\./);
  }

  // the headline: the ratio at the largest n both ran
  const headline = await page.locator(`${WIDGET} [data-part="headline"]`).textContent();
  const last = rows.at(-1);
  assert.ok(headline.includes(`${last.texts.ratio}`), `${headline} names ${last.texts.ratio}`);
  assert.match(headline, /our kernel is [\d.,]+× (faster|slower)|slower than the JS loop/);
  assert.match(headline, /n = 512 and d = 64/);

  // both compute the same thing
  const check = page.locator(`${WIDGET} [data-field="max-diff"]`);
  const diff = (await check.textContent()).match(/is (.+?) \(float32 rounding\)/)[1];
  assert.ok(parseSmall(diff) < 1e-4, `max |difference| ${diff}`);

  // the plot: two series, one point per n each, the slopes in the legend
  const plot = page.locator(`${WIDGET} .sp-plot .plot.is-wide`);
  assert.equal(await plot.locator('polyline').count(), 2);
  assert.equal(await plot.locator(`circle:not(.plot-swatch)[fill="${KERNEL_COLOUR}"]`).count(), rows.length);
  assert.equal(await plot.locator(`circle:not(.plot-swatch)[fill="${JS_COLOUR}"]`).count(), rows.length);
  const legend = (await plot.locator('text').allTextContents()).join(' | ');
  assert.ok(legend.includes(`JS loop, slope ${m[1]}`) && legend.includes(`our kernel, slope ${m[3]}`), legend);
  assert.ok(!(await plot.innerHTML()).includes('NaN'));

  await assertNoBadText(page);
  assert.equal(await page.getByRole('alert').count(), 0);
}));

test('d and the largest n round-trip through the URL; the kernel alone goes past 1,024', () => withPage(browser, 'embed.html?widget=speed&d=128&maxN=2048', async ({ page }) => {
  await ready(page);
  assert.ok(await page.getByRole('radio', { name: '128' }).isChecked());
  assert.equal(await page.getByLabel('Largest n (the JS loop stops at 1,024)').inputValue(), '2048');
  assert.match(await page.locator(`${WIDGET} .sp-table caption`).textContent(), /d = 128$/);
  const rows = await table(page);
  assert.deepEqual(rows.map((r) => r.n), [32, 64, 128, 256, 512, 1024, 2048]);
  assert.equal(rows.at(-1).texts.js, '—', 'no JS loop at 2,048');
  assert.ok(await page.locator(`${WIDGET} .note`).first().isVisible());

  await page.getByRole('radio', { name: '32' }).check();
  await page.getByLabel('Largest n (the JS loop stops at 1,024)').selectOption('256');
  await eventually(async () => (await table(page)).length === 4, { message: 'n up to 256' });
  const params = Object.fromEntries(new URL(page.url()).searchParams);
  assert.deepEqual([params.widget, params.d, params.maxN], ['speed', '32', '256']);
  assert.equal(params.run, undefined, 'measurements stay out of the URL');
  await page.reload();
  await ready(page);
  assert.ok(await page.getByRole('radio', { name: '32' }).isChecked());
  assert.equal((await table(page)).length, 4);

  // on the full page, prefixed; bad values fall back to the defaults
  const full = await openPage(browser, '?speed.d=32&speed.maxN=1024');
  await ready(full.page);
  assert.match(await full.page.locator(`${WIDGET} .sp-table caption`).textContent(), /d = 32$/);
  assert.equal((await table(full.page)).at(-1).n, 1024);
  assert.equal(new URL(full.page.url()).search, '?speed.d=32&speed.maxN=1024');
  const bad = await openPage(browser, '?speed.d=48&speed.maxN=100');
  await ready(bad.page);
  assert.match(await bad.page.locator(`${WIDGET} .sp-table caption`).textContent(), /d = 64$/);
  assert.equal((await table(bad.page)).at(-1).n, 4096);
  for (const p of [full, bad]) {
    assertClean(p.log, browser.origin);
    await p.page.close();
  }
}));

test('Stop keeps what was timed; changing d drops the run; exports hold the table', () => withPage(browser, 'embed.html?widget=speed&maxN=4096&d=128', async ({ page }) => {
  await ready(page);
  const button = page.locator(`${WIDGET} [data-part="run"]`);
  await button.click();
  await eventually(async () => (await table(page)).some((r) => r.kernel !== null), { timeout: 30000, message: 'a first timing' });
  assert.equal(await button.textContent(), 'Stop');
  assert.ok(await page.locator(`${WIDGET} .sp-progress`).isVisible());
  await button.click();
  await page.locator(`${WIDGET} .sp-status[data-status="stopped"]`).waitFor({ timeout: 30000 });
  assert.match(await page.locator(`${WIDGET} .sp-status`).textContent(), /^Stopped after \d+ of 14 timings\.$/);
  assert.equal(await button.textContent(), 'Run again');
  const rows = await table(page);
  assert.ok(rows.some((r) => r.kernel !== null) && rows.some((r) => r.kernel === null), 'some timed, some not');
  assert.ok(await page.locator(`${WIDGET} .sp-progress`).isHidden());
  await assertNoBadText(page);

  // the CSV and JSON: the table as measured
  const [csvFile] = await Promise.all([page.waitForEvent('download'), page.locator(`${WIDGET} [data-export="csv"]`).click()]);
  const csv = (await (await import('node:fs/promises')).readFile(await csvFile.path(), 'utf8')).trim().split(/\r\n/);
  assert.equal(csv[0], 'n,JS loop ms per call,kernel ms per call,ratio JS / kernel,max abs difference');
  assert.equal(csv.length, 1 + 8);
  const [jsonFile] = await Promise.all([page.waitForEvent('download'), page.locator(`${WIDGET} [data-export="json"]`).click()]);
  const json = JSON.parse(await (await import('node:fs/promises')).readFile(await jsonFile.path(), 'utf8'));
  assert.deepEqual(json.state, { d: '128', maxN: '4096' }, 'the state as the URL holds it');
  assert.equal(json.status, 'stopped');
  assert.equal(json.rows.length, 8);
  assert.ok(json.rows.some((r) => typeof r.kernelMs === 'number'));

  // another d: the run belongs to d = 128 and is not shown for d = 64
  await page.getByRole('radio', { name: '64' }).check();
  await eventually(async () => (await page.locator(`${WIDGET} .sp-status`).getAttribute('data-status')) === 'idle', { message: 'idle for d = 64' });
  assert.ok((await table(page)).every((r) => r.js === null && r.kernel === null));
  assert.equal(await button.textContent(), 'Run');
}));

test('in Chinese on a phone: the compact plot, the headline, nothing wider than the screen', () => withPage(browser, 'embed.html?widget=speed&maxN=256&d=32&lang=zh', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator('.widget-title').textContent(), '有多快？我们的内核与普通 JS 循环在你的电脑上比一比');
  await page.locator(`${WIDGET} [data-part="run"]`).click();
  await page.locator(`${WIDGET} .sp-status[data-status="done"]`).waitFor({ timeout: 60000 });
  assert.match(await page.locator(`${WIDGET} [data-part="headline"]`).textContent(), /n = 256、d = 32 时/);
  assert.match(await page.locator(`${WIDGET} [data-part="slopes"]`).textContent(), /是二次方，不是指数/);
  assert.ok(await page.locator(`${WIDGET} .sp-plot .plot.is-compact`).isVisible());
  assert.ok(await page.locator(`${WIDGET} .sp-plot .plot.is-wide`).isHidden());
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await assertNoBadText(page);
}));
