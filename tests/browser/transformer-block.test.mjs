// Browser test of the transformer-block widget (web/widgets/transformer-block/widget.js):
// a small language model trained on the names (names-model.js) and one text
// through it stage by stage. Every RMS, the loss, the entropy and the next
// characters shown are the core's trace of the same model trained in this
// process (seeded: the same steps give the same weights); the switches remove
// the residual connections or the layer norms, and the formulas, the plot and
// the verdict follow; a block opens on a click; a character the model does not
// know is named in a sentence, and an empty text has no loss (both languages);
// zh at 375 px fits the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import createAttention from '../../web/wasm/attention.mjs';
import { CORPORA } from '../../web/widgets/language-model/engine.js';
import { NAMES_MODEL } from '../../web/widgets/names-model.js';
import { startBrowser, withPage, eventually, assertShown, whenReady } from './harness.mjs';

const W = '[data-widget="transformer-block"]';
let browser, att;
const models = new Map();  // layers -> the widget's model, trained here
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => {
  for (const lm of models.values()) lm.delete();
  await browser?.close();
});
const ready = whenReady(W);

async function modelOf(layers) {
  if (!models.has(layers)) {
    const corpus = JSON.parse(readFileSync(new URL(`../../web/${CORPORA.names.file}`, import.meta.url)));
    const { heads, dModel, seed, batch, steps } = NAMES_MODEL;
    const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: [], layers, heads, dModel, seed, batch, ...CORPORA.names.options });
    for (let done = 0; done < steps; done += 5) lm.step(5);
    models.set(layers, lm);
  }
  return models.get(layers);
}

const texts = (page, selector) => page.locator(`${W} ${selector}`).allTextContents();

// the pipeline's RMS column, the stats and the next characters against the core's trace
async function assertTrace(page, { layers, text, options, block = 1 }, what) {
  const lm = await modelOf(layers);
  const want = lm.trace(text, options);
  const intact = lm.trace(text, { temperature: options.temperature ?? 1 });
  // the rows in order: embedding, each block's output (the open one followed by its 7 stages), lnf, logits
  const order = ['embedding'];
  for (let l = 1; l <= layers; l++) {
    order.push(`residual2@${l}`);
    if (l === block) order.push(...['ln1', 'attention', 'residual1', 'ln2', 'hidden', 'mlp', 'residual2'].map((s) => `${s}@${l}`));
  }
  order.push('lnf', 'logits');
  const stage = (key) => {
    const [name, layer] = key.split('@');
    return want.stages.find((s) => s.name === name && s.layer === Number(layer ?? 0));
  };
  await eventually(async () => (await texts(page, '[data-field="rms"]')).length === order.length
    && Math.abs(Number((await texts(page, '[data-field="rms"]')).at(-1).replace(/,/g, '')) - stage('logits').rms) < 0.06,
  { message: `${what}: the pipeline drawn`, timeout: 20000 });
  const rms = await texts(page, '[data-field="rms"]');
  const shapes = await texts(page, '[data-field="shape"]');
  order.forEach((key, i) => {
    const s = stage(key);
    assertShown(rms[i].replace(/,/g, ''), s.rms, s.rms < 10 ? 2 : 1, `${what}: RMS of ${key}`);
    assert.equal(shapes[i], `${s.values.rows} × ${s.values.cols}`, `${what}: shape of ${key}`);
  });
  if (text === '') {
    // nothing to predict: no loss shown (the core's 0 is a mean over no characters)
    assert.equal(await page.locator(`${W} [data-field="loss"]`).textContent(), '—', `${what}: no loss`);
    assert.equal(await page.locator(`${W} [data-field="intactLoss"]`).textContent(), '—', `${what}: no intact loss`);
  } else {
    assertShown(await page.locator(`${W} [data-field="loss"]`).textContent(), want.loss, 2, `${what}: loss`);
    assertShown(await page.locator(`${W} [data-field="intactLoss"]`).textContent(), intact.loss, 2, `${what}: intact loss`);
  }
  assertShown(await page.locator(`${W} [data-field="entropy"]`).textContent(), want.entropy, 2, `${what}: entropy`);
  const tokens = await texts(page, '[data-field="token"]');
  const probabilities = await texts(page, '[data-field="probability"]');
  assert.deepEqual(tokens, want.next.tokens.slice(0, 6), `${what}: the next characters`);
  probabilities.forEach((p, i) => assertShown(p, want.next.probabilities[i], 3, `${what}: probability ${i}`));
  return { want, intact };
}

