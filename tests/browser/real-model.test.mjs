// Browser test of the real-model widget: the model file loads with a progress
// bar, only once the widget is in view, and from the browser's cache the next
// time; the maps, the top key of a query, the piece view, the 8 heads and the
// sentence similarities show what the module gives in this process for the
// same model file; the URL keeps the view; a missing or corrupt model file is
// a visible message; the script-tag embed finds the model beside embed.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import createAttention from '../../web/wasm/attention.mjs';
import { startBrowser, openPage, assertClean, eventually, assertShown } from './harness.mjs';

const W = '[data-widget="real-model"]';
const MODEL = new URL('../../web/model/encoder.f16.bin', import.meta.url);
const CACHE = 'attention-wasm-model-v1';
const UMBRELLA = 'The woman took her umbrella because it was raining.';
const LOAD = 60000;  // ms: 14 MB, throttled in the first test

let browser, att, encoder;
before(async () => {
  [browser, att] = await Promise.all([startBrowser(), createAttention()]);
  encoder = await att.loadEncoder(readFileSync(MODEL));
});
after(async () => {
  encoder?.delete();
  await browser?.close();
});

async function ready(page) {
  await page.locator(`${W}[data-ready="true"]`).waitFor({ timeout: LOAD });
}

const top = (page, field) => page.locator(`${W} .rm-top [data-field="${field}"]`).textContent();

// the largest weight of row i: [column, weight]
function topOf(m, i) {
  let best = 0;
  for (let j = 1; j < m.cols; j++) if (m.data[i * m.cols + j] > m.data[i * m.cols + best]) best = j;
  return [best, m.data[i * m.cols + best]];
}

// the big map shows m with these labels: every row and column label, every cell to 2 decimals
async function assertMap(page, m, labels, what) {
  const map = page.locator(`${W} .rm-map .heatmap`);
  await eventually(async () => (await map.locator('.heatmap-cell').count()) === labels.length ** 2, { message: `${what}: ${labels.length}² cells` });
  assert.deepEqual(await map.locator('.heatmap-row').allTextContents(), labels, `${what}: row labels`);
  assert.deepEqual(await map.locator('.heatmap-col').allTextContents(), labels, `${what}: column labels`);
  const texts = await map.locator('.heatmap-cell text').allTextContents();
  assert.equal(texts.length, m.data.length, `${what}: a number in every cell`);
  m.data.forEach((w, k) => assertShown(texts[k], w, 2, `${what}: cell ${k}`));
}

async function assertNoBadText(page) {
  assert.doesNotMatch(await page.locator('body').innerText(), /\bNaN\b|\bInfinity\b|\bundefined\b|\[object /);
}

const dot = (a, b) => a.reduce((s, x, k) => s + x * b[k], 0);

test('first visit: a progress bar while 14 MB stream in; then "her" looks most at "woman" in layer 1, head 1', async () => {
  // a page of the site's origin, to empty its cache, then a throttled network for the visit
  const { page, log } = await openPage(browser, 'embed.html?widget=kv-query');
  await page.evaluate((name) => caches.delete(name), CACHE);
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 24 * 1024 * 1024, uploadThroughput: -1 });
  await page.goto(new URL('embed.html?widget=real-model', browser.url).href);

  // while it loads: a determinate bar, the figures in MB
  const progress = page.locator(`${W} progress.rm-progress`);
  let seen = null;
  await eventually(async () => {
    const now = await progress.evaluate((p) => ({ visible: p.checkVisibility(), value: p.value, max: p.max, text: p.nextElementSibling.textContent }));
    if (now.visible && now.value > 0 && now.value < now.max) seen = now;
    return seen !== null;
  }, { timeout: LOAD, interval: 50, message: 'a progress bar part-way' });
  assert.equal(seen.max, readFileSync(MODEL).length, 'the bar runs to the file size (Content-Length)');
  assert.match(seen.text, /^Downloading the model: \d+\.\d of 14\.1 MB$/);
  await ready(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  assert.equal(await page.locator(`${W} .rm-loader`).getAttribute('data-source'), 'network');
  assert.match(await page.locator(`${W} .rm-status`).textContent(), /^Model loaded: 14\.1 MB, downloaded in \d+\.\d s\.$/);
  assert.equal(await progress.isVisible(), false, 'the bar goes once loaded');
  assert.equal(log.requests.filter((url) => url.endsWith('/model/encoder.f16.bin')).length, 1, 'one request for the model');

  // the umbrella sentence, layer 1 head 1 (index 0, 0), words: "her" -> "woman"
  const r = encoder.encode(UMBRELLA);
  const m = r.wordAttention[0][0];
  const her = r.words.indexOf('her');
  const [j, w] = topOf(m, her);
  assert.equal(r.words[j], 'woman', 'the module: layer 0, head 0 sends "her" to "woman"');
  assert.equal(await top(page, 'q'), 'her');
  assert.equal(await top(page, 'k'), 'woman');
  assertShown(await top(page, 'w'), w, 3, 'the weight of "her" -> "woman"');
  await assertMap(page, m, r.words, 'layer 1 head 1, words');
  assert.deepEqual(await page.locator(`${W} .heatmap-cell.is-selected`).evaluate((g) => [g.dataset.i, g.dataset.j]), [String(her), String(j)]);
  assert.match(await page.locator(`${W} .rm-rule`).textContent(), /“raining\.” is one word.*mean of its pieces’ rows.*sum of its pieces’ columns/);
  assert.match(await page.locator(`${W} .rm-about`).textContent(), /Universal Sentence Encoder Lite.*Apache-2\.0.*@energetic-ai\/model-embeddings-en.*not a large language model.*does not resolve hard Winograd cases/s);

  // the sentence similarities: the dot products of the module's embeddings
  const sentences = ['How old are you?', 'What is your age?', 'How are you?'];
  const E = sentences.map((s) => encoder.encode(s).embedding);
  for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
    assertShown(await page.locator(`${W} [data-pair="${a}-${b}"] .rm-sim-value`).textContent(), dot(E[a], E[b]), 2, `similarity ${a}-${b}`);
  }
  await assertNoBadText(page);
  assertClean(log, browser.origin);
  await page.close();
});

