// Browser test of the language model's yardsticks and head roles
// (web/widgets/language-model/widget.js on the repeats corpus): after 700 steps from
// the link, the halves' accuracy, the n-gram ladder, each head's role badge,
// the samples written twice and the induction step are what this process's
// own module computes with the parameters the widget exports; one layer says why no
// induction head can form; the export's JSON holds the ladder and the roles;
// a text pasted twice keeps its second copy out of the split, and says so; the
// unigram box shows the ladder's number, the one its sentence names.
// induction head can form; the export's JSON holds the ladder and the roles; the
// ladder inverts on the repeats (longer runs count worse), and the widget says
// why with the core's share of held-out characters whose run training never had.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { BATCH, CORPORA, ROLE_FORMED, SAMPLES } from '../../web/widgets/language-model/engine.js';
import { inductionStep } from '../../web/widgets/language-model/draw.js';
import { random } from '../../web/runtime/random.js';
import { assertShown, eventually, startBrowser, withPage } from './harness.mjs';

const WIDGET = '[data-widget="language-model"]';
const STEPS = 700;
let browser, att;

before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

const text = async (page, selector) => (await page.locator(`${WIDGET} ${selector}`).first().textContent()).replace(/\u00a0/g, ' ').trim();

async function resting(page, step, timeout) {
  await page.locator(`${WIDGET}[data-ready="true"]`).waitFor({ timeout: 20000 });
  await eventually(async () => {
    const status = page.locator(`${WIDGET} [data-field="status"]`);
    if ((await status.getAttribute('data-running')) !== 'false' || (await status.getAttribute('data-replaying')) !== 'false') return false;
    const shown = (await text(page, '[data-field="step"]')).replace(/,/g, '');
    return shown === String(step) && (await page.locator(`${WIDGET} .lm-focus-map`).getAttribute('data-step')) === shown;
  }, { timeout, message: `the model at rest at step ${step}` });
}

// the widget's repeats model, trained here `steps` steps, or given the parameters the widget exported
async function repeatsModel({ layers = 2, heads = 4 }, { steps = 0, parameters = null }) {
  const spec = CORPORA.repeats;
  const corpus = await att.repeatsCorpus({ seed: 1 });
  const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut.slice(0, spec.heldOut),
    layers, heads, dModel: 64, seed: 1, batch: BATCH, ...spec.options });
  if (steps > 0) lm.step(steps);
  if (parameters) lm.setParameters(parameters);
  return lm;
}

// a head's role as the widget names it: its highest score, once it reaches ROLE_FORMED
function roleOf(head) {
  let best = null;
  for (const role of ['previous', 'self', 'first', 'induction', 'line']) {
    if (Number.isFinite(head[role]) && head[role] >= ROLE_FORMED && (!best || head[role] > head[best])) best = role;
  }
  return best;
}

