// The learnable-width Nadaraya-Watson model (att.createWidthTrainer): the
// shapes of its results, the loss falling and w approaching the width that
// minimises the leave-one-out loss, the article's example sharpening, the
// same seed giving the same numbers. Bad options and calls: trainer-errors.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

// the minimiser of L(w) on a fine grid (2% apart) of widths from 0.01 to 2
function bestWidth(w) {
  const widths = [];
  for (let x = 0.01; x < 2; x *= 1.02) widths.push(x);
  const losses = w.lossCurve(widths);
  let best = 0;
  for (let i = 1; i < losses.length; i++) if (losses[i] < losses[best]) best = i;
  return { width: widths[best], loss: losses[best] };
}

test('the contract: shapes and types of every result', async () => {
  const w = await att.createWidthTrainer({ seed: 1, samples: 50, noise: 2, width: 0.02, learningRate: 0.01 });
  try {
    assert.deepEqual(Object.keys(w).sort(), ['curve', 'delete', 'evaluate', 'info', 'lossCurve', 'samples', 'step', 'weights']);
    assert.deepEqual(w.info(), { options: { seed: 1, samples: 50, noise: 2, width: 0.02, learningRate: 0.01 }, parameters: 1, step: 0 });
    const stepped = await att.createWidthTrainer();
    assert.equal((stepped.step(3), stepped.info().step), 3);
    stepped.delete();
    const { heights, weights } = w.samples();
    assert.ok(heights instanceof Float64Array && heights.length === 50);
    assert.ok(weights instanceof Float64Array && weights.length === 50);
    assert.ok(heights.every((h) => h >= 150 && h <= 195));
    // weight = 22 (height / 100)^2 plus noise of 2 kg: within 6 noise widths
    heights.forEach((h, i) => assert.ok(Math.abs(weights[i] - 22 * (h / 100) ** 2) < 12, `${h} cm, ${weights[i]} kg`));

    const s = w.step(5);
    assert.deepEqual(Object.keys(s).sort(), ['loss', 'losses', 'step', 'width']);
    assert.equal(s.step, 5);
    assert.ok(s.losses instanceof Float64Array && s.losses.length === 5);
    assert.equal(s.losses[4], s.loss);
    const e = w.evaluate();
    assert.deepEqual(Object.keys(e).sort(), ['loss', 'sigma', 'trainingLoss', 'width']);
    assert.equal(e.width, s.width);
    assert.equal(e.sigma, 1 / e.width);
    // evaluate's training loss is at the current w: the next step's first loss
    assert.equal(w.step(1).loss, e.trainingLoss);

    const curve = w.curve([150, 160, 170, 180, 190]);
    assert.ok(curve instanceof Float32Array && curve.length === 5);
    for (let i = 1; i < 5; i++) assert.ok(curve[i] > curve[i - 1], 'the curve rises with height');
    const pooled = w.weights({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], queries: [172, 160] });
    assert.equal(pooled.weights.rows, 2);
    assert.equal(pooled.weights.cols, 4);
    for (const sum of att.rowSums(pooled.weights)) assert.ok(Math.abs(sum - 1) < 1e-6);
    assert.ok(pooled.estimates instanceof Float32Array && pooled.estimates.length === 2);
    const L = w.lossCurve(new Float64Array([0.05, 0.1]));
    assert.ok(L instanceof Float64Array && L.length === 2);
  } finally {
    w.delete();
  }
});

test('training lowers the loss and brings w to the width that minimises it', async () => {
  const w = await att.createWidthTrainer();
  try {
    const best = bestWidth(w);
    const start = w.evaluate();
    const first = w.step(100);
    assert.ok(first.losses.every((x, i) => i === 0 || x <= first.losses[i - 1] * 1.0001), 'the loss falls step by step');
    const after = w.evaluate();
    assert.ok(after.trainingLoss < start.trainingLoss / 4, `loss ${start.trainingLoss} -> ${after.trainingLoss}`);
    assert.ok(after.loss < start.loss / 4, `held-out ${start.loss} -> ${after.loss}`);
    assert.ok(Math.abs(after.width - best.width) < Math.abs(start.width - best.width));
    assert.ok(after.trainingLoss >= best.loss * (1 - 1e-9));
  } finally {
    w.delete();
  }
  // L(w) is flat near its minimum and Adam's steps shrink with the gradient: at
  // the default learning rate 0.01, w is still half way after 1000 steps
  // (0.36 of 0.63, measured); at 0.1 it settles within 500
  const fast = await att.createWidthTrainer({ learningRate: 0.1 });
  try {
    const best = bestWidth(fast);
    fast.step(500);
    const end = fast.evaluate();
    assert.ok(Math.abs(end.width - best.width) < 0.02 * best.width, `w ${end.width}, best ${best.width}`);
    assert.ok(end.trainingLoss < best.loss * 1.001, `loss ${end.trainingLoss}, best ${best.loss}`);
  } finally {
    fast.delete();
  }
});

test("the article's example sharpens as w is learned; 170 cm is the nearest key to 172", async () => {
  const w = await att.createWidthTrainer();
  try {
    const article = { keys: [160, 165, 170, 175], values: [55, 60, 65, 70], queries: [172] };
    const before = w.weights(article);
    w.step(60);
    const after = w.weights(article);
    assert.ok(Math.max(...after.weights.data) > Math.max(...before.weights.data));
    assert.deepEqual(Array.from(att.argmaxRows(after.weights).index), [2]);
    assert.ok(after.estimates[0] > 60 && after.estimates[0] < 70);
    // the same pooling by kernelRegression's Gaussian score with sigma = 1/w
    const same = att.kernelRegression({ keys: article.keys, values: article.values, query: 172, sigma: 1 / w.evaluate().width });
    assert.ok(Math.abs(same.estimate - after.estimates[0]) < 1e-3, `${same.estimate} vs ${after.estimates[0]}`);
  } finally {
    w.delete();
  }
});

test('the same seed gives the same samples and steps; another seed others', async () => {
  const a = await att.createWidthTrainer({ seed: 7 }), b = await att.createWidthTrainer({ seed: 7 }), c = await att.createWidthTrainer({ seed: 8 });
  try {
    assert.deepEqual(a.samples(), b.samples());
    assert.notDeepEqual(a.samples().heights, c.samples().heights);
    assert.deepEqual(a.step(30), b.step(30));
    assert.notEqual(a.step(1).loss, c.step(31).loss);
  } finally {
    a.delete();
    b.delete();
    c.delete();
  }
});
