// Browser test of the kv-query widget (web/widgets/kv-query/widget.js): the page shows
// the numbers of the attention core, follows its controls and its URL, and stays
// clean (no console error, no page error, no request outside its origin).
// The example (keys 160..175 cm, values 55..70 kg, query 172, the weights
// 0.1/0.15/0.45/0.3 -> 64.75) is the Chinese introduction to attention's
// ("注意力机制的引入"); the distance kernel is Nadaraya-Watson's, as in Dive
// into Deep Learning, "Attention Pooling by Similarity" (https://d2l.ai).
//   node --test tests/browser/
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { WEB_ROOT } from '../../scripts/serve.mjs';
import { assertClean, assertShown, eventually, openPage, parseShown, startBrowser, withPage, whenReady } from './harness.mjs';

const KEYS = [160, 165, 170, 175];
const VALUES = [55, 60, 65, 70];
const WIDGET = '[data-widget="kv-query"]';

let browser;
let att;  // the same module, in this process: the reference for every number shown

before(async () => {
  [browser, att] = await Promise.all([startBrowser(), createAttention()]);
});
after(async () => { await browser?.close(); });

// The core's answer for one query, as the widget asks for it.
function expected({ q = 172, score = 'gaussian', sigma = 2 } = {}) {
  const options = score === 'article'
    ? { keys: KEYS, values: VALUES, weights: [0.1, 0.15, 0.45, 0.3] }
    : { keys: KEYS, values: VALUES, query: q, score, ...(score === 'gaussian' ? { sigma } : {}) };
  const r = att.kernelRegression(options);
  return { estimate: r.estimate, weights: Array.from(r.weights.data), scores: r.scores && Array.from(r.scores.data) };
}

// What the widget shows, as text (no-break spaces read as spaces).
async function shown(page) {
  const root = page.locator(WIDGET);
  const plain = (text) => text.replace(/\u00a0/g, ' ');
  const texts = async (field) => (await root.locator(`[data-field="${field}"]`).allTextContents()).map(plain);
  return {
    estimate: plain(await root.locator('[data-field="estimate"]').textContent()),
    scores: await texts('score'),
    weights: await texts('weight'),
    contributions: await texts('contribution'),
  };
}

const ready = whenReady(WIDGET);

// Waits until the estimate shows want.estimate, then checks every number against want.
async function assertShows(page, want, what) {
  await eventually(async () => {
    const x = parseShown(await page.locator(`${WIDGET} [data-field="estimate"]`).textContent());
    return Math.abs(x - want.estimate) <= 0.005 + 1e-9;
  }, { message: `${what}: estimate ${want.estimate}` });
  const view = await shown(page);
  assert.match(view.estimate, /\skg$/, `${what}: estimate has its unit`);
  assertShown(view.estimate, want.estimate, 2, `${what}: estimate`);
  assert.equal(view.weights.length, 4);
  want.weights.forEach((w, i) => assertShown(view.weights[i], w, 3, `${what}: weight ${i}`));
  want.weights.forEach((w, i) => assertShown(view.contributions[i], w * VALUES[i], 2, `${what}: contribution ${i}`));
  if (want.scores) want.scores.forEach((s, i) => assertShown(view.scores[i], s, 3, `${what}: score ${i}`));
  else assert.deepEqual(view.scores, ['—', '—', '—', '—'], `${what}: no scores with hand-picked weights`);
  return view;
}

async function assertNoBadNumbers(page) {
  const text = await page.locator('body').innerText();
  assert.doesNotMatch(text, /NaN|Infinity|undefined|null/);
}

test('the default view shows the core\'s Gaussian-kernel estimate for q = 172', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  assert.equal(await page.title(), 'Attention, live — attention-wasm');
  const want = expected();
  const view = await assertShows(page, want, 'default');
  assert.equal(view.estimate, '66.73 kg');
  assert.equal(await page.getByLabel('Query q: height').inputValue(), '172');
  assert.equal(await page.getByLabel('Kernel width σ').inputValue(), '2');
  assert.ok(await page.getByRole('radio', { name: 'Gaussian kernel' }).isChecked());
  const queryShown = await page.locator(`${WIDGET} output.control-value`).first().textContent();
  assert.equal(queryShown.replace(/\u00a0/g, ' '), '172.0 cm');
  assert.match(await page.locator(`${WIDGET} .kv-explain`).textContent(), /Gaussian kernel/);
  assert.equal(await page.getByRole('alert').count(), 0, 'no visible alert');
  await assertNoBadNumbers(page);
}));

