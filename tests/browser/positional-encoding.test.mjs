// Browser test of the positional-encoding widget: the encoding's heatmap holds
// the core's PE; a sentence in a new order gives the same numbers moved without
// PE and different maps with X + PE, and the largest differences shown are the
// core's; focused cells pair up across the two maps; controls, the URL state,
// the quiz, bad input and the widget alone in an embed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, eventually, assertShown, assertSentenceAlerts, OVERLONG, whenReady } from './harness.mjs';

const W = '[data-widget="positional-encoding"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// The widget's computation for the words in both orders, in this process.
// order[i] = the old position of the word now at i (any order gives the same
// maps when a word repeats: the same word has the same vector).
function expected(tokens, moved, pe) {
  const used = new Set();
  const order = moved.map((w) => {
    const k = tokens.findIndex((x, i) => x === w && !used.has(i));
    used.add(k);
    return k;
  });
  const embed = (words) => {
    const X = att.embedTokens({ tokens: words, d: 32, seed: 1 });
    return pe ? att.addPositionalEncoding(X) : X;
  };
  const map = (words) => att.selfAttention({ input: embed(words), dK: 16, seed: 1 }).weights;
  const original = map(tokens), reordered = map(moved);
  return { order, original, reordered, gap: att.maxAbsDifference(reordered, att.permuteMap(original, order)) };
}

const ready = whenReady(W);

const maps = (page) => page.locator(`${W} .pe-map`);

async function shownWords(page, k) {
  return maps(page).nth(k).locator('.heatmap-row').allTextContents();
}

// both maps show the core's weights; returns the words of the new order
async function assertMaps(page, tokens, pe, what) {
  await eventually(async () => JSON.stringify(await shownWords(page, 0)) === JSON.stringify(tokens), { message: `${what}: the sentence` });
  await eventually(async () => (pe ? /X \+ PE/ : /without PE|不加位置编码/).test(await maps(page).nth(0).locator('.pe-map-caption').textContent()),
    { message: `${what}: pe ${pe}` });
  const moved = await shownWords(page, 1);
  assert.deepEqual([...moved].sort(), [...tokens].sort(), `${what}: the same words`);
  const want = expected(tokens, moved, pe);
  for (const [k, m] of [[0, want.original], [1, want.reordered]]) {
    const texts = await maps(page).nth(k).locator('.heatmap-values text').allTextContents();
    assert.equal(texts.length, tokens.length ** 2);
    m.data.forEach((w, i) => assertShown(texts[i], w, 2, `${what}: map ${k} cell ${i}`));
  }
  return { moved, ...want };
}

