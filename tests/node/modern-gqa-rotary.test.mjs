// Attention as it is run today, through the public JS API: grouped keys and
// values (multiHeadAttention's kvHeads), the key-value cache's size
// (kvCacheBytes, generationCost's heads, kvHeads and window), the projections'
// parameters (attentionProjectionParameters), rotary position
// embedding (rotary) and ALiBi's head slopes (alibiSlopes). Each against a
// float64 reference written here from the papers' formulas, on seeded random
// shapes from 1 x 1 to many more keys than queries; the bad arguments are
// AttentionErrors with their code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, maxRelError, random, randomMatrix } from './module.mjs';

const at = (m, i, j) => m.data[i * m.cols + j];

function matmul(a, b) {
  const data = new Float64Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let j = 0; j < b.cols; j++) {
      let s = 0;
      for (let k = 0; k < a.cols; k++) s += at(a, i, k) * at(b, k, j);
      data[i * b.cols + j] = s;
    }
  return { rows: a.rows, cols: b.cols, data };
}

// grouped-query attention in float64: query head h reads key/value head floor(h kvHeads / heads)
function groupedReference(X, M, heads, kvHeads, W) {
  const Q = matmul(X, W.Wq), K = matmul(M, W.Wk), V = matmul(M, W.Wv);
  const dh = W.Wq.cols / heads;
  const concat = { rows: X.rows, cols: W.Wq.cols, data: new Float64Array(X.rows * W.Wq.cols) };
  for (let h = 0; h < heads; h++) {
    const g = Math.floor((h * kvHeads) / heads);
    for (let i = 0; i < X.rows; i++) {
      const s = [];
      for (let j = 0; j < M.rows; j++) {
        let dot = 0;
        for (let c = 0; c < dh; c++) dot += at(Q, i, h * dh + c) * at(K, j, g * dh + c);
        s.push(dot / Math.sqrt(dh));
      }
      const top = Math.max(...s), e = s.map((x) => Math.exp(x - top)), sum = e.reduce((a, b) => a + b, 0);
      for (let c = 0; c < dh; c++) {
        let z = 0;
        for (let j = 0; j < M.rows; j++) z += (e[j] / sum) * at(V, j, g * dh + c);
        concat.data[i * concat.cols + h * dh + c] = z;
      }
    }
  }
  return matmul(concat, W.Wo);
}

const columnsOf = (m, from, count) => {
  const data = new Float32Array(m.rows * count);
  for (let i = 0; i < m.rows; i++) for (let c = 0; c < count; c++) data[i * count + c] = at(m, i, from + c);
  return { rows: m.rows, cols: count, data };
};

const refused = (f, message) => assert.throws(f, (e) => {
  assert.equal(e.name, 'AttentionError');
  assert.equal(e.code, 'BAD_ARGUMENT');
  assert.match(e.message, message);
  return true;
});

test('grouped keys and values: MHA, GQA and MQA against the float64 reference', () => {
  const rand = random(2026);
  // [nq, nkv, dIn, dModel, heads, kvHeads]: 1 x 1, many more keys than queries, every kind of grouping
  const shapes = [[1, 1, 1, 1, 1, 1], [4, 4, 6, 8, 4, 2], [2, 48, 5, 8, 8, 1], [6, 9, 7, 12, 6, 3],
                  [3, 70, 4, 16, 8, 4], [5, 5, 8, 8, 2, 2], [1, 33, 3, 6, 6, 2]];
  for (const [nq, nkv, dIn, dModel, heads, kvHeads] of shapes) {
    const label = JSON.stringify({ nq, nkv, dIn, dModel, heads, kvHeads });
    const input = randomMatrix(nq, dIn, rand), memory = randomMatrix(nkv, dIn, rand);
    const r = att.multiHeadAttention({ input, memory, heads, kvHeads, dModel, seed: nq + nkv });
    const dh = dModel / heads;
    assert.deepEqual([r.K.rows, r.K.cols, r.V.cols], [nkv, kvHeads * dh, kvHeads * dh], label);
    assert.deepEqual([r.projections.Wk.cols, r.projections.Wv.cols], [kvHeads * dh, kvHeads * dh], label);
    const expected = groupedReference(input, memory, heads, kvHeads, r.projections);
    assert.ok(maxRelError(r.output, expected) < 1e-5, label + ' ' + maxRelError(r.output, expected));
    for (let h = 0; h < heads; h++) {
      const g = Math.floor((h * kvHeads) / heads), head = r.perHead[h];
      assert.equal(head.kvHead, g, label);
      assert.deepEqual(head.key, columnsOf(r.K, g * dh, dh), label + ' key of head ' + h);
      assert.deepEqual(head.value, columnsOf(r.V, g * dh, dh), label + ' value of head ' + h);
      assert.deepEqual([head.weights.rows, head.weights.cols], [nq, nkv]);
    }
  }
});