test(`repeats, ${STEPS} steps of two layers from the link: the halves, the ladder, the roles and the induction step are the core's`,
  () => withPage(browser, `embed.html?widget=language-model&corpus=repeats&steps=${STEPS}`, async ({ page }) => {
    await resting(page, STEPS, 240000);
    const halvesBox = page.locator(`${WIDGET} .lm-halves`);
    const inductionAt = Number(await halvesBox.getAttribute('data-induction'));
    assert.ok(inductionAt > 0 && inductionAt < STEPS, `an induction step is marked: ${inductionAt}`);

    // the export: the parameters at step STEPS, and the ladder, the roles and the halves over training
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`${WIDGET} [data-export="json"]`).click()]);
    const json = JSON.parse(readFileSync(await file.path(), 'utf8'));
    assert.equal(json.step, STEPS);
    // this process's module, given the widget's parameters, computes every number below
    // (that training in the page gives the core's parameters step by step is the names test's)
    const lm = await repeatsModel({}, { parameters: json.parameters });
    try {
      // the step marked: the first of the roles recorded where a head after the first layer is an induction head
      const formed = json.roles.find((r) => r.induction.slice(1).some((layer) => layer.some((x) => x >= ROLE_FORMED)));
      assert.equal(formed?.step, inductionAt, `the roles over training: ${JSON.stringify(json.roles.map((r) => [r.step, r.induction[1]]))}`);
      const halves = lm.halves();
      assert.equal(Number(await halvesBox.getAttribute('data-second')), halves.second.accuracy);
      assert.ok(halves.second.accuracy >= 0.95, `the second halves are copied: ${halves.second.accuracy}`);
      const said = await text(page, '.lm-halves');
      assert.ok(said.includes(`${Math.round(100 * halves.second.accuracy)}%`) && said.includes(halves.second.loss.toFixed(3)), said);
      assert.match(said, new RegExp(`became an induction head at step ${inductionAt}`));
      // its score then, and now: each said with its step; now is the step of the badges beside it
      const head = inductionStep(json.roles);
      const current = lm.headRoles().heads[head.layer][head.head].induction;
      assert.ok(said.includes(`at step ${inductionAt}, when it put ${head.value.toFixed(2)} of its weight`), said);
      assert.ok(said.includes(`at step ${STEPS}, the step of the maps and badges below, it puts ${current.toFixed(2)} there`), said);

      // each head's badge and its two plotted scores (induction, previous)
      const roles = lm.headRoles().heads;
      const shown = await page.locator(`${WIDGET} button.lm-head`).evaluateAll((bs) => bs.map((b) => ({
        role: b.dataset.role ?? null, scores: b.querySelector('.lm-head-scores').textContent })));
      assert.equal(shown.length, 2 * 4, 'layers × heads');
      roles.flat().forEach((head, k) => {
        assert.equal(shown[k].role, roleOf(head), `head ${k}: ${JSON.stringify(head)}`);
        assert.equal(shown[k].scores, `ind. ${head.induction.toFixed(2)} · prev. ${head.previous.toFixed(2)}`);
      });
      assert.ok(shown.some((s) => s.role === 'induction'), 'an induction badge');

      // the n-gram ladder: four dotted lines, and the sentence with the core's numbers
      const ladder = lm.baselines().ladder;
      const tags = await page.locator(`${WIDGET} .plot-box svg`).first().locator('.plot-tag').allTextContents();
      assert.deepEqual(tags, ['unigram', 'bigram', 'trigram', '4-gram']);
      const held = lm.evaluate().loss;
      const best = ladder.slice().sort((a, b) => a.loss - b.loss)[0];
      assert.ok(held < best.loss, `the model (${held}) passes every count model (${best.loss})`);
      assert.equal(await page.locator(`${WIDGET} .lm-ladder`).getAttribute('data-passed'), String(best.order));
      const sentence = await text(page, '.lm-ladder');
      assertShown(sentence.match(/the model \((\d\.\d+)\)/)[1], held, 3, 'the held-out loss in the sentence');
      assert.ok(sentence.includes(best.loss.toFixed(3)), sentence);
      assert.match(await text(page, '.plot-box svg'), /induction head/, 'the step marked on the loss plot');
      // what it learns, said of this corpus: a copying rule, not poems
      assert.match(await text(page, '[data-part="honest"] .callout-text'), /^Here there is no meaning to learn, only a rule/);

      // the samples: the core's, each marked by whether it is a text written twice
      const samples = Array.from({ length: SAMPLES }, (_, i) => lm.generate({ prompt: '', maxTokens: CORPORA.repeats.maxTokens, temperature: 0.8, topK: 20, seed: 1 + i }));
      assert.deepEqual(await page.locator(`${WIDGET} .lm-sample-text`).allTextContents(), samples);
      const twice = (s) => s.length > 0 && s.length % 2 === 0 && s.slice(0, s.length / 2) === s.slice(s.length / 2);
      assert.deepEqual(await page.locator(`${WIDGET} .lm-sample`).evaluateAll((items) => items.map((li) => li.dataset.twice)),
        samples.map((s) => String(twice(s))));

      // the export's records: the ladder, the roles and the halves over training (the last at step STEPS)
      assert.deepEqual(json.ladder, ladder);
      assert.ok(json.roles.length >= 2 && json.roles.every((r, k) => k === 0 || r.step > json.roles[k - 1].step), 'the roles over training');
      assert.equal(json.roles.at(-1).step, STEPS);
      assert.deepEqual(json.roles.at(-1).induction, roles.map((layer) => layer.map((h) => h.induction)));
      assert.equal(json.halves.at(-1).second.accuracy, halves.second.accuracy);
    } finally {
      lm.delete();
    }
  }));

