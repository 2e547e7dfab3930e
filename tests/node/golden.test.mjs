// The golden numbers, through the public JS API. Their sources:
// - height -> weight: keys 160..175 cm, values 55..70 kg and the illustrative
//   weights 0.1/0.15/0.45/0.3 of the Chinese introduction to attention the
//   page follows ("注意力机制的引入", its Q/K/V section); 64.75 is their weighted sum;
// - "Thinking Machines": Jay Alammar, "The Illustrated Transformer" (2018),
//   https://jalammar.github.io/illustrated-transformer/ : q1.k1 = 112,
//   q1.k2 = 96, divided by sqrt(d_k) = 8, softmax 0.88 / 0.12;
// - scaling by 1/sqrt(d_k) and why (saturated softmax): Vaswani et al. 2017,
//   "Attention Is All You Need", section 3.2.1, https://arxiv.org/abs/1706.03762
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, matrix } from './module.mjs';

const heights = [160, 165, 170, 175];
const weightsKg = [55, 60, 65, 70];

test('height -> weight with the article weights 0.1/0.15/0.45/0.3 gives 64.75', () => {
  const r = att.kernelRegression({ keys: heights, values: weightsKg, weights: [0.1, 0.15, 0.45, 0.3] });
  assert.equal(r.estimate, 64.75);
  assert.deepEqual(Array.from(r.estimates), [64.75]);
  assert.deepEqual(Array.from(r.contributions.data), [5.5, 9, 29.25, 21].map(Math.fround));
  assert.equal(r.scores, undefined);
});

test('Thinking Machines: 112, 96 -> 14, 12 -> 0.880797, 0.119203 with d_k = 64', () => {
  const q = matrix([new Array(64).fill(1)]);
  const k = matrix([new Array(64).fill(1.75), new Array(64).fill(1.5)]);
  const v = matrix([[1, 0], [0, 1]]);
  const r = att.attention({ query: q, key: k, value: v });
  assert.equal(r.scale, 0.125);
  assert.deepEqual(Array.from(r.scores.data), [112, 96]);
  assert.deepEqual(Array.from(r.scaled.data), [14, 12]);
  assert.ok(Math.abs(r.weights.data[0] - 0.880797) < 1e-6);
  assert.ok(Math.abs(r.weights.data[1] - 0.119203) < 1e-6);
  // z1 = a11 v1 + a12 v2
  assert.ok(Math.abs(r.output.data[0] - r.weights.data[0]) < 1e-7);
  assert.ok(Math.abs(r.output.data[1] - r.weights.data[1]) < 1e-7);
});

test('softmax of [1000, 10000] without scaling is [0, 1], no NaN or Inf', () => {
  const w = att.softmax([1000, 10000]);
  assert.deepEqual(Array.from(w.data), [0, 1]);
  const r = att.attention({ query: [[1000]], key: [[1], [10]], value: [[1], [2]], scale: 1 });
  assert.deepEqual(Array.from(r.weights.data), [0, 1]);
  assert.ok(r.output.data.every(Number.isFinite));
});

test('every row of every map sums to 1 within 1e-6, or is all 0 when fully masked', () => {
  const n = 6;
  const X = att.initXavier(n, 8, 3);
  const mask = new Uint8Array(n * n).fill(1);
  mask.fill(0, 0, n); // row 0 fully masked
  for (const options of [{}, { causal: true }, { validLength: 4 }, { mask }]) {
    for (const w of [
      att.selfAttention({ input: X, ...options }).weights,
      ...att.multiHeadAttention({ input: X, heads: 4, ...options }).perHead.map((h) => h.weights),
    ]) {
      for (let i = 0; i < w.rows; i++) {
        const row = w.data.subarray(i * w.cols, (i + 1) * w.cols);
        const sum = row.reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - 1) <= 1e-6 || row.every((x) => x === 0), `row ${i} sums to ${sum}`);
      }
    }
  }
  const fully = att.selfAttention({ input: X, mask });
  assert.ok(fully.output.data.subarray(0, fully.output.cols).every((x) => x === 0));
});

test('the seeded initialiser gives the same numbers as natively (doctest test_init)', () => {
  const W = att.initXavier(2, 3, 42, 11);
  const expected = [-0.767329991, 0.556887031, 0.888659716, -0.442492902, 0.28819859, 0.267334014];
  assert.deepEqual(Array.from(W.data), expected.map(Math.fround));
});