test('kvHeads = heads is multi-head attention as before, bit for bit', () => {
  const rand = random(7);
  for (const [n, d, heads] of [[1, 1, 1], [5, 8, 2], [7, 12, 4], [3, 16, 16]]) {
    const input = randomMatrix(n, d, rand);
    const before = att.multiHeadAttention({ input, heads, causal: true, seed: 3 });
    const grouped = att.multiHeadAttention({ input, heads, kvHeads: heads, causal: true, seed: 3 });
    assert.deepEqual(grouped, before);
    // each head is attention() on its own slices of Q, K and V, to the last bit
    const dh = d / heads;
    for (let h = 0; h < heads; h++) {
      const alone = att.attention({ query: columnsOf(before.Q, h * dh, dh), key: columnsOf(before.K, h * dh, dh),
                                    value: columnsOf(before.V, h * dh, dh), causal: true });
      assert.deepEqual(before.perHead[h].weights, alone.weights);
      assert.deepEqual(before.perHead[h].output, alone.output);
    }
  }
});

test('grouped keys and values: bad kvHeads and projections of the wrong width are refused', () => {
  const input = randomMatrix(3, 8, random(1));
  refused(() => att.multiHeadAttention({ input, heads: 4, kvHeads: 3 }),
    /^multiHeadAttention: kvHeads \(3\) must divide heads \(4\): each key\/value head serves an equal group of query heads$/);
  refused(() => att.multiHeadAttention({ input, heads: 4, kvHeads: 8 }), /kvHeads \(8\) must divide heads \(4\)/);
  refused(() => att.multiHeadAttention({ input, heads: 4, kvHeads: 0 }), /^multiHeadAttention: kvHeads must be at least 1, got 0$/);
  refused(() => att.multiHeadAttention({ input, heads: 4, kvHeads: 1.5 }), /kvHeads must be an integer, got 1\.5/);
  const Wk = randomMatrix(8, 8, random(2));  // a full-width W^K where one key/value head of width 2 is wanted
  refused(() => att.multiHeadAttention({ input, heads: 4, kvHeads: 1, projections: { Wk } }),
    /^multiHeadAttention: projections\.Wk must have shape \(8, 2\) \(columns: 1 key\/value head of width 2\), got \(8, 8\)$/);
  // a W^K of that width makes the model multi-query: every head reads its columns
  const mqa = att.multiHeadAttention({ input, heads: 4, kvHeads: 1, projections: { Wk: columnsOf(Wk, 0, 2) } });
  assert.ok(mqa.perHead.every((h) => h.kvHead === 0));
});

test('kvCacheBytes is 2 layers kvHeads headDim tokens bytesPerNumber', () => {
  const rand = random(5);
  const int = (hi) => 1 + Math.floor(((rand() + 1) / 2) * hi);
  for (let c = 0; c < 50; c++) {
    const o = { layers: int(80), kvHeads: int(64), headDim: int(256), tokens: int(200000), bytesPerNumber: int(8) };
    assert.equal(att.kvCacheBytes(o), 2 * o.layers * o.kvHeads * o.headDim * o.tokens * o.bytesPerNumber, JSON.stringify(o));
  }
  // 32 layers, 8 key/value heads of 128 numbers, 8192 tokens in float16 (the default): 1 GiB; with 32 heads' keys, 4
  assert.equal(att.kvCacheBytes({ layers: 32, kvHeads: 8, headDim: 128, tokens: 8192 }), 2 ** 30);
  assert.equal(att.kvCacheBytes({ layers: 32, kvHeads: 32, headDim: 128, tokens: 8192 }), 2 ** 32);
  assert.equal(att.kvCacheBytes({ layers: 1, kvHeads: 1, headDim: 1, tokens: 1, bytesPerNumber: 1 }), 2);
  refused(() => att.kvCacheBytes({ layers: 0, kvHeads: 8, headDim: 128, tokens: 10 }), /^kvCacheBytes: layers must be at least 1, got 0$/);
  refused(() => att.kvCacheBytes({ layers: 1, kvHeads: -2, headDim: 128, tokens: 10 }), /^kvCacheBytes: kvHeads must be at least 1, got -2$/);
  refused(() => att.kvCacheBytes({ layers: 1, kvHeads: 2, headDim: 0, tokens: 10 }), /^kvCacheBytes: headDim must be at least 1, got 0$/);
  refused(() => att.kvCacheBytes({ layers: 1, kvHeads: 2, headDim: 4, tokens: 10, bytesPerNumber: 0 }), /bytesPerNumber must be at least 1, got 0/);
  refused(() => att.kvCacheBytes({ layers: 1, kvHeads: 2, headDim: 4 }), /^kvCacheBytes: tokens is required$/);
  refused(() => att.kvCacheBytes({ layers: 1.5, kvHeads: 2, headDim: 4, tokens: 1 }), /layers must be an integer/);
  refused(() => att.kvCacheBytes({ layers: 2 ** 30, kvHeads: 2 ** 30, headDim: 4, tokens: 8 }), /beyond 2\^53/);
});

