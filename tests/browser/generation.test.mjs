// Browser test of the generation widget (web/widgets/generation/widget.js): the small
// names model writes one token at a time. The tokens, every row of the causal
// map, the multiply-adds and the cache's size shown are the core's (the same
// model trained in this process, the same seed); "Next token" adds exactly
// one token and one row, "Restart" goes back to ⏎; another layer and head show
// their rows; the end of a name disables the button; the prompt (read in the
// prefill) and the text written (decode steps) are set apart, to the eye and in
// the names a screen reader reads; a prompt character the model does not know is
// left out and named; the two phases' multiply-adds are the core's; top-p and
// min-p give the core's tokens, and the set each is drawn from is the core's;
// zh at 375 px fits the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import createAttention from '../../web/wasm/attention.mjs';
import { CORPORA } from '../../web/widgets/language-model/engine.js';
import { NAMES_MODEL } from '../../web/widgets/names-model.js';
import { startBrowser, withPage, eventually, assertShown, whenReady } from './harness.mjs';

const W = '[data-widget="generation"]';
let browser, att, lm;
before(async () => {
  [browser, att] = await Promise.all([startBrowser(), createAttention()]);
  const corpus = JSON.parse(readFileSync(new URL(`../../web/${CORPORA.names.file}`, import.meta.url)));
  const { heads, dModel, seed, batch, steps } = NAMES_MODEL;
  lm = await att.createLanguageModel({ texts: corpus.train, heldOut: [], layers: 2, heads, dModel, seed, batch, ...CORPORA.names.options });
  for (let done = 0; done < steps; done += 5) lm.step(5);
});
after(async () => {
  lm?.delete();
  await browser?.close();
});
const ready = whenReady(W);

// the core's steps for these options: ⏎ and the prompt, then `tokens` written (fewer if the name ends)
function stepsOf({ prompt = '', seed = 1, temperature = 0.8, topK = 20, topP = 1, minP = 0, tokens = 3 } = {}) {
  const steps = lm.beginGeneration({ prompt, seed, temperature, topK, topP, minP });
  for (let k = 0; k < tokens && !steps.at(-1).done; k++) steps.push(lm.nextToken());
  return steps;
}

const chips = (page) => page.locator(`${W} .gen-text [data-field="token"]`).allTextContents();
const number = (text) => Number(text.replace(/,/g, ''));

// the chips, the newest row of the map, the stats against the core's steps
async function assertShownSteps(page, steps, { layer = 1, head = 1 } = {}, what) {
  await eventually(async () => (await chips(page)).join('') === steps.map((s) => s.token).join(''),
    { message: `${what}: the tokens ${steps.map((s) => s.token).join('')}`, timeout: 20000 });
  const m = steps.length, last = steps.at(-1);
  // every row of the map is the core's row of its step (the cells' labels carry the weights)
  for (let i = 0; i < m; i++) {
    const labels = await page.locator(`${W} .heatmap-cell[data-i="${i}"]`).evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
    const row = steps[i].rows[layer - 1][head - 1];
    assert.equal(row.length, i + 1);
    row.forEach((w, j) => assertShown(/(\S+)$/.exec(labels[j])[1].replace(/^[^0-9]*/, ""), w, 3, `${what}: row ${i}, key ${j}`));
    for (let j = i + 1; j < m; j++) assert.match(labels[j], /0\.000$/, `${what}: row ${i} sees no later key ${j}`);
  }
  assert.equal(number(await page.locator(`${W} [data-field="cached"]`).textContent()), last.cachedMultiplyAdds, `${what}: with the cache`);
  assert.equal(number(await page.locator(`${W} [data-field="uncached"]`).textContent()), last.uncachedMultiplyAdds, `${what}: without`);
  assert.equal(number(await page.locator(`${W} [data-field="cacheNumbers"]`).textContent()), last.cacheNumbers, `${what}: the cache`);
  assert.equal(await page.locator(`${W} .gen-cache-new`).count(), 4, `${what}: one new K and V per layer`);
  assert.equal(await page.locator(`${W} .gen-cache-cell`).count(), 4 * m, `${what}: the cache's cells`);
  const verdict = await page.locator(`${W} .gen-verdict`).textContent();
  assert.ok(verdict.includes(`= 2 · 2 · ${m} · 32 = ${last.cacheNumbers.toLocaleString('en-US')} `), verdict);
  assert.ok(verdict.includes(last.cachedMultiplyAdds.toLocaleString('en-US')) && verdict.includes(last.uncachedMultiplyAdds.toLocaleString('en-US')), verdict);
}