test('default: "Mari" through 2 blocks, every RMS, the loss and the next characters the core\'s', () =>
  withPage(browser, 'embed.html?widget=transformer-block', {}, async ({ page }) => {
    await ready(page);
    const { want } = await assertTrace(page, { layers: 2, text: 'Mari', options: {} }, 'default');
    assert.equal(want.tokens.join(''), '⏎Mari');
    // intact: one line in the plot, the verdict with the stream's first and last RMS
    assert.equal(await page.locator(`${W} .plot-line`).count(), 1);
    const verdict = await page.locator(`${W} .tb-verdict`).textContent();
    const stream = want.stages.filter((s) => s.name === 'residual2');
    assert.match(verdict, new RegExp(`^Intact, the stream’s RMS goes from ${want.stages[0].rms.toFixed(2)} .* to ${stream.at(-1).rms.toFixed(2)} after the last block`));
    assert.match(await page.locator(`${W} .tb-formula`).nth(4).textContent(), /^H = X \+ Attn/);
    // block 2 opens on a click; block 1 closes
    await page.locator(`${W} .tb-block-button`).nth(1).click();
    await eventually(async () => (await page.locator(`${W} .tb-block-button`).nth(1).getAttribute('aria-expanded')) === 'true',
      { message: 'block 2 open' });
    assert.equal(await page.locator(`${W} .tb-block-button`).first().getAttribute('aria-expanded'), 'false');
    await assertTrace(page, { layers: 2, text: 'Mari', options: {}, block: 2 }, 'block 2 open');
  }));

test('switches: without layer norms (4 blocks) or residuals the core\'s lesioned numbers, the formulas and the verdict say so', () =>
  withPage(browser, 'embed.html?widget=transformer-block&layers=4&layerNorm=0', {}, async ({ page }) => {
    await ready(page);
    const { want, intact } = await assertTrace(page, { layers: 4, text: 'Mari', options: { layerNorm: false } }, 'no layer norm');
    const last = want.stages.filter((s) => s.name === 'residual2').at(-1).rms;
    const intactLast = intact.stages.filter((s) => s.name === 'residual2').at(-1).rms;
    assert.ok(last > 10 * intactLast, `without layer norms the stream grows: ${last} against ${intactLast}`);
    const verdict = await page.locator(`${W} .tb-verdict`).textContent();
    assert.match(verdict, /^Without the layer norms each sublayer reads the stream at its raw size/);
    const shown = (x) => x.toFixed(x < 10 ? 2 : 1);
    assert.ok(verdict.includes(`${shown(last / intactLast)} times the intact model’s ${shown(intactLast)}`), verdict);
    assert.ok(verdict.includes(`The most likely next character is “${want.next.tokens[0]}”`), verdict);
    assert.equal(await page.locator(`${W} .plot-line`).count(), 2, 'the lesioned and the intact stream');
    assert.equal(await page.locator(`${W} [data-stage="ln1"] .tb-formula`).textContent(), 'removed: X passes through');
    // residuals off too, then layer norms back on: residuals only
    await page.locator(W).getByLabel('Residual connections', { exact: true }).uncheck();
    await assertTrace(page, { layers: 4, text: 'Mari', options: { layerNorm: false, residual: false } }, 'neither');
    assert.match(await page.locator(`${W} .tb-verdict`).textContent(), /^Without residual connections and without layer norms/);
    await page.locator(W).getByLabel('Layer norms', { exact: true }).check();
    await assertTrace(page, { layers: 4, text: 'Mari', options: { residual: false } }, 'no residual');
    assert.match(await page.locator(`${W} .tb-verdict`).textContent(), /^Without the residual connections each block replaces the stream/);
    assert.equal(await page.locator(`${W} [data-stage="residual1"] .tb-formula`).textContent(), 'H = Attn(…): X is dropped');
  }));

