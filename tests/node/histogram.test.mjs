// att.histogram: bin counts of sampled values, as the softmax-scaling widget
// draws them (the distribution of q.k, and of q.k / sqrt(d)).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

test('histogram: counts per bin, evenly spaced edges, values outside counted apart', () => {
  const h = att.histogram({ values: [-5, -4, -3.5, -0.01, 0, 0.5, 1, 3.99, 4, 4.5], bins: 8, from: -4, to: 4 });
  assert.ok(h.counts instanceof Int32Array);
  assert.ok(h.edges instanceof Float32Array);
  assert.deepEqual(Array.from(h.counts), [2, 0, 0, 1, 2, 1, 0, 2]);
  assert.deepEqual(Array.from(h.edges), [-4, -3, -2, -1, 0, 1, 2, 3, 4]);
  assert.equal(h.below, 1);
  assert.equal(h.above, 1);
});

test('histogram of dot-product samples: every sample counted once; /sqrt(d) narrows the spread', () => {
  const d = 256;
  const s = att.dotProductSamples({ d, count: 4000, seed: 5 });
  const raw = att.histogram({ values: s.dots, bins: 40, from: -64, to: 64 });
  const total = (h) => h.counts.reduce((a, b) => a + b, 0) + h.below + h.above;
  assert.equal(total(raw), 4000);
  // a plain count per bin, in JS, agrees
  for (let b = 0; b < 40; b++) {
    const lo = raw.edges[b], hi = raw.edges[b + 1];
    const n = s.dots.filter((x) => x >= lo && (x < hi || (b === 39 && x <= hi))).length;
    assert.equal(raw.counts[b], n, `bin ${b}`);
  }
  const scaled = att.histogram({ values: s.scaled, bins: 40, from: -64, to: 64 });
  // variance 1 after scaling: everything within a few bins around 0 (width 3.2)
  assert.ok(scaled.counts[19] + scaled.counts[20] > 0.6 * 4000);
  assert.ok(raw.counts[19] + raw.counts[20] < 0.2 * 4000);
});

test('histogram: bad arguments throw errors that name them', () => {
  assert.throws(() => att.histogram({ values: [1], bins: 0, from: 0, to: 1 }), /^AttentionError: histogram: bins must be between 1 and 10000, got 0$/);
  assert.throws(() => att.histogram({ values: [1], bins: 4, from: 1, to: 1 }), /^AttentionError: histogram: from must be less than to, got from = 1, to = 1$/);
  assert.throws(() => att.histogram({ values: [], bins: 4, from: 0, to: 1 }), /^AttentionError: histogram: values is empty$/);
  assert.throws(() => att.histogram({ values: [1, NaN], bins: 4, from: 0, to: 1 }), /histogram: values has NaN at index 1/);
  assert.throws(() => att.histogram({ values: [1], bins: 2.5, from: 0, to: 1 }), /histogram: bins must be an integer, got 2.5/);
  assert.throws(() => att.histogram({ values: [1], bins: 4, to: 1 }), /^AttentionError: histogram: from is required$/);
  assert.throws(() => att.histogram({ values: [1], bins: 4, from: 0, to: 1, count: 3 }), /histogram: unknown option "count"/);
  // the module keeps working
  assert.deepEqual(Array.from(att.histogram({ values: [0.5], bins: 2, from: 0, to: 1 }).counts), [0, 1]);
});
