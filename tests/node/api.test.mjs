// The public contract of the module: shapes, defaults, options, copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, matrix, maxRelError, random, randomMatrix } from './module.mjs';
import * as ref from './reference.mjs';

test('attention returns every step of the chain with the documented shapes', () => {
  const rand = random(1);
  const query = randomMatrix(3, 4, rand), key = randomMatrix(5, 4, rand), value = randomMatrix(5, 2, rand);
  const r = att.attention({ query, key, value });
  for (const name of ['scores', 'scaled', 'masked', 'weights']) {
    assert.equal(r[name].rows, 3, name);
    assert.equal(r[name].cols, 5, name);
    assert.ok(r[name].data instanceof Float32Array, name);
  }
  assert.equal(r.output.rows, 3);
  assert.equal(r.output.cols, 2);
  // the mask is a matrix too: { rows, cols, data: Uint8Array }
  assert.deepEqual([r.mask.rows, r.mask.cols], [3, 5]);
  assert.ok(r.mask.data instanceof Uint8Array);
  assert.equal(r.mask.data.length, 15);
  assert.equal(r.scale, 0.5);
  assert.deepEqual(r.params, {});
});

test('matrices may be given as nested rows, a flat row, or { rows, cols, data } of any numeric array', () => {
  const a = att.softmax([[1, 2], [3, 4]]);
  const b = att.softmax({ rows: 2, cols: 2, data: [1, 2, 3, 4] });
  const c = att.softmax({ rows: 2, cols: 2, data: new Float64Array([1, 2, 3, 4]) });
  assert.deepEqual(a, b);
  assert.deepEqual(a, c);
  const row = att.softmax(new Float32Array([1, 2, 3]));
  assert.equal(row.rows, 1);
  assert.equal(row.cols, 3);
});

test('softmax: temperature and mask', () => {
  const x = [[1, 2, 3]];
  const hot = att.softmax(x, { temperature: 10 }), cold = att.softmax(x, { temperature: 0.1 });
  assert.ok(hot.data[2] < att.softmax(x).data[2]);
  assert.ok(cold.data[2] > 0.99);
  assert.ok(maxRelError(hot, ref.softmaxRows(matrix(x), null, 10)) < 1e-6);
  const m = att.softmax(x, { mask: [1, 0, 1] });
  assert.equal(m.data[1], 0);
  assert.ok(Math.abs(m.data[0] + m.data[2] - 1) < 1e-6);
  assert.deepEqual(Array.from(att.softmax(x, { mask: [0, 0, 0] }).data), [0, 0, 0]);
});

test('attention: causal, padding and explicit masks combine; masked entries are -Infinity', () => {
  const rand = random(2);
  const X = randomMatrix(4, 3, rand);
  const r = att.attention({ query: X, key: X, value: X, causal: true, validLength: 3 });
  const expected = [1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0];
  assert.deepEqual(Array.from(r.mask.data), expected);
  r.masked.data.forEach((x, i) => assert.equal(x === -Infinity, expected[i] === 0));
  r.weights.data.forEach((x, i) => expected[i] === 0 && assert.equal(x, 0));
  // a mask may be given as a matrix is: nested rows, or a result's mask itself
  const rows = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]];
  for (const mask of [rows, rows.map((row) => row.map(Boolean)), r.mask]) {
    assert.deepEqual(Array.from(att.attention({ query: X, key: X, value: X, mask }).mask.data), expected);
  }
  assert.throws(() => att.attention({ query: X, key: X, value: X, mask: [[1, 0], [1]] }), /^AttentionError: attention: mask row 1 has 1 entries but row 0 has 2$/);
  assert.throws(() => att.softmax([[1, 2]], { mask: { rows: 1, cols: 2 } }), /^AttentionError: softmax: mask must be a Uint8Array, an array or a mask \{ rows, cols, data \}, got object$/);
});