test('the 8 heads, the piece view, the keyboard, the similarity box and the URL state', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=real-model');
  await ready(page);
  const r = encoder.encode(UMBRELLA);
  const thumbs = page.locator(`${W} button.rm-thumb`);
  assert.equal(await thumbs.count(), 8, '2 layers x 4 heads');
  assert.equal(await page.locator(`${W} .rm-thumb[aria-pressed="true"]`).getAttribute('aria-label'), 'Layer 1, head 1');

  // another head, by keyboard: the big map follows, the focus stays on the picker
  const pick = page.locator(`${W} .rm-thumb[data-layer="1"][data-head="2"]`);
  await pick.focus();
  await page.keyboard.press('Enter');
  await eventually(async () => (await page.locator(`${W} .rm-map .rm-heading`).textContent()) === 'Layer 2, head 3', { message: 'layer 2 head 3' });
  await assertMap(page, r.wordAttention[1][2], r.words, 'layer 2 head 3, words');
  assert.equal(await pick.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Layer 2, head 3', 'focus kept');
  const her = r.words.indexOf('her');
  const [j, w] = topOf(r.wordAttention[1][2], her);
  assert.equal(await top(page, 'k'), r.words[j]);
  assertShown(await top(page, 'w'), w, 3, 'top weight, layer 2 head 3');

  // the piece view: the model's own pieces, the same query ("▁her")
  await page.locator(W).getByRole('radio', { name: 'Pieces' }).check();
  await assertMap(page, r.attention[1][2], r.pieces, 'layer 2 head 3, pieces');
  assert.ok(['▁u', 'mb', 're', 'lla'].every((p) => r.pieces.includes(p)), 'umbrella is cut into pieces');
  assert.match(await page.locator(`${W} .rm-rule`).textContent(), /“umbrella” is ▁u · mb · re · lla/);
  assert.equal(await top(page, 'q'), '▁her');
  const [pj, pw] = topOf(r.attention[1][2], r.pieces.indexOf('▁her'));
  assert.equal(await top(page, 'k'), r.pieces[pj]);
  assertShown(await top(page, 'w'), pw, 3, 'top weight, pieces');

  // arrow keys move the query; the top key follows
  const cells = page.locator(`${W} .rm-map .heatmap-cell`);
  await page.locator(`${W} .rm-map .heatmap-cell[tabindex="0"]`).focus();
  await page.keyboard.press('ArrowDown');
  const u = r.pieces.indexOf('▁u');
  await eventually(async () => (await top(page, 'q')) === '▁u', { message: 'the query moved to ▁u' });
  assert.equal(await top(page, 'k'), r.pieces[topOf(r.attention[1][2], u)[0]]);
  assert.equal(await cells.count(), r.pieces.length ** 2);
  await page.mouse.move(0, 0);  // off the map: pointing at a cell selects its row

  // the similarity box: edit a sentence, the number follows the module
  const C = page.locator(`${W} .rm-sim-input input`).nth(2);
  await C.fill('I am fine, thanks.');
  const E = ['How old are you?', 'I am fine, thanks.'].map((s) => encoder.encode(s).embedding);
  await eventually(async () => {
    const text = await page.locator(`${W} [data-pair="0-2"] .rm-sim-value`).textContent();
    return Math.abs(Number(text) - dot(E[0], E[1])) <= 0.005 + 1e-9;
  }, { message: 'the A · C similarity of the new sentence' });

  // the URL holds the view; opening it again shows the same
  const params = new URL(page.url()).searchParams;
  assert.deepEqual(['layer', 'head', 'view', 'row', 'simC'].map((k) => params.get(k)), ['1', '2', 'piece', String(u), 'I am fine, thanks.']);
  const again = await openPage(browser, `embed.html?${params}`);
  await ready(again.page);
  assert.equal(await again.page.locator(`${W} .rm-map .rm-heading`).textContent(), 'Layer 2, head 3');
  assert.ok(await again.page.locator(W).getByRole('radio', { name: 'Pieces' }).isChecked());
  assert.equal(await top(again.page, 'q'), '▁u');
  assert.equal(await again.page.locator(`${W} .rm-sim-input input`).nth(2).inputValue(), 'I am fine, thanks.');
  // the second page of this profile read the model from the cache
  assert.equal(await again.page.locator(`${W} .rm-loader`).getAttribute('data-source'), 'cache');
  assert.match(await again.page.locator(`${W} .rm-status`).textContent(), /^Model loaded from this browser’s cache \(14\.1 MB\) in \d+\.\d s\.$/);
  await assertNoBadText(page);
  assertClean(log, browser.origin);
  assertClean(again.log, browser.origin);
  await again.page.close();
  await page.close();
});

