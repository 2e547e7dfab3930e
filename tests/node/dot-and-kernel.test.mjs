// dotAndKernel: q·k and the Gaussian kernel −|q − k|²/2 side by side, against
// a reference written here from the definitions (the distance computed as a
// distance, not through the identity); keys of one length give one weighting;
// the core's own attention() with each score agrees; bad input says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

const softmax = (xs) => {
  const top = Math.max(...xs), e = xs.map((x) => Math.exp(x - top)), sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
};
function reference(q, keys, equalLength) {
  const length = (v) => Math.hypot(...v);
  const mean = keys.reduce((s, k) => s + length(k), 0) / keys.length;
  const K = keys.map((k) => (equalLength && length(k) > 0 ? k.map((x) => (x * mean) / length(k)) : k));
  const dot = K.map((k) => k.reduce((s, x, c) => s + x * q[c], 0));
  const kernel = K.map((k) => -k.reduce((s, x, c) => s + (q[c] - x) ** 2, 0) / 2);
  const dw = softmax(dot), kw = softmax(kernel);
  return { K, lengths: K.map(length), dot, kernel, dw, kw, diff: Math.max(...dw.map((w, i) => Math.abs(w - kw[i]))) };
}
const close = (a, b, tol, what) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol * (1 + Math.abs(b[i])), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

// the page's five word vectors (the vectors section)
const KEYS = [[2, 0.5], [0.6, 1.6], [-1.2, 0.9], [-0.4, -1.5], [1.1, -0.8]];

test('dotAndKernel equals the reference, as given and at one length', () => {
  for (const q of [[1, 0.4], [-0.7, 1.3], [0, 0], [2.5, -2]]) {
    for (const equalLength of [false, true]) {
      const r = att.dotAndKernel({ query: q, keys: KEYS, equalLength });
      const ref = reference(q, KEYS, equalLength);
      close(r.keys.data, ref.K.flat(), 1e-5, 'keys');
      close(r.lengths, ref.lengths, 1e-5, 'lengths');
      close(r.dot, ref.dot, 1e-5, 'dot');
      close(r.kernel, ref.kernel, 1e-5, 'kernel');
      close(r.dotWeights, ref.dw, 1e-5, 'dot weights');
      close(r.kernelWeights, ref.kw, 1e-5, 'kernel weights');
      assert.ok(Math.abs(r.queryLength - Math.hypot(...q)) < 1e-5);
      assert.ok(Math.abs(r.maxDifference - ref.diff) < 1e-5);
      if (equalLength) assert.ok(r.maxDifference < 1e-6, `one length, one weighting: ${r.maxDifference}`);
    }
  }
  // lengths differ: the kernel and the dot product disagree, and the long key wins the dot product
  const r = att.dotAndKernel({ query: [1, 0.4], keys: KEYS });
  assert.ok(r.maxDifference > 0.05);
  assert.equal(r.dotWeights.indexOf(Math.max(...r.dotWeights)), 0);
});

test('dotAndKernel agrees with attention() scored by dot (scale 1) and by the Gaussian kernel (σ = 1)', () => {
  const q = [0.3, 1.1];
  const r = att.dotAndKernel({ query: q, keys: KEYS });
  const values = KEYS.map((_, i) => [i]);
  const dot = att.attention({ query: [q], key: KEYS, value: values, score: 'dot', scale: 1 });
  const gauss = att.attention({ query: [q], key: KEYS, value: values, score: 'gaussian', params: { sigma: 1 } });
  close(r.dotWeights, Array.from(dot.weights.data), 1e-5, 'dot weights');
  close(r.kernelWeights, Array.from(gauss.weights.data), 1e-5, 'kernel weights');
});

test('dotAndKernel: bad input is an error naming it', () => {
  assert.throws(() => att.dotAndKernel({ query: [1, 2, 3], keys: KEYS }), /the keys have 2 columns but the query has 3 entries/);
  assert.throws(() => att.dotAndKernel({ query: [1, 2], keys: [[0, 0], [0, 0]], equalLength: true }), /every key is zero/);
  assert.throws(() => att.dotAndKernel({ query: [1, NaN], keys: KEYS }), /query/);
  assert.throws(() => att.dotAndKernel({ keys: KEYS }), /query/);
  assert.throws(() => att.dotAndKernel({ query: [1, 2], keys: KEYS, equalLength: 'yes' }), /equalLength must be true or false/);
});