test('score parameters: given ones are used, missing ones come from the seed and are returned', () => {
  const rand = random(3);
  const query = randomMatrix(2, 3, rand), key = randomMatrix(4, 5, rand), value = randomMatrix(4, 1, rand);
  const a = att.attention({ query, key, value, score: 'additive', params: { seed: 7, hidden: 6 } });
  assert.equal(a.params.W.rows, 6);
  assert.equal(a.params.W.cols, 3);
  assert.equal(a.params.U.cols, 5);
  assert.equal(a.params.v.length, 6);
  const again = att.attention({ query, key, value, score: 'additive', params: { W: a.params.W, U: a.params.U, v: a.params.v } });
  assert.deepEqual(again.weights, a.weights);
  const other = att.attention({ query, key, value, score: 'additive', params: { seed: 8, hidden: 6 } });
  assert.notDeepEqual(other.weights, a.weights);
  const g = att.attention({ query, key: randomMatrix(4, 3, rand), value, score: 'gaussian', params: { sigma: 2 } });
  assert.equal(g.params.sigma, 2);
  assert.equal(g.scale, 1);
});

test('self-attention returns X Wq, X Wk, X Wv and the projections', () => {
  const X = att.initXavier(4, 6, 1);
  const r = att.selfAttention({ input: X, dK: 3, dV: 2, seed: 5 });
  assert.equal(r.Q.cols, 3);
  assert.equal(r.V.cols, 2);
  assert.ok(maxRelError(r.Q, ref.matmul(X, r.projections.Wq)) < 1e-5);
  assert.ok(maxRelError(r.V, ref.matmul(X, r.projections.Wv)) < 1e-5);
  // the same seed reproduces the projections; given projections are used as they are
  const again = att.selfAttention({ input: X, dK: 3, dV: 2, projections: r.projections });
  assert.deepEqual(again.weights, r.weights);
  assert.deepEqual(att.selfAttention({ input: X, dK: 3, dV: 2, seed: 5 }).projections, r.projections);
});

test('cross-attention: queries from one sequence, keys and values from another', () => {
  const X = att.initXavier(3, 4, 1), M = att.initXavier(5, 6, 2);
  const r = att.crossAttention({ input: X, memory: M, dK: 8, dV: 2 });
  assert.equal(r.weights.rows, 3);
  assert.equal(r.weights.cols, 5);
  assert.equal(r.output.cols, 2);
  assert.equal(r.K.rows, 5);
  const expected = ref.attention({ query: ref.matmul(X, r.projections.Wq), key: ref.matmul(M, r.projections.Wk),
                                   value: ref.matmul(M, r.projections.Wv) });
  assert.ok(maxRelError(r.weights, expected.weights) < 1e-5);
});

test('multi-head attention: per-head maps on column slices, concat, Wo', () => {
  const X = att.initXavier(5, 8, 4);
  const r = att.multiHeadAttention({ input: X, heads: 4, seed: 2, causal: true });
  assert.equal(r.perHead.length, 4);
  for (let h = 0; h < 4; h++) {
    const e = ref.attention({ query: ref.columns(r.Q, 2 * h, 2), key: ref.columns(r.K, 2 * h, 2),
                              value: ref.columns(r.V, 2 * h, 2), causal: true });
    assert.ok(maxRelError(r.perHead[h].weights, e.weights) < 1e-5, `head ${h}`);
    assert.ok(maxRelError(ref.columns(r.concat, 2 * h, 2), e.output) < 1e-5, `head ${h}`);
    assert.ok(Math.abs(r.perHead[h].scale - 1 / Math.sqrt(2)) < 1e-7);
  }
  assert.ok(maxRelError(r.output, ref.matmul(r.concat, r.projections.Wo)) < 1e-5);
  assert.equal(r.projections.Wo.rows, 8);
});

test('positional encoding matches sin/cos of p / 10000^(2i/d)', () => {
  const pe = att.positionalEncoding(20, 9);
  assert.equal(pe.rows, 20);
  assert.equal(pe.cols, 9);
  assert.ok(maxRelError(pe, ref.positionalEncoding(20, 9)) < 1e-6);
});

