// Browser test of the self-attention widget (web/widgets/self-attention/widget.js):
// the "Thinking Machines" example shows the article's numbers as the core
// computes them (112, 96 -> 14, 12 -> 0.880797, 0.119203: Jay Alammar, "The
// Illustrated Transformer", https://jalammar.github.io/illustrated-transformer/,
// as the Chinese introduction to attention retells it), the chain shows
// every matrix of the core for a sentence, the controls and the URL drive it,
// the quiz reveals the core's answer, bad input is a visible message, and
// W^K = W^Q (tied) runs the chain with one matrix and measures both maps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, eventually, assertShown, parseShown, assertSentenceAlerts, OVERLONG, whenReady } from './harness.mjs';

const W = '[data-widget="self-attention"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the worked example, as the widget asks the core for it
function example() {
  const q1 = new Array(64).fill(1), k1 = new Array(64).fill(1.75), k2 = new Array(64).fill(1.5);
  return att.attention({ query: [q1], key: [k1, k2], value: [[1, 0, 2, 1], [0, 1, 2, 3]] });
}

// the chain for a sentence, as the widget computes it
function chain(sentence, { dK = 4, seed = 1, causal = false } = {}) {
  const tokens = tokenize(sentence);
  const X = att.embedTokens({ tokens, d: 8, seed });
  return { tokens, X, ...att.selfAttention({ input: X, dK, seed, causal }) };
}

const ready = whenReady(W);

// the chain with W^K = W^Q, and both maps' measures, as the widget asks the core for them
function tiedChain(sentence, options = {}) {
  const untied = chain(sentence, options);
  const P = untied.projections;
  const tied = att.selfAttention({ input: untied.X, projections: { Wq: P.Wq, Wk: P.Wq, Wv: P.Wv }, causal: options.causal ?? false });
  const stats = (m) => att.selfMapStats({ scores: m.scores, weights: m.weights });
  return { tokens: untied.tokens, untied, tied, stats: { untied: stats(untied), tied: stats(tied) } };
}

const field = (page, name) => page.locator(`${W} [data-field="${name}"]`).textContent();

// The numbers of one matrix table of a step (td cells, row by row).
async function tableCells(page, step, index = 0) {
  return page.locator(`${W} .sa-step[data-step="${step}"] table.matrix`).nth(index).locator('tbody td').allTextContents();
}

function assertMatrix(cells, m, decimals, what) {
  assert.equal(cells.length, m.rows * m.cols, `${what}: ${m.rows} × ${m.cols} cells`);
  cells.forEach((text, k) => {
    if (m.data[k] === -Infinity) assert.equal(text, '−∞', `${what} [${k}] masked`);
    else assertShown(text, m.data[k], decimals, `${what} [${k}]`);
  });
}

async function assertNoBadText(page) {
  assert.doesNotMatch(await page.locator(W).innerText(), /NaN|Infinity|undefined|null/);
}

test('"Thinking Machines": the article\'s numbers, from the core, with the corrected formula for z₁', () => withPage(browser, 'embed.html?widget=self-attention', async ({ page }) => {
  await ready(page);
  const r = example();
  // the example's numbers (tests/node/golden.test.mjs), as the core gives them
  assert.deepEqual(Array.from(r.scores.data), [112, 96]);
  assert.deepEqual(Array.from(r.scaled.data), [14, 12]);
  assert.ok(Math.abs(r.weights.data[0] - 0.880797) < 1e-6 && Math.abs(r.weights.data[1] - 0.119203) < 1e-6);
  // ... and as the widget shows them
  assert.deepEqual([await field(page, 'score-0'), await field(page, 'score-1')], ['112', '96']);
  assert.deepEqual([await field(page, 'scaled-0'), await field(page, 'scaled-1')], ['14', '12']);
  assert.deepEqual([await field(page, 'weight-0'), await field(page, 'weight-1')], ['0.880797', '0.119203']);
  assert.deepEqual([await field(page, 'rounded-0'), await field(page, 'rounded-1')], ['0.88', '0.12']);
  assertShown(await field(page, 'exp-1'), r.exps.data[1], 6, 'exp(12 − 14)');
  const z = (await field(page, 'z')).replace(/[()]/g, '').split(', ');
  assert.equal(z.length, 4);
  z.forEach((text, j) => assertShown(text, r.output.data[j], 4, `z₁[${j}]`));
  const terms = (await field(page, 'term-0')).replace(/[()]/g, '').split(', ');
  terms.forEach((text, j) => assertShown(text, r.weights.data[0] * [1, 0, 2, 1][j], 4, `α₁₁v₁[${j}]`));
  const walk = await page.locator(`${W} .sa-walk`).innerText();
  assert.match(walk, /z₁ = α₁₁v₁ \+ α₁₂v₂/, 'the corrected formula');
  assert.match(walk, /a typo/);
  assert.match(walk, /multiplied by 0\.125/);
  assert.match(await page.locator(`${W} .sa-chain .illustrative`).textContent(), /Illustrative/);

  // predict, then reveal: without scaling softmax(112, 96) saturates
  await page.locator(W).getByRole('radio', { name: 'about 1: nearly all of it' }).check();
  await page.locator(W).getByRole('button', { name: 'Reveal' }).click();
  const unscaled = att.attention({ query: [new Array(64).fill(1)], key: [new Array(64).fill(1.75), new Array(64).fill(1.5)],
    value: [[1], [1]], scale: 1 }).weights.data;
  assert.ok(unscaled[0] > 0.99);
  const answer = await page.locator(`${W} .quiz-answer`).textContent();
  assert.match(answer, /Right!/);
  assert.match(answer, /softmax\(112, 96\) = \(0\.9999999, 0\.0000001\)/);
  await assertNoBadText(page);
}));

