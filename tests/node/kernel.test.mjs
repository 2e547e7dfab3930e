// The fused SIMD kernel behind attention({ ..., intermediates: false }) against
// the float64 reference (reference.mjs) on random inputs: tails (n and d not
// multiples of 4, of the 8-key panel or of the 128-key tile), causal and
// padding masks, queries that see no key. Tolerance: 1e-5 relative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, maxRelError, random, randomMatrix } from './module.mjs';
import * as ref from './reference.mjs';

const lean = (options) => att.attention({ ...options, intermediates: false });

test('intermediates: false returns { output } alone; the default still returns every step', () => {
  const rand = random(1);
  const X = randomMatrix(5, 4, rand);
  const r = lean({ query: X, key: X, value: X });
  assert.deepEqual(Object.keys(r), ['output']);
  assert.deepEqual([r.output.rows, r.output.cols], [5, 4]);
  assert.ok(r.output.data instanceof Float32Array);
  for (const options of [{ score: 'general', params: { seed: 2 } }, { mask: new Uint8Array(25).fill(1) }, { score: 'gaussian' }])
    assert.deepEqual(Object.keys(lean({ query: X, key: X, value: X, ...options })), ['output'], JSON.stringify(options));
  const full = att.attention({ query: X, key: X, value: X, intermediates: true });
  for (const key of ['scores', 'scaled', 'mask', 'masked', 'weights', 'output', 'params']) assert.ok(key in full, key);
  assert.deepEqual(Object.keys(att.attention({ query: X, key: X, value: X })), Object.keys(full));
});

test('the kernel matches the float64 reference with tails, unmasked, causal and padded', () => {
  const rand = random(2025);
  const shapes = [[1, 1, 1, 1], [2, 3, 5, 7], [4, 8, 4, 8], [5, 9, 6, 3], [13, 17, 11, 10], [16, 64, 64, 64],
                  [17, 65, 63, 64], [33, 129, 31, 9], [70, 130, 67, 65], [130, 200, 128, 16], [3, 300, 7, 5]];
  let cases = 0;
  for (const [nq, nk, d, dv] of shapes)
    for (let variant = 0; variant < 4; variant++) {
      const query = randomMatrix(nq, d, rand), key = randomMatrix(nk, d, rand), value = randomMatrix(nk, dv, rand);
      const options = { query, key, value };
      if (variant === 1 || variant === 3) options.causal = true;
      if (variant >= 2) options.validLength = Math.max(1, Math.floor((nk * 2) / 3));
      if (variant === 3) options.scale = 0.3;
      const got = lean(options), expected = ref.attention(options);
      const label = JSON.stringify({ nq, nk, d, dv, variant });
      assert.ok(maxRelError(got.output, expected.output) < 1e-5, label + ' ' + maxRelError(got.output, expected.output));
      // the default path (intermediates) gives the same output
      assert.ok(maxRelError(att.attention(options).output, got.output) < 1e-5, label);
      cases++;
    }
  assert.equal(cases, 44);
});

test('the kernel matches the reference on 100 random shapes and masks', () => {
  const rand = random(77);
  const int = (lo, hi) => lo + Math.floor(((rand() + 1) / 2) * (hi - lo + 1));
  for (let c = 0; c < 100; c++) {
    const nq = int(1, 40), nk = int(1, 150), d = int(1, 40), dv = int(1, 20);
    const options = { query: randomMatrix(nq, d, rand), key: randomMatrix(nk, d, rand), value: randomMatrix(nk, dv, rand) };
    if (rand() > 0) options.causal = true;
    if (rand() > 0) options.validLength = int(0, nk);
    const e = maxRelError(lean(options).output, ref.attention(options).output);
    assert.ok(e < 1e-5, JSON.stringify({ c, nq, nk, d, dv, causal: options.causal, validLength: options.validLength, e }));
  }
});

test('queries that may see no key get a zero output, never NaN', () => {
  const rand = random(3);
  const query = randomMatrix(9, 6, rand), key = randomMatrix(20, 6, rand), value = randomMatrix(20, 4, rand);
  for (const causal of [false, true]) {
    const r = lean({ query, key, value, validLength: 0, causal });
    assert.ok(r.output.data.every((x) => x === 0), 'causal ' + causal);
    assert.deepEqual(r.output.data, att.attention({ query, key, value, validLength: 0, causal }).output.data);
  }
});

test('intermediates: false passes the map limit of the full path, not the work limit', () => {
  const tall = { rows: 5000, cols: 1, data: new Float32Array(5000) };
  const options = { query: tall, key: tall, value: tall, validLength: 10 };
  assert.throws(() => att.attention(options), /^AttentionError: attention: 5000 queries x 5000 keys is too large/);
  const r = lean(options);
  assert.equal(r.output.rows, 5000);
  assert.ok(r.output.data.every((x) => x === 0));
  const wide = { rows: 20000, cols: 64, data: new Float32Array(20000 * 64) };
  assert.throws(() => lean({ query: wide, key: wide, value: wide }),
                /^AttentionError: attention: the dot score of \(20000, 64\) queries against \(20000, 64\) keys is too large/);
});

