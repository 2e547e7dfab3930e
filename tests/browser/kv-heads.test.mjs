// Browser test of the "kv-heads" widget: the 8 query heads drawn and mapped in
// the colour of the key/value head the core says each reads; the key/value
// heads control changes the grouping, the maps and the URL; the projections'
// parameters and the named model's cache and projections are the core's
// (computed here with att.multiHeadAttention, att.kvCacheBytes and
// att.attentionProjectionParameters); the presets set their
// published figures; a number of key/value heads that does not divide the
// query heads is a message; the training button trains both models in a
// worker and draws two curves, with the core's cache sizes; the URL restores
// the widget alone and on the full page; Chinese renders.
//   node --test tests/browser/kv-heads.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { eventually, mainThreadTasks, parseShown, startBrowser, whenReady, withPage } from './harness.mjs';

const W = '[data-widget="kv-heads"]';
const ready = whenReady(W);
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

const SENTENCE = ['i', 'have', 'a', 'dream'];

// What the widget must show for its toy model: each head's key/value head, the
// four projections' sizes with kvHeads and with one per head, and the heads' maps.
function toy(kvHeads, seed = 1) {
  const X = att.embedTokens({ tokens: SENTENCE, d: 32, seed });
  const r = att.multiHeadAttention({ input: X, heads: 8, kvHeads, seed });
  const size = (m) => m.rows * m.cols;
  const counts = Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((k) => [k, size(r.projections[k])]));
  counts.total = counts.Wq + counts.Wk + counts.Wv + counts.Wo;
  return { groups: r.perHead.map((h) => h.kvHead), counts, weights: r.perHead.map((h) => h.weights), keysDiff: att.maxAbsDifference(r.perHead[0].key, r.perHead[1].key) };
}
const cacheBytes = (layers, kvHeads, headDim, tokens) => att.kvCacheBytes({ layers, kvHeads, headDim, tokens, bytesPerNumber: 2 });

const groupsShown = (page) => page.locator(`${W} .kvh-diagram-box`).getAttribute('data-groups');
async function paramsShown(page) {
  const out = {};
  for (const row of ['Wq', 'Wk', 'Wv', 'Wo', 'total']) {
    out[row] = await page.locator(`${W} .kvh-params-table tr[data-row="${row}"] td`).allTextContents().then((cells) => cells.map(parseShown));
  }
  return out;
}
async function cacheShown(page) {
  const rows = page.locator(`${W} .kvh-cache-table tbody tr`);
  return rows.evaluateAll((trs) => trs.map((tr) => ({ kind: tr.dataset.kind, bytes: Number(tr.dataset.bytes), perToken: Number(tr.dataset.perToken),
    kv: tr.children[1].textContent, shown: tr.children[3].textContent })));
}