test('attentionProjectionParameters: Llama 3 8B\'s, a plain count, the matrices multiHeadAttention draws', () => {
  // Llama 3 8B: 32 layers, d 4096, 32 query heads, 8 key/value heads of 128: Wq and Wo 4096 x 4096, Wk and Wv 4096 x 1024
  assert.deepEqual(att.attentionProjectionParameters({ layers: 32, heads: 32, kvHeads: 8, headDim: 128 }),
    { Wq: 16777216, Wk: 4194304, Wv: 4194304, Wo: 16777216, perLayer: 41943040, total: 1342177280 });
  assert.equal(att.attentionProjectionParameters({ layers: 32, heads: 32, kvHeads: 32, headDim: 128, dModel: 4096 }).total, 2 ** 31);
  const rand = random(7);
  const int = (hi) => 1 + Math.floor(((rand() + 1) / 2) * hi);
  for (let c = 0; c < 30; c++) {
    const kvHeads = int(8), heads = kvHeads * int(8), headDim = int(256), layers = int(100), dModel = c % 2 ? int(8192) : undefined;
    const p = att.attentionProjectionParameters({ layers, heads, kvHeads, headDim, ...(dModel ? { dModel } : {}) });
    const d = dModel ?? heads * headDim;
    assert.deepEqual([p.Wq, p.Wk, p.Wv, p.Wo], [d * heads * headDim, d * kvHeads * headDim, d * kvHeads * headDim, heads * headDim * d]);
    assert.equal(p.perLayer, p.Wq + p.Wk + p.Wv + p.Wo);
    assert.equal(p.total, layers * p.perLayer);
  }
  // the entries of the projections of multiHeadAttention (d 32, 8 heads of 4)
  const input = randomMatrix(5, 32, random(3));
  for (const kvHeads of [8, 4, 2, 1]) {
    const { Wq, Wk, Wv, Wo } = att.multiHeadAttention({ input, heads: 8, kvHeads }).projections;
    assert.deepEqual(att.attentionProjectionParameters({ layers: 1, heads: 8, kvHeads, headDim: 4 }),
      { Wq: Wq.data.length, Wk: Wk.data.length, Wv: Wv.data.length, Wo: Wo.data.length,
        perLayer: Wq.data.length + Wk.data.length + Wv.data.length + Wo.data.length, total: Wq.data.length + Wk.data.length + Wv.data.length + Wo.data.length });
  }
  refused(() => att.attentionProjectionParameters({ layers: 0, heads: 8, kvHeads: 8, headDim: 128 }), /^attentionProjectionParameters: layers must be at least 1, got 0$/);
  refused(() => att.attentionProjectionParameters({ layers: 1, heads: 8, kvHeads: 3, headDim: 128 }), /^attentionProjectionParameters: kvHeads \(3\) must divide heads \(8\)$/);
  refused(() => att.attentionProjectionParameters({ layers: 1, heads: 8, kvHeads: 8, headDim: 0 }), /^attentionProjectionParameters: headDim must be at least 1, got 0$/);
  refused(() => att.attentionProjectionParameters({ layers: 1, heads: 8, kvHeads: 8, headDim: 4, dModel: -1 }), /dModel must be at least 0/);
  refused(() => att.attentionProjectionParameters({ layers: 1, heads: 8, kvHeads: 8 }), /^attentionProjectionParameters: headDim is required$/);
  refused(() => att.attentionProjectionParameters({ layers: 1, heads: 8, kvHeads: 8, headDim: 4, bias: true }), /bias/);
  refused(() => att.attentionProjectionParameters({ layers: 2 ** 30, heads: 2 ** 10, kvHeads: 1, headDim: 2 ** 10 }), /beyond 2\^53/);
});

