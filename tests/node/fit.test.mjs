// att.fitLine: the least-squares line, as the speed widget fits log time
// against log n (its slope is the exponent of the growth).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

// the textbook formulas in float64, for the comparison
function leastSquares(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i] - mx) ** 2;
    sxy += (xs[i] - mx) * (ys[i] - my);
    syy += (ys[i] - my) ** 2;
  }
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx, rSquared: (sxy * sxy) / (sxx * syy) };
}

const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

test('fitLine: points on y = 2x + 3 give slope 2, intercept 3, r² = 1', () => {
  const f = att.fitLine([1, 2, 3, 4], [5, 7, 9, 11]);
  assert.deepEqual(Object.keys(f).sort(), ['intercept', 'rSquared', 'slope']);
  close(f.slope, 2, 1e-12, 'slope');
  close(f.intercept, 3, 1e-12, 'intercept');
  close(f.rSquared, 1, 1e-12, 'r²');
});

test('fitLine: scattered points, by hand: slope 1.1, intercept 1.1, r² = 30.25 / 43.75', () => {
  // mean x 1.5, mean y 2.75; sxx = 5, sxy = 5.5, syy = 8.75
  const f = att.fitLine(new Float32Array([0, 1, 2, 3]), [1, 3, 2, 5]);
  close(f.slope, 1.1, 1e-12, 'slope');
  close(f.intercept, 1.1, 1e-12, 'intercept');
  close(f.rSquared, 30.25 / 43.75, 1e-12, 'r²');
});

test('fitLine: log time against log n, t = c n² with noise, against float64 least squares', () => {
  const ns = [32, 64, 128, 256, 512, 1024, 2048, 4096];
  const noise = [1.03, 0.98, 1.01, 0.97, 1.02, 1.0, 0.99, 1.04];
  const xs = ns.map(Math.log2), ys = ns.map((n, i) => Math.log2(2e-6 * n * n * noise[i]));
  const f = att.fitLine(xs, ys), want = leastSquares(xs.map(Math.fround), ys.map(Math.fround));
  close(f.slope, want.slope, 1e-9, 'slope');
  close(f.intercept, want.intercept, 1e-8, 'intercept');
  close(f.rSquared, want.rSquared, 1e-9, 'r²');
  close(f.slope, 2, 0.02, 'about 2: quadratic');
});

test('fitLine: bad arguments throw errors that name them; the module keeps working', () => {
  assert.throws(() => att.fitLine([1], [2]), /^AttentionError: fitLine: a line needs at least 2 points, got 1$/);
  assert.throws(() => att.fitLine([1, 2, 3], [1, 2]), /^AttentionError: fitLine: xs has 3 entries but ys has 2; give one y per x$/);
  assert.throws(() => att.fitLine([2, 2, 2], [1, 2, 3]), /^AttentionError: fitLine: every x is 2: a line through them would be vertical, with no slope$/);
  assert.throws(() => att.fitLine([1, NaN], [1, 2]), /^AttentionError: fitLine: xs has NaN at index 1/);
  assert.throws(() => att.fitLine([1, 2], [Infinity, 2]), /^AttentionError: fitLine: ys has Infinity at index 0/);
  assert.throws(() => att.fitLine([], []), /^AttentionError: fitLine: xs is empty$/);
  assert.throws(() => att.fitLine([1, 2], ['1', 2]), /^AttentionError: fitLine: ys\[0\] must be a number, got the string "1"$/);
  assert.throws(() => att.fitLine({ length: 2 }, [1, 2]), /^AttentionError: fitLine: xs must be a Float32Array or an array of numbers, got object$/);
  close(att.fitLine([0, 1], [0, 1]).slope, 1, 0, 'after the errors');
});
