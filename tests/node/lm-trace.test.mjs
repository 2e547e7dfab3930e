// The language model stage by stage and one token at a time, through the JS
// API (lm.trace, lm.beginGeneration, lm.nextToken): the trace's stages against
// a JS layer norm and the residual sums, its logits against next(); the
// lesions' wiring; the generation's text against generate(), its rows against
// attention(), its counts against the documented formulas; errors named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

const options = {
  texts: ['abcab', 'bcabc', 'cabca', 'ab', 'abcabcabc', 'cab', 'bca'], heldOut: [],
  layers: 2, heads: 2, dModel: 8, context: 8, batch: 3,
};

async function withModel(f) {
  const lm = await att.createLanguageModel(options);
  try {
    lm.step(20);
    return f(lm);
  } finally {
    lm.delete();
  }
}

const stageOf = (trace, name, layer = 0) => trace.stages.find((s) => s.name === name && s.layer === layer);
const rows = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));

test('trace: stages in order with their shapes; residual sums; logits give next()', () => withModel((lm) => {
  const t = lm.trace('abca');
  assert.deepEqual(t.tokens, ['⏎', 'a', 'b', 'c', 'a']);
  const block = ['ln1', 'attention', 'residual1', 'ln2', 'hidden', 'mlp', 'residual2'];
  assert.deepEqual(t.stages.map((s) => `${s.name}${s.layer}`), ['embedding0', ...block.map((s) => `${s}1`), ...block.map((s) => `${s}2`), 'lnf0', 'logits0']);
  for (const s of t.stages) {
    assert.equal(s.values.rows, 5);
    assert.equal(s.values.cols, s.name === 'hidden' ? 32 : s.name === 'logits' ? lm.info().vocab : 8);
    const rms = Math.sqrt(s.values.data.reduce((a, x) => a + x * x, 0) / s.values.data.length);
    assert.ok(Math.abs(s.rms - rms) < 1e-6 * (1 + rms), `${s.name}: rms ${s.rms} against ${rms}`);
  }
  const x = stageOf(t, 'embedding'), a = stageOf(t, 'attention', 1), h = stageOf(t, 'residual1', 1);
  h.values.data.forEach((v, k) => assert.ok(Math.abs(v - (x.values.data[k] + a.values.data[k])) < 1e-5));
  // the last position's logits, softmaxed, are next()'s distribution
  const last = rows(stageOf(t, 'logits').values).at(-1);
  const top = Math.max(...last), z = last.reduce((s, v) => s + Math.exp(v - top), 0);
  const next = lm.next('abca');
  const vocabulary = lm.vocabulary().tokens;
  next.tokens.forEach((token, i) => {
    const p = Math.exp(last[vocabulary.indexOf(token)] - top) / z;
    assert.ok(Math.abs(p - next.probabilities[i]) < 1e-5, `${token}: ${p} against ${next.probabilities[i]}`);
    assert.ok(Math.abs(p - t.next.probabilities[t.next.tokens.indexOf(token)]) < 1e-5);
  });
}));

test('trace: without layer norms a stage passes its input; without residuals H is the attention output', () => withModel((lm) => {
  const noNorm = lm.trace('abc', { layerNorm: false });
  assert.deepEqual(stageOf(noNorm, 'ln1', 1).values.data, stageOf(noNorm, 'embedding').values.data);
  assert.deepEqual(stageOf(noNorm, 'lnf').values.data, stageOf(noNorm, 'residual2', 2).values.data);
  const noResidual = lm.trace('abc', { residual: false });
  assert.deepEqual(stageOf(noResidual, 'residual1', 2).values.data, stageOf(noResidual, 'attention', 2).values.data);
  assert.deepEqual(stageOf(noResidual, 'residual2', 1).values.data, stageOf(noResidual, 'mlp', 1).values.data);
  // intact: ln1 is each row of X normalized, times the gain plus the bias (the trained ones)
  const t = lm.trace('abc');
  const gain = lm.parameters()['layer1.ln1.gain'].data, bias = lm.parameters()['layer1.ln1.bias'].data;
  const X = rows(stageOf(t, 'embedding').values), Y = rows(stageOf(t, 'ln1', 1).values);
  X.forEach((row, i) => {
    const mean = row.reduce((a, v) => a + v, 0) / row.length;
    const variance = row.reduce((a, v) => a + (v - mean) ** 2, 0) / row.length;
    row.forEach((v, j) => assert.ok(Math.abs((v - mean) / Math.sqrt(variance + 1e-5) * gain[j] + bias[j] - Y[i][j]) < 1e-4));
  });
  assert.ok(lm.trace('abc', { temperature: 3 }).entropy > t.entropy, 'a higher temperature, a flatter softmax');
}));

test('generation token by token: generate()\'s text, attention()\'s rows, the documented counts', () => withModel((lm) => {
  const g = { prompt: 'ab', seed: 4, temperature: 1 };
  const whole = lm.generate({ ...g, maxTokens: 100 });
  const steps = lm.beginGeneration(g);
  assert.deepEqual(steps.map((s) => s.token), ['⏎', 'a', 'b']);
  let text = 'ab';
  while (!steps.at(-1).done) {
    text += steps.at(-1).next;
    steps.push(lm.nextToken());
  }
  assert.equal(text, whole);
  const maps = lm.attention(steps.slice(1).map((s) => s.token).join(''));
  const { vocab } = lm.info();
  for (const s of steps) {
    const t = s.position;
    s.rows.forEach((layer, l) => layer.forEach((row, h) => {
      assert.equal(row.length, t + 1);
      const map = maps.weights[l][h];
      row.forEach((w, j) => assert.ok(Math.abs(w - map.data[t * map.cols + j]) < 1e-5));
    }));
    assert.equal(s.cachedMultiplyAdds, 2 * (12 * 64 + 2 * (t + 1) * 8) + 8 * vocab);
    assert.equal(s.uncachedMultiplyAdds, 2 * (12 * 64 * (t + 1) + (t + 1) * (t + 2) * 8) + 8 * vocab);
    assert.equal(s.cacheNumbers, 2 * 2 * (t + 1) * 8);
  }
  assert.throws(() => lm.nextToken(), { code: 'BAD_ARGUMENT', message: /languageModel\.nextToken: no generation in progress/ });
}));

test('errors: temperature, unknown options, a text too long, a deleted model', async () => {
  await withModel((lm) => {
    assert.throws(() => lm.trace('abc', { temperature: 0 }), /languageModel\.trace: temperature must be a finite number > 0, got 0/);
    assert.throws(() => lm.trace('abc', { residuals: false }), /unknown option "residuals"/);
    assert.throws(() => lm.trace('abc', { residual: 0 }), /residual must be true or false/);
    assert.throws(() => lm.trace('abcabcabc'), /text has 9 characters; with the boundary token at most context - 1 = 7 fit/);
    assert.throws(() => lm.beginGeneration({ maxTokens: 3 }), /unknown option "maxTokens"/);
    assert.throws(() => lm.beginGeneration({ topK: -1 }), /topK must be an integer/);
  });
  const lm = await att.createLanguageModel(options);
  lm.delete();
  assert.throws(() => lm.trace('a'), { code: 'DELETED' });
  assert.throws(() => lm.nextToken(), { code: 'DELETED' });
});
