// The training benchmark's copy of the core's batch generator
// (bench/trainer-tfjs.mjs): what TF.js trains on there must be what the core
// draws. The core exposes one of its drawn sequences, the probe example
// (stream 53 of the seed): the copy must draw the same tokens and targets, for
// both tasks, several seeds and lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreBatches, coreRng, STREAM_PROBE } from '../../bench/trainer-tfjs.mjs';
import { att } from './module.mjs';

test('the copy draws the core\'s probe example for every task, seed and size', async () => {
  for (const task of ['reverse', 'shift'])
    for (const [seed, length, vocab] of [[1, 8, 10], [2, 8, 10], [5, 8, 10], [7, 13, 3], [2 ** 40 + 3, 5, 4096], [0, 2, 2]]) {
      const t = await att.createTrainer({ task, seed, length, vocab, dModel: 4 });
      const probe = t.probe();
      t.delete();
      const drawn = coreBatches({ task, seed, length, vocab, batch: 1 }, STREAM_PROBE)();
      assert.deepEqual(Array.from(drawn.tokens), Array.from(probe.input), `${task} seed ${seed} tokens`);
      assert.deepEqual(Array.from(drawn.targets), Array.from(probe.target), `${task} seed ${seed} targets`);
    }
});

test('the generator is SplitMix64: the published first outputs for state 0', () => {
  // seed 0, stream -1 starts from state 0 (0 * a ^ 0 * b), SplitMix64's reference start;
  // its first outputs, from the reference implementation (Vigna, splitmix64.c)
  const next = coreRng(0, -1);
  assert.equal(next(), 0xe220a8397b1dcdafn);
  assert.equal(next(), 0x6e789e6aa1b965f4n);
  assert.equal(next(), 0x06c45d188009454fn);
});

test('batches follow one another and targets reverse each sequence', () => {
  const next = coreBatches({ task: 'reverse', seed: 3, length: 6, vocab: 7, batch: 4 });
  const a = next(), b = next();
  assert.equal(a.tokens.length, 24);
  assert.notDeepEqual(Array.from(a.tokens), Array.from(b.tokens));
  for (let s = 0; s < 4; s++)
    for (let i = 0; i < 6; i++) {
      assert.ok(a.tokens[s * 6 + i] >= 0 && a.tokens[s * 6 + i] < 7);
      assert.equal(a.targets[s * 6 + i], a.tokens[s * 6 + 5 - i]);
    }
});
