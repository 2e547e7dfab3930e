// 10,000 calls leave the WASM heap (bytes malloc holds) and the count of live
// Embind handles where they were; so do calls that fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { att } from './module.mjs';

const X = att.initXavier(6, 8, 1);
const CALLS = [
  () => att.attention({ query: X, key: X, value: X, causal: true }),
  () => att.attention({ query: X, key: X, value: X, score: 'additive', params: { seed: 3 } }),
  () => att.softmax(X, { temperature: 2 }),
  () => att.selfAttention({ input: X, dK: 4, validLength: 3 }),
  () => att.crossAttention({ input: X, memory: X }),
  () => att.multiHeadAttention({ input: X, heads: 4 }),
  () => att.conditionalAttention({ input: X, condition: [1, 0], fusion: 'fc' }),
  () => att.kernelRegression({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], range: { from: 150, to: 185, count: 50 } }),
  () => att.positionalEncoding(16, 8),
  () => att.costModel({ n: 10, d: 4 }),
];

function measure() {
  return { allocated: att.debug.memoryStats().allocatedBytes, handles: att.debug.handles() };
}

test('the measure sees an allocation that is not freed (positive control)', async () => {
  // the encoder's module loaded first (bytes it refuses): its own heap joins the measure
  await assert.rejects(att.loadEncoder(new Uint8Array(4)), /^AttentionError: loadEncoder: model file: /);
  const before = measure();
  const encoder = await att.loadEncoder(readFileSync(new URL('../../web/model/encoder.f32.bin', import.meta.url)));
  assert.ok(measure().allocated - before.allocated >= 1 << 20);
  encoder.delete();
  assert.equal(measure().allocated, before.allocated);
});

test('10,000 successful calls leak neither heap nor Embind handles', () => {
  for (const call of CALLS) call(); // warm up: first-use allocations
  const before = measure();
  for (let i = 0; i < 10000; i++) CALLS[i % CALLS.length]();
  const after = measure();
  assert.equal(after.allocated, before.allocated, 'malloc-held bytes');
  assert.equal(after.handles, before.handles, 'live Embind handles');
});

test('10,000 failing calls leak neither heap nor Embind handles', () => {
  const bad = [
    () => att.attention({ query: X, key: [[1, 2]], value: [[1]] }),
    () => att.attention({ query: X, key: X, value: X, score: 'nope' }),
    () => att.multiHeadAttention({ input: X, heads: 3 }),
    () => att.kernelRegression({ keys: [1, 2], values: [1], query: 1 }),
  ];
  for (const call of bad) assert.throws(call);
  const before = measure();
  for (let i = 0; i < 10000; i++) assert.throws(bad[i % bad.length]);
  const after = measure();
  assert.equal(after.allocated, before.allocated, 'malloc-held bytes');
  assert.equal(after.handles, before.handles, 'live Embind handles');
  // and it still computes
  assert.equal(att.kernelRegression({ keys: [1, 2], values: [3, 5], weights: [0.5, 0.5] }).estimate, 4);
});