test('repeats with one layer: no induction head can form, and the widget says why; Chinese names the corpus',
  () => withPage(browser, 'embed.html?widget=language-model&corpus=repeats&layers=1&heads=2&steps=20&lang=zh', async ({ page }) => {
    await resting(page, 20, 60000);
    const said = await text(page, '.lm-halves');
    assert.match(said, /只有一层时，没有头能成为归纳头/);
    assert.equal(await page.locator(`${WIDGET} .lm-halves`).getAttribute('data-induction'), '');
    const lm = await repeatsModel({ layers: 1, heads: 2 }, { steps: 20 });
    try {
      assert.equal(Number(await page.locator(`${WIDGET} .lm-halves`).getAttribute('data-second')), lm.halves().second.accuracy);
    } finally {
      lm.delete();
    }
    assert.match(await text(page, '.lm-source'), /写两遍的字母串：训练文本 4,000 条/);
    assert.equal(await page.locator(`${WIDGET} .plot-box svg`).first().locator('text', { hasText: '归纳头' }).count(), 0, 'no step marked');
  }));

test('own text: the link asks for it; a short or binary text is refused with the core\'s message; a pasted text trains to the link\'s steps with the core\'s numbers, and stays out of the URL',
  () => withPage(browser, 'embed.html?widget=language-model&corpus=own&steps=20', async ({ page }) => {
    await page.locator(`${WIDGET}[data-ready="true"]`).waitFor({ timeout: 20000 });
    const panel = page.locator(`${WIDGET} .lm-own`);
    assert.ok(await panel.isVisible(), 'it asks for a text');
    assert.equal(await page.locator(`${WIDGET} .lm-trained`).isVisible(), false, 'nothing trained meanwhile');
    const box = panel.locator('textarea');
    const use = panel.locator('button[data-action="own-use"]');
    const error = page.locator(`${WIDGET} .lm-error`);

    const declaration = readFileSync(new URL('../node/fixtures/declaration.txt', import.meta.url), 'utf8');
    await box.fill(declaration);
    await use.click();
    await resting(page, 20, 120000);
    assert.equal(await error.isVisible(), false, 'no error once it trains');
    const spec = CORPORA.own;
    const corpus = await att.ownCorpus(declaration, { context: spec.options.context, minCount: spec.options.minCount });
    const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut.slice(0, spec.heldOut),
      layers: 2, heads: 4, dModel: 64, seed: 1, batch: BATCH, ...spec.options });
    try {
      for (let k = 0; k < 20; k++) lm.step(1);
      assertShown(await text(page, '[data-field="heldLoss"]'), lm.evaluate().loss, 3, 'held-out loss at step 20');
      // one unigram, one source: the box shows the ladder's first rung, the number its sentence and dotted line give
      const unigram = lm.baselines().ladder.find((r) => r.order === 1).loss;
      assertShown(await text(page, '[data-field="unigram"]'), unigram, 3, 'the unigram baseline');
      assert.match(await text(page, '.lm-source'), new RegExp(`Your text: ${corpus.train.length} training texts and ${corpus.heldOut.length} held out`));
    } finally {
      lm.delete();
    }

    // then bad texts: each refused with the core's message
    await box.fill('a short note.\n'.repeat(100));
    assert.match(await text(page, '.lm-own-count'), /1,400 characters/);
    await use.click();
    await eventually(() => error.isVisible(), { message: 'the short text refused' });
    assert.match(await error.textContent(), /the text has 1100 characters besides spaces and line breaks; at least 2000 are needed/);

    // a binary file chosen: read into the box, refused by the core
    await panel.locator('input[type="file"]').setInputFiles({ name: 'archive.zip', mimeType: 'application/zip',
      buffer: Buffer.concat([Buffer.from('PK\u0003\u0004\u0000\u0000'), Buffer.alloc(3000, 120)]) });
    await eventually(async () => (await box.inputValue()).startsWith('PK'), { message: 'the file read into the box' });
    await use.click();
    await eventually(async () => /binary file, not text/.test(await error.textContent()), { message: 'the binary file refused' });

    const url = new URL(page.url());
    assert.equal(url.searchParams.get('corpus'), 'own');
    assert.ok(!url.href.includes('Congress') && url.href.length < 400, 'the text is not in the URL');
  }));