test('on the full page the model loads only when the widget comes into view; presets, notes and Chinese', async () => {
  const { page, log } = await openPage(browser, '?lang=zh');
  await page.locator('[data-widget="multi-head"][data-ready="true"]').waitFor();
  const loader = page.locator(`${W} .rm-loader`);
  assert.equal(await loader.getAttribute('data-phase'), 'waiting', 'nothing loads before the widget is in view');
  assert.ok(!log.requests.some((url) => url.includes('encoder.f16.bin')), 'no request for the model yet');
  await page.locator(W).scrollIntoViewIfNeeded();
  await ready(page);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /真实的训练模型/);
  assert.match(await page.locator(`${W} .rm-about`).textContent(), /只懂英文/);

  // the Winograd pair: the row of "it" hardly moves; the note gives the module's numbers
  await page.locator(W).getByRole('button', { name: 'Winograd：“too wide”' }).click();
  const wide = encoder.encode("The animal didn't cross the street because it was too wide.");
  const tired = encoder.encode("The animal didn't cross the street because it was too tired.");
  const it = wide.words.indexOf('it');
  const row = (r) => ({ rows: 1, cols: r.words.length, data: r.wordAttention[0][0].data.subarray(it * r.words.length, (it + 1) * r.words.length) });
  const diff = att.maxAbsDifference(row(wide), row(tired));
  const note = page.locator(`${W} .rm-pair`);
  await note.waitFor();
  const text = await note.textContent();
  assert.match(text, /“it”在本句最关注“because”/);
  const shown = text.match(/最多只变了 ([<\d.]+)/)[1];
  assertShown(shown, diff, 3, 'largest change of the row of "it"');
  assert.ok(diff < 0.01, 'the maps hardly differ');
  await assertMap(page, wide.wordAttention[0][0], wide.words, 'too wide');
  assert.equal(await top(page, 'q'), 'it', 'the preset selects the row of its pronoun');
  assert.equal(new URL(page.url()).searchParams.get('real-model.row'), String(wide.pieces.indexOf('▁it')));
  assert.equal(await page.locator(`${W} .rm-law`).isVisible(), false);

  // the Law sentence: this model's map, said so
  await page.locator(W).getByRole('button', { name: 'Law 句（本模型的图）' }).click();
  await page.locator(`${W} .rm-law`).waitFor();
  assert.match(await page.locator(`${W} .rm-law`).textContent(), /不是论文里的图/);
  const law = encoder.encode('The Law will never be perfect, but its application should be just - this is what we are missing, in my opinion.');
  await eventually(async () => (await page.locator(`${W} .rm-map .heatmap-row`).count()) === law.words.length, { message: 'the Law map' });
  assert.equal(await top(page, 'q'), 'its');
  const [lj, lw] = topOf(law.wordAttention[0][0], law.words.indexOf('its'));
  assert.equal(await top(page, 'k'), law.words[lj]);
  assertShown(await top(page, 'w'), lw, 3, 'the top weight of "its"');

  // more than 128 pieces: a visible message, the first 128 encoded
  const long = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');
  await page.locator(`${W} input[type="text"]`).first().fill(long);
  const cut = page.locator(`${W} .rm-truncated`);
  await eventually(async () => cut.isVisible(), { timeout: 10000, message: 'the truncation message' });
  const r = encoder.encode(long);
  assert.ok(r.truncated);
  assert.match(await cut.textContent(), new RegExp(`最多读 128 个片段.*到“${r.words[r.words.length - 1]}”为止`));
  assert.equal(await page.locator(`${W} .rm-map .heatmap-row`).count(), r.words.length);

  // empty: a message, not a blank widget
  await page.locator(`${W} input[type="text"]`).first().fill('  ');
  await eventually(async () => /请输入一个句子/.test(await page.locator(`${W} [role="alert"]`).textContent()), { message: 'the empty message' });
  await assertNoBadText(page);
  assertClean(log, browser.origin);
  await page.close();
});

