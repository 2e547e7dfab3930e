// Browser test of the generation widget (web/widgets/generation.js): the small
// names model writes one token at a time. The tokens, every row of the causal
// map, the multiply-adds and the cache's size shown are the core's (the same
// model trained in this process, the same seed); "Next token" adds exactly
// one token and one row, "Restart" goes back to ⏎; another layer and head show
// their rows; the end of a name disables the button; a prompt character the
// model does not know is named; zh at 375 px fits the screen.
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
function stepsOf({ prompt = '', seed = 1, temperature = 0.8, tokens = 3 } = {}) {
  const steps = lm.beginGeneration({ prompt, seed, temperature, topK: 20 });
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

test('zh at 375 px: Chinese labels, no horizontal scroll; an unknown prompt character is named', () =>
  withPage(browser, 'embed.html?widget=generation&lang=zh&tokens=6&prompt=Ma', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
    await ready(page);
    await assertShownSteps(page, stepsOf({ prompt: 'Ma', tokens: 6 }), {}, 'zh');
    assert.equal(await page.locator(`${W} [data-action="next"]`).textContent(), '下一个词元');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await page.locator(W).getByLabel('开头', { exact: true }).fill('M7');
    const alert = page.locator(`${W} .widget-error`);
    await eventually(async () => !(await alert.isHidden()), { message: 'the alert shown' });
    assert.match(await alert.textContent(), /prompt has the character "7" \(U\+0037\) that is not in the vocabulary/);
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