test('own text whose lines repeat (a text pasted twice): the repeats are dropped before the split and counted under the curves; no held-out text is a training text',
  () => withPage(browser, 'embed.html?widget=language-model&corpus=own&layers=1&heads=2&dModel=32&steps=5', async ({ page }) => {
    await page.locator(`${WIDGET}[data-ready="true"]`).waitFor({ timeout: 20000 });
    const declaration = readFileSync(new URL('../node/fixtures/declaration.txt', import.meta.url), 'utf8');
    const pasted = `${declaration}\n${declaration}`;
    const spec = CORPORA.own;
    const options = { context: spec.options.context, minCount: spec.options.minCount };
    const [twice, once] = await Promise.all([att.ownCorpus(pasted, options), att.ownCorpus(declaration, options)]);
    // the second copy is dropped whole (its pieces, and again its own repeats): the split is that of the text once
    assert.equal(twice.repeats, once.train.length + once.heldOut.length + 2 * once.repeats);
    assert.deepEqual([twice.train, twice.heldOut], [once.train, once.heldOut]);
    const train = new Set(twice.train);
    assert.deepEqual(twice.heldOut.filter((t) => train.has(t)), [], 'no held-out text is a training text');

    const panel = page.locator(`${WIDGET} .lm-own`);
    await panel.locator('textarea').fill(pasted);
    await panel.locator('button[data-action="own-use"]').click();
    await resting(page, 5, 120000);
    const source = page.locator(`${WIDGET} .lm-source`);
    assert.equal(Number(await source.getAttribute('data-repeats')), twice.repeats);
    assert.equal(await text(page, '.lm-source'), `Your text: ${twice.train.length.toLocaleString('en-US')} training texts and ${twice.heldOut.length} held out (every tenth), ` +
      `its lines cut into pieces of at most 31 characters. Pieces that repeat an earlier one were dropped before the split, so that no held-out text is also a training text: ${twice.repeats.toLocaleString('en-US')} of them.`);
    assert.equal(await page.locator(`${WIDGET} [data-part="honest"] .callout-text`).getAttribute('data-corpus'), 'own');
  }));

// 120 lines of 22 letters drawn from 38 with Zipf weights 1 / rank^1.5 (seed 1): the
// count models pick k = 0.001 for the unigram, so its held-out loss (2.278) is not
// evaluate()'s add-one unigram (2.279), which the box used to show beside the sentence's.
function zipfText() {
  const rand = random(1);
  const symbols = [...'etaoinshrdlucmfwypvbgkjqxzETAOINSHRDLU'];
  const weights = symbols.map((_, i) => 1 / (i + 1) ** 1.5), total = weights.reduce((a, b) => a + b);
  const draw = () => {
    let r = rand() * total;
    for (let i = 0; i < symbols.length; i++) if ((r -= weights[i]) < 0) return symbols[i];
    return symbols.at(-1);
  };
  return Array.from({ length: 120 }, () => Array.from({ length: 22 }, draw).join('')).join('\n');
}

