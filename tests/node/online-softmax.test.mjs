// The online softmax opened (flashAttention, its trace, weightsFromLogSumExp,
// attention's logSumExp) and the masks of today's models (a sliding window,
// its sinks, an additive bias), against a float64 reference written here from
// the formulas: random seeded shapes from 1 x 1 to n_k >> n_q, rows that see
// no key, tiles of every size; and at n = 16,384, rows of weights given back
// from the kernel's log-sum-exp without the matrix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, maxRelError, random, randomMatrix } from './module.mjs';

// ---- the reference -----------------------------------------------------------

// whether query i sees key j
function sees({ causal, validLength, window, sinks = 0 }, i, j) {
  if (causal && j > i) return false;
  if (validLength !== undefined && j >= validLength) return false;
  return window === undefined || i - j < window || j < sinks;
}

// { weights (n_q x n_k), output (n_q x d_v), lse (n_q) } in float64
function reference(o) {
  const { query: Q, key: K, value: V } = o;
  const scale = o.scale ?? 1 / Math.sqrt(Q.cols);
  const weights = new Float64Array(Q.rows * K.rows), output = new Float64Array(Q.rows * V.cols);
  const lse = new Float64Array(Q.rows).fill(-Infinity);
  for (let i = 0; i < Q.rows; i++) {
    const s = new Float64Array(K.rows).fill(-Infinity);
    for (let j = 0; j < K.rows; j++) {
      if (!sees(o, i, j)) continue;
      let dot = 0;
      for (let c = 0; c < Q.cols; c++) dot += Q.data[i * Q.cols + c] * K.data[j * K.cols + c];
      s[j] = dot * scale + (o.bias ? o.bias.data[i * K.rows + j] : 0);
    }
    const top = Math.max(...s);
    if (top === -Infinity) continue;  // sees no key: zeros
    let sum = 0;
    for (let j = 0; j < K.rows; j++) sum += Math.exp(s[j] - top);
    lse[i] = top + Math.log(sum);
    for (let j = 0; j < K.rows; j++) {
      const w = Math.exp(s[j] - lse[i]);
      weights[i * K.rows + j] = w;
      for (let c = 0; c < V.cols; c++) output[i * V.cols + c] += w * V.data[j * V.cols + c];
    }
  }
  return { weights: { rows: Q.rows, cols: K.rows, data: weights }, output: { rows: Q.rows, cols: V.cols, data: output }, lse };
}

function assertLse(got, want, label) {
  assert.equal(got.length, want.length, label);
  for (let i = 0; i < want.length; i++) {
    if (want[i] === -Infinity) assert.equal(got[i], -Infinity, `${label}: row ${i} sees no key`);
    else assert.ok(Math.abs(got[i] - want[i]) <= 1e-5 * (1 + Math.abs(want[i])), `${label}: lse[${i}] ${got[i]} vs ${want[i]}`);
  }
}

// n_q, n_k, d, d_v, and the masks: a variety that includes 1 x 1, n_k >> n_q, rows that see no key
const SHAPES = [[1, 1, 1, 1], [1, 9, 3, 2], [3, 60, 5, 4], [7, 7, 4, 3], [12, 15, 8, 5], [20, 5, 3, 6], [33, 40, 16, 8]];
const MASKS = [
  {}, { causal: true }, { causal: true, window: 3 }, { causal: true, window: 4, sinks: 2 },
  { causal: true, window: 2, sinks: 1, validLength: 'most' }, { validLength: 0 }, { bias: true }, { causal: true, bias: true },
];

function cases(seed) {
  const rand = random(seed), out = [];
  for (const [nq, nk, d, dv] of SHAPES)
    for (const masks of MASKS) {
      const o = { query: randomMatrix(nq, d, rand), key: randomMatrix(nk, d, rand), value: randomMatrix(nk, dv, rand) };
      for (const x of [o.query, o.key]) x.data.forEach((v, i) => { x.data[i] = v * 3; });
      Object.assign(o, masks);
      if (masks.validLength === 'most') o.validLength = Math.max(1, nk - 2);
      if (masks.bias) o.bias = randomMatrix(nq, nk, rand);
      out.push({ o, label: JSON.stringify({ nq, nk, d, dv, ...masks }) });
    }
  return out;
}

// ---- the tests ---------------------------------------------------------------

test('attention: a window, its sinks and a bias give the reference\'s weights and output; logSumExp its lse', () => {
  for (const { o, label } of cases(1)) {
    const want = reference(o);
    const full = att.attention(o);
    assert.ok(maxRelError(full.weights, want.weights) < 1e-5, label);
    assert.ok(maxRelError(full.output, want.output) < 1e-5, label);
    const lean = att.attention({ ...o, intermediates: false, logSumExp: true });
    assert.deepEqual(Object.keys(lean), ['output', 'logSumExp'], label);
    assert.ok(maxRelError(lean.output, want.output) < 1e-5, label);
    assertLse(lean.logSumExp, want.lse, label);
  }
});