test('the chain X → Q, K, V → S → S/√d_k → mask → A → Z shows every matrix of the core, with shapes', () => withPage(browser, 'embed.html?widget=self-attention&sentence=i%20have%20a%20dream', async ({ page }) => {
  await ready(page);
  const want = chain('i have a dream');
  const steps = await page.locator(`${W} .sa-step`).evaluateAll((nodes) => nodes.map((n) => n.dataset.step));
  assert.deepEqual(steps, ['x', 'qkv', 'scores', 'scaled', 'masked', 'weights', 'output']);
  assertMatrix(await tableCells(page, 'x'), want.X, 3, 'X');
  assertMatrix(await tableCells(page, 'qkv', 0), want.projections.Wq, 3, 'Wq');
  assertMatrix(await tableCells(page, 'qkv', 2), want.projections.Wv, 3, 'Wv');
  assertMatrix(await tableCells(page, 'qkv', 3), want.Q, 3, 'Q');
  assertMatrix(await tableCells(page, 'qkv', 4), want.K, 3, 'K');
  assertMatrix(await tableCells(page, 'qkv', 5), want.V, 3, 'V');
  assertMatrix(await tableCells(page, 'scores'), want.scores, 3, 'S');
  assertMatrix(await tableCells(page, 'scaled'), want.scaled, 3, 'S/√d_k');
  assertMatrix(await tableCells(page, 'masked'), want.masked, 3, 'masked');
  assertMatrix(await tableCells(page, 'weights'), want.weights, 3, 'A');
  assertMatrix(await tableCells(page, 'output'), want.output, 3, 'Z');
  for (let i = 0; i < 4; i++) {
    const row = want.weights.data.subarray(4 * i, 4 * i + 4).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(row - 1) < 1e-6, 'rows of A sum to 1');
  }
  // the shapes
  const captions = await page.locator(`${W} .sa-step caption`).allTextContents();
  assert.deepEqual(captions, ['X (4 × 8)', 'WQ (8 × 4)', 'WK (8 × 4)', 'WV (8 × 4)', 'Q (4 × 4)', 'K (4 × 4)', 'V (4 × 4)',
    'S (4 × 4)', 'S/√dk (4 × 4)', 'S/√dk (4 × 4)', 'A (4 × 4)', 'Z (4 × 4)']);
  assert.match(await page.locator(`${W} .sa-step[data-step="scaled"] .sa-note`).textContent(), /0\.5 = 1\/√4/);
  assert.equal(await page.locator(`${W} .sa-step[data-step="weights"] tbody th`).first().textContent(), 'i');
}));

test('the controls change the result and the URL; the URL state is applied on load', () => withPage(browser, '?self-attention.sentence=i%20have%20a%20dream', async ({ page }) => {
  await ready(page);
  const root = page.locator(W);
  // causal mask: −∞ above the diagonal before softmax, 0 weights after
  await root.getByRole('radio', { name: 'Causal (look-ahead)' }).check();
  let want = chain('i have a dream', { causal: true });
  await eventually(async () => (await tableCells(page, 'masked')).includes('−∞'), { message: 'the causal mask' });
  assertMatrix(await tableCells(page, 'masked'), want.masked, 3, 'causal masked');
  assert.equal((await tableCells(page, 'masked')).filter((c) => c === '−∞').length, 6);
  assertMatrix(await tableCells(page, 'weights'), want.weights, 3, 'causal A');
  assert.equal((await tableCells(page, 'weights'))[0], '1.000', 'the first word sees only itself');
  // d_k = 8, seed 3
  await root.getByRole('radio', { name: '8', exact: true }).check();
  const seed = root.getByLabel('Random projections (seed)');
  await seed.focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  want = chain('i have a dream', { causal: true, dK: 8, seed: 3 });
  await eventually(async () => (await tableCells(page, 'qkv', 3)).length === 32, { message: 'Q is 4 × 8' });
  await eventually(async () => Math.abs(parseShown((await tableCells(page, 'output'))[0]) - want.output.data[0]) < 6e-4,
    { message: 'seed 3' });
  assertMatrix(await tableCells(page, 'output'), want.output, 3, 'Z with d_k 8, seed 3');
  // one step only
  await root.getByLabel('Show').selectOption('weights');
  await eventually(async () => (await page.locator(`${W} .sa-step`).count()) === 1);
  assertMatrix(await tableCells(page, 'weights'), want.weights, 3, 'A alone');
  const params = new URL(page.url()).searchParams;
  assert.deepEqual(['mask', 'dK', 'seed', 'step', 'sentence'].map((k) => params.get(`self-attention.${k}`)),
    ['causal', '8', '3', 'weights', 'i have a dream']);
  // the URL brings it back
  await page.reload();
  await ready(page);
  assert.equal(await page.locator(`${W} .sa-step`).count(), 1);
  assertMatrix(await tableCells(page, 'weights'), want.weights, 3, 'A after reload');
  assert.ok(await root.getByRole('radio', { name: 'Causal (look-ahead)' }).isChecked());
  assert.equal(await seed.inputValue(), '3');
}));