// the toy's numbers on the page against the core's, for kvHeads
async function assertToy(page, kvHeads, what, { lang = 'en' } = {}) {
  const want = toy(kvHeads);
  await eventually(async () => (await groupsShown(page)) === want.groups.join(','), { message: `${what}: groups ${want.groups}` });
  // every map framed in its group's colour; as many colours as key/value heads
  const groups = await page.locator(`${W} .kvh-head`).evaluateAll((figures) => figures.map((f) => [f.dataset.group, getComputedStyle(f).borderTopColor]));
  assert.deepEqual(groups.map(([g]) => Number(g)), want.groups, `${what}: the maps' groups`);
  assert.equal(new Set(groups.map(([, color]) => color)).size, kvHeads, `${what}: a colour per key/value head`);
  assert.equal(await page.locator(`${W} .kvh-kv`).count(), kvHeads);
  // the maps' weights, from the heatmaps' labels for screen readers (3 decimals)
  for (const h of [0, 1, 7]) {
    const name = lang === 'en' ? new RegExp(`^Head ${h + 1}: have looks at dream with weight \\S+$`) : new RegExp(`^头 ${h + 1}：have 以权重 \\S+ 看 dream$`);
    const label = await page.locator(`${W} .kvh-head[data-head="${h}"]`).getByRole('img', { name }).first().getAttribute('aria-label');
    const shown = Number(lang === 'en' ? label.split(' ').at(-1) : label.match(/以权重 (\S+) 看 dream/)[1]);
    assert.ok(Math.abs(shown - want.weights[h].data[1 * 4 + 3]) <= 5e-4, `${what}: head ${h + 1}, have -> dream: ${label}`);
  }
  const params = await paramsShown(page);
  for (const row of ['Wq', 'Wk', 'Wv', 'Wo', 'total']) assert.equal(params[row][0], want.counts[row], `${what}: ${row}`);
  const mha = toy(8).counts;
  for (const row of ['Wq', 'Wk', 'Wv', 'Wo', 'total']) assert.equal(params[row][1], mha[row], `${what}: ${row} with 8`);
  // heads 1 and 2: the same keys unless each head has its own, and different maps
  const pair = page.locator(`${W} .kvh-pair`);
  assert.equal(Number(await pair.getAttribute('data-keys')), want.keysDiff);
  assert.equal(want.keysDiff === 0, kvHeads < 8);
  assert.ok(Number(await pair.getAttribute('data-maps')) > 0.01, `${what}: heads 1 and 2 look differently`);
  return want;
}

// the cache table against kvCacheBytes for a model
async function assertCache(page, { layers, heads, kv, dim, tokens }, what) {
  let rows;
  await eventually(async () => {
    rows = await cacheShown(page);
    return rows.length === 3 && rows[0].bytes === cacheBytes(layers, kv, dim, tokens);
  }, { message: `${what}: the cache of ${kv} key/value heads` });
  assert.deepEqual(rows.map((r) => r.kind), ['model', 'mha', 'mqa']);
  assert.deepEqual(rows.map((r) => r.bytes), [cacheBytes(layers, kv, dim, tokens), cacheBytes(layers, heads, dim, tokens), cacheBytes(layers, 1, dim, tokens)]);
  assert.deepEqual(rows.map((r) => r.perToken), [cacheBytes(layers, kv, dim, 1), cacheBytes(layers, heads, dim, 1), cacheBytes(layers, 1, dim, 1)]);
  return rows;
}

// the named model's projections table: the printed counts and the rows' data against attentionProjectionParameters
async function assertProjections(page, { layers, heads, kv, dim }, what) {
  const want = att.attentionProjectionParameters({ layers, heads, kvHeads: kv, headDim: dim });
  const mha = att.attentionProjectionParameters({ layers, heads, kvHeads: heads, headDim: dim });
  const keys = ['Wq', 'Wk', 'Wv', 'Wo', 'perLayer', 'total'];
  let rows;
  await eventually(async () => {
    rows = await page.locator(`${W} .kvh-proj-table tbody tr`).evaluateAll((trs) => trs.map((tr) => ({
      row: tr.dataset.row, model: Number(tr.dataset.model), mha: Number(tr.dataset.mha), shown: [...tr.querySelectorAll('td')].map((td) => td.textContent) })));
    return rows.length === 6 && rows[5].model === want.total;
  }, { message: `${what}: the projections of ${kv} key/value heads` });
  assert.deepEqual(rows.map((r) => r.row), keys);
  for (const [k, r] of rows.entries()) {
    assert.deepEqual([r.model, r.mha], [want[keys[k]], mha[keys[k]]], `${what}: ${keys[k]}`);
    assert.deepEqual(r.shown.map(parseShown), [want[keys[k]], mha[keys[k]]], `${what}: ${keys[k]} as printed`);
  }
  return { want, mha };
}