test('flashAttention: the reference\'s output and lse for tiles of every size; tiles the masks hide are skipped', () => {
  for (const { o, label } of cases(2))
    for (const [blockRows, blockCols] of [[1, 1], [2, 3], [16, 16], [64, 7]]) {
      const want = reference(o);
      const r = att.flashAttention({ ...o, blockRows, blockCols });
      const tag = `${label} ${blockRows}x${blockCols}`;
      assert.ok(maxRelError(r.output, want.output) < 1e-5, tag);
      assertLse(r.logSumExp, want.lse, tag);
      const tiles = Math.ceil(o.query.rows / blockRows) * Math.ceil(o.key.rows / blockCols);
      assert.equal(r.tilesVisited + r.tilesSkipped, tiles, tag);
      assert.equal(r.tiles, undefined, tag);
    }
  // causal, 8 x 8 in tiles of 4: the tile above the diagonal is never computed
  const rand = random(3);
  const X = randomMatrix(8, 4, rand);
  const r = att.flashAttention({ query: X, key: X, value: X, causal: true, blockRows: 4, blockCols: 4 });
  assert.deepEqual([r.tilesVisited, r.tilesSkipped], [3, 1]);
});

test('flashAttention\'s trace: every visit in order, and the running state replays the softmax', () => {
  const rand = random(4);
  const query = randomMatrix(6, 4, rand), key = randomMatrix(10, 4, rand), value = randomMatrix(10, 3, rand);
  const r = att.flashAttention({ query, key, value, causal: true, blockRows: 3, blockCols: 4, trace: true });
  assert.equal(r.tiles.length, r.tilesVisited);
  assert.deepEqual(r.tiles.map((t) => [t.row0, t.col0]), [[0, 0], [3, 0], [3, 4]]);
  const rows = new Map();  // row -> its state after the last visit
  for (const t of r.tiles) {
    for (let i = 0; i < t.rows; i++) {
      const before = rows.get(t.row0 + i) ?? { m: -Infinity, l: 0 };
      assert.equal(t.maxBefore[i], before.m);
      assert.equal(t.sumBefore[i], before.l);
      const scores = t.scores.data.slice(i * t.cols, (i + 1) * t.cols);
      const m = Math.max(t.maxBefore[i], ...scores);
      assert.equal(t.maxAfter[i], Math.fround(m));
      const alpha = t.maxBefore[i] === -Infinity ? 1 : Math.exp(t.maxBefore[i] - m);
      assert.ok(Math.abs(t.rescale[i] - alpha) <= 1e-6 * alpha, `rescale ${t.rescale[i]} vs ${alpha}`);
      const sum = alpha * t.sumBefore[i] + scores.reduce((s, x) => s + Math.exp(x - m), 0);
      assert.ok(Math.abs(t.sumAfter[i] - sum) <= 1e-5 * sum);
      rows.set(t.row0 + i, { m: t.maxAfter[i], l: t.sumAfter[i], o: t.outputAfter.data.slice(i * 3, i * 3 + 3) });
    }
  }
  // output = o / l after each row's last visit; lse = m + log l
  for (const [i, { m, l, o }] of rows) {
    for (let c = 0; c < 3; c++) assert.ok(Math.abs(r.output.data[i * 3 + c] - o[c] / l) <= 1e-6);
    assert.ok(Math.abs(r.logSumExp[i] - (m + Math.log(l))) <= 1e-6 * (1 + Math.abs(m)));
  }
});

test('weightsFromLogSumExp: the rows asked for, equal to the reference\'s weights', () => {
  for (const { o, label } of cases(5)) {
    const want = reference(o);
    const { logSumExp } = att.flashAttention(o);
    const { query, key, causal, validLength, window, sinks, bias } = o;
    const asked = [o.query.rows - 1, 0];
    const r = att.weightsFromLogSumExp({ query, key, logSumExp, rows: asked, causal, validLength, window, sinks, bias });
    assert.deepEqual([...r.rows], asked, label);
    assert.deepEqual([r.weights.rows, r.weights.cols], [2, o.key.rows], label);
    asked.forEach((i, k) => {
      for (let j = 0; j < o.key.rows; j++)
        assert.ok(Math.abs(r.weights.data[k * o.key.rows + j] - want.weights.data[i * o.key.rows + j]) <= 1e-6, `${label} (${i}, ${j})`);
    });
    // every row when rows is left out
    const all = att.weightsFromLogSumExp({ query, key, logSumExp, causal, validLength, window, sinks, bias });
    assert.equal(all.weights.rows, o.query.rows, label);
  }
});