test('generationCost: unchanged without options; GQA shrinks the cache, a window bounds it', () => {
  for (const [n, d] of [[1, 1], [10, 64], [37, 24]]) {
    const c = att.generationCost({ n, d });
    assert.deepEqual([c.tokenCached, c.tokenUncached, c.totalCached, c.totalUncached, c.cacheNumbers],
      [2 * n * d, n * (n + 1) * d, n * (n + 1) * d, (n * (n + 1) * (n + 2) * d) / 3, 2 * n * d]);
    assert.deepEqual([c.cacheTokens, c.cacheWidth, c.cacheShare], [n, d, 1]);
    assert.deepEqual(att.generationCost({ n, d, heads: d, kvHeads: d }), c, 'a key/value head per head');
  }
  const gqa = att.generationCost({ n: 100, d: 64, heads: 8, kvHeads: 2 });
  assert.deepEqual([gqa.cacheNumbers, gqa.cacheWidth, gqa.cacheShare], [2 * 100 * 16, 16, 0.25]);
  assert.equal(gqa.totalCached, 100 * 101 * 64, 'every query head still meets every key');
  assert.equal(att.generationCost({ n: 100, d: 64, heads: 8, kvHeads: 1 }).cacheShare, 1 / 8);
  assert.equal(att.generationCost({ n: 100, d: 64, heads: 8 }).cacheShare, 1, 'kvHeads defaults to heads');
  // a window: token m meets min(m, window) keys; the plain sums over the tokens and their rows
  for (const n of [1, 3, 8, 40])
    for (const window of [1, 4, 8, 100]) {
      let cached = 0, uncached = 0, rows = 0;
      for (let m = 1; m <= n; m++) {
        rows = 0;
        for (let i = 1; i <= m; i++) rows += 2 * Math.min(i, window) * 16;
        cached += 2 * Math.min(m, window) * 16;
        uncached += rows;
      }
      const c = att.generationCost({ n, d: 16, heads: 4, kvHeads: 2, window });
      const label = JSON.stringify({ n, window });
      assert.deepEqual([c.tokenCached, c.tokenUncached, c.totalCached, c.totalUncached],
        [2 * Math.min(n, window) * 16, rows, cached, uncached], label);
      assert.deepEqual([c.cacheTokens, c.cacheNumbers], [Math.min(n, window), 2 * Math.min(n, window) * 8], label);
    }
  refused(() => att.generationCost({ n: 4, d: 8, heads: 3 }), /^generationCost: heads \(3\) must be at least 1 and divide d \(8\)$/);
  refused(() => att.generationCost({ n: 4, d: 8, heads: 4, kvHeads: 3 }), /^generationCost: kvHeads \(3\) must be at least 1 and divide heads \(4\)$/);
  refused(() => att.generationCost({ n: 4, d: 8, window: -1 }), /^generationCost: window must be at least 0 \(0: no window\), got -1$/);
});

// RoFormer's rotation in float64: pair i of row r turned by (r + offset) base^(-2i/d)
function rotaryReference(m, base = 10000, offset = 0) {
  const out = new Float64Array(m.data.length);
  for (let r = 0; r < m.rows; r++)
    for (let i = 0; i < m.cols / 2; i++) {
      const theta = (r + offset) / base ** ((2 * i) / m.cols), x = at(m, r, 2 * i), y = at(m, r, 2 * i + 1);
      out[r * m.cols + 2 * i] = x * Math.cos(theta) - y * Math.sin(theta);
      out[r * m.cols + 2 * i + 1] = x * Math.sin(theta) + y * Math.cos(theta);
    }
  return { rows: m.rows, cols: m.cols, data: out };
}

const dot = (a, b) => a.data.reduce((s, x, i) => s + x * b.data[i], 0);

