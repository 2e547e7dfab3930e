// The induction head, through the public API (att.repeatsCorpus, lm.halves,
// lm.headRoles): on texts written twice, the widget's 2-layer model forms a
// layer-2 induction head over a layer-1 head looking back, for seeds 1-3, and
// its second halves jump from under 40% to 98% or more within 1,000 steps; a
// 1-layer model, with no earlier head to read, stays lower. The figures
// measured are in the comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, withModel } from './module.mjs';
import { CORPORA } from '../../web/widgets/language-model/engine.js';

// A repeats model (the widget's options: heads 4, dModel 64, context 24)
// trained in steps of 100 (four calls of 25: a call's work is bounded) to
// `steps`; at each hundred, the second halves' accuracy and the best layer-2
// `induction` score. The texts are the widget's (corpus seed 1); `seed` is the model's.
async function trainRepeats({ layers, seed, steps, learningRate = CORPORA.repeats.options.learningRate }) {
  const corpus = await att.repeatsCorpus({ seed: 1 });
  return withModel({ texts: corpus.train, heldOut: corpus.heldOut, layers, heads: 4, dModel: 64, seed, ...CORPORA.repeats.options, learningRate },
    (lm) => {
      const curve = [];
      while (lm.info().step < steps) {
        for (let i = 0; i < 4; i++) lm.step(25);
        const roles = lm.headRoles();
        curve.push({ step: lm.info().step, second: lm.halves().second.accuracy, induction: layers > 1 ? best(roles, 1, 'induction') : null });
      }
      return { halves: lm.halves(), curve, roles: lm.headRoles() };
    });
}
const best = (roles, layer, role) => Math.max(...roles.heads[layer].map((h) => h[role]));
const percent = (x) => `${(100 * x).toFixed(1)}%`;

// The widget's repeats model at its rate (6e-4), seeds 1-3. Measured here,
// checked every 25 steps: a layer-2 head first scores 0.5 as `induction` at
// step 475, 525 and 600; the second halves are 20.3%, 18.4% and 19.0% right
// at step 200 and 99.4%, 98.8% and 98.4% at 1,000; the best layer-1
// `previous` ends at 0.52, 0.51 and 0.36 (seed 3 spreads looking back over
// two heads, 0.36 and 0.21) and the layer-2 `induction` at 0.87, 0.82 and
// 0.80. At 7e-4 and 1e-3 seed 3 (and, with 2 heads, seeds 2 and 3) finds a
// solution through the learned positions instead, with no head above 0.1 as
// `induction`: the lower rate is what makes the circuit form for every seed.
for (const seed of [1, 2, 3]) {
  test(`repeats, seed ${seed}: a layer-2 induction head forms over a layer-1 head looking back, and the second halves jump with it`, async () => {
    const { halves, curve, roles } = await trainRepeats({ layers: 2, seed, steps: 1000 });
    const formed = curve.find((c) => c.induction >= 0.5);
    console.log(`seed ${seed}: second halves by hundreds ${curve.map((c) => percent(c.second)).join(' ')}; induction ` +
                `${curve.map((c) => c.induction.toFixed(2)).join(' ')}; layer 1 previous ` +
                roles.heads[0].map((h) => h.previous.toFixed(2)).join(', '));
    assert.ok(formed && formed.step <= 700, `an induction head by step 700: ${JSON.stringify(curve)}`);
    assert.ok(curve[1].second < 0.4, `before it, step 200: ${curve[1].second}`);
    assert.ok(halves.second.accuracy >= 0.98, `after it, step 1,000: ${halves.second.accuracy}`);
    // the first halves are new random letters: about 1 in 20 at best
    assert.ok(halves.first.accuracy < 0.2, `first halves ${halves.first.accuracy}`);
    assert.ok(best(roles, 1, 'induction') >= 0.5, `a layer-2 induction head: ${JSON.stringify(roles.heads[1])}`);
    assert.equal(roles.heads[1].find((h) => h.induction === best(roles, 1, 'induction')).best, 'induction');
    assert.ok(best(roles, 0, 'previous') >= 0.3, `a layer-1 head looks back: ${JSON.stringify(roles.heads[0])}`);
    assert.ok(best(roles, 0, 'induction') < 0.3, 'layer 1 alone cannot find the letter after');
  });
}

// One layer at the same rate: no earlier head to compose with. Measured here:
// 53.5% of the second halves after 1,000 steps (39% at 400, rising slowly).
test('repeats, seed 1: one layer, with no earlier head to compose with, stays measurably lower after 1,000 steps', async () => {
  const one = await trainRepeats({ layers: 1, seed: 1, steps: 1000 });
  console.log(`one layer: second halves ${percent(one.halves.second.accuracy)} after 1,000 steps ` +
              `(loss ${one.halves.second.loss.toFixed(3)}); by hundreds ${one.curve.map((c) => percent(c.second)).join(' ')}`);
  assert.ok(one.halves.second.accuracy < 0.9, `one layer reaches ${one.halves.second.accuracy}`);
});
