// Browser test of the real-model widget: the model file loads with a progress
// bar, only once the widget is in view, and from the browser's cache the next
// time; the maps, the top key of a query, the piece view and the 8 heads show
// what the module gives in this process for the same model file (the sentence
// similarities: sentence-similarity.test.mjs); the URL keeps the view; a missing or corrupt model file is
// a visible message; the script-tag embed finds the model beside embed.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBrowser, withPage, openPage, assertClean, eventually, assertShown, assertNoBadText, openEncoder, MODEL_FILE, scrollToWidget, whenReady, openWithErrors } from './harness.mjs';

const W = '[data-widget="real-model"]';
const CACHE = 'attention-wasm-model-v1';
const UMBRELLA = 'The woman took her umbrella because it was raining.';
const LOAD = 60000;  // ms: 8 MB, throttled in the first test
const SIZE = (readFileSync(MODEL_FILE).length / 1e6).toFixed(1).replace('.', '\\.');  // as the loader shows it
const FILE = 'encoder\\.q\\.bin \\(quantized weights\\)';

let browser, att, encoder;
before(async () => { [browser, { att, encoder }] = await Promise.all([startBrowser(), openEncoder()]); });
after(async () => { encoder?.delete(); await browser?.close(); });
const ready = whenReady(W, LOAD);

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
  // the numbers are drawn a frame after the cells
  await eventually(async () => (await map.locator('.heatmap-values text').count()) === labels.length ** 2, { message: `${what}: their numbers` });
  assert.deepEqual(await map.locator('.heatmap-row').allTextContents(), labels, `${what}: row labels`);
  assert.deepEqual(await map.locator('.heatmap-col').allTextContents(), labels, `${what}: column labels`);
  const texts = await map.locator('.heatmap-values text').allTextContents();
  assert.equal(texts.length, m.data.length, `${what}: a number in every cell`);
  m.data.forEach((w, k) => assertShown(texts[k], w, 2, `${what}: cell ${k}`));
}

test('first visit: a progress bar while 8 MB stream in; then "her" looks most at "woman" in layer 1, head 1', async () => {
  // a page of the site's origin, to empty its cache, then a throttled network for the visit
  await withPage(browser, 'embed.html?widget=kv-query', async ({ page, log }) => {
    await page.evaluate((name) => caches.delete(name), CACHE);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 24 * 1024 * 1024, uploadThroughput: -1 });
    await page.goto(new URL('embed.html?widget=real-model', browser.url).href);

    // while it loads: a determinate bar, the figures in MB
    const progress = page.locator(`${W} progress.model-progress`);
    let seen = null;
    await eventually(async () => {
      const now = await progress.evaluate((p) => ({ visible: p.checkVisibility(), value: p.value, max: p.max, text: p.nextElementSibling.textContent }));
      if (now.visible && now.value > 0 && now.value < now.max) seen = now;
      return seen !== null;
    }, { timeout: LOAD, interval: 50, message: 'a progress bar part-way' });
    assert.equal(seen.max, readFileSync(MODEL_FILE).length, 'the bar runs to the file size (Content-Length)');
    assert.match(seen.text, new RegExp(`^Downloading the model: \\d+\\.\\d of ${SIZE} MB$`));
    await ready(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    assert.equal(await page.locator(`${W} .model-loader`).getAttribute('data-source'), 'network');
    assert.match(await page.locator(`${W} .model-status`).textContent(), new RegExp(`^Model loaded: ${FILE}, ${SIZE} MB, downloaded in \\d+\\.\\d s\\.$`));
    assert.equal(await progress.isVisible(), false, 'the bar goes once loaded');
    assert.equal(log.requests.filter((url) => url.endsWith('/model/encoder.q.bin')).length, 1, 'one request for the model');
    assert.ok(!log.requests.some((url) => /encoder\.f(16|32)\.bin$/.test(url)), 'no other model file');

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
    assert.match(await page.locator(`${W} .rm-about`).textContent(), /Universal Sentence Encoder Lite.*Apache-2\.0.*@energetic-ai\/model-embeddings-en.*not a large language model.*do not show whether it resolves hard Winograd cases/s);
    await assertNoBadText(page);
  });
});

test('the 8 heads, the piece view, the keyboard and the URL state', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=real-model');
  await ready(page);
  const r = encoder.encode(UMBRELLA);
  const thumbs = page.locator(`${W} button.rm-thumb`);
  assert.equal(await thumbs.count(), 8, '2 layers x 4 heads');
  assert.equal(await page.locator(`${W} .rm-thumb[aria-pressed="true"]`).getAttribute('aria-label'), 'Layer 1, head 1');

  // the 8 small maps' picture: kept when a head is chosen, drawn anew for other maps
  const picture = () => page.locator(`${W} .rm-thumb .map-tile`).first().evaluate((tile) => tile.style.backgroundImage);
  const words = await picture();
  await page.locator(`${W} .rm-thumb .map-tile`).first().evaluate((tile) => { tile.dataset.seen = 'yes'; });
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
  assert.equal(await page.locator(`${W} .rm-thumb .map-tile[data-seen="yes"]`).count(), 1, 'another head: the same tiles');

  // the piece view: the model's own pieces, the same query ("▁her")
  await page.locator(W).getByRole('radio', { name: 'Pieces' }).check();
  await assertMap(page, r.attention[1][2], r.pieces, 'layer 2 head 3, pieces');
  assert.ok(['▁u', 'mb', 're', 'lla'].every((p) => r.pieces.includes(p)), 'umbrella is cut into pieces');
  assert.match(await page.locator(`${W} .rm-rule`).textContent(), /“umbrella” is ▁u · mb · re · lla/);
  assert.equal(await top(page, 'q'), '▁her');
  await eventually(async () => (await picture()) !== words, { message: 'the pieces\' maps in the small pictures' });
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

  // the URL holds the view; opening it again shows the same
  const params = new URL(page.url()).searchParams;
  assert.deepEqual(['layer', 'head', 'view', 'row'].map((k) => params.get(k)), ['1', '2', 'piece', String(u)]);
  const again = await openPage(browser, `embed.html?${params}`);
  await ready(again.page);
  assert.equal(await again.page.locator(`${W} .rm-map .rm-heading`).textContent(), 'Layer 2, head 3');
  assert.ok(await again.page.locator(W).getByRole('radio', { name: 'Pieces' }).isChecked());
  assert.equal(await top(again.page, 'q'), '▁u');
  // the second page of this profile read the model from the cache
  assert.equal(await again.page.locator(`${W} .model-loader`).getAttribute('data-source'), 'cache');
  assert.match(await again.page.locator(`${W} .model-status`).textContent(), new RegExp(`^Model loaded from this browser’s cache: ${FILE}, ${SIZE} MB, in \\d+\\.\\d s\\.$`));
  await assertNoBadText(page);
  assertClean(log, browser.origin);
  assertClean(again.log, browser.origin);
  await again.page.close();
  await page.close();
});