test('kv-heads: 2 key/value heads by default, the groups, maps and parameters of the core; the Llama 3 8B cache', () => withPage(browser, 'embed.html?widget=kv-heads', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .kvh-groups-part .kvh-heading`).textContent(), /8 query heads, 2 key\/value heads: grouped-query attention/);
  await assertToy(page, 2, 'defaults');
  assert.match(await page.locator(`${W} .kvh-pair`).textContent(), /^Query heads 1 and 2 read the same key\/value head \(4 query heads share each\): the core’s largest difference between their keys is 0\.000/);
  assert.match(await page.locator(`${W} .kvh-params-part .kvh-sentence`).textContent(), /hold 2,560 numbers instead of 4,096, 1,536 fewer \(63% of multi-head’s\)/);
  // Llama 3 8B as published: 32 layers, 32 heads, 8 key/value heads of 128, at 8,192 tokens: 1 GiB
  assert.equal(await page.locator(`${W} [data-action="preset-llama3-8b"]`).getAttribute('aria-pressed'), 'true');
  const rows = await assertCache(page, { layers: 32, heads: 32, kv: 8, dim: 128, tokens: 8192 }, 'Llama 3 8B');
  assert.deepEqual(rows.map((r) => r.shown), ['1.00 GiB', '4.00 GiB', '128.00 MiB']);
  assert.match(await page.locator(`${W} .kvh-cache-part .kvh-sentence`).textContent(),
    /^Llama 3 8B \(32 layers, 32 query heads, 8 key\/value heads of width 128\) keeps 1\.00 GiB of keys and values at 8,192 tokens: 4\.00 times less than the 4\.00 GiB/);
  // its projections: W^Q and W^O 4096 x 4096, W^K and W^V 4096 x 1024, 41,943,040 a layer, 1,342,177,280 in 32
  const { want } = await assertProjections(page, { layers: 32, heads: 32, kv: 8, dim: 128 }, 'Llama 3 8B');
  assert.deepEqual([want.perLayer, want.total], [41943040, 1342177280]);
  assert.deepEqual(await page.locator(`${W} .kvh-proj-table tr[data-row="total"] td`).allTextContents(), ['1,342,177,280', '2,147,483,648']);
  assert.equal(await page.locator(`${W} .kvh-proj-table tr[data-row="total"] th`).textContent(), 'all 32 layers');
  assert.equal(await page.locator(`${W} .kvh-proj-sentence`).textContent(),
    'Llama 3 8B’s attention projections hold 41,943,040 parameters a layer, 1,342,177,280 in its 32 layers: 805,306,368 fewer than the 2,147,483,648 of a key/value head per query head (63% of them). WK and WV are 4.00 times smaller, as the cache is.');
  // the glossary's terms, marked where the section first uses them
  for (const term of ['gqa', 'mqa', 'kvCache']) assert.equal(await page.locator(`${W} .widget-intro button[data-term="${term}"]`).count(), 1, term);
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

test('kv-heads: the key/value heads control regroups the heads and their maps, and writes the URL', () => withPage(browser, 'embed.html?widget=kv-heads', async ({ page }) => {
  await ready(page);
  await page.locator(W).getByRole('radio', { name: '1 (multi-query)' }).check();
  await assertToy(page, 1, 'kvHeads 1');
  assert.equal(new URL(page.url()).searchParams.get('kvHeads'), '1');
  assert.match(await page.locator(`${W} .kvh-groups-part .kvh-heading`).textContent(), /1 key\/value heads: multi-query attention/);
  // from the keyboard: the radio group's arrows go 8 -> 4
  const eight = page.locator(W).getByRole('radio', { name: '8 (multi-head)' });
  await eight.check();
  await assertToy(page, 8, 'kvHeads 8');
  assert.match(await page.locator(`${W} .kvh-pair`).textContent(), /^With a key\/value head per query head, heads 1 and 2 read different keys/);
  assert.match(await page.locator(`${W} .kvh-params-part .kvh-sentence`).textContent(), /hold 4,096 numbers/);
  await eight.focus();
  await page.keyboard.press('ArrowRight');
  await assertToy(page, 4, 'kvHeads 4 from the keyboard');
  assert.equal(new URL(page.url()).searchParams.get('kvHeads'), '4');
}));

test('kv-heads: the presets set their published figures; the reader\'s own figures; a count that does not divide is a message', () => withPage(browser, 'embed.html?widget=kv-heads', async ({ page }) => {
  await ready(page);
  const presets = [
    ['llama2-7b', 'Llama 2 7B', { layers: 32, heads: 32, kv: 32, dim: 128 }],
    ['llama2-70b', 'Llama 2 70B', { layers: 80, heads: 64, kv: 8, dim: 128 }],
    ['mistral-7b', 'Mistral 7B', { layers: 32, heads: 32, kv: 8, dim: 128 }],
  ];
  for (const [id, label, model] of presets) {
    await page.locator(`${W} [data-action="preset-${id}"]`).click();
    await assertCache(page, { ...model, tokens: 8192 }, label);
    await assertProjections(page, model, label);
    assert.equal(await page.locator(`${W} [data-action="preset-${id}"]`).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator(W).getByLabel('Layers').inputValue(), String(model.layers));
    assert.ok((await page.locator(`${W} .kvh-cache-part .kvh-sentence`).textContent()).startsWith(label));
    assert.equal(new URL(page.url()).searchParams.get('preset'), id);
  }
  // Llama 2 7B has a key/value head per query head: its sentence says so
  await page.locator(`${W} [data-action="preset-llama2-7b"]`).click();
  await eventually(async () => /each with its own key\/value head/.test(await page.locator(`${W} .kvh-cache-part .kvh-sentence`).textContent()), { message: 'Llama 2 7B' });
  // the reader's own: 131,072 tokens, 16 key/value heads; no preset pressed any more
  await page.locator(W).getByLabel('Tokens kept').selectOption('131072');
  await page.locator(W).getByLabel('Key/value heads', { exact: true }).selectOption('16');
  await assertCache(page, { layers: 32, heads: 32, kv: 16, dim: 128, tokens: 131072 }, 'own figures');
  await assertProjections(page, { layers: 32, heads: 32, kv: 16, dim: 128 }, 'own figures');
  assert.equal(await page.locator(`${W} .kvh-presets [aria-pressed="true"]`).count(), 0);
  assert.match(await page.locator(`${W} .kvh-cache-part .kvh-sentence`).textContent(), /^This model \(32 layers, 32 query heads, 16 key\/value heads of width 128\) keeps 32\.00 GiB/);
  // 40 key/value heads for 32 query heads: a message, no number
  await page.locator(W).getByLabel('Key/value heads', { exact: true }).selectOption('40');
  const alert = page.locator(`${W} .widget-error`);
  await eventually(async () => /cannot be shared evenly by 32 query heads/.test(await alert.textContent()), { message: 'the message' });
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

test('kv-heads: the button trains both models in a worker and draws two loss curves and the core\'s caches', () => withPage(browser, 'embed.html?widget=kv-heads', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .kvh-train-status`).textContent(), /Not trained yet/);
  const start = Date.now();
  await page.locator(`${W} [data-action="train"]`).click();
  // the worker keeps the page's thread free: no task over 50 ms of thread time while both train
  await eventually(async () => Number(await page.locator(`${W} .kvh-train-status`).getAttribute('data-step')) > 0, { timeout: 30000, message: 'training started' });
  const cdp = await page.context().newCDPSession(page);
  const tasks = await mainThreadTasks(cdp, () => page.waitForTimeout(1500));
  assert.ok(tasks.length > 10, `the trace holds the page's tasks (${tasks.length})`);
  assert.deepEqual(tasks.filter((task) => task.ms > 50).map((task) => task.ms.toFixed(1)), [], 'no long task on the main thread while training (thread time, ms)');
  await page.locator(`${W} .kvh-sentence[data-done="true"]`).waitFor({ timeout: 90000 });
  const seconds = (Date.now() - start) / 1000;
  assert.ok(seconds < 60, `trained in ${seconds} s`);
  assert.equal(await page.locator(`${W} .kvh-loss polyline.plot-line`).count(), 2);
  assert.equal(await page.locator(`${W} .kvh-loss`).getAttribute('data-step'), '200');
  // the worker, not slices on the page
  assert.doesNotMatch(await page.locator(`${W} .kvh-train-status`).textContent(), /on the page/);
  const row = (name) => page.locator(`${W} .kvh-trained-table tr[data-row="${name}"] td`).allTextContents();
  assert.deepEqual(await page.locator(`${W} .kvh-trained-table thead th`).allTextContents(), ['model with', 'key/value heads: 4', 'key/value heads: 1']);
  // 2 layers, 4 and 1 key/value heads of width 4, a context of 16 characters
  const numbers = (kv) => att.kvCacheBytes({ layers: 2, kvHeads: kv, headDim: 4, tokens: 16, bytesPerNumber: 1 });
  assert.deepEqual((await row('cacheNumbers')).map(parseShown), [numbers(4), numbers(1)]);
  assert.deepEqual(await row('cacheBytes'), ['4.00 KiB', '1.00 KiB']);
  for (const loss of (await row('heldOut')).map(parseShown)) assert.ok(loss > 1 && loss < 3, `held-out loss ${loss}`);
  const [p4, p1] = (await row('parameters')).map(parseShown);
  assert.ok(p4 > p1, `the model with 4 key/value heads has more parameters: ${p4} and ${p1}`);
  assert.match(await page.locator(`${W} .kvh-train-part .kvh-sentence`).textContent(), /^After 200 steps the held-out loss is \d\.\d{3} with 4 key\/value heads and \d\.\d{3} with 1\. .* keeps 1,024 numbers .* and 256 .*: 4\.00 times less\.$/);
  assert.match(await page.locator(`${W} [data-action="train"]`).textContent(), /Train both again/);
}));

