// createAttention() resolves to a frozen object holding the documented
// functions (and debug, AttentionError) and nothing else; the small arithmetic functions the page shows
// (rowSums, scale, argmaxRows, maxEntropy, initUniform) against golden values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { att, random, randomMatrix } from './module.mjs';

test('the module is a frozen object of functions: no heap, no malloc, no raw binding', async () => {
  assert.ok(Object.isFrozen(att));
  assert.equal(Object.getPrototypeOf(att), Object.prototype);
  for (const [name, value] of Object.entries(att)) if (name !== 'debug') assert.equal(typeof value, 'function', name);
  assert.ok(Object.isFrozen(att.debug), 'att.debug: the leak checks, frozen too');
  const keys = Object.keys(att);
  for (const hidden of ['HEAP8', 'HEAPU8', 'HEAPF32', 'HEAPF64', '_malloc', '_free', 'asm', 'run', 'ready', 'calledRun'])
    assert.ok(!keys.includes(hidden) && !(hidden in att), hidden);
  assert.deepEqual(keys.filter((k) => k.startsWith('raw_') || k.startsWith('_')), []);
  assert.throws(() => { 'use strict'; att.attention = null; }, TypeError);
  // a second module is another object, with the same functions
  const other = await createAttention();
  assert.notEqual(other, att);
  assert.deepEqual(Object.keys(other), keys);
  assert.equal(other.maxEntropy(4), att.maxEntropy(4));
});

test('rowSums: the weights of every row sum to 1, a fully masked row to 0', () => {
  assert.deepEqual(Array.from(att.rowSums([[1, 2, 3.5], [-1, 0.25, 0]])), [6.5, -0.75]);
  const r = att.attention({ query: [[1, 0], [0, 1], [1, 1]], key: [[1, 0], [0, 1]], value: [[1], [2]], mask: [0, 0, 1, 1, 1, 0] });
  const sums = att.rowSums(r.weights);
  assert.equal(sums[0], 0);
  assert.ok(Math.abs(sums[1] - 1) < 1e-6 && Math.abs(sums[2] - 1) < 1e-6);
  assert.throws(() => att.rowSums([[1, NaN]]), /^AttentionError: rowSums: m has NaN at row 0, column 1/);
  assert.throws(() => att.rowSums('x'), /^AttentionError: rowSums: m must be a matrix/);
});

test('scale: Thinking Machines, 112 and 96 times 1/8 are 14 and 12', () => {
  const s = att.scale([[112, 96]], 1 / 8);
  assert.deepEqual(s, { rows: 1, cols: 2, data: new Float32Array([14, 12]) });
  const m = randomMatrix(3, 5, random(3));
  const doubled = att.scale(m, 2);
  doubled.data.forEach((x, i) => assert.equal(x, Math.fround(m.data[i] * 2)));
  assert.throws(() => att.scale([[1]], Infinity), /^AttentionError: scale: factor must be a finite number, got Infinity$/);
  assert.throws(() => att.scale([[3e38]], 1e10), /^AttentionError: scale: m \* factor overflows float32/);
});

test('dotProducts: a bᵀ against a double loop; widths must match', () => {
  const a = randomMatrix(3, 7, random(11)), b = randomMatrix(4, 7, random(12));
  const p = att.dotProducts(a, b);
  assert.equal(p.rows, 3);
  assert.equal(p.cols, 4);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 4; j++) {
      let sum = 0;
      for (let k = 0; k < 7; k++) sum += a.data[i * 7 + k] * b.data[j * 7 + k];
      assert.ok(Math.abs(p.data[i * 4 + j] - sum) < 1e-6, `row ${i}, column ${j}`);
    }
  }
  assert.deepEqual(Array.from(att.dotProducts([[0.6, 0.8]], [[0.6, 0.8], [1, 0]]).data), [1, Math.fround(0.6)]);
  assert.throws(() => att.dotProducts([[1, 2]], [[1, 2, 3]]), /^AttentionError: dotProducts: b has 3 columns but a has 2; a dot product needs equal widths$/);
  assert.throws(() => att.dotProducts([[1, NaN]], [[1, 2]]), /^AttentionError: dotProducts: a /);
});

test('argmaxRows: the key each query looks at most, the first on a tie', () => {
  const top = att.argmaxRows([[0.1, 0.15, 0.45, 0.3], [2, 5, 5, 1], [-Infinity, -Infinity, -3, -Infinity]]);
  assert.deepEqual(Array.from(top.index), [2, 1, 2]);
  assert.deepEqual(Array.from(top.value), [Math.fround(0.45), 5, -3]);
  assert.ok(top.index instanceof Int32Array && top.value instanceof Float32Array);
  assert.throws(() => att.argmaxRows([[1, NaN]]), /^AttentionError: argmaxRows: m has NaN at row 0, column 1$/);
});

test('maxEntropy: log n, the entropy of n even weights', () => {
  assert.equal(att.maxEntropy(1), 0);
  assert.equal(att.maxEntropy(12), Math.fround(Math.log(12)));
  assert.ok(Math.abs(att.maxEntropy(12) - att.entropy(att.softmax(new Float32Array(12)))[0]) < 1e-6);
  assert.throws(() => att.maxEntropy(0), /^AttentionError: maxEntropy: n must be at least 1, got 0$/);
  assert.throws(() => att.maxEntropy(1.5), /^AttentionError: maxEntropy: n must be an integer, got 1.5$/);
});