test('a character the model does not know is named in a sentence, in both languages; an empty text has no loss, and says why; another text is traced', () =>
  withPage(browser, 'embed.html?widget=transformer-block', {}, async ({ page }) => {
    await ready(page);
    const box = page.locator(W).getByLabel('Text', { exact: true });
    const alert = page.locator(`${W} .widget-error`);
    const said = async (text) => {
      await box.fill(text);
      await eventually(async () => !(await alert.isHidden()) && (await alert.textContent()).includes('never seen'), { message: `the alert for ${text}` });
      return alert.textContent();
    };
    // the model's own answer: the core refuses the character
    const lm = await modelOf(2);
    assert.throws(() => lm.trace('Zoë'), /not in the vocabulary/);
    assert.equal(await said('Zoë'), 'The model has never seen “ë”: it knows only the characters of the names it was trained on, and has no vector for any other. Type the text without it.');
    assert.match(await said('Zoë 7'), /^The model has never seen “ë”, “ ”,? and “7”: .* Type the text without them\.$/);
    assert.doesNotMatch(await alert.textContent(), /vocabulary|U\+|Error/);
    // no text: the boundary alone, its next characters, and no loss
    await box.fill('');
    await eventually(async () => await alert.isHidden(), { message: 'the alert hidden' });
    await assertTrace(page, { layers: 2, text: '', options: {} }, 'empty');
    const verdict = await page.locator(`${W} .tb-verdict`).textContent();
    assert.match(verdict, /With no text there is nothing to predict, so there is no loss: the model reads only ⏎/);
    assert.doesNotMatch(verdict, /Loss on|0\.00 nats/);
    await box.fill('Christopher');
    await assertTrace(page, { layers: 2, text: 'Christopher', options: {} }, 'Christopher');
    assert.match(await page.locator(`${W} .tb-verdict`).textContent(), /Loss on “Christopher”: \d\.\d\d nats per character\./);
    // in Chinese
    await page.goto(new URL('embed.html?widget=transformer-block&lang=zh', browser.url).href);
    await ready(page);
    await page.locator(W).getByLabel('文本', { exact: true }).fill('');
    await assertTrace(page, { layers: 2, text: '', options: {} }, 'empty, zh');
    assert.match(await page.locator(`${W} .tb-verdict`).textContent(), /没有文本，就没有要预测的字符，也就没有损失/);
    await page.locator(W).getByLabel('文本', { exact: true }).fill('Zoë');
    await eventually(async () => !(await alert.isHidden()), { message: 'the alert in zh' });
    assert.equal(await alert.textContent(), '模型从没见过“ë”：它只认识训练用的名字里出现过的字符，别的字符它没有向量。请去掉这个字符再输入。');
  }));

test('zh at 375 px, temperature 0.5: Chinese labels, the sharper softmax the core\'s, no horizontal scroll', () =>
  withPage(browser, 'embed.html?widget=transformer-block&lang=zh&temperature=0.5', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
    await ready(page);
    const { want } = await assertTrace(page, { layers: 2, text: 'Mari', options: { temperature: 0.5 } }, 'zh');
    assert.ok(want.entropy < (await modelOf(2)).trace('Mari').entropy, 'a temperature below 1 lowers the entropy');
    assert.equal(await page.locator(`${W} .tb-name`).first().textContent(), '嵌入 + 位置');
    assert.match(await page.locator(`${W} .tb-verdict`).textContent(), /^完整模型中，数据流的 RMS/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  }));