test('the query and σ sliders update the estimate and the four weights, and the URL', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  const slider = page.getByLabel('Query q: height');
  await slider.focus();
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowLeft');  // 172 -> 168.5
  assert.equal(await slider.inputValue(), '168.5');
  let view = await assertShows(page, expected({ q: 168.5 }), 'q = 168.5');
  assert.notEqual(view.estimate, '66.73 kg');

  await page.keyboard.press('Home');  // 140: far below every key, the nearest one (160) takes it all
  view = await assertShows(page, expected({ q: 140 }), 'q = 140');
  assert.equal(view.weights[0], '1.000');

  await slider.focus();
  await page.keyboard.press('End');  // 200
  const sigma = page.getByLabel('Kernel width σ');
  await sigma.focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');  // 2 -> 5
  assert.equal(await sigma.inputValue(), '5');
  await assertShows(page, expected({ q: 200, sigma: 5 }), 'q = 200, σ = 5');

  // the state went into the URL (after 39 writes, the last lands within the URL's rate limit, 100 ms),
  // and the URL brings it back
  const inUrl = () => {
    const params = Object.fromEntries(new URL(page.url()).searchParams);
    return [params['kv-query.q'], params['kv-query.score'], params['kv-query.sigma']];
  };
  await eventually(() => inUrl()[2] === '5', { timeout: 2000, message: 'σ = 5 in the URL' });
  assert.deepEqual(inUrl(), ['200', 'gaussian', '5']);
  await page.reload();
  await ready(page);
  await assertShows(page, expected({ q: 200, sigma: 5 }), 'reloaded');
  assert.equal(await slider.inputValue(), '200');
}));

test('a raw dot product gives all the weight to the largest key, 175 cm', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  await page.getByRole('radio', { name: 'Raw dot product q·k' }).check();
  const want = expected({ score: 'dot' });
  assert.deepEqual(want.weights, [0, 0, 0, 1]);
  const view = await assertShows(page, want, 'dot');
  assert.equal(view.estimate, '70.00 kg');
  assert.deepEqual(view.weights, ['0.000', '0.000', '0.000', '1.000']);
  assert.deepEqual(view.scores, ['27,520', '28,380', '29,240', '30,100']);  // 172 · k
  assert.ok(await page.getByLabel('Kernel width σ').isDisabled(), 'σ has no effect on a dot product');
  assert.match(await page.locator(`${WIDGET} .kv-explain`).textContent(), /largest key takes all the weight/);

  // whatever the query
  await page.getByLabel('Query q: height').focus();
  await page.keyboard.press('Home');
  await assertShows(page, expected({ q: 140, score: 'dot' }), 'dot, q = 140');
  assert.equal((await shown(page)).estimate, '70.00 kg');
}));

test('the article\'s weights 0.1, 0.15, 0.45, 0.3 give exactly 64.75 kg', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  await page.getByRole('radio', { name: 'Article’s weights' }).check();
  const want = expected({ score: 'article' });
  assert.equal(want.estimate, 64.75);
  const view = await assertShows(page, want, 'article');
  assert.equal(view.estimate, '64.75 kg');
  assert.deepEqual(view.weights, ['0.100', '0.150', '0.450', '0.300']);
  assert.deepEqual(view.contributions, ['5.50', '9.00', '29.25', '21.00']);
  assert.ok(await page.getByLabel('Query q: height').isDisabled(), 'the query has no effect');
  assert.equal(new URL(page.url()).searchParams.get('kv-query.score'), 'article');
}));

test('the state in the URL is applied: ?q=165&score=dot', () => withPage(browser, '?kv-query.q=165&kv-query.score=dot', async ({ page }) => {
  await ready(page);
  assert.equal(await page.getByLabel('Query q: height').inputValue(), '165');
  assert.ok(await page.getByRole('radio', { name: 'Raw dot product q·k' }).isChecked());
  const view = await assertShows(page, expected({ q: 165, score: 'dot' }), '?kv-query.q=165&kv-query.score=dot');
  assert.equal(view.scores[0], '26,400');  // 165 · 160
  assert.equal(view.estimate, '70.00 kg');
  // loading the page does not rewrite the URL; only a change does
  assert.equal(new URL(page.url()).search, '?kv-query.q=165&kv-query.score=dot');
}));

