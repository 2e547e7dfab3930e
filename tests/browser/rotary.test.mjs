// Browser test of the "rotary" widget: the scores it prints at shift t and at
// shift 0 are the core's (q and k turned by att.rotary; the sinusoidal ones
// from att.positionalEncoding, added here in float64), equal within the
// tolerance the widget states for rotary and said to be unchanged, different
// for the sinusoidal encoding; the shift slider and the pair slider work from
// the keyboard; the URL restores the widget, alone and on the full page; the
// quiz is answered from the data; Chinese renders. And, in Node, that the
// tolerance is far above what float32 leaves over the controls' whole range.
//   node --test tests/browser/rotary.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { assertShown, eventually, parseShown, startBrowser, whenReady, withPage } from './harness.mjs';

const W = '[data-widget="rotary"]';
const ready = whenReady(W);
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// What the widget states (its tolerance note says 0.0001)
const TOLERANCE = 1e-4;

// The widget's q and k for a state: entries uniform on [−√3, √3], seeded, streams 0 and 1.
const vectors = ({ d, seed }) => [att.initUniform(1, d, seed, Math.sqrt(3), 0), att.initUniform(1, d, seed, Math.sqrt(3), 1)];

// The scores the widget must print, computed here from the core's pieces.
function expected(state) {
  const [q, k] = vectors(state);
  const base = Number(state.base);
  const turned = (v, p) => att.rotary(v, { base, offset: p });
  const rotary = (shift) => att.dotProducts(turned(q, state.qPos + shift), turned(k, state.kPos + shift)).data[0];
  // (q + PE[m + t]) · (k + PE[n + t]), in float64 from the core's float32 PE
  const pe = att.positionalEncoding(Math.max(state.qPos, state.kPos) + state.shift + 1, state.d);
  const row = (p) => pe.data.subarray(p * state.d, (p + 1) * state.d);
  const sinusoidal = (shift) => {
    const a = row(state.qPos + shift), b = row(state.kPos + shift);
    let sum = 0;
    for (let c = 0; c < state.d; c++) sum += (q.data[c] + a[c]) * (k.data[c] + b[c]);
    return sum;
  };
  const Q = turned(q, state.qPos + state.shift), K = turned(k, state.kPos + state.shift);
  const pair = state.pair;
  return {
    rotary: { before: rotary(0), now: rotary(state.shift) }, sinusoidal: { before: sinusoidal(0), now: sinusoidal(state.shift) },
    q: [Q.data[2 * pair], Q.data[2 * pair + 1]], k: [K.data[2 * pair], K.data[2 * pair + 1]],
  };
}

const DEFAULTS = { shift: 10, qPos: 7, kPos: 3, base: '10000', d: 8, seed: 1, pair: 0 };
const field = (page, name) => page.locator(`${W} [data-field="${name}"]`).textContent();

// The printed scores of both rows: the core's, and rotary's two equal within
// the tolerance with the verdict that says so; sinusoidal's two apart, said to change.
async function assertScores(page, state, what) {
  const want = expected(state);
  await eventually(async () => (await page.locator(`${W} .rot-compare`).textContent()).includes(`at shift ${state.shift}`), { message: `${what}: shift ${state.shift}` });
  for (const scheme of ['rotary', 'sinusoidal']) {
    for (const when of ['before', 'now']) assertShown(await field(page, `${scheme}${when === 'before' ? 'Before' : 'Now'}`), want[scheme][when], 5, `${what}: ${scheme} ${when}`);
  }
  const [r0, rt] = [parseShown(await field(page, 'rotaryBefore')), parseShown(await field(page, 'rotaryNow'))];
  assert.ok(Math.abs(r0 - rt) <= TOLERANCE, `${what}: the two rotary scores shown, ${r0} and ${rt}, are equal within ${TOLERANCE}`);
  const rotaryRow = page.locator(`${W} .rot-row[data-scheme="rotary"]`);
  assert.equal(await rotaryRow.getAttribute('data-verdict'), 'unchanged');
  assert.match(await rotaryRow.locator('.rot-verdict').textContent(), /^Unchanged: the difference is below 0\.0001\.$/);
  const gap = parseShown(await field(page, 'rotaryGap'));
  assert.ok(typeof gap === 'object' ? gap.below <= TOLERANCE : gap < TOLERANCE, `${what}: the rotary difference shown`);
  const [s0, st] = [parseShown(await field(page, 'sinusoidalBefore')), parseShown(await field(page, 'sinusoidalNow'))];
  assert.ok(Math.abs(s0 - st) > 0.01, `${what}: the sinusoidal scores shown, ${s0} and ${st}, differ`);
  const sinusoidalRow = page.locator(`${W} .rot-row[data-scheme="sinusoidal"]`);
  assert.equal(await sinusoidalRow.getAttribute('data-verdict'), 'changed');
  assertShown(await field(page, 'sinusoidalGap'), Math.abs(want.sinusoidal.now - want.sinusoidal.before), 5, `${what}: the sinusoidal difference`);
  assert.match(await sinusoidalRow.locator('.rot-verdict').textContent(), /^Changed by \d+\.\d{6}\.$/);
  return want;
}