test('kv-heads: the URL restores the widget alone and on the full page', async () => {
  const state = { kvHeads: '4', preset: 'llama2-70b', layers: '80', modelHeads: '64', modelKv: '8', headDim: '128', tokens: '32768' };
  const model = { layers: 80, heads: 64, kv: 8, dim: 128, tokens: 32768 };
  await withPage(browser, `embed.html?widget=kv-heads&${new URLSearchParams(state)}`, async ({ page }) => {
    await ready(page);
    await assertToy(page, 4, 'from the URL');
    assert.ok(await page.locator(W).getByRole('radio', { name: '4 (grouped)' }).isChecked());
    await assertCache(page, model, 'from the URL');
    assert.equal(await page.locator(`${W} [data-action="preset-llama2-70b"]`).getAttribute('aria-pressed'), 'true');
  });
  await withPage(browser, 'embed.html?widget=kv-heads&kvHeads=2', async ({ page }) => {
    await ready(page);
    await assertToy(page, 2, 'kvHeads=2');
  });
  const search = new URLSearchParams(Object.entries(state).map(([key, value]) => [`kv-heads.${key}`, value]));
  await withPage(browser, `?${search}`, async ({ page }) => {
    await ready(page);
    await assertToy(page, 4, 'the full page');
    await assertCache(page, model, 'the full page');
  });
});

test('kv-heads in Chinese: its words, the same numbers, no error', () => withPage(browser, 'embed.html?widget=kv-heads&lang=zh', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /分组的键/);
  assert.match(await page.locator(`${W} .kvh-groups-part .kvh-heading`).textContent(), /8 个查询头，2 个键值头：分组查询注意力/);
  await assertToy(page, 2, 'zh', { lang: 'zh' });
  await assertCache(page, { layers: 32, heads: 32, kv: 8, dim: 128, tokens: 8192 }, 'zh');
  assert.match(await page.locator(`${W} .kvh-cache-part .kvh-sentence`).textContent(), /^Llama 3 8B（32 层/);
  await assertProjections(page, { layers: 32, heads: 32, kv: 8, dim: 128 }, 'zh');
  assert.match(await page.locator(`${W} .kvh-proj-sentence`).textContent(), /^Llama 3 8B 的注意力投影每层有 41,943,040 个参数，32 层共 1,342,177,280 个/);
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));
