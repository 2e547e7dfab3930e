// Sampling with top-p and min-p beside temperature and top-k (the language
// model's generate, beginGeneration and nextToken; cpp/attention/language_model/sampling.hpp):
// top-p = 1 and min-p = 0 leave the texts as they were before the two filters
// existed (recorded then, for this model); each step's kept set is what a plain
// float64 reference keeps from the model's own logits (lm.trace), the token
// drawn is one of them, and a seed gives the same steps; a bad topP or minP is
// an Error naming it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { att } from './module.mjs';

const names = JSON.parse(readFileSync(new URL('../../web/data/names.json', import.meta.url))).train.slice(0, 400);
let lm;
before(async () => {
  lm = await att.createLanguageModel({ texts: names, heldOut: [], layers: 1, heads: 2, dModel: 16, context: 16, batch: 16, seed: 3 });
  lm.step(80);
});
after(() => lm?.delete());

// generate({ seed, temperature, topK, maxTokens: 15, prompt: '' or 'M' }) for seeds 1..6, recorded
// before topP and minP existed: `${temperature}/${topK}` -> the six texts
const BEFORE = {
  '0.6/0': ["Annen", "M", "Alia", "Mn", "Alie", "Mnat"],
  '0.6/3': ["Anneeee", "Mnia", "Alila", "Mniea", "Aliena", "MlAa"],
  '0.6/20': ["Annen", "M", "Alia", "Mn", "Alie", "Mnas"],
  '1/0': ["Agil", "MhdenlaAe", "Annre", "MegelA", "AlniuA", "Meecla"],
  '1/3': ["Anneeee", "Mee", "Alila", "Mnieaa", "Aliena", "Mnniea"],
  '1/20': ["Amnil", "Mmtentae", "Annre", "Metaei", "Alnige", "Mnivisa"],
  '1.4/0': ["hgill", "MxtlnoiAi", "Anij", "M", "Alnnbravalnl", "MaeoAAe"],
  '1.4/3': ["Anneeee", "Mee", "Alila", "Mnieaa", "Aliena", "Mnniea"],
  '1.4/20': ["idiaiadaabiyaAt", "Msrenrete", "Anit", "Mas", "Alniuram", "Maeulea"],
};

test('topP 1 and minP 0, given or by default, write the texts written before the two filters existed', () => {
  for (const [key, texts] of Object.entries(BEFORE)) {
    const [temperature, topK] = key.split('/').map(Number);
    texts.forEach((text, s) => {
      const options = { seed: s + 1, temperature, topK, maxTokens: 15, prompt: s % 2 ? 'M' : '' };
      assert.equal(lm.generate(options), text, `${key}, seed ${s + 1}`);
      assert.equal(lm.generate({ ...options, topP: 1, minP: 0 }), text, `${key}, seed ${s + 1}, explicit`);
    });
  }
  // one token at a time, too
  const steps = lm.beginGeneration({ prompt: 'Ma', seed: 9, temperature: 1.2, topK: 0, topP: 1, minP: 0 });
  while (!steps.at(-1).done) steps.push(lm.nextToken());
  assert.equal(steps.map((s) => s.token).join(''), '⏎Maa');
});

// the plain reference: softmax(logits / T) of the top k in float64, then top-p, then min-p, renormalised
function reference(logits, { temperature, topK, topP, minP }) {
  const order = Array.from(logits.keys()).sort((a, b) => logits[b] - logits[a] || a - b);
  const k = topK === 0 ? order.length : Math.min(topK, order.length);
  const top = order.slice(0, k);
  const e = top.map((i) => Math.exp((logits[i] - logits[top[0]]) / temperature));
  const total = e.reduce((a, b) => a + b);
  const p = e.map((x) => x / total);
  const kept = [];
  let before = 0;
  p.forEach((q, i) => {
    if (i === 0 || ((topP >= 1 || before < topP) && q >= minP * p[0])) kept.push({ id: top[i], p: q });
    before += q;
  });
  const sum = kept.reduce((a, x) => a + x.p, 0);
  return kept.map((x) => ({ id: x.id, p: x.p / sum }));
}

