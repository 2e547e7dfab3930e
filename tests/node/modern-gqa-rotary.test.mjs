// Attention as it is run today, through the public JS API: grouped keys and
// values (multiHeadAttention's kvHeads). Against a float64 reference written
// here, on seeded random shapes from 1 x 1 to many more keys than queries; the
// bad arguments are AttentionErrors with their code.
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
