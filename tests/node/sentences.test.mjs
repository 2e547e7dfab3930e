// Node test of what the widgets' sentences claim, computed from the numbers
// beside them (each widget's compute() with this process's module): the speed
// widget's reading of its ratios from injected timings, the vectors widget's
// favourites (ties named as ties), the kv-query widget's estimate at the
// plot's edge, and the one count of a decoding step's attention that the
// complexity widget and the language model share. The sentences as rendered
// are the browser tests' (speed, vectors, kv-query, complexity).
//   node --test tests/node/sentences.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { att, withModel } from './module.mjs';
import * as speed from '../../web/widgets/speed/widget.js';
import * as vectors from '../../web/widgets/vectors/widget.js';
import * as kvQuery from '../../web/widgets/kv-query/widget.js';
import * as complexity from '../../web/widgets/complexity/widget.js';
import { translator, useStrings } from '../../web/i18n/i18n.js';
import kvQueryWords from '../../web/widgets/kv-query/en.js';
import { runOf } from '../../web/widgets/speed/fixture.js';

const trendOf = (ratios) => speed.compute(att, { d: '64', maxN: String(runOf(ratios).maxN), run: runOf(ratios) }).trend;

test('speed: the ratios 3.6, 22, 31, 18, 20, 123 go up and down: "mixed", with their range, never "grows"', () => {
  const trend = trendOf([3.6, 22, 31, 18, 20, 123]);
  assert.equal(trend.kind, 'mixed');
  assert.deepEqual([trend.low.n, trend.high.n], [32, 1024]);
  // the core's fit of log ratio on log n: r² = 0.63, too loose to say "overall"
  assert.ok(trend.fit.rSquared > 0.6 && trend.fit.rSquared < 0.7, JSON.stringify(trend.fit));
});

test('speed: a direction only when every step goes that way or the fit is good; steady only within 1.25×', () => {
  assert.equal(trendOf([3.6, 5, 7.5, 11, 15, 21]).kind, 'grows');
  assert.equal(trendOf([21, 15, 11, 7.5, 5, 3.6]).kind, 'falls');
  assert.equal(trendOf([10, 11, 10.5, 12, 11.5]).kind, 'steady');
  // one step back, but a good fit (r² ≥ 0.8) and a large change: "overall, though not at every step"
  assert.equal(trendOf([3.6, 6, 5.8, 11, 15, 21]).kind, 'growsFit');
  assert.equal(trendOf([21, 15, 16, 7.5, 5, 3.6]).kind, 'fallsFit');
  // monotone but within the band: steady, not "grows"
  assert.equal(trendOf([10, 10.5, 11, 11.5, 12]).kind, 'steady');
  // two points: a direction by the band alone
  assert.equal(trendOf([3, 9]).kind, 'grows');
  assert.equal(trendOf([9, 8]).kind, 'steady');
});

test('speed: each time is shown with the count of batches it is the median of', () => {
  const data = speed.compute(att, { d: '64', maxN: '256', run: runOf([3, 4, 5, 6]) });
  assert.deepEqual(data.rows.map((r) => r.batches), [1, 2, 3, 4].map(() => ({ js: 7, kernel: 7 })));
});

test('vectors: at q = (0, 0) every dot-product weight is 0.200: no key is favoured; ties are named as ties', () => {
  const at = (qx, qy, equal = false) => vectors.compute(att, { qx, qy, equal });
  const zero = at(0, 0);
  assert.ok(Array.from(zero.dotWeights).every((w) => w === Math.fround(0.2)), Array.from(zero.dotWeights).join());
  assert.deepEqual(zero.dotTop, { kind: 'none', keys: [0, 1, 2, 3, 4], weight: '0.200' });
  // the kernel favours the shortest key there, apple (|k| = 1.43)
  assert.deepEqual(zero.kernelTop, { kind: 'one', keys: [4], weight: zero.kernelTop.weight });
  assert.equal(at(0, 0, true).dotTop.kind, 'none');
  // the default query: one favourite each
  assert.deepEqual([at(1.2, 0.6).dotTop.keys, at(1.2, 0.6).kernelTop.keys], [[2], [0]]);
  // keys whose weights are equal as the table shows them (3 decimals): a tie
  assert.deepEqual(vectors.favourite(Float32Array.of(0.4, 0.1, 0.4, 0.1)), { kind: 'tie', keys: [0, 2], weight: '0.400' });
  assert.deepEqual(vectors.favourite(Float32Array.of(0.4004, 0.2, 0.3996, 0)), { kind: 'tie', keys: [0, 2], weight: '0.400' });
  assert.deepEqual(vectors.favourite(Float32Array.of(0.401, 0.2, 0.399, 0)), { kind: 'one', keys: [0], weight: '0.401' });
});

test('kv-query: at σ = 10 the estimate at the plot\'s edge is not the last key\'s value; at σ = 2 it is', () => {
  useStrings('en', 'kv-query', kvQueryWords);
  const t = translator('en', 'kv-query');
  const state = (sigma) => ({ keys: '160, 165, 170, 175', values: '55, 60, 65, 70', q: 172, score: 'gaussian', sigma });
  const wide = kvQuery.compute(att, state(10), t).end;
  assert.deepEqual([wide.x, wide.key, wide.value], [185, 175, 70]);
  // the curve at 185 cm: 66.726 kg (a float64 sum of the four weighted values), 3.27 kg short of 70
  assert.ok(Math.abs(wide.estimate - 66.72597) < 1e-3, String(wide.estimate));
  const narrow = kvQuery.compute(att, state(2), t).end;
  assert.ok(Math.abs(narrow.estimate - 70) < 1e-4, String(narrow.estimate));
  // two keys of the same height with different values: the curve heads for a mix of them, nothing is said
  assert.equal(kvQuery.compute(att, { ...state(2), keys: '160, 175, 175', values: '55, 60, 70' }, t).end, null);
});

test('complexity and the language model count a decoding step\'s attention with one function: the same numbers for the same n and d', async () => {
  const texts = ['anna', 'bob', 'carla', 'dave', 'emma', 'fred', 'gina', 'hugo'];
  await withModel({ texts, heldOut: [], layers: 2, heads: 4, dModel: 32, context: 16, seed: 1, batch: 4 }, (lm) => {
    const steps = lm.beginGeneration({ prompt: 'annabobcarla', temperature: 0.8, topK: 20, seed: 1 });
    for (const n of [2, 4, 8]) {
      const step = steps[n - 1];  // position n - 1: its query meets n keys
      const table = complexity.compute(att, { n: String(n), d: 32, k: 3 }).generation;
      assert.deepEqual(step.attention, { cached: table.tokenCached, uncached: table.tokenUncached }, `n = ${n}`);
      // the causal count: every row i = 1..n of the map again, 2 i d each
      assert.equal(table.tokenUncached, n * (n + 1) * 32);
      // and the language model's whole count is built around it: 2 layers, 12 d² a position, the unembedding
      assert.equal(step.uncachedMultiplyAdds, 2 * (12 * 32 * 32 * n + step.attention.uncached) + 32 * lm.info().vocab);
    }
  });
  // with the cache, the whole text costs what one causal training pass counts: the last token's uncached count
  for (const n of [2, 256, 65536]) {
    const g = att.generationCost({ n, d: 8 });
    assert.equal(g.totalCached, g.tokenUncached);
    assert.equal(g.totalUncached, (n * (n + 1) * (n + 2) * 8) / 3);
  }
});