test('own text: the unigram box gives the ladder\'s first rung, the number of its dotted line and sentences',
  () => withPage(browser, 'embed.html?widget=language-model&corpus=own&layers=1&heads=2&dModel=32&steps=1', async ({ page }) => {
    await page.locator(`${WIDGET}[data-ready="true"]`).waitFor({ timeout: 20000 });
    const pasted = zipfText();
    const spec = CORPORA.own;
    const corpus = await att.ownCorpus(pasted, { context: spec.options.context, minCount: spec.options.minCount });
    const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut.slice(0, spec.heldOut),
      layers: 1, heads: 2, dModel: 32, seed: 1, batch: BATCH, ...spec.options });
    let unigram, addOne, ladder;
    try {
      ladder = lm.baselines().ladder;
      const rung = ladder.find((r) => r.order === 1);
      [unigram, addOne] = [rung.loss, lm.evaluate().unigramLoss];
      assert.equal(rung.k, 0.001);
      assert.deepEqual([unigram.toFixed(3), addOne.toFixed(3)], ['2.278', '2.279']);
    } finally {
      lm.delete();
    }
    const panel = page.locator(`${WIDGET} .lm-own`);
    await panel.locator('textarea').fill(pasted);
    await panel.locator('button[data-action="own-use"]').click();
    await resting(page, 1, 120000);
    assert.equal(await text(page, '[data-field="unigram"]'), unigram.toFixed(3));
    // the sentence's count model, the ladder's too (one step in: the worst rung, the 4-gram on this little text)
    const named = /does not yet beat counting [a-z ]+ \((\d\.\d{3})\)/.exec(await text(page, '.lm-ladder'));
    assert.ok(named && ladder.some((r) => r.loss.toFixed(3) === named[1]), await text(page, '.lm-ladder'));
  }));
test('repeats: a longer count model does worse than a shorter one, and the sentence says why with the core\'s numbers', async () => {
  const lm = await repeatsModel({ layers: 2, heads: 4 }, {});
  const ladder = lm.baselines().ladder;
  const vocab = lm.info().vocab;
  lm.delete();
  const best = ladder.reduce((low, rung) => (rung.loss < low.loss ? rung : low));
  const worse = ladder.filter((rung) => rung.order > best.order && rung.loss > best.loss).at(-1);
  assert.ok(worse, `the ladder inverts on the repeats: ${ladder.map((r) => r.loss.toFixed(3)).join(', ')}`);
  assert.ok(worse.unseen > best.unseen, `the longer model never saw more of the runs: ${worse.unseen} against ${best.unseen}`);
  await withPage(browser, 'embed.html?widget=language-model&corpus=repeats', async ({ page }) => {
    const box = page.locator(`${WIDGET} .lm-ladder`);
    await eventually(async () => (await box.getAttribute('data-inverted')) === `${worse.order}>${best.order}`, { timeout: 60000, message: 'the inversion named' });
    const sentence = await text(page, '.lm-ladder');
    const count = (order) => ({ 1: 'counting single characters', 2: 'counting pairs of characters', 3: 'counting triples of characters', 4: 'counting runs of four characters' })[order];
    const context = { 2: 'the character just before', 3: 'the run of two characters just before', 4: 'the run of three characters just before' }[worse.order];
    const pc = (x) => `${Math.round(100 * x)}%`;
    assert.ok(sentence.endsWith(`Longer runs do worse here: ${count(worse.order)} (${worse.loss.toFixed(3)}) is worse than ${count(best.order)} (${best.loss.toFixed(3)}). `
      + 'A longer run occurs fewer times in the training texts, so its counts say less: '
      + `for ${pc(worse.unseen)} of the held-out characters, ${context} never occurs there at all, and that count model can only guess evenly among the ${vocab} tokens `
      + `(${count(best.order)}: ${pc(best.unseen)}).`), sentence);
  });
  // the names: the ladder only goes down, and nothing is said
  await withPage(browser, 'embed.html?widget=language-model&corpus=names', async ({ page }) => {
    const box = page.locator(`${WIDGET} .lm-ladder`);
    await page.locator(`${WIDGET} .plot-tag`).first().waitFor({ timeout: 60000 });
    assert.equal(await box.getAttribute('data-inverted'), '');
    assert.doesNotMatch(await text(page, '.lm-ladder'), /Longer runs/);
  });
});