test('each step\'s kept set is the reference\'s on the model\'s logits; the token drawn is in it', () => {
  const vocabulary = lm.vocabulary().tokens;
  for (const options of [{ temperature: 1, topK: 0, topP: 0.9, minP: 0 }, { temperature: 0.7, topK: 0, topP: 1, minP: 0.1 },
    { temperature: 1.3, topK: 10, topP: 0.6, minP: 0.05 }, { temperature: 0, topK: 0, topP: 0.5, minP: 0.5 }]) {
    for (const seed of [1, 2, 3]) {
      const steps = lm.beginGeneration({ ...options, seed, prompt: 'M' });
      while (!steps.at(-1).done) steps.push(lm.nextToken());
      assert.deepEqual(steps[0].kept.tokens, [], 'the prompt\'s first step samples nothing');
      for (let k = 1; k < steps.length; k++) {
        const text = steps.slice(1, k + 1).map((s) => s.token).join('');
        const logits = lm.trace(text).stages.find((s) => s.name === 'logits').values;
        const last = Array.from(logits.data.slice((logits.rows - 1) * logits.cols));
        const want = options.temperature === 0 ? [{ id: reference(last, { ...options, temperature: 1 })[0].id, p: 1 }] : reference(last, options);
        const { kept, next, done } = steps[k];
        const where = `${JSON.stringify(options)}, seed ${seed}, after "${text}"`;
        assert.deepEqual(kept.tokens, want.map((x) => vocabulary[x.id]), where);
        want.forEach((x, i) => assert.ok(Math.abs(kept.probabilities[i] - x.p) < 1e-5, `${where}: ${kept.probabilities[i]} against ${x.p}`));
        if (!done || next) assert.ok(kept.tokens.includes(next === '' ? '⏎' : next), `${where}: "${next}" drawn from the kept set`);
      }
    }
  }
});

test('a seed gives the same steps and kept sets; another seed, other texts', () => {
  const run = (seed) => {
    const steps = lm.beginGeneration({ seed, temperature: 1.2, topK: 0, topP: 0.95, minP: 0.02 });
    while (!steps.at(-1).done) steps.push(lm.nextToken());
    return steps.map((s) => ({ token: s.token, kept: s.kept.tokens, p: Array.from(s.kept.probabilities) }));
  };
  assert.deepEqual(run(5), run(5));
  const texts = new Set([1, 2, 3, 4, 5, 6].map((seed) => lm.generate({ seed, temperature: 1.2, topK: 0, topP: 0.95, minP: 0.02 })));
  assert.ok(texts.size >= 4, `${texts.size} different texts from 6 seeds`);
});

test('a topP or minP out of range, or not a number, is an Error naming it', () => {
  const cases = [
    [{ topP: 0 }, /^AttentionError: languageModel\.generate: topP must be a number greater than 0 and at most 1 \(1: no nucleus filter\), got 0$/],
    [{ topP: 1.5 }, /topP must be a number greater than 0 and at most 1 \(1: no nucleus filter\), got 1\.5$/],
    [{ topP: -0.2 }, /topP must be .*got -0\.2$/],
    [{ topP: NaN }, /languageModel\.generate: topP must be a finite number, got NaN$/],
    [{ topP: '0.9' }, /languageModel\.generate: topP must be a finite number, got the string "0\.9"$/],
    [{ minP: -0.1 }, /^AttentionError: languageModel\.generate: minP must be a number from 0 to 1 \(0: no minimum\), got -0\.1$/],
    [{ minP: 2 }, /minP must be a number from 0 to 1 \(0: no minimum\), got 2$/],
    [{ minp: 0.1 }, /unknown option "minp"/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => lm.generate(options), message, JSON.stringify(options));
    assert.throws(() => lm.beginGeneration(options), (e) => message.test(String(e).replace('beginGeneration', 'generate')), `begin ${JSON.stringify(options)}`);
  }
  assert.equal(typeof lm.generate({ seed: 1 }), 'string', 'the model works after');
});