test('bad input with intermediates: false gets the same errors as the full path', () => {
  const q = [[1, 2, 3]], k = [[1, 2], [3, 4]], v = [[1], [2]];
  const cases = [
    [{ query: q, key: k, value: v }, /key has 2 columns but query has 3; the dot score needs equal widths$/],
    [{ query: k, key: k, value: v, validLength: 3 }, /validLength must be between 0 and the number of keys \(2\), got 3$/],
    [{ query: k, key: k, value: [[1]] }, /value has 1 rows but key has 2; each key needs one value$/],
    [{ query: [[NaN, 1]], key: k, value: v }, /query has NaN at row 0, column 0/],
    [{ query: k, key: k, value: v, scale: -1 }, /scale must be a finite number greater than 0, got -1$/],
    [{ query: [[1e20, 1e20]], key: [[1e20, 1e20]], value: [[1]] }, /the scores overflow float32/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => lean(options), message, JSON.stringify(options));
    assert.throws(() => att.attention(options), message, JSON.stringify(options));
  }
  assert.throws(() => att.attention({ query: k, key: k, value: v, intermediates: 'no' }),
                /^AttentionError: attention: intermediates must be true or false, got the string "no"$/);
});

test('intermediates: false leaks neither heap nor Embind handles over 3,000 calls, failing or not', () => {
  const rand = random(9);
  const X = randomMatrix(24, 8, rand);
  const calls = [
    () => lean({ query: X, key: X, value: X, causal: true }),
    () => lean({ query: X, key: X, value: X, score: 'additive' }),
    () => assert.throws(() => lean({ query: X, key: X, value: X, validLength: 99 })),
  ];
  for (const call of calls) call();
  const before = [att.debug.memoryStats().allocatedBytes, att.debug.handles()];
  for (let i = 0; i < 3000; i++) calls[i % calls.length]();
  assert.deepEqual([att.debug.memoryStats().allocatedBytes, att.debug.handles()], before);
});

test('small calls share one kept buffer: a result outlives the next call, large calls free their own', () => {
  const rand = random(10);
  const small = () => ({ query: randomMatrix(16, 64, rand), key: randomMatrix(16, 64, rand), value: randomMatrix(16, 64, rand) });
  const a = small(), b = small();
  const first = lean(a);
  const copy = Float32Array.from(first.output.data);
  const second = lean(b);
  assert.deepEqual(first.output.data, copy, 'the first result is not the kept buffer');
  assert.ok(maxRelError(second.output, ref.attention(b).output) < 1e-5);
  // 300 x 64 inputs (over 64 KB): a buffer of their own, freed; a small call after it is right again
  const big = { query: randomMatrix(300, 64, rand), key: randomMatrix(300, 64, rand), value: randomMatrix(300, 64, rand) };
  const before = att.debug.memoryStats().allocatedBytes;
  assert.ok(maxRelError(lean(big).output, ref.attention(big).output) < 1e-5);
  assert.equal(att.debug.memoryStats().allocatedBytes, before, 'the large call freed its buffer');
  assert.ok(maxRelError(lean(a).output, ref.attention(a).output) < 1e-5);
});

test('Float32Array inputs are read in place, safely: fake lengths, and getters that detach them', () => {
  const rand = random(11);
  const X = randomMatrix(6, 4, rand);
  const expected = (intermediates) => att.attention({ query: X, key: X, value: X, intermediates }).output.data;
  // an own length property, or a subclass getter, that lies: the true length counts
  const liar = Float32Array.from(X.data);
  Object.defineProperty(liar, 'length', { value: 3 });
  class Short extends Float32Array { get length() { return 1; } }
  for (const data of [liar, Short.from(X.data)])
    for (const intermediates of [false, true])
      assert.deepEqual(att.attention({ query: { rows: 6, cols: 4, data }, key: X, value: X, intermediates }).output.data,
                       expected(intermediates));
  // a getter read after the query was checked moves the query's buffer away
  const before = [att.debug.memoryStats().allocatedBytes, att.debug.handles()];
  for (const intermediates of [false, true]) {
    const data = Float32Array.from(X.data);
    const options = {
      query: { rows: 6, cols: 4, data }, key: X, value: X, intermediates,
      get causal() {
        structuredClone(data.buffer, { transfer: [data.buffer] });
        return false;
      },
    };
    assert.throws(() => att.attention(options), /^AttentionError: attention: query.data has 0 entries but rows \* cols = 6 \* 4 = 24$/);
  }
  assert.deepEqual([att.debug.memoryStats().allocatedBytes, att.debug.handles()], before);
  assert.deepEqual(lean({ query: X, key: X, value: X }).output.data, expected(false));
});