test('default: three tokens written, each row and count the core\'s; Next token adds one; Restart goes back', () =>
  withPage(browser, 'embed.html?widget=generation', {}, async ({ page }) => {
    await ready(page);
    const steps = stepsOf();
    await assertShownSteps(page, steps, {}, 'default');
    assert.equal(await page.locator(`${W} .gen-next`).textContent(), `sampled next: “${steps.at(-1).next}”`);
    await page.locator(`${W} [data-action="next"]`).click();
    await assertShownSteps(page, stepsOf({ tokens: 4 }), {}, 'one more');
    await page.locator(`${W} [data-action="restart"]`).click();
    await assertShownSteps(page, stepsOf({ tokens: 0 }), {}, 'restarted');
  }));

test('another layer and head, a prompt and a seed: their rows; a finished name disables Next token', () =>
  withPage(browser, 'embed.html?widget=generation&prompt=Ma&seed=7&layer=2&head=3&tokens=15', {}, async ({ page }) => {
    await ready(page);
    const steps = stepsOf({ prompt: 'Ma', seed: 7, tokens: 15 });
    assert.ok(steps.at(-1).done, 'the name ends within 15 tokens');
    await assertShownSteps(page, steps, { layer: 2, head: 3 }, 'layer 2, head 3');
    assert.ok(await page.locator(`${W} [data-action="next"]`).isDisabled());
    assert.match(await page.locator(`${W} .gen-next`).textContent(), /^the model wrote ⏎|^the context is full/);
    assert.equal(await page.locator(`${W} .gen-prompt`).count(), 3, '⏎ M a: read, not written');
  }));

test('zh at 375 px: Chinese labels, no horizontal scroll; an unknown prompt character is left out and named', () =>
  withPage(browser, 'embed.html?widget=generation&lang=zh&tokens=6&prompt=Ma', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
    await ready(page);
    await assertShownSteps(page, stepsOf({ prompt: 'Ma', tokens: 6 }), {}, 'zh');
    assert.equal(await page.locator(`${W} [data-action="next"]`).textContent(), '下一个词元');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await page.locator(W).getByLabel('开头', { exact: true }).fill('M7');
    const note = page.locator(`${W} .gen-dropped`);
    await eventually(async () => (await note.getAttribute('data-dropped')) === '7', { message: 'the note on the 7' });
    assert.equal(await note.textContent(), '模型的词表里没有 “7” (U+0037)，所以把它从开头里去掉了：模型读入的是“M”。');
    assert.ok(await page.locator(`${W} .widget-error`).isHidden(), 'no error: the model reads the rest');
    await assertShownSteps(page, stepsOf({ prompt: 'M', tokens: 6 }), {}, 'zh, M7 read as M');
  }));