test('initUniform: entries on [-limit, limit], the Xavier draws rescaled, deterministic', () => {
  const limit = Math.sqrt(3);
  const u = att.initUniform(16, 8, 7, limit, 2);
  assert.deepEqual(u, att.initUniform(16, 8, 7, limit, 2));
  assert.notDeepEqual(u, att.initUniform(16, 8, 7, limit, 3));
  const x = att.initXavier(16, 8, 7, 2), a = Math.sqrt(6 / 24);
  u.data.forEach((v, i) => {
    assert.ok(Math.abs(v) <= Math.fround(limit));
    assert.ok(Math.abs(v - x.data[i] * (limit / a)) < 1e-6);
  });
  assert.deepEqual(att.initUniform(2, 2, 0, 1), att.initUniform(2, 2, 0, 1, 0));
  assert.throws(() => att.initUniform(2, 2, 0, -1), /^AttentionError: initUniform: limit must be a finite number >= 0, got -1$/);
  assert.throws(() => att.initUniform(2, 2, 0), /^AttentionError: initUniform: limit must be a finite number, got undefined$/);
});

test('the core names its own arguments; each function says its own option names', () => {
  assert.throws(() => att.selfAttention({ input: [[1, 2]], dV: 0 }), /^AttentionError: selfAttention: dV must be positive, got 0$/);
  assert.throws(() => att.crossAttention({ input: [[1, 2]], memory: [[1]], dK: 0 }), /^AttentionError: crossAttention: dK must be positive, got 0$/);
  assert.throws(() => att.multiHeadAttention({ input: [[1, 2]], heads: 1, dModel: 0 }), /^AttentionError: multiHeadAttention: dModel must be positive, got 0$/);
  assert.throws(() => att.selfAttention({ input: [[1, 2], [3, 4]], validLength: 3 }),
                /^AttentionError: selfAttention: validLength must be between 0 and the number of keys \(2\), got 3$/);
});

test('one default seed: every seed left out is 1, in every function and handle that draws', async () => {
  const X = randomMatrix(4, 6, random(7));
  const same = (a, b, what) => assert.deepEqual(Array.from(a.data), Array.from(b.data), what);
  const other = (a, b, what) => assert.notDeepEqual(Array.from(a.data), Array.from(b.data), what);
  same(att.embedTokens({ tokens: ['a', 'b'], d: 4 }), att.embedTokens({ tokens: ['a', 'b'], d: 4, seed: 1 }), 'embedTokens');
  other(att.embedTokens({ tokens: ['a', 'b'], d: 4 }), att.embedTokens({ tokens: ['a', 'b'], d: 4, seed: 0 }), 'a seed changes the draw');
  same(att.selfAttention({ input: X, dK: 3 }).output, att.selfAttention({ input: X, dK: 3, seed: 1 }).output, 'selfAttention');
  same(att.crossAttention({ input: X, memory: X, dK: 3 }).output, att.crossAttention({ input: X, memory: X, dK: 3, seed: 1 }).output, 'crossAttention');
  same(att.multiHeadAttention({ input: X, heads: 2 }).output, att.multiHeadAttention({ input: X, heads: 2, seed: 1 }).output, 'multiHeadAttention');
  same(att.conditionalAttention({ input: X, condition: [1, 0, 0, 0, 0, 0] }).output,
    att.conditionalAttention({ input: X, condition: [1, 0, 0, 0, 0, 0], seed: 1 }).output, 'conditionalAttention');
  assert.deepEqual(Array.from(att.dotProductSamples({ d: 4, count: 10 }).dots), Array.from(att.dotProductSamples({ d: 4, count: 10, seed: 1 }).dots), 'dotProductSamples');
  // the score parameters attention() draws when none are given
  const scored = (params) => att.attention({ query: X, key: X, value: X, score: 'additive', params }).weights;
  same(scored({ hidden: 5 }), scored({ hidden: 5, seed: 1 }), 'attention, additive');
  other(scored({ hidden: 5 }), scored({ hidden: 5, seed: 0 }), 'attention, another seed');
  // the trainer and the language model (their held-out sets and parameters come from the seed)
  const [t1, t2] = [await att.createTrainer(), await att.createTrainer({ seed: 1 })];
  same(t1.parameters().Wq, t2.parameters().Wq, 'createTrainer');
  t1.delete(); t2.delete();
  const texts = ['abc', 'abd', 'bcd', 'cab'];
  const [l1, l2] = [await att.createLanguageModel({ texts, heldOut: texts, layers: 1, heads: 1, dModel: 8 }), await att.createLanguageModel({ texts, heldOut: texts, layers: 1, heads: 1, dModel: 8, seed: 1 })];
  same(l1.parameters().embedding, l2.parameters().embedding, 'createLanguageModel');
  assert.equal(l1.generate({ maxTokens: 6 }), l2.generate({ maxTokens: 6, seed: 1 }), 'generate');
  l1.delete(); l2.delete();
});
