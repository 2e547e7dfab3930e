// att.addPositionalEncoding, att.permuteMap, att.maxAbsDifference: the
// positional-encoding widget's demonstration that self-attention alone cannot
// see word order (a permuted sentence gives the permuted map) and that X + PE can.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, maxRelError, random, randomMatrix } from './module.mjs';
import * as ref from './reference.mjs';

test('addPositionalEncoding: X + PE entry by entry, a copy of the same shape', () => {
  const X = randomMatrix(6, 9, random(1));
  const Y = att.addPositionalEncoding(X);
  assert.equal(Y.rows, 6);
  assert.equal(Y.cols, 9);
  assert.ok(Y.data instanceof Float32Array);
  const pe = ref.positionalEncoding(6, 9);
  const expected = { rows: 6, cols: 9, data: X.data.map((x, i) => x + pe.data[i]) };
  assert.ok(maxRelError(Y, expected) < 1e-6);
  assert.ok(maxRelError(Y, { rows: 6, cols: 9, data: X.data.map((x, i) => x + att.positionalEncoding(6, 9).data[i]) }) === 0);
  assert.equal(Y.data[1], X.data[1] + 1);  // position 0, column 1: cos 0 = 1
});

test('permuteMap: B(i, j) = A(order[i], order[j])', () => {
  const A = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
  assert.deepEqual(Array.from(att.permuteMap(A, [2, 1, 0]).data), [9, 8, 7, 6, 5, 4, 3, 2, 1]);
  assert.deepEqual(Array.from(att.permuteMap(A, new Int32Array([1, 2, 0])).data), [5, 6, 4, 8, 9, 7, 2, 3, 1]);
  assert.deepEqual(Array.from(att.permuteMap(A, [0, 1, 2]).data), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('maxAbsDifference: the largest gap, 0 for equal matrices and for equal infinities', () => {
  assert.equal(att.maxAbsDifference([[1, -2], [3, 0.5]], [[1, -2.25], [3.5, 0.5]]), 0.5);
  assert.equal(att.maxAbsDifference([[1, 2]], [[1, 2]]), 0);
  assert.equal(att.maxAbsDifference([[-Infinity, 1]], [[-Infinity, 1.25]]), 0.25);
  assert.equal(att.maxAbsDifference([[-Infinity, 1]], [[0, 1]]), Infinity);
});

test('a sentence and the same words reversed: same numbers moved without PE, different maps with it', () => {
  const tokens = ['the', 'law', 'will', 'never', 'be', 'perfect'];
  const order = tokens.map((_, i) => tokens.length - 1 - i);
  const reversed = order.map((k) => tokens[k]);
  const X = att.embedTokens({ tokens, d: 32, seed: 1 });
  const Xr = att.embedTokens({ tokens: reversed, d: 32, seed: 1 });
  const map = (input) => att.selfAttention({ input, dK: 16, seed: 1 }).weights;
  const without = att.maxAbsDifference(map(Xr), att.permuteMap(map(X), order));
  assert.ok(without < 1e-6, `without PE: ${without}`);
  const withPe = att.maxAbsDifference(map(att.addPositionalEncoding(Xr)), att.permuteMap(map(att.addPositionalEncoding(X)), order));
  assert.ok(withPe > 1e-3, `with PE: ${withPe}`);
});

test('errors name the function and the argument', () => {
  const cases = [
    [() => att.permuteMap([[1, 2], [3, 4]], [0]), /^permuteMap: order has 1 entries but the map has 2 words$/],
    [() => att.permuteMap([[1, 2], [3, 4]], [0, 2]), /^permuteMap: order\[1\] = 2 is outside 0\.\.1$/],
    [() => att.permuteMap([[1, 2], [3, 4]], [1, 1]), /^permuteMap: order\[1\] = 1 repeats an earlier entry; order must be a permutation$/],
    [() => att.permuteMap([[1, 2], [3, 4]], [0, 0.5]), /^permuteMap: order\[1\] must be an integer, got 0\.5$/],
    [() => att.permuteMap([[1, 2], [3, 4]], 'ab'), /^permuteMap: order must be an array of indices, got the string "ab"$/],
    [() => att.permuteMap([[1, 2, 3]], [0]), /^permuteMap: map must be square/],
    [() => att.maxAbsDifference([[1, 2]], [[1], [2]]), /^maxAbsDifference: a has shape \(1, 2\) but b has shape \(2, 1\); they must be equal$/],
    [() => att.maxAbsDifference([[1, NaN]], [[1, 2]]), /^maxAbsDifference: a has NaN at row 0, column 1$/],
    [() => att.addPositionalEncoding([[1, Infinity]]), /^addPositionalEncoding: input has Infinity at row 0, column 1/],
    [() => att.addPositionalEncoding('x'), /^addPositionalEncoding: input must be a matrix/],
  ];
  for (const [f, message] of cases) assert.throws(f, { message });
  assert.equal(att.maxAbsDifference([[1]], [[1]]), 0, 'the module still works');
});