test('at n = 16,384: the kernel\'s log-sum-exp gives rows of weights back, the heap under 64 MB', () => {
  const n = 16384, d = 64;
  const query = att.initUniform(n, d, 1, Math.sqrt(3), 0), key = att.initUniform(n, d, 1, Math.sqrt(3), 1);
  const value = att.initUniform(n, d, 1, 1, 2);
  const { logSumExp } = att.attention({ query, key, value, causal: true, intermediates: false, logSumExp: true });
  const rows = [0, 5000, n - 1];
  const { weights } = att.weightsFromLogSumExp({ query, key, logSumExp, rows, causal: true });
  assert.ok(att.debug.memoryStats().heapBytes < 64 * 1024 * 1024, `heap ${att.debug.memoryStats().heapBytes}`);
  rows.forEach((i, k) => {
    // row i in float64: the scores of its i + 1 keys
    const s = [];
    for (let j = 0; j <= i; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += query.data[i * d + c] * key.data[j * d + c];
      s.push(dot / 8);
    }
    const top = Math.max(...s), sum = s.reduce((a, x) => a + Math.exp(x - top), 0);
    let total = 0, worst = 0;
    for (let j = 0; j < n; j++) {
      const w = weights.data[k * n + j];
      total += w;
      worst = Math.max(worst, Math.abs(w - (j <= i ? Math.exp(s[j] - top) / sum : 0)));
    }
    assert.ok(worst <= 1e-6, `row ${i}: ${worst}`);
    assert.ok(Math.abs(total - 1) < 1e-4, `row ${i} sums to ${total}`);
  });
});

test('the kernel with a window: the reference\'s output across its tiles, with and without sinks', () => {
  const rand = random(6);
  for (const [n, window, sinks] of [[300, 7, 0], [600, 100, 4], [700, 300, 0], [520, 2, 260]]) {
    const o = { query: randomMatrix(n, 12, rand), key: randomMatrix(n, 12, rand), value: randomMatrix(n, 5, rand), causal: true, window, sinks };
    const want = reference(o);
    const r = att.attention({ ...o, intermediates: false, logSumExp: true });
    assert.ok(maxRelError(r.output, want.output) < 1e-5, JSON.stringify({ n, window, sinks }));
    assertLse(r.logSumExp, want.lse, JSON.stringify({ n, window, sinks }));
  }
});

test('bad arguments: AttentionError BAD_ARGUMENT naming the option', () => {
  const X = { rows: 3, cols: 4, data: new Float32Array(12).fill(0.5) };
  const qkv = { query: X, key: X, value: X };
  const refused = (f, pattern) => assert.throws(f, (e) => e.name === 'AttentionError' && e.code === 'BAD_ARGUMENT' && pattern.test(e.message), String(pattern));
  refused(() => att.attention({ ...qkv, window: 2 }), /^attention: window needs causal/);
  refused(() => att.attention({ ...qkv, intermediates: false, window: 2 }), /^attention: window needs causal/);
  refused(() => att.attention({ ...qkv, causal: true, window: 0 }), /window must be at least 1, got 0/);
  refused(() => att.attention({ ...qkv, intermediates: false, causal: true, sinks: 1 }), /sinks .* give a window too/);
  refused(() => att.attention({ ...qkv, bias: [[1, 2], [3, 4]] }), /bias has shape \(2, 2\) but needs .* \(3, 3\)/);
  refused(() => att.attention({ ...qkv, logSumExp: true }), /logSumExp comes with the output alone/);
  refused(() => att.flashAttention({ ...qkv, blockRows: 0 }), /^flashAttention: blockRows must be at least 1/);
  refused(() => att.flashAttention({ ...qkv, score: 'additive' }), /unknown option "score"/);
  const big = { rows: 129, cols: 2, data: new Float32Array(258) };
  refused(() => att.flashAttention({ query: big, key: big, value: big, trace: true }), /trace .* at most 128 queries and 128 keys/);
  const { logSumExp } = att.flashAttention(qkv);
  refused(() => att.weightsFromLogSumExp({ query: X, key: X, logSumExp, rows: [3] }), /rows\[0\] = 3 is not a query row \(0\.\.2\)/);
  refused(() => att.weightsFromLogSumExp({ query: X, key: X, logSumExp, rows: [-1] }), /rows\[0\] must be an integer from 0/);
  refused(() => att.weightsFromLogSumExp({ query: X, key: X, logSumExp: [0, 1] }), /^weightsFromLogSumExp: logSumExp has 2 entries but query has 3 rows/);
  refused(() => att.weightsFromLogSumExp({ query: X, key: X, logSumExp: [0, NaN, 1] }), /logSumExp\[1\] is NaN/);
});
