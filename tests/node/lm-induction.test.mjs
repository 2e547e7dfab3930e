// The induction head, through the public API (att.repeatsCorpus, lm.halves,
// lm.headRoles): on texts written twice, a 2-layer model (heads 2, dModel 64)
// predicts the second halves at >= 96% within 1,000 steps for seeds 1-3; at
// the widget's rate (seed 1) a layer-2 induction head forms and the second
// halves jump with it; a 1-layer model, with no earlier head to read, stays
// lower. The figures measured are in the comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, withModel } from './module.mjs';

// A repeats model trained in steps of 100 (four calls of 25: a call's work is
// bounded) until its second halves reach `target` or it has taken maxSteps;
// the second-half accuracy at each hundred.
async function trainRepeats({ layers, seed, learningRate, maxSteps, target = 2 }) {
  const corpus = await att.repeatsCorpus({ seed });
  return withModel({ texts: corpus.train, heldOut: corpus.heldOut, layers, heads: 2, dModel: 64, context: 24, seed, learningRate },
    (lm) => {
      const curve = [];
      let halves = lm.halves();
      while (lm.info().step < maxSteps && halves.second.accuracy < target) {
        for (let i = 0; i < 4; i++) lm.step(25);
        halves = lm.halves();
        curve.push(halves.second.accuracy);
      }
      return { step: lm.info().step, halves, curve, roles: lm.headRoles() };
    });
}
const best = (roles, layer, role) => Math.max(...roles.heads[layer].map((h) => h[role]));
const percent = (x) => `${(100 * x).toFixed(1)}%`;

// Measured here (learning rate 1e-3): seed 1 98.8% at step 800, seed 2 97.4% at
// 1,000, seed 3 98.3% at 900. Which circuit does it depends on the seed: seed 1 forms the
// induction head of the next test; seeds 2 and 3 find a solution through the
// learned positions, with no head over 0.1 as `induction`.
for (const seed of [1, 2, 3]) {
  test(`repeats, seed ${seed}: two layers predict the second halves (>= 96% within 1,000 steps), not the first`, async () => {
    const { step, halves, roles } = await trainRepeats({ layers: 2, seed, learningRate: 1e-3, maxSteps: 1000, target: 0.98 });
    console.log(`seed ${seed}: step ${step}, second halves ${percent(halves.second.accuracy)} (loss ${halves.second.loss.toFixed(3)}), ` +
                `first halves ${percent(halves.first.accuracy)}; best layer-1 previous ${best(roles, 0, 'previous').toFixed(2)}, ` +
                `layer-2 induction ${best(roles, 1, 'induction').toFixed(2)}`);
    assert.ok(halves.second.accuracy >= 0.96, `second halves ${halves.second.accuracy} after ${step} steps`);
    // the first halves are new random letters: about 1 in 20 at best
    assert.ok(halves.first.accuracy < 0.2, `first halves ${halves.first.accuracy}`);
    assert.equal(roles.heads.length, 2);
    assert.equal(roles.heads[1].length, 2);
  });
}

// The widget's repeats model (seed 1, learning rate 7e-4): at step 250 it
// copies about a third of the second halves; by 500 nearly all, as a layer-2
// head comes to attend where the current letter was seen and one step on
// (0.83 here at step 800), over a layer-1 head that looks one letter back.
test('repeats, seed 1 at the widget\'s rate: the induction head forms, and the second halves jump with it', async () => {
  const { curve, roles, halves } = await trainRepeats({ layers: 2, seed: 1, learningRate: 7e-4, maxSteps: 800 });
  console.log(`induction: second halves by hundreds ${curve.map(percent).join(' ')}; layer 2 ` +
              roles.heads[1].map((h) => `${h.best} ${h.score.toFixed(2)} (induction ${h.induction.toFixed(2)})`).join(', ') +
              '; layer 1 ' + roles.heads[0].map((h) => `previous ${h.previous.toFixed(2)}`).join(', '));
  assert.ok(curve[1] < 0.6, `step 200: ${curve[1]}`);
  assert.ok(curve[4] > 0.85, `step 500: ${curve[4]}`);
  assert.ok(halves.second.accuracy >= 0.98, `step 800: ${halves.second.accuracy}`);
  assert.ok(best(roles, 1, 'induction') >= 0.5, `a layer-2 induction head: ${JSON.stringify(roles.heads[1])}`);
  assert.equal(roles.heads[1].find((h) => h.induction === best(roles, 1, 'induction')).best, 'induction');
  assert.ok(best(roles, 0, 'previous') >= 0.25, `a layer-1 head looks back: ${JSON.stringify(roles.heads[0])}`);
  assert.ok(best(roles, 0, 'induction') < 0.3, 'layer 1 alone cannot find the letter after');
});

test('repeats, seed 1: one layer, with no earlier head to compose with, stays measurably lower after 1,000 steps', async () => {
  const one = await trainRepeats({ layers: 1, seed: 1, learningRate: 1e-3, maxSteps: 1000 });
  console.log(`one layer: second halves ${percent(one.halves.second.accuracy)} after ${one.step} steps ` +
              `(loss ${one.halves.second.loss.toFixed(3)})`);
  assert.equal(one.step, 1000);
  assert.ok(one.halves.second.accuracy < 0.95, `one layer reaches ${one.halves.second.accuracy}`);
});