test('a missing or corrupt model file is a visible message', async () => {
  for (const [model, message] of [
    ['favicon.svg', /^The model file could not be loaded from http:\/\/[^ ]+\/favicon\.svg: loadEncoder: model file: not an attention-wasm encoder file/],
    ['model/no-such-file.bin', /^The model file could not be loaded from http:\/\/[^ ]+\/model\/no-such-file\.bin: HTTP 404/],
  ]) {
    const { page, log } = await openPage(browser, `embed.html?widget=real-model&model=${model}`);
    await ready(page);
    const alert = page.locator(`${W} [role="alert"]`);
    assert.ok(await alert.isVisible(), `${model}: an alert`);
    assert.match(await alert.textContent(), message);
    assert.equal(await page.locator(`${W} .rm-loader`).getAttribute('data-phase'), 'failed');
    assert.ok(await page.locator(`${W} .rm-retry`).isVisible(), 'a button to try again');
    assert.deepEqual(log.pageErrors, []);
    await page.close();
  }
});

test('from file:// the script-tag embed says why the model cannot load', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(fileURLToPath(new URL('./fixtures/host.html', import.meta.url))).href + '?mode=script&widget=real-model');
  const alert = page.locator(`${W} [role="alert"]`);
  await eventually(async () => (await alert.count()) > 0 && (await alert.isVisible()), { timeout: 15000, message: 'the message' });
  assert.match(await alert.textContent(), /^The model file could not be loaded from file:\/\/\/.*\/web\/model\/encoder\.f16\.bin: .*\(a page opened from file:\/\/ cannot fetch it: serve the folder over http/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the script-tag embed finds the model beside embed.js', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // an article of the same origin in another folder (served by the test: no such file on disk)
  const article = new URL('articles/real-model.html', browser.url).href;
  await page.route(article, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><p>An article.</p>
    <script src="../embed.js" defer></script><div data-widget="real-model" data-state="view=piece&layer=0&head=0&row=3" data-lang="en"></div>` }));
  await page.goto(article);
  const q = page.locator(`${W} .rm-top [data-field="q"]`);  // pierces the open shadow root
  await eventually(async () => (await q.count()) > 0 && (await q.textContent()) === '▁her', { timeout: LOAD, message: 'the map in the shadow root' });
  const r = encoder.encode(UMBRELLA);
  const [j, w] = topOf(r.attention[0][0], r.pieces.indexOf('▁her'));
  assert.equal(await top(page, 'k'), r.pieces[j]);
  assertShown(await top(page, 'w'), w, 3, 'the top weight in the embed');
  assert.deepEqual(errors, []);
  await page.close();
});