test('embed in Chinese, presets, and bad sentences as visible messages', () => withPage(browser, 'embed.html?widget=self-attention&lang=zh&mask=causal&step=masked', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /自注意力/);
  assert.match(await page.locator(`${W} .sa-walk`).innerText(), /笔误/);
  assert.equal(await page.locator(`${W} [data-field="weight-0"]`).textContent(), '0.880797');
  await page.locator(W).getByRole('button', { name: '“i have a dream”' }).click();
  await eventually(async () => (await tableCells(page, 'masked')).length === 16);
  assertMatrix(await tableCells(page, 'masked'), chain('i have a dream', { causal: true }).masked, 3, 'preset, causal');
  const box = page.locator(`${W} input[type="text"]`);
  const alert = page.locator(`${W} [role="alert"]`);
  await assertSentenceAlerts(box, alert, [[OVERLONG, /500/], ['  ', /为空/]], 'attention is all you need');
  await eventually(async () => (await tableCells(page, 'masked')).length === 25);
  await assertNoBadText(page);
}));

test('W^K = W^Q: the chain uses one matrix for queries and keys, S is symmetric, and the table and the text give the core\'s measures of both maps', () => withPage(browser, 'embed.html?widget=self-attention&sentence=the%20animal%20did%20not%20cross%20the%20street', async ({ page }) => {
  await ready(page);
  const sentence = 'the animal did not cross the street';
  const want = tiedChain(sentence);
  const cell = (name) => field(page, name);
  const assertTable = async (what) => {
    for (const column of ['untied', 'tied']) {
      const s = want.stats[column];
      assertShown(await cell(`asymmetry-${column}`), s.asymmetry, 2, `${what}: asymmetry, ${column}`);
      assertShown(await cell(`diagonalShare-${column}`), s.diagonalShare, 2, `${what}: diagonal share, ${column}`);
      assert.equal(await cell(`rowsOnDiagonal-${column}`), `${s.rowsOnDiagonal} of 7`, `${what}: rows on the diagonal, ${column}`);
    }
  };
  // separate projections (the default): the table measures both, the text speaks of the untied map
  await assertTable('untied');
  assert.equal(want.stats.tied.asymmetry, 0);
  assert.ok(want.stats.untied.asymmetry > 0.3 && want.stats.tied.rowsOnDiagonal > want.stats.untied.rowsOnDiagonal);
  let says = await page.locator(`${W} [data-part="tied-says"]`).textContent();
  assert.ok(says.startsWith(`With separate projections the asymmetry of S is ${want.stats.untied.asymmetry.toFixed(2)} and ${want.stats.untied.rowsOnDiagonal} of 7`), says);
  assertMatrix(await tableCells(page, 'scores'), want.untied.scores, 3, 'S untied');

  // tick the box: W^K is W^Q, S is the tied one (symmetric), the URL says tied=1
  await page.locator(`${W}`).getByLabel('Keys made with the queries’ matrix').check();
  await eventually(async () => new URL(page.url()).searchParams.get('tied') === '1', { message: 'tied=1 in the URL' });
  await eventually(async () => (await page.locator(`${W} [data-part="tied-says"]`).textContent()).startsWith('Tied'), { message: 'the tied text' });
  const [wq, wk] = [await tableCells(page, 'qkv', 0), await tableCells(page, 'qkv', 1)];
  assert.deepEqual(wk, wq, 'the W^K table shows W^Q');
  assertMatrix(wk, want.untied.projections.Wq, 3, 'W^K = W^Q');
  const S = await tableCells(page, 'scores');
  assertMatrix(S, want.tied.scores, 3, 'S tied');
  for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) assert.equal(S[i * 7 + j], S[j * 7 + i], `S(${i}, ${j}) = S(${j}, ${i})`);
  assertMatrix(await tableCells(page, 'weights'), want.tied.weights, 3, 'A tied');
  await assertTable('tied');
  says = await page.locator(`${W} [data-part="tied-says"]`).textContent();
  assert.ok(says.startsWith(`Tied, S is symmetric (asymmetry 0.00) and ${want.stats.tied.rowsOnDiagonal} of 7 words look most at themselves`), says);
  assert.equal(await page.locator(`${W} th.is-current`).textContent(), 'WK = WQ');
  await assertNoBadText(page);
}));
