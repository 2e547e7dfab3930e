// Browser test of the speed widget (web/widgets/speed/widget.js): nothing runs before
// the Run button; a run fills the table, the plot, the slopes and the check.
// Timings are never asserted (the machine is shared and noisy): what is checked
// is that the page is consistent with itself: each ratio is JS ÷ kernel of the
// times shown, each slope a least-squares fit of the times shown, one plotted
// point per time; and that both outputs agree (max |difference| < 1e-4); and
// that the sentence on the ratios claims only what the shown ratios support,
// here and with given timings (a run whose ratios go up and down).
//   node --test tests/browser/speed.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertClean, eventually, openPage, startBrowser, withPage, whenReady } from './harness.mjs';
import { runOf } from '../../web/widgets/speed/fixture.js';

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

// The sentence under the slopes says what the shown ratios support (each to
// its rounding): a direction only when every step goes that way (grows, falls)
// or the core's fit of the ratio is good (growsFit, fallsFit: its slope and r²
// named), a constant factor only within 1.25 times, else the range ("mixed").
// "widens" and "narrows" appear in no other kind.
function assertTrendHolds(kind, text, rows) {
  const both = rows.filter((r) => r.ratio !== null);
  const ratios = both.map((r) => r.ratio), slack = both.map((r) => halfUlp(r.texts.ratio));
  const up = ratios.slice(1).every((r, i) => r + slack[i + 1] >= ratios[i] - slack[i]);
  const down = ratios.slice(1).every((r, i) => r - slack[i + 1] <= ratios[i] + slack[i]);
  const [first, last] = [both[0], both.at(-1)];
  const low = Math.min(...ratios), high = Math.max(...ratios);
  if (kind === 'grows' || kind === 'falls') {
    assert.ok(kind === 'grows' ? up && last.ratio > first.ratio : down && last.ratio < first.ratio, `${kind}: ${ratios}`);
    assert.ok(text.includes(`${first.texts.ratio} the kernel’s time at n = ${first.n.toLocaleString('en-US')}`), text);
  } else if (kind === 'steady') {
    assert.ok(high - slack[ratios.indexOf(high)] <= 1.25 * (low + slack[ratios.indexOf(low)]), `steady: ${ratios}`);
  } else if (kind === 'growsFit' || kind === 'fallsFit') {
    assert.ok(kind === 'growsFit' ? last.ratio > first.ratio : last.ratio < first.ratio, `${kind}: ${ratios}`);
    assert.ok(Number(/\(r² = (\d\.\d{3})\)/.exec(text)[1]) >= 0.8, text);
  } else {
    assert.equal(kind, 'mixed');
    const lowest = both[ratios.indexOf(low)];
    assert.ok(text.includes(`between ${lowest.texts.ratio} (at n = ${lowest.n.toLocaleString('en-US')})`), text);
  }
  if (!/^grows/.test(kind)) assert.doesNotMatch(text, /widens/);
  if (!/^falls/.test(kind)) assert.doesNotMatch(text, /narrows/);
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
  // the sentence on what they show: its kind is one the shown ratios support
  const trend = page.locator(`${WIDGET} [data-part="trend"]`);
  const trendText = (await trend.textContent()).replace(/\u00a0/g, ' ');
  assertTrendHolds(await trend.getAttribute('data-trend'), trendText, rows);
  assert.ok(trendText.includes(`our kernel ${m[3]}, the JS loop ${m[1]}`) || /slope \d\.\d\d \(r² = /.test(trendText), trendText);

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

// The widget given timings instead of taking them: mounted on the page
// (runtime.js) with a finished run in its state, as a run reports it.
async function mountWithRun(page, run) {
  await page.evaluate(async (given) => {
    const { mountWidget } = await import('./runtime/runtime.js');
    const { useStrings } = await import('./i18n/i18n.js');
    const def = await import('./widgets/speed/widget.js');
    useStrings('en', 'speed', (await import('./widgets/speed/en.js')).default);  // its words, as runtime/mount.js gives them
    const root = document.createElement('div');
    root.id = 'given';
    document.body.append(root);
    mountWidget(root, def, { state: { d: String(given.d), maxN: String(given.maxN), run: given }, embedded: true });
  }, run);
  const trend = page.locator('#given [data-part="trend"]');
  await eventually(async () => Boolean(await trend.getAttribute('data-trend')), { message: 'the given run drawn' });
  return { kind: await trend.getAttribute('data-trend'), text: (await trend.textContent()).replace(/\u00a0/g, ' ') };
}

test('given timings whose ratios go up and down (3.6, 22, 31, 18, 20, 123): no "widens", their range instead', () => withPage(browser, 'embed.html?widget=speed', async ({ page }) => {
  await ready(page);
  const mixed = await mountWithRun(page, runOf([3.6, 22, 31, 18, 20, 123]));
  assert.equal(mixed.kind, 'mixed');
  assert.doesNotMatch(mixed.text, /widen|narrow|constant factor/);
  assert.match(mixed.text, /goes up and down with n, and the numbers support no trend: the JS loop takes between 3\.60× \(at n = 32\) and 123× \(at n = 1,024\) the kernel’s time/);
  // the rows are the given times, each the median of 7 batches
  const cells = await page.locator('#given .sp-table tbody tr[data-n="1024"] td').evaluateAll((tds) => tds.map((td) => [td.textContent, td.title]));
  assert.deepEqual(cells[2], ['123×', '']);
  assert.equal(cells[1][1], 'the median of 7 batches of calls');
  // the same widget, ratios that rise at every step: "widens at every step", with both ends
  await page.evaluate(() => document.getElementById('given').remove());
  const rising = await mountWithRun(page, runOf([3.6, 5, 7.5, 11, 15, 21]));
  assert.equal(rising.kind, 'grows');
  assert.match(rising.text, /the gap widens at every step of n: the JS loop takes 3\.60× the kernel’s time at n = 32 and 21\.0× at n = 1,024/);
}));