test('conditional attention: the condition enters Q and K; each fusion returns its parameters', () => {
  const X = att.initXavier(4, 5, 1);
  const a = att.conditionalAttention({ input: X, condition: [1, 0, 0], fusion: 'concat' });
  assert.equal(a.fused.cols, 8);
  assert.equal(a.fusion, 'concat');
  const add = att.conditionalAttention({ input: X, condition: [1, 0, 0], fusion: 'add' });
  assert.equal(add.P.rows, 3);
  assert.ok(maxRelError(add.Q, ref.matmul(add.fused, add.projections.Wq)) < 1e-5);
  assert.ok(maxRelError(add.V, ref.matmul(X, add.projections.Wv)) < 1e-5);
  const fc = att.conditionalAttention({ input: X, condition: [0, 1, 0], fusion: 'fc' });
  assert.equal(fc.Wf.rows, 8);
  assert.equal(fc.bf.length, 5);
  const other = att.conditionalAttention({ input: X, condition: [0, 0, 3], fusion: 'add' });
  assert.ok(maxRelError(other.weights, add.weights) > 1e-4);
});

test('kernel regression: one query, many queries, a range, and the raw dot product failure', () => {
  const keys = [160, 165, 170, 175], values = [55, 60, 65, 70];
  const one = att.kernelRegression({ keys, values, query: 172, sigma: 2 });
  const s = keys.map((k) => -((172 - k) ** 2) / 8);
  const e = s.map(Math.exp), sum = e.reduce((a, b) => a + b);
  const expected = e.reduce((acc, x, i) => acc + (x / sum) * values[i], 0);
  assert.ok(Math.abs(one.estimate - expected) < 1e-4);
  assert.ok(maxRelError(one.scores, s) < 1e-6);
  assert.ok(maxRelError(one.contributions, e.map((x, i) => (x / sum) * values[i])) < 1e-6);
  const curve = att.kernelRegression({ keys, values, range: { from: 150, to: 185, count: 71 }, sigma: 2 });
  assert.equal(curve.estimates.length, 71);
  assert.equal(curve.weights.rows, 71);
  assert.equal(curve.queries[0], 150);
  assert.equal(curve.queries[70], 185);
  const many = att.kernelRegression({ keys, values, queries: [150, 172], sigma: 2 });
  assert.ok(Math.abs(many.estimates[1] - one.estimate) < 1e-5);
  const dot = att.kernelRegression({ keys, values, query: 160, score: 'dot' });
  assert.deepEqual(Array.from(dot.weights.data), [0, 0, 0, 1]);
  assert.equal(dot.estimate, 70);
});

test('cost model: the comparison table, quadratic in n', () => {
  const rows = att.costModel({ n: 100, d: 64, k: 3 });
  assert.deepEqual(rows.map((r) => r.layer),
                   ['self-attention', 'recurrent', 'convolutional', 'convolutional (dilated)', 'fully connected']);
  assert.equal(rows[0].multiplyAdds, 2 * 100 * 100 * 64);
  assert.equal(rows[0].complexity, 'O(n^2 d)');
  assert.equal(rows[1].sequentialOps, 100);
  assert.equal(rows[2].maxPathLength, 50);
  assert.equal(att.costModel({ n: 200, d: 64 })[0].multiplyAdds, 4 * rows[0].multiplyAdds);
  assert.deepEqual(rows.map((r) => [r.doubling, r.doublingExponent]), [[4, 2], [2, 1], [2, 1], [2, 1], [4, 2]]);
});

test('generation cost: a row with the cache, every row of the causal map without, the sums over the text', () => {
  const g = att.generationCost({ n: 10, d: 64 });
  // 2nd; n(n + 1)d (rows 1..n, 2id each); n(n + 1)d; n(n + 1)(n + 2)d/3; 2nd; and the cache: n tokens, d wide, all of it
  assert.deepEqual(g, { tokenCached: 1280, tokenUncached: 7040, totalCached: 7040, totalUncached: 28160, cacheNumbers: 1280,
                        cacheTokens: 10, cacheWidth: 64, cacheShare: 1 });
  // under the table's 2n²d, which counts the masked pairs too
  assert.ok(g.tokenUncached < att.costModel({ n: 10, d: 64 })[0].multiplyAdds);
  let cached = 0, uncached = 0;
  for (let m = 1; m <= 10; m++) {
    cached += att.generationCost({ n: m, d: 64 }).tokenCached;
    uncached += att.generationCost({ n: m, d: 64 }).tokenUncached;
  }
  assert.deepEqual([cached, uncached], [g.totalCached, g.totalUncached]);
  assert.throws(() => att.generationCost({ n: 0, d: 8 }), /generationCost: n must be at least 1, got 0/);
  assert.throws(() => att.generationCost({ n: 4 }), /generationCost: d is required/);
});