test('bad values in the URL fall back to the defaults, never to NaN', async () => {
  const cases = [
    ['?kv-query.sigma=-3', {}],
    ['?kv-query.q=abc', {}],
    ['?kv-query.q=abc&kv-query.sigma=-3&kv-query.score=banana', {}],
    ['?kv-query.q=1e999&kv-query.sigma=NaN', {}],
    ['?kv-query.q=&kv-query.sigma=0&kv-query.score=', {}],
    ['?kv-query.q=400&kv-query.sigma=Infinity', {}],
    ['?kv-query.q=165.2&kv-query.sigma=0.5&kv-query.score=gaussian', { q: 165, sigma: 0.5 }],  // q snapped to the 0.5 grid
  ];
  // each alone in its embed (the same state code reads bare keys there); the full page's prefixed keys below
  for (const [search, state] of cases) {
    await withPage(browser, `embed.html?widget=kv-query&${search.slice(1).replaceAll('kv-query.', '')}`, async ({ page }) => {
      await ready(page);
      await assertShows(page, expected(state), search);
      await assertNoBadNumbers(page);
      assert.equal(await page.getByRole('alert').count(), 0, `${search}: no alert`);
    });
  }
  // and the page still works after a bad URL; parameters of others are kept
  await withPage(browser, '?kv-query.q=abc&kv-query.sigma=-3&other=kept', async ({ page }) => {
    await ready(page);
    await page.getByLabel('Query q: height').focus();
    await page.keyboard.press('ArrowRight');
    await assertShows(page, expected({ q: 172.5 }), 'after a bad URL');
    const kept = Object.fromEntries(new URL(page.url()).searchParams);
    assert.deepEqual([kept['kv-query.q'], kept['kv-query.sigma'], kept['kv-query.score'], kept.other], ['172.5', '2', 'gaussian', 'kept']);
  });
});

test('the page works from a subpath', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attention-wasm-subpath-'));
  mkdirSync(join(dir, 'demos'));
  symlinkSync(WEB_ROOT, join(dir, 'demos', 'attention'));
  const sub = await startBrowser({ root: dir });
  try {
    const { page, log } = await openPage(sub, 'demos/attention/?kv-query.score=article');
    await ready(page);
    assert.equal((await shown(page)).estimate, '64.75 kg');
    assertClean(log, sub.origin);
    assert.ok(log.requests.some((u) => u.endsWith('/demos/attention/wasm/attention.mjs')));
  } finally {
    await sub.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('if the core cannot load, the widget says so in an alert', async () => {
  const page = await browser.context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.route('**/wasm/attention.mjs', (route) => route.fulfill({
    status: 200, contentType: 'text/javascript', body: 'export default () => Promise.reject(new Error("no WebAssembly here"));',
  }));
  await page.goto(browser.url);
  const alert = page.locator(WIDGET).getByRole('alert');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.textContent(), /no WebAssembly here/);
  assert.equal(await page.locator(`${WIDGET} [data-field="estimate"]`).textContent(), '', 'no estimate without the core');
  await assertNoBadNumbers(page);
  assert.deepEqual(pageErrors, [], 'the error is shown, not thrown');
  await page.close();
});

// The sentence on the curve beyond the last key, against the core's curve at the plot's edge
// (the largest of the keys and the query, plus 10 cm): "levels off at that key's value" only
// where the curve shows that value there.
test('σ = 10: the curve has not levelled off at the last key\'s value, and the sentence says where it is; σ = 2: it has', () => withPage(browser, 'embed.html?widget=kv-query&sigma=10', async ({ page }) => {
  const yardstick = page.locator(`${WIDGET} [data-part="yardstick"]`);
  await whenReady(WIDGET)(page);
  const edge = att.kernelRegression({ keys: KEYS, values: VALUES, query: 185, score: 'gaussian', sigma: 10 }).estimate;
  assert.ok(70 - edge > 3, `the estimate at 185 cm is ${edge}`);
  const wide = (await yardstick.textContent()).replace(/\u00a0/g, ' ');
  assert.equal(await yardstick.getAttribute('data-end'), 'pulled');
  assert.doesNotMatch(wide, /levels off/);
  assert.ok(wide.includes(`heads for that key’s value, 70 kg, but has not reached it at the plot’s edge: ${edge.toFixed(2)} kg at 185 cm, since with σ = 10.0 cm`), wide);
  await page.goto(new URL('embed.html?widget=kv-query&sigma=2', browser.url).href);
  await whenReady(WIDGET)(page);
  const narrow = (await yardstick.textContent()).replace(/\u00a0/g, ' ');
  assert.equal(await yardstick.getAttribute('data-end'), 'levels');
  assert.match(narrow, /beyond the last key it levels off at that key’s value \(70 kg; 70\.00 kg at 185 cm, the plot’s edge\)/);
  // in Chinese, the same reading at σ = 10
  await page.goto(new URL('embed.html?widget=kv-query&sigma=10&lang=zh', browser.url).href);
  await whenReady(WIDGET)(page);
  assert.ok((await yardstick.textContent()).replace(/\u00a0/g, ' ').includes(`但到图的右端还没有到达：185 cm 处为 ${edge.toFixed(2)} kg`));
}));
