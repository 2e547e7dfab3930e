// Node test of the language model widget's reading of its curves
// (web/widgets/language-model/draw.js: overfitting): it says "overfitting" only when the held-out
// loss has risen at least 0.05 nats above its lowest while the batch loss,
// averaged over the 50 steps before each evaluation, went on falling.
//   node --test tests/node/overfit.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { overfitting } from '../../web/widgets/language-model/draw.js';

// batch losses falling from 6 by `slope` a step (then flat from `flatFrom`)
const falling = (n, slope = 0.002, flatFrom = Infinity) => Float64Array.from({ length: n }, (_, k) => 6 - slope * Math.min(k, flatFrom));

test('the held-out loss rising from its lowest while the batch loss falls: the two evaluations', () => {
  const evaluations = [{ step: 0, loss: 7.8 }, { step: 250, loss: 5.06 }, { step: 500, loss: 5.01 }, { step: 750, loss: 5.09 }, { step: 1000, loss: 5.37 }];
  assert.deepEqual(overfitting(evaluations, falling(1000)), { best: { step: 500, loss: 5.01 }, now: { step: 1000, loss: 5.37 } });
});

test('no overfitting: still falling, a rise under 0.05 nats, a batch loss that stopped falling, too little history', () => {
  const losses = falling(1000);
  assert.equal(overfitting([{ step: 0, loss: 7.8 }, { step: 500, loss: 5.2 }, { step: 1000, loss: 5.0 }], losses), null, 'the last is the lowest');
  assert.equal(overfitting([{ step: 500, loss: 5.01 }, { step: 1000, loss: 5.05 }], losses), null, 'a rise of 0.04');
  assert.equal(overfitting([{ step: 500, loss: 5.01 }, { step: 1000, loss: 5.37 }], falling(1000, 0.002, 400)), null, 'the batch loss flat since step 400');
  assert.equal(overfitting([{ step: 0, loss: 5.01 }], losses), null, 'one evaluation');
  assert.equal(overfitting([{ step: 0, loss: 5.01 }, { step: 100, loss: 5.5 }], losses), null, 'no batch loss before step 0');
});