test('results are copies: they do not alias the WASM heap and survive later calls and heap growth', () => {
  const r = att.attention({ query: [[1, 2]], key: [[1, 2], [3, 4]], value: [[5], [6]] });
  // each array owns a buffer of exactly its size: a copy, not a view of the heap
  for (const m of [r.scores, r.scaled, r.masked, r.weights, r.output]) assert.equal(m.data.buffer.byteLength, m.data.byteLength);
  assert.equal(r.mask.data.buffer.byteLength, r.mask.data.byteLength);
  const before = Array.from(r.weights.data);
  att.positionalEncoding(2000, 512); // grows the heap
  att.attention({ query: [[9, 9]], key: [[1, 0], [0, 1]], value: [[0], [0]] });
  assert.deepEqual(Array.from(r.weights.data), before);
  r.weights.data[0] = 42; // writing to a result changes nothing in the module
  assert.deepEqual(Array.from(att.attention({ query: [[1, 2]], key: [[1, 2], [3, 4]], value: [[5], [6]] }).weights.data), before);
});

test('attention returns the softmax steps: weights = exps / rowSums, exps = exp(masked - rowMax)', () => {
  const rand = random(11);
  const X = randomMatrix(4, 3, rand);
  const r = att.attention({ query: X, key: X, value: X, causal: true });
  for (let i = 0; i < 4; i++) {
    let top = -Infinity;
    for (let j = 0; j <= i; j++) top = Math.max(top, r.masked.data[i * 4 + j]);
    assert.equal(r.rowMax[i], Math.fround(top));
    let sum = 0;
    for (let j = 0; j < 4; j++) {
      const e = j <= i ? Math.exp(r.masked.data[i * 4 + j] - top) : 0;
      assert.ok(Math.abs(r.exps.data[i * 4 + j] - e) < 1e-6);
      sum += e;
      assert.ok(Math.abs(r.weights.data[i * 4 + j] - r.exps.data[i * 4 + j] / r.rowSums[i]) < 1e-6);
    }
    assert.ok(Math.abs(r.rowSums[i] - sum) < 1e-5);
  }
});

test('entropy, sigmoid, token vectors and dot-product samples', () => {
  const h = att.entropy([[1, 0, 0, 0], [0.25, 0.25, 0.25, 0.25]]);
  assert.equal(h[0], 0);
  assert.ok(Math.abs(h[1] - Math.log(4)) < 1e-6);
  const s = att.sigmoid([[-1000, 0, 2, 1000]]);
  assert.deepEqual(Array.from(s.data).map((x) => +x.toFixed(6)), [0, 0.5, +(1 / (1 + Math.exp(-2))).toFixed(6), 1]);
  const X = att.embedTokens({ tokens: ['The', 'cat', 'the'], d: 4, seed: 1 });
  assert.equal(X.rows, 3);
  assert.deepEqual(X.data.slice(0, 4), X.data.slice(8, 12));
  assert.notDeepEqual(X.data.slice(0, 4), X.data.slice(4, 8));
  const samples = att.dotProductSamples({ d: 64, count: 20000, seed: 3 });
  assert.equal(samples.dots.length, 20000);
  assert.ok(Math.abs(samples.variance / 64 - 1) < 0.05, `variance ${samples.variance}`);
  assert.ok(Math.abs(samples.scaledVariance - 1) < 0.05);
  assert.throws(() => att.embedTokens({ tokens: ['a', 3], d: 4 }), /^AttentionError: embedTokens: tokens\[1\] must be a string, got 3$/);
  assert.throws(() => att.embedTokens({ tokens: [], d: 4 }), /embedTokens: tokens is empty: give at least one word/);
});