test('on the full page the model loads only when the widget comes into view; presets, notes and Chinese', () => withPage(browser, '?lang=zh', async ({ page, log }) => {
  await page.locator('[data-widget="kv-query"][data-ready="true"]').waitFor();
  await page.waitForTimeout(500);
  assert.equal(await page.locator(W).getAttribute('data-mount'), 'waiting', 'far below the screen, the section waits');
  assert.ok(!log.requests.some((url) => url.includes('/model/encoder.') || url.includes('/widgets/real-model/widget.js')), 'no request for the model or the widget\'s code yet');
  await scrollToWidget(page, W);
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
  // (the map is drawn a row or two per frame)
  await eventually(async () => (await page.locator(`${W} .rm-map .heatmap-row`).count()) === r.words.length, { timeout: 20000, message: 'a row per word' });

  // empty: a message, not a blank widget
  await page.locator(`${W} input[type="text"]`).first().fill('  ');
  await eventually(async () => /请输入一个句子/.test(await page.locator(`${W} [role="alert"]`).textContent()), { message: 'the empty message' });
  await assertNoBadText(page);
}));

test('?weights=f16 and ?weights=f32 load the float files; another value is a visible message', async () => {
  for (const [weights, file, kind, bytes] of [['f16', 'encoder.f16.bin', 'float16 weights', 14108218], ['f32', 'encoder.f32.bin', 'float32 weights, exact', 28035642]]) {
    const { page, log } = await openPage(browser, `embed.html?widget=real-model&weights=${weights}`);
    await ready(page);
    const size = (readFileSync(new URL(`../../web/model/${file}`, import.meta.url)).length / 1e6).toFixed(1);
    assert.equal(size, (bytes / 1e6).toFixed(1));
    assert.match(await page.locator(`${W} .model-status`).textContent(), new RegExp(`^Model loaded(:| from this browser’s cache:) ${file.replaceAll('.', '\\.')} \\(${kind}\\), ${size.replace('.', '\\.')} MB,`));
    assert.deepEqual(log.requests.filter((url) => url.includes('/model/encoder.')).map((url) => new URL(url).pathname.split('/').pop()), [file]);
    // the maps of the float file: "her" still looks most at "woman"
    assert.equal(await top(page, 'q'), 'her');
    assert.equal(await top(page, 'k'), 'woman');
    assert.deepEqual(log.pageErrors, []);
    await page.close();
  }
  const { page, log } = await openPage(browser, 'embed.html?widget=real-model&weights=f8');
  await ready(page);
  assert.match(await page.locator(`${W} [role="alert"]`).textContent(), /^The address asks for weights=“f8”: use weights=f16 or weights=f32, or leave it out for the quantized file\.$/);
  assert.ok(!log.requests.some((url) => url.includes('/model/encoder.')), 'no model requested');
  assert.deepEqual(log.pageErrors, []);
  await page.close();
});

test('a missing or corrupt model file is a visible message', async () => {
  for (const [model, message] of [
    ['page/favicon.svg', /^The model file could not be loaded from http:\/\/[^ ]+\/page\/favicon\.svg: loadEncoder: model file: not an attention-wasm encoder file/],
    ['model/no-such-file.bin', /^The model file could not be loaded from http:\/\/[^ ]+\/model\/no-such-file\.bin: HTTP 404/],
  ]) {
    const { page, log } = await openPage(browser, `embed.html?widget=real-model&model=${model}`);
    await ready(page);
    const alert = page.locator(`${W} [role="alert"]`);
    assert.ok(await alert.isVisible(), `${model}: an alert`);
    assert.match(await alert.textContent(), message);
    assert.equal(await page.locator(`${W} .model-loader`).getAttribute('data-phase'), 'failed');
    assert.ok(await page.locator(`${W} .model-retry`).isVisible(), 'a button to try again');
    assert.deepEqual(log.pageErrors, []);
    await page.close();
  }
});

test('from file:// the script-tag embed says why the model cannot load', async () => {
  const { page, errors } = await openWithErrors(browser, pathToFileURL(fileURLToPath(new URL('./fixtures/host.html', import.meta.url))).href + '?mode=script&widget=real-model');
  const alert = page.locator(`${W} [role="alert"]`);
  await eventually(async () => (await alert.count()) > 0 && (await alert.isVisible()), { timeout: 15000, message: 'the message' });
  assert.match(await alert.textContent(), /^The model file could not be loaded from file:\/\/\/.*\/web\/model\/encoder\.q\.bin: .*\(a page opened from file:\/\/ cannot fetch it: serve the folder over http/);
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