// the pair's arrows as printed: "(x, y)" -> [x, y]
async function arrow(page, name) {
  const text = await field(page, name);
  const [, x, y] = text.match(/^\(([^,]+), ([^)]+)\)$/);
  return [x, y];
}

test('rotary: the scores at shift t and at 0, equal within 0.0001 and said to be unchanged; the sinusoidal ones move; the pair\'s arrows', () => withPage(browser, 'embed.html?widget=rotary', async ({ page }) => {
  await ready(page);
  const want = await assertScores(page, DEFAULTS, 'defaults');
  assert.match(await page.locator(`${W} .rot-tolerance`).textContent(), /a difference below 0\.0001 counts as rounding/);
  // the arrows of pair 0: the core's turned q at 7 + 10 and k at 3 + 10
  for (const [name, xy] of [['q', want.q], ['k', want.k]]) {
    const shown = await arrow(page, name);
    shown.forEach((text, c) => assertShown(text, xy[c], 3, `${name}[${c}]`));
  }
  assert.match(await page.locator(`${W} .rot-coordinates`).first().textContent(), /q at position 17.*k at position 13/);
  // four arrows drawn (two faint at shift 0), q and k labelled with their positions
  assert.equal(await page.locator(`${W} .plane-key`).count(), 4);
  assert.deepEqual(await page.locator(`${W} .plane-label`).allTextContents(), ['q at 17', 'k at 13']);
  assert.equal(await page.locator(`${W} svg.plane`).getAttribute('role'), 'img');
  // the spread over every shift: rotary within rounding, sinusoidal far from it
  const spread = page.locator(`${W} .rot-spread`);
  assert.ok(Number(await spread.getAttribute('data-rotary')) < TOLERANCE);
  assert.ok(Number(await spread.getAttribute('data-sinusoidal')) > 1);
  assert.match(await spread.textContent(), /rotary score at most .* \(rounding: below 0\.0001\)/);
  // the two plots: the distance now in the legend; both series of the shift plot
  assert.match(await page.locator(`${W} .rot-distance .plot-legend`).textContent(), /m − n = 4/);
  assert.equal(await page.locator(`${W} .rot-shift polyline.plot-line`).count(), 2);
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

test('rotary: the shift slider from the keyboard moves the sinusoidal score and not the rotary one; the pair slider draws another pair', () => withPage(browser, 'embed.html?widget=rotary', async ({ page }) => {
  await ready(page);
  const first = await field(page, 'sinusoidalNow');
  const shift = page.locator(W).getByLabel('Shift t (added to both positions)');
  await shift.focus();
  await page.keyboard.press('ArrowRight');
  await eventually(async () => (await field(page, 'sinusoidalNow')) !== first, { message: 'the sinusoidal score at shift 11' });
  assert.equal(new URL(page.url()).searchParams.get('shift'), '11');
  await assertScores(page, { ...DEFAULTS, shift: 11 }, 'shift 11');
  await page.keyboard.press('End');
  await assertScores(page, { ...DEFAULTS, shift: 256 }, 'shift 256');
  assert.equal(await shift.inputValue(), '256');

  // the pair drawn: its own slider, 0 … d/2 − 1
  const pair = page.locator(W).getByLabel('Pair i drawn');
  assert.equal(await pair.getAttribute('max'), '3');
  await pair.focus();
  await page.keyboard.press('ArrowRight');
  await eventually(async () => /Pair 1’s part/.test(await page.locator(`${W} .rot-pair-part`).textContent()), { message: 'pair 1' });
  assert.equal(new URL(page.url()).searchParams.get('pair'), '1');
  const want = expected({ ...DEFAULTS, shift: 256, pair: 1 });
  (await arrow(page, 'q')).forEach((text, c) => assertShown(text, want.q[c], 3, `pair 1: q[${c}]`));
  // the pair's part of q·k, the same at shift 0 and at 256
  const [a, b] = [parseShown(await field(page, 'pairBefore')), parseShown(await field(page, 'pairNow'))];
  assert.ok(Math.abs(a - b) <= TOLERANCE, `pair 1's part: ${a} and ${b}`);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'pair', 'the pair slider keeps the focus');
}));

test('rotary: the URL restores the widget alone and on the full page; the quiz is answered from the data', async () => {
  const state = { shift: 100, qPos: 50, kPos: 20, base: '500000', d: 16, seed: 5, pair: 3 };
  await withPage(browser, `embed.html?widget=rotary&${new URLSearchParams(state)}`, async ({ page }) => {
    await ready(page);
    await assertScores(page, state, 'from the URL');
    assert.ok(await page.locator(W).getByRole('radio', { name: '500,000 (Llama 3)' }).isChecked());
    assert.equal(await page.locator(W).getByLabel('Dimensions d').inputValue(), '16');
    assert.equal(await page.locator(W).getByLabel('Pair i drawn').inputValue(), '3');
    assert.match(await page.locator(`${W} .rot-text`).first().textContent(), /Pair 3 of 8 \(dimensions 6 and 7\) turns θ3 = 500000−6\/16 radians/);
    assert.match(await page.locator(`${W} .rot-distance .plot-legend`).textContent(), /m − n = 30/);
    // predict, then reveal: the scores covered until then; the rotary score stays, the sinusoidal one moves
    const covered = () => page.locator(`${W} .rot-compare, ${W} .rot-pair-part, ${W} .rot-shift, ${W} .rot-spread`)
      .evaluateAll((parts) => parts.map((part) => part.classList.contains('quiz-concealed') && part.inert));
    assert.deepEqual(await covered(), [true, true, true, true]);
    await page.locator(W).getByRole('radio', { name: 'Only the sinusoidal one' }).check();
    await page.locator(W).getByRole('button', { name: 'Reveal' }).click();
    assert.match(await page.locator(`${W} .quiz-answer`).textContent(), /^Your guess: Only the sinusoidal one\. Right! The core gives rotary/);
    assert.deepEqual(await covered(), [false, false, false, false]);
  });
  // shift 0: nothing moves, and the quiz says so
  await withPage(browser, 'embed.html?widget=rotary&shift=0', async ({ page }) => {
    await ready(page);
    assert.equal(await page.locator(`${W} .rot-row[data-scheme="sinusoidal"]`).getAttribute('data-verdict'), 'unchanged');
    await page.locator(W).getByRole('radio', { name: 'Neither' }).check();
    await page.locator(W).getByRole('button', { name: 'Reveal' }).click();
    assert.match(await page.locator(`${W} .quiz-answer`).textContent(), /Right!.*At t = 0 nothing moves/);
  });
  // the full page: each key under the widget's name, kept across a reload
  const search = new URLSearchParams(Object.entries(state).map(([key, value]) => [`rotary.${key}`, String(value)]));
  await withPage(browser, `?${search}`, async ({ page }) => {
    await page.locator(W).scrollIntoViewIfNeeded();
    await ready(page);
    await assertScores(page, state, 'the full page');
    await page.reload();
    await page.locator(W).scrollIntoViewIfNeeded();
    await ready(page);
    await assertScores(page, state, 'after a reload');
  });
});

test('rotary in Chinese: the same numbers, its words, no error', () => withPage(browser, 'embed.html?widget=rotary&lang=zh', async ({ page }) => {
  await ready(page);
  assert.match(await page.locator(`${W} .widget-title`).textContent(), /旋转位置/);
  const want = expected(DEFAULTS);
  assertShown(await field(page, 'rotaryNow'), want.rotary.now, 5, 'zh: rotary at shift 10');
  assertShown(await field(page, 'sinusoidalNow'), want.sinusoidal.now, 5, 'zh: sinusoidal at shift 10');
  assert.match(await page.locator(`${W} .rot-row[data-scheme="rotary"] .rot-verdict`).textContent(), /^不变：差值小于 0\.0001。$/);
  assert.match(await page.locator(`${W} .rot-row[data-scheme="sinusoidal"] .rot-verdict`).textContent(), /^变化了 \d+\.\d{6}。$/);
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|Infinity|undefined/);
}));

test('the tolerance: over the controls\' whole range the core\'s rotary scores move by under 10⁻⁵ when both positions shift', () => {
  let worst = 0;
  for (const d of [2, 8, 64]) for (const base of [100, 10000, 500000]) for (const seed of [1, 50, 99]) {
    const [q, k] = vectors({ d, seed });
    const score = (a, b) => att.dotProducts(att.rotary(q, { base, offset: a }), att.rotary(k, { base, offset: b }));
    for (const [m, n] of [[0, 0], [127, 0], [0, 127], [127, 127], [57, 3]]) {
      for (const t of [1, 100, 256]) worst = Math.max(worst, att.maxAbsDifference(score(m + t, n + t), score(m, n)));
    }
  }
  assert.ok(worst > 0 && worst < TOLERANCE / 10, `the largest difference: ${worst}`);
});