test('the encoding, and "i have a dream" reversed: same numbers moved without PE, new numbers with X + PE', () => withPage(browser, 'embed.html?widget=positional-encoding', async ({ page }) => {
  await ready(page);
  // part 1: PE(24, 32) from the core, cell by cell (screen-reader labels, 3 decimals)
  const pe = att.positionalEncoding(24, 32);
  const peCells = page.locator(`${W} .pe-figure .heatmap-cell`);
  assert.equal(await peCells.count(), 24 * 32);
  const labels = await peCells.evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  labels.forEach((label, k) => {
    const [, p, c, v] = label.match(/^position (\d+), dimension (\d+): (.+)$/);
    assert.equal(Number(p) * 32 + Number(c), k);
    assertShown(v, pe.data[k], 3, `PE cell ${k}`);
  });
  await peCells.nth(0).focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowDown');
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
  await eventually(async () => (await page.locator(`${W} .pe-part`).nth(0).locator('.steps-title').textContent()) === 'Position p = 3, dimension 5');
  assertShown(await page.locator(`${W} [data-field="pe"]`).textContent(), pe.data[3 * 32 + 5], 4, 'PE(3, 5)');
  // the exponent typeset as a superscript: cos(3 / 10000^(4/32))
  const formula = page.locator(`${W} .pe-part`).nth(0).locator('dt');
  assert.equal(await formula.textContent(), 'cos(3 / 100004/32)');
  assert.equal(await formula.locator('sup').textContent(), '4/32');

  // part 2: reversed, without PE
  const tokens = ['i', 'have', 'a', 'dream'];
  const plain = await assertMaps(page, tokens, false, 'without PE');
  assert.deepEqual(plain.moved, ['dream', 'a', 'have', 'i']);
  assert.ok(plain.gap < 1e-5);
  const gap = (f) => page.locator(`${W} [data-field="${f}"]`).textContent();
  assert.match(await gap('gapWithout'), /^(< 0\.000001 \(rounding\)|0\.000000)$/);
  assert.match(await page.locator(`${W} .pe-gap.is-active`).textContent(), /Same numbers, rows and columns moved/);
  const encoded = expected(tokens, plain.moved, true);
  assert.ok(encoded.gap > 1e-3);
  assertShown(await gap('gapWith'), encoded.gap, 6, 'largest difference with PE');
  assert.match(await page.locator(`${W} .illustrative`).textContent(), /Illustrative/);

  // a cell of the new order lights up the same pair of words in the original
  const cells = maps(page).nth(1).locator('.heatmap-cell');
  await cells.nth(0).focus();
  await page.keyboard.press('ArrowRight');  // "dream" → "a"
  await eventually(async () => (await page.locator(`${W} .pe-part`).nth(1).locator('.steps-title').first().textContent()) === '“dream” → “a”');
  const partner = maps(page).nth(0).locator('.heatmap-cell.is-partner');
  assert.deepEqual([await partner.getAttribute('data-i'), await partner.getAttribute('data-j')], ['3', '2']);
  assertShown(await gap('reordered'), plain.reordered.data[1], 4, 'weight in the new order');
  assertShown(await gap('original'), plain.original.data[3 * 4 + 2], 4, 'weight in the original');
  assert.equal(await gap('reordered'), await gap('original'), 'the same number, moved');

  // the quiz: asked above the maps, its answer (the verdict) covered until
  // Reveal, then the core answers
  const order = await page.locator(W).evaluate((root) => {
    const quiz = root.querySelector('.quiz'), body = root.querySelector('.widget-body'), verdict = root.querySelector('.pe-verdict');
    return { above: Boolean(quiz.compareDocumentPosition(body) & Node.DOCUMENT_POSITION_FOLLOWING),
      covered: verdict.classList.contains('quiz-concealed') && verdict.inert, blur: getComputedStyle(verdict).filter };
  });
  assert.deepEqual(order, { above: true, covered: true, blur: 'blur(6px)' });
  await page.locator(W).getByRole('radio', { name: 'Same numbers, rows and columns moved' }).check();
  await page.locator(W).getByRole('button', { name: 'Reveal' }).click();
  assert.match(await page.locator(`${W} .quiz-answer`).textContent(), /Right!.*largest difference of/);
  assert.deepEqual(await page.locator(`${W} .pe-verdict`).evaluate((v) => [v.classList.contains('quiz-concealed'), v.inert]), [false, false]);

  // with X + PE the maps differ, and the same pair now has two numbers
  await page.locator(W).getByLabel('Add the positional encoding (X + PE)').check();
  const withPe = await assertMaps(page, tokens, true, 'with PE');
  assert.match(await page.locator(`${W} .pe-gap.is-active`).textContent(), /The maps differ/);
  assertShown(await gap('gapWith'), withPe.gap, 6, 'largest difference with PE');
  assert.equal(new URL(page.url()).searchParams.get('pe'), '1');
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

test('shuffle, n and d, and the URL state on the full page', async () => {
  const sentence = 'The Law will never be perfect, but its application should be just';
  const search = new URLSearchParams({ 'positional-encoding.n': '10', 'positional-encoding.d': '8', 'positional-encoding.order': 'shuffle',
    'positional-encoding.shuffle': '7', 'positional-encoding.pe': '1', 'positional-encoding.sentence': sentence });
  await withPage(browser, `?${search}`, async ({ page }) => {
    await ready(page);
    assert.equal(await page.locator(`${W} .pe-figure .heatmap-cell`).count(), 80);
    const tokens = tokenize(sentence);
    const first = await assertMaps(page, tokens, true, 'shuffle 7');
    assert.notDeepEqual(first.moved, tokens);
    assert.ok(await page.locator(W).getByRole('radio', { name: 'Shuffled' }).isChecked());
    assert.ok(await page.locator(W).getByLabel('Add the positional encoding (X + PE)').isChecked());

    // another shuffle seed: another order, the same words
    const seed = page.locator(W).getByLabel('Shuffle (seed)');
    await seed.focus();
    await page.keyboard.press('ArrowRight');
    await eventually(async () => JSON.stringify(await shownWords(page, 1)) !== JSON.stringify(first.moved));
    const second = await assertMaps(page, tokens, true, 'shuffle 8');
    assertShown(await page.locator(`${W} [data-field="gapWith"]`).textContent(), second.gap, 6, 'gap, shuffle 8');
    // n: more positions
    const n = page.locator(W).getByLabel('Positions n');
    await n.focus();
    await page.keyboard.press('ArrowRight');
    await eventually(async () => (await page.locator(`${W} .pe-figure .heatmap-cell`).count()) === 88);
    const params = new URL(page.url()).searchParams;
    assert.deepEqual(['n', 'd', 'order', 'shuffle', 'pe'].map((k) => params.get(`positional-encoding.${k}`)), ['11', '8', 'shuffle', '8', '1']);
    await page.reload();
    await ready(page);
    assert.equal(await page.locator(`${W} .pe-figure .heatmap-cell`).count(), 88);
    assert.deepEqual(await shownWords(page, 1), second.moved);
  });
});

test('bad sentences are visible messages in Chinese, and the widget recovers', () => withPage(browser, 'embed.html?widget=positional-encoding&lang=zh', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /位置编码/);
  const box = page.locator(`${W} input[type="text"]`);
  const alert = page.locator(`${W} [role="alert"]`);
  await assertSentenceAlerts(box, alert, [['', /请输入一个句子/], [OVERLONG, /500/]], '我有一个梦想');
  await assertMaps(page, tokenize('我有一个梦想'), false, 'zh');
  assert.match(await page.locator(`${W} .pe-gap.is-active`).textContent(), /数值相同/);
}));