test('the prompt and what the model wrote, set apart to the eye and to a screen reader', () =>
  withPage(browser, 'embed.html?widget=generation&prompt=Per&tokens=4', {}, async ({ page }) => {
    await ready(page);
    const steps = stepsOf({ prompt: 'Per', tokens: 4 });
    await assertShownSteps(page, steps, {}, 'Per');
    // each part a group named by its label (the accessible name: a term's closed popover is not part of it)
    const parts = [];
    for (const name of ['Prompt, read in the prefill', 'Written by the model, one decode step each']) {
      const group = page.locator(W).getByRole('group', { name, exact: true });
      assert.equal(await group.count(), 1, `the group "${name}"`);
      parts.push(await group.evaluate((g) => {
        const chip = g.querySelector('[data-field="token"]:not(.gen-newest)') ?? g.querySelector('[data-field="token"]');
        return { tokens: [...g.querySelectorAll('[data-field="token"]')].map((c) => c.textContent).join(''),
          border: getComputedStyle(chip).borderStyle, background: getComputedStyle(chip).backgroundColor };
      }));
    }
    assert.deepEqual(parts.map((p) => p.tokens), ['⏎Per', steps.slice(4).map((s) => s.token).join('')]);
    assert.notEqual(parts[0].border, parts[1].border, 'the prompt\'s tokens are drawn otherwise: their border');
    assert.notEqual(parts[0].background, parts[1].background, 'and their background');
    // a screen reader reads each part by its name, then its tokens
    const snapshot = await page.locator(`${W} .gen-text`).ariaSnapshot();
    assert.match(snapshot, /group "Prompt, read in the prefill"[\s\S]*group "Written by the model, one decode step each"/);
  }));

test('a prompt character the model does not know (a space, a digit) is left out, and the note names each', () =>
  withPage(browser, 'embed.html?widget=generation&prompt=Per%20', {}, async ({ page }) => {
    await ready(page);
    const note = page.locator(`${W} .gen-dropped`);
    await eventually(async () => (await note.getAttribute('data-dropped')) === ' ', { message: 'the space named' });
    assert.equal(await note.textContent(), 'The model’s vocabulary has no “␣” (U+0020), so it is left out of the prompt: the model reads “Per”.');
    assert.equal(await note.getAttribute('role'), 'status');
    await assertShownSteps(page, stepsOf({ prompt: 'Per' }), {}, 'Per with the space left out');
    await page.locator(W).getByLabel('Prompt', { exact: true }).fill('A 7 b');
    await eventually(async () => (await note.getAttribute('data-dropped')) === ' 7', { message: 'both named' });
    assert.equal(await note.textContent(), 'The model’s vocabulary has none of “␣” (U+0020), “7” (U+0037), so they are left out of the prompt: the model reads “Ab”.');
    await page.locator(W).getByLabel('Prompt', { exact: true }).fill('7 ');
    await eventually(async () => /whole prompt is left out/.test(await note.textContent()), { message: 'all of it' });
    await assertShownSteps(page, stepsOf({ prompt: '' }), {}, 'nothing left');
    await page.locator(W).getByLabel('Prompt', { exact: true }).fill('Ma');
    await eventually(async () => note.isHidden(), { message: 'no note for a prompt it reads' });
  }));

test('the two phases: the prefill of ⏎ and the prompt in one pass, then one decode step per token, with the core\'s counts', () =>
  withPage(browser, 'embed.html?widget=generation&prompt=Ma&tokens=3', {}, async ({ page }) => {
    await ready(page);
    const steps = stepsOf({ prompt: 'Ma', tokens: 3 });
    await assertShownSteps(page, steps, {}, 'Ma');
    const last = steps.at(-1);
    const phases = await page.locator(`${W} .gen-phases`).textContent();
    const n = (x) => x.toLocaleString('en-US');
    assert.ok(phases.startsWith(`Prefill: ⏎ and the prompt (positions: 3) went through the model in one pass, every row of their causal map at once: ${n(last.prefillMultiplyAdds)} multiply-adds.`), phases);
    assert.ok(phases.includes(`Decode: then one pass per written token, 3 so far, each reading the cache and computing one row: ${n(last.decodeMultiplyAdds)} multiply-adds in all, ${n(last.cachedMultiplyAdds)} for the last one.`), phases);
    // by hand: 2 layers, d = 32, m = 3: 2 (12 · 32² · 3 + 3 · 4 · 32) + 32 · vocab; decode: the written tokens' own counts
    assert.equal(last.prefillMultiplyAdds, 2 * (12 * 1024 * 3 + 12 * 32) + 32 * lm.info().vocab);
    assert.equal(last.decodeMultiplyAdds, steps.slice(3).reduce((a, s) => a + s.cachedMultiplyAdds, 0));
    await page.locator(`${W} [data-action="restart"]`).click();
    await eventually(async () => /^Prefill: ⏎ and the prompt \(positions: 3\) go through/.test(await page.locator(`${W} .gen-phases`).textContent()),
      { message: 'before any decode step' });
  }));