test('rotary turns each pair of columns as RoFormer does', () => {
  const rand = random(11);
  for (const [n, d] of [[1, 2], [3, 4], [50, 2], [6, 64], [2, 128], [17, 10]])
    for (const [base, offset] of [[undefined, undefined], [10000, 5], [500000, 1000], [1.5, 100000]]) {
      const m = randomMatrix(n, d, rand);
      const got = att.rotary(m, { base, offset }), expected = rotaryReference(m, base, offset);
      assert.ok(maxRelError(got, expected) < 1e-6, JSON.stringify({ n, d, base, offset }) + ' ' + maxRelError(got, expected));
    }
  const m = randomMatrix(4, 6, rand);
  assert.deepEqual(att.rotary(m), att.rotary(m, { base: 10000, offset: 0 }), 'the defaults');
  assert.deepEqual(att.rotary(m).data.subarray(0, 6), m.data.subarray(0, 6), 'position 0 does not turn');
});

test('rotary: each row keeps its length, and q·k depends only on the offsets\' difference', () => {
  const rand = random(12);
  const X = randomMatrix(9, 16, rand), Y = att.rotary(X, { offset: 4 });
  for (let r = 0; r < 9; r++) {
    const row = (m) => ({ data: m.data.subarray(r * 16, (r + 1) * 16) });
    assert.ok(Math.abs(Math.sqrt(dot(row(Y), row(Y))) / Math.sqrt(dot(row(X), row(X))) - 1) < 1e-6, 'row ' + r);
  }
  for (let c = 0; c < 6; c++) {
    const q = randomMatrix(1, 32, rand), k = randomMatrix(1, 32, rand);
    const score = (a, b) => dot(att.rotary(q, { offset: a }), att.rotary(k, { offset: b }));
    for (const [a, b] of [[0, 0], [3, 0], [0, 7], [12, 5]]) {
      const s = score(a, b);
      for (const shift of [1, 9, 250, 4000]) {
        const shifted = score(a + shift, b + shift);
        assert.ok(Math.abs(shifted - s) <= 1e-5 * Math.max(1, Math.abs(s)), `${a} ${b} +${shift}: ${shifted} vs ${s}`);
      }
    }
  }
});

test('rotary refuses an odd width, a base not above 1 and a negative or fractional offset', () => {
  const m = randomMatrix(2, 4, random(3));
  refused(() => att.rotary(randomMatrix(2, 3, random(3))),
    /^rotary: matrix has 3 columns; rotary turns pairs of columns, so its width must be even$/);
  refused(() => att.rotary(m, { base: 1 }), /^rotary: base must be a finite number above 1, got 1$/);
  refused(() => att.rotary(m, { base: 0.5 }), /base must be a finite number above 1, got 0\.5/);
  refused(() => att.rotary(m, { base: Infinity }), /base must be a finite number/);
  refused(() => att.rotary(m, { offset: -1 }), /^rotary: offset must be at least 0, got -1$/);
  refused(() => att.rotary(m, { offset: 0.5 }), /offset must be an integer, got 0\.5/);
  refused(() => att.rotary(m, { theta: 2 }), /unknown option "theta"/);
  refused(() => att.rotary([[1, NaN]]), /matrix/);
});

// the paper's code (get_slopes): the slopes of the power of two below n, then every other slope of twice that
function alibiRule(n) {
  const power = (p) => Array.from({ length: p }, (_, k) => 2 ** ((-8 * (k + 1)) / p));
  const p = 2 ** Math.floor(Math.log2(n));
  return [...power(p), ...power(2 * p).filter((_, k) => k % 2 === 0).slice(0, n - p)];
}

test('alibiSlopes: 8 heads are 1/2 ... 1/256; every count follows the paper\'s rule', () => {
  const eight = att.alibiSlopes(8);
  assert.ok(eight instanceof Float32Array);
  assert.deepEqual(Array.from(eight), [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
  assert.deepEqual(Array.from(att.alibiSlopes(1)), [1 / 256]);
  for (const n of [2, 3, 5, 6, 7, 12, 16, 20, 24, 31, 48, 64, 100]) {
    const got = att.alibiSlopes(n), expected = alibiRule(n);
    assert.equal(got.length, n);
    assert.ok(maxRelError(got, expected) < 1e-7, n + ' ' + maxRelError(got, expected));
  }
  // 12 heads: the 8 slopes of 8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
  assert.deepEqual(Array.from(att.alibiSlopes(12).subarray(8)), [2 ** -0.5, 2 ** -1.5, 2 ** -2.5, 2 ** -3.5].map(Math.fround));
  refused(() => att.alibiSlopes(0), /^alibiSlopes: heads must be at least 1, got 0$/);
  refused(() => att.alibiSlopes(2.5), /heads must be an integer, got 2\.5/);
  refused(() => att.alibiSlopes(100000), /heads must be at most 65536/);
});
