// Every kind of bad input throws an Error whose message names the function,
// the argument and the problem; the module keeps working afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

const q = [[1, 0], [0, 1]], k = [[1, 0], [0, 1], [1, 1]], v = [[1], [2], [3]];
const ok = { query: q, key: k, value: v };
const heights = { keys: [160, 165, 170, 175], values: [55, 60, 65, 70] };

// [description, call, message pattern]
const CASES = [
  ['options not an object', () => att.attention(42), /^attention: options must be an object, got 42$/],
  ['options null', () => att.attention(null), /options must be an object, got null/],
  ['options an array', () => att.attention([]), /options must be an object, got an array/],
  ['missing query', () => att.attention({ key: k, value: v }), /^attention: query is required$/],
  ['unknown option', () => att.attention({ ...ok, sclae: 1 }), /^attention: unknown option "sclae" in options \(known: query, key/],
  ['matrix of the wrong type', () => att.attention({ ...ok, query: 'abc' }), /^attention: query must be a matrix \{ rows, cols, data \}, got the string "abc"$/],
  ['empty matrix', () => att.attention({ ...ok, query: [] }), /^attention: query is empty$/],
  ['zero rows', () => att.attention({ ...ok, query: { rows: 0, cols: 2, data: [] } }), /^attention: query.rows must be a positive integer, got 0$/],
  ['negative cols', () => att.attention({ ...ok, key: { rows: 3, cols: -2, data: [] } }), /^attention: key.cols must be a positive integer, got -2$/],
  ['fractional rows', () => att.attention({ ...ok, key: { rows: 1.5, cols: 2, data: [1, 2, 3] } }), /key.rows must be a positive integer, got 1.5/],
  ['data of the wrong length', () => att.attention({ ...ok, value: { rows: 3, cols: 1, data: [1, 2] } }), /^attention: value.data has 2 entries but rows \* cols = 3 \* 1 = 3$/],
  ['data not numeric', () => att.attention({ ...ok, value: { rows: 1, cols: 1, data: 'x' } }), /value.data must be a Float32Array or an array of numbers, got the string "x"/],
  ['an entry that is not a number', () => att.attention({ ...ok, query: [[1, '2'], [0, 1]] }), /^attention: query\[0\]\[1\] must be a number, got the string "2"$/],
  ['ragged rows', () => att.attention({ ...ok, query: [[1, 0], [0]] }), /^attention: query row 1 has 1 entries but row 0 has 2$/],
  ['NaN', () => att.attention({ ...ok, query: [[1, NaN], [0, 1]] }), /^attention: query has NaN at row 0, column 1 \(every entry must be a finite float32\)$/],
  ['Infinity', () => att.attention({ ...ok, value: [[1], [Infinity], [3]] }), /^attention: value has Infinity at row 1, column 0/],
  ['-Infinity', () => att.attention({ ...ok, key: [[1, 0], [0, 1], [-Infinity, 1]] }), /key has -Infinity at row 2, column 0/],
  ['beyond float32', () => att.attention({ ...ok, key: [[1e300, 0], [0, 1], [1, 1]] }), /key has Infinity at row 0, column 0/],
  // found by the fuzzer: weights (1, 4e-8) on two values at the float32 maximum sum past it
  ['output past float32', () => att.attention({ query: [[1]], key: [[0], [-17]], value: [[3.4028234e38], [3.4028234e38]] }),
   /^attention: output = weights V overflows float32/],
  ['output past float32, kernel', () => att.attention({ query: [[1]], key: [[0], [-17]], value: [[3.4028234e38], [3.4028234e38]], intermediates: false }),
   /^attention: output = weights V overflows float32/],
  ['query and key widths differ', () => att.attention({ ...ok, key: [[1, 0, 0]], value: [[1]] }), /^attention: key has 3 columns but query has 2; the dot score needs equal widths$/],
  ['value rows differ from key rows', () => att.attention({ ...ok, value: [[1], [2]] }), /^attention: value has 2 rows but key has 3; each key needs one value$/],
  ['unknown score', () => att.attention({ ...ok, score: 'cosine' }), /^attention: unknown score 'cosine' \(expected dot, general, concat, additive or gaussian\)$/],
  ['score not a string', () => att.attention({ ...ok, score: 1 }), /^attention: score must be a string, got 1$/],
  ['zero scale', () => att.attention({ ...ok, scale: 0 }), /^attention: scale must be a finite number greater than 0/],
  ['NaN scale', () => att.attention({ ...ok, scale: NaN }), /^attention: scale must be a finite number, got NaN$/],
  ['mask of the wrong length', () => att.attention({ ...ok, mask: [1, 0, 1] }), /^attention: mask has 3 entries but needs 6 \(2 rows of 3, one per query and key\)$/],
  ['mask of the wrong type', () => att.attention({ ...ok, mask: 'all' }), /^attention: mask must be a Uint8Array or an array, got the string "all"$/],
  ['mask entry of the wrong type', () => att.attention({ ...ok, mask: [1, 1, 1, 1, 1, 'x'] }), /^attention: mask\[5\] must be 0\/1 or a boolean/],
  ['causal not a boolean', () => att.attention({ ...ok, causal: 1 }), /^attention: causal must be true or false, got 1$/],
  ['validLength too large', () => att.attention({ ...ok, validLength: 4 }), /^attention: validLength must be between 0 and the number of keys \(3\), got 4$/],
  ['validLength negative', () => att.attention({ ...ok, validLength: -1 }), /validLength must be between 0 and the number of keys \(3\), got -1/],
  ['validLength fractional', () => att.attention({ ...ok, validLength: 1.5 }), /^attention: validLength must be an integer, got 1.5$/],
  ['params.W of the wrong shape', () => att.attention({ ...ok, score: 'general', params: { W: [[1, 0, 0]] } }), /^attention: params.W must have shape \(2, 2\), got \(1, 3\)$/],
  ['params.W with NaN', () => att.attention({ ...ok, score: 'general', params: { W: [[1, 0], [NaN, 1]] } }), /^attention: params.W has NaN at row 1, column 0/],
  ['params.v of the wrong length', () => att.attention({ ...ok, score: 'concat', params: { v: [1, 2] } }), /^attention: params.v must have 4 entries, got 2$/],
  ['params.sigma zero', () => att.attention({ ...ok, score: 'gaussian', params: { sigma: 0 } }), /^attention: params.sigma must be a finite number greater than 0/],
  ['params.seed negative', () => att.attention({ ...ok, params: { seed: -1 } }), /^attention: params.seed must be a non-negative integer, got -1$/],
  ['unknown param', () => att.attention({ ...ok, params: { w: 1 } }), /^attention: unknown option "w" in params \(known: W, U, v, sigma, seed, hidden\)$/],
  ['scores that overflow float32', () => att.attention({ query: [[1e30, 1e30]], key: [[1e30, 1e30]], value: [[1]] }), /^attention: the scores overflow float32/],
  ['softmax of NaN', () => att.softmax([1, NaN]), /^softmax: x has NaN at row 0, column 1/],
  ['softmax temperature zero', () => att.softmax([1, 2], { temperature: 0 }), /^softmax: temperature must be greater than 0/],
  ['softmax of a string', () => att.softmax('1,2'), /^softmax: x must be a matrix/],
  ['softmax mask length', () => att.softmax([[1, 2]], { mask: [1] }), /^softmax: mask has 1 entries but needs 2 \(1 rows of 2, one per query and key\)$/],
  ['selfAttention without input', () => att.selfAttention({}), /^selfAttention: input is required$/],
  ['selfAttention dK zero', () => att.selfAttention({ input: q, dK: 0 }), /^selfAttention: dK must be positive, got 0$/],
  ['selfAttention projection shape', () => att.selfAttention({ input: q, projections: { Wq: [[1, 2, 3]] } }), /^selfAttention: projections.Wq must have shape \(2, 3\), got \(1, 3\)$/],
  ['selfAttention too large to allocate', () => att.selfAttention({ input: q, dK: 2000000000 }), /^selfAttention: out of memory/],
  ['crossAttention without memory', () => att.crossAttention({ input: q }), /^crossAttention: memory is required$/],
  ['multi-head heads missing', () => att.multiHeadAttention({ input: q }), /^multiHeadAttention: heads is required$/],
  ['multi-head heads not dividing', () => att.multiHeadAttention({ input: [[1, 2, 3]], heads: 2 }), /^multiHeadAttention: dModel \(3\) must be divisible by heads \(2\)$/],
  ['multi-head zero heads', () => att.multiHeadAttention({ input: q, heads: 0 }), /^multiHeadAttention: heads must be at least 1, got 0$/],
  ['multi-head score option', () => att.multiHeadAttention({ input: q, heads: 1, score: 'dot' }), /^multiHeadAttention: unknown option "score"/],
  ['positional n zero', () => att.positionalEncoding(0, 4), /^positionalEncoding: n \(positions\) must be at least 1, got 0$/],
  ['positional d negative', () => att.positionalEncoding(4, -1), /^positionalEncoding: d \(width\) must be at least 1, got -1$/],
  ['positional n not an integer', () => att.positionalEncoding('4', 4), /^positionalEncoding: n must be an integer, got the string "4"$/],
  ['positional too large', () => att.positionalEncoding(1000000, 1000000), /^positionalEncoding: positional encoding of \(1000000, 1000000\) is too large$/],
  ['conditional unknown fusion', () => att.conditionalAttention({ input: q, condition: [1], fusion: 'mul' }), /^conditionalAttention: unknown fusion 'mul' \(expected concat, add or fc\)$/],
  ['conditional empty condition', () => att.conditionalAttention({ input: q, condition: [] }), /^conditionalAttention: condition is empty$/],
  ['conditional NaN condition', () => att.conditionalAttention({ input: q, condition: [NaN] }), /^conditionalAttention: condition has NaN at index 0/],
  ['kernel regression without a query', () => att.kernelRegression(heights), /^kernelRegression: give query, queries, range or weights$/],
  ['kernel regression with two', () => att.kernelRegression({ ...heights, query: 1, weights: [1, 0, 0, 0] }), /^kernelRegression: give only one of query, weights$/],
  ['kernel regression lengths', () => att.kernelRegression({ keys: [1, 2], values: [1], query: 1 }), /^kernelRegression: values has 1 entries but keys has 2; each key needs one value$/],
  ['kernel regression weights length', () => att.kernelRegression({ ...heights, weights: [1] }), /^kernelRegression: weights has 1 entries but values has 4$/],
  ['kernel regression range backwards', () => att.kernelRegression({ ...heights, range: { from: 5, to: 1, count: 3 } }), /^kernelRegression: from must be less than to$/],
  ['kernel regression range count', () => att.kernelRegression({ ...heights, range: { from: 1, to: 5, count: 1 } }), /^kernelRegression: a curve needs at least 2 queries, got 1$/],
  ['kernel regression range incomplete', () => att.kernelRegression({ ...heights, range: { from: 1 } }), /^kernelRegression: range.to is required$/],
  ['kernel regression sigma', () => att.kernelRegression({ ...heights, query: 1, sigma: -2 }), /^kernelRegression: sigma must be a finite number greater than 0/],
  ['cost model n zero', () => att.costModel({ n: 0, d: 4 }), /^costModel: n must be at least 1, got 0$/],
  ['cost model k one', () => att.costModel({ n: 4, d: 4, k: 1 }), /^costModel: k \(kernel width\) must be at least 2, got 1$/],
  ['a hole in a sparse array', () => att.attention({ ...ok, query: [[1, 0], , [0, 1]] }), /^attention: query row 1 has undefined but row 0 has 2$/],
  ['a hole in a row', () => att.attention({ ...ok, query: [[1, , 0]] }), /^attention: query\[0\]\[1\] must be a number, got undefined$/],
  ['a parameter the score does not use', () => att.attention({ ...ok, params: { W: [[1, 0], [0, 1]] } }), /^attention: params.W is not used by the dot score$/],
  ['a scale beyond float32', () => att.attention({ ...ok, scale: 1e39 }), /^attention: scale = 1e\+39 is beyond the float32 range$/],
  ['a scale below float32', () => att.attention({ ...ok, scale: 1e-50 }), /^attention: scale = 1e-50 is too small for float32$/],
  ['sigma so small that sigma^2 underflows', () => att.kernelRegression({ ...heights, query: 170, sigma: 1e-20 }), /^kernelRegression: sigma = 1e-20 is out of range/],
  ['a map too large', () => att.attention({ query: { rows: 5000, cols: 1, data: new Float32Array(5000) }, key: { rows: 5000, cols: 1, data: new Float32Array(5000) }, value: { rows: 5000, cols: 1, data: new Float32Array(5000) } }), /^attention: 5000 queries x 5000 keys is too large \(at most 16777216 scores in one map\)$/],
  ['an additive hidden layer too wide', () => att.attention({ ...ok, score: 'additive', params: { hidden: 100000000 } }), /^attention: params.hidden = 100000000 is too large$/],
  ['projections that overflow', () => att.selfAttention({ input: [[3e38, 3e38]], projections: { Wq: [[1, 1], [1, 1]] } }), /^selfAttention: Q = input Wq overflows float32/],
  ['an output that overflows', () => att.multiHeadAttention({ input: [[1, 1]], heads: 1, projections: { Wv: [[1, 0], [0, 1]], Wo: [[3e38, 3e38], [3e38, 3e38]] } }), /^multiHeadAttention: output = concat Wo overflows float32/],
  ['an estimate that overflows', () => att.kernelRegression({ keys: [1], values: [3e38], weights: [2] }), /^kernelRegression: weights \* values overflows float32/],
  ['queries with Infinity', () => att.kernelRegression({ ...heights, queries: [170, 1e39] }), /^kernelRegression: queries has Infinity at index 1/],
  ['weights with a score', () => att.kernelRegression({ ...heights, weights: [0.1, 0.15, 0.45, 0.3], sigma: 2 }), /^kernelRegression: with weights given, sigma would be ignored; leave them out$/],
  ['sigma twice', () => att.kernelRegression({ ...heights, query: 1, sigma: 2, params: { sigma: 3 } }), /^kernelRegression: give sigma or params.sigma, not both$/],
  ['conditional with projections', () => att.conditionalAttention({ input: q, condition: [1], projections: {} }), /^conditionalAttention: unknown option "projections"/],
  ['initXavier negative', () => att.initXavier(-1, 2, 0), /^initXavier: parameter shape must be positive, got \(-1, 2\)$/],
];

for (const [name, call, pattern] of CASES) {
  test(`error: ${name}`, () => {
    assert.throws(call, (e) => {
      assert.ok(e instanceof Error, 'an Error, not ' + typeof e);
      assert.match(e.message, pattern);
      return true;
    });
  });
}

test('inherited options are not read; a matrix is read once, so a getter cannot change it midway', () => {
  const inherited = Object.assign(Object.create({ causal: true }), ok);
  assert.deepEqual(att.attention(inherited).mask, att.attention(ok).mask);
  let reads = 0;
  const liar = { cols: 1, data: [1, 2, 3], get rows() { reads++; return reads === 1 ? 3 : 2000; } };
  const r = att.attention({ ...ok, value: liar });
  assert.equal(reads, 1);
  assert.deepEqual(r.output, att.attention({ ...ok, value: [[1], [2], [3]] }).output);
});

test(`after all ${CASES.length} errors the module still computes correctly`, () => {
  for (const [, call] of CASES) assert.throws(call);
  const r = att.kernelRegression({ ...heights, weights: [0.1, 0.15, 0.45, 0.3] });
  assert.equal(r.estimate, 64.75);
  const w = att.attention({ query: [new Array(64).fill(1)], key: [new Array(64).fill(1.75), new Array(64).fill(1.5)], value: [[1], [0]] });
  assert.ok(Math.abs(w.weights.data[0] - 0.880797) < 1e-6);
});