test('top-p and min-p: the core\'s tokens for them, and the set each token is drawn from, with its probabilities', () =>
  withPage(browser, 'embed.html?widget=generation&prompt=Ka&seed=5&temperature=1.2&topK=0&topP=0.6&minP=0.05&tokens=2', {}, async ({ page }) => {
    await ready(page);
    const options = { prompt: 'Ka', seed: 5, temperature: 1.2, topK: 0, topP: 0.6, minP: 0.05 };
    const steps = stepsOf({ ...options, tokens: 2 });
    await assertShownSteps(page, steps, {}, 'top-p 0.6, min-p 0.05');
    const { kept, next } = steps.at(-1);
    const shown = await page.locator(`${W} .gen-kept-item`).evaluateAll((items) => items.map((li) => ({
      token: li.dataset.token, p: li.querySelector('.gen-kept-p').textContent, drawn: li.classList.contains('gen-kept-drawn') })));
    assert.deepEqual(shown.map((s) => s.token), kept.tokens, 'the kept tokens, most likely first');
    shown.forEach((s, k) => assertShown(s.p, kept.probabilities[k], 3, `p of ${s.token}`));
    assert.deepEqual(shown.filter((s) => s.drawn).map((s) => s.token), [next], 'the one drawn marked');
    const sum = Array.from(kept.probabilities).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `renormalised: ${sum}`);
    const heading = await page.locator(`${W} .gen-kept-heading`).textContent();
    assert.equal(heading, `Drawn from ${kept.tokens.length} of the ${lm.info().vocab} tokens (temperature 1.20, top-k all, top-p 0.60, min-p 0.05), their probabilities renormalised to sum to 1:`);
    // top-p 1 and min-p 0 give what top-k alone gives
    const open = stepsOf({ ...options, topP: 1, minP: 0, tokens: 2 });
    const unfiltered = lm.beginGeneration({ prompt: 'Ka', seed: 5, temperature: 1.2, topK: 0 });
    assert.deepEqual(open.slice(0, 3).map((s) => s.next), unfiltered.map((s) => s.next));
    assert.ok(open.at(-1).kept.tokens.length > kept.tokens.length, 'the filters cut the set');
  }));

test('one layer\'s attention of the token: the same numbers as the complexity section for the same n and d', () =>
  withPage(browser, 'embed.html?widget=generation', {}, async ({ page }) => {
    await ready(page);
    const last = stepsOf().at(-1);
    const n = last.position + 1;  // 4 keys: ⏎ and three written tokens
    assert.deepEqual(last.attention, { cached: 2 * n * 32, uncached: n * (n + 1) * 32 });
    const said = page.locator(`${W} [data-part="attention"]`);
    await eventually(async () => (await said.textContent()).includes(`over n = ${n} keys of width d = 32`), { message: 'the attention sentence' });
    const m = /: ([\d,]+) with the cache \(its own row, 2nd\) and ([\d,]+) without \(every row of the causal map again, n\(n \+ 1\)d\)/.exec(await said.textContent());
    assert.ok(m, await said.textContent());
    assert.deepEqual([number(m[1]), number(m[2])], [last.attention.cached, last.attention.uncached]);
    // the complexity section for n = 4, d = 32: the same two numbers
    await page.goto(new URL(`embed.html?widget=complexity&n=${n}&d=32`, browser.url).href);
    await whenReady('[data-widget="complexity"]')(page);
    const writing = (await page.locator('[data-widget="complexity"] [data-part="generation"] .callout-text').textContent()).replace(/\u00a0/g, ' ');
    assert.ok(writing.includes(`its own row, 2nd = ${m[1]} multiply-adds`), writing);
    assert.ok(writing.includes(`the last one n(n + 1)d = ${m[2]},`), writing);
  }));
