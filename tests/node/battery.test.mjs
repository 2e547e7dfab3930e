// The bad-input battery: what a learner can type or an embedder can pass,
// through the public API. Every case ends in a clear Error (the function, the
// argument, the problem) or in a defined result that is checked; afterwards
// the module, and a loaded encoder, still compute the golden numbers.
// (tests/node/errors.test.mjs holds the message of every argument check.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { att } from './module.mjs';

import { crc32 } from '../../scripts/model.mjs';

const encoderBytes = fs.readFileSync(new URL('../../web/model/encoder.f32.bin', import.meta.url));
const quantizedBytes = fs.readFileSync(new URL('../../web/model/encoder.q.bin', import.meta.url));
const enc = await att.loadEncoder(encoderBytes);

const q = [[1, 0], [0, 1]], k = [[1, 0], [0, 1], [1, 1]], v = [[1], [2], [3]];
const ok = { query: q, key: k, value: v };

const rowsSum = (m) => Array.from({ length: m.rows }, (_, i) => m.data.subarray(i * m.cols, (i + 1) * m.cols).reduce((a, b) => a + b, 0));
const allFinite = (m) => Array.from(m.data ?? m).every(Number.isFinite);
const isWeights = (m) => allFinite(m) && rowsSum(m).every((s) => Math.abs(s - 1) < 1e-5);
const isZero = (m) => Array.from(m.data).every((x) => x === 0);
const fill = (rows, cols, x) => ({ rows, cols, data: new Float32Array(rows * cols).fill(x) });

// [case, call, an Error pattern or a check of the result]
const BATTERY = [
  // shapes that do not match, empty, 0 and negative sizes
  ['key narrower than query', () => att.attention({ ...ok, key: [[1], [2], [3]] }), /^attention: key has 1 columns but query has 2/],
  ['value rows differ from key rows', () => att.attention({ ...ok, value: [[1], [2]] }), /^attention: value has 2 rows but key has 3/],
  ['empty query', () => att.attention({ ...ok, query: [] }), /^attention: query is empty$/],
  ['empty nested row', () => att.attention({ ...ok, query: [[]] }), /^attention: query columns must be a positive integer, got 0$/],
  ['0 rows', () => att.attention({ ...ok, key: { rows: 0, cols: 2, data: [] } }), /key.rows must be a positive integer, got 0/],
  ['negative cols', () => att.softmax({ rows: 1, cols: -3, data: [] }), /^softmax: x.cols must be a positive integer, got -3$/],
  ['0 heads', () => att.multiHeadAttention({ input: q, heads: 0 }), /^multiHeadAttention: heads must be at least 1, got 0$/],
  ['heads not dividing dModel', () => att.multiHeadAttention({ input: q, heads: 3, dModel: 4 }), /dModel \(4\) must be divisible by heads \(3\)/],
  ['0-width positional encoding', () => att.positionalEncoding(4, 0), /^positionalEncoding: /],
  ['kernel regression with no keys', () => att.kernelRegression({ keys: [], values: [], query: 1 }), /^kernelRegression: keys is empty$/],
  // NaN, ±Infinity, denormals, huge numbers
  ['NaN in a key', () => att.attention({ ...ok, key: [[1, 0], [NaN, 1], [1, 1]] }), /^attention: key has NaN at row 1, column 0/],
  ['Infinity in a value', () => att.attention({ ...ok, value: [[1], [Infinity], [3]] }), /value has Infinity at row 1/],
  ['-Infinity in softmax', () => att.softmax([[1, -Infinity]]), /^softmax: x has -Infinity at row 0, column 1/],
  ['1e309 (Infinity after parsing)', () => att.softmax([[1, 1e309]]), /x has Infinity/],
  ['NaN temperature', () => att.softmax([[1, 2]], { temperature: NaN }), /^softmax: temperature must be a finite number, got NaN$/],
  ['Infinity scale', () => att.attention({ ...ok, scale: Infinity }), /^attention: scale must be a finite number, got Infinity$/],
  ['1e39 beyond float32', () => att.attention({ ...ok, query: [[1e39, 0], [0, 1]] }), /query has Infinity at row 0, column 0/],
  ['1e-50 underflows float32', () => att.attention({ ...ok, scale: 1e-50 }), /scale = 1e-50 is too small for float32/],
  ['denormal inputs', () => att.attention({ query: [[1e-40, 1e-41]], key: [[1e-40, 0], [0, 1e-40]], value: [[1], [2]] }),
   (r) => isWeights(r.weights) && allFinite(r.output)],
  ['a denormal scale: uniform weights', () => att.attention({ ...ok, scale: 1e-40 }),
   (r) => isWeights(r.weights) && Array.from(r.weights.data).every((w) => Math.abs(w - 1 / 3) < 1e-6)],
  ['1e30-sized scores: one-hot, no NaN', () => att.attention({ query: [[1e15, 0]], key: [[1e15, 0], [-1e15, 0]], value: [[1], [2]] }),
   (r) => r.weights.data[0] === 1 && r.weights.data[1] === 0 && r.output.data[0] === 1],
  ['scores past float32', () => att.attention({ query: [[1e20, 0]], key: [[1e20, 0], [1, 0]], value: [[1], [2]] }), /^attention: the scores overflow float32/],
  ['softmax of ±1e38 in one row', () => att.softmax([[1e38, -1e38]]), (m) => m.data[0] === 1 && m.data[1] === 0],
  ['softmax: x / temperature past float32', () => att.softmax([[1e30, 1]], { temperature: 1e-10 }), /^softmax: x \/ temperature overflows float32 at row 0, column 0/],
  ['softmax: huge temperature with huge scores', () => att.softmax([[3e38, -2e38, 0]], { temperature: 3e38 }),
   (m) => isWeights(m) && m.data[1] > 0.1],
  ['output past float32', () => att.attention({ query: [[1]], key: [[0], [-17]], value: [[3.4028234e38], [3.4028234e38]] }), /output = weights V overflows float32/],
  ['kernel regression: a denormal sigma', () => att.kernelRegression({ keys: [1, 2], values: [3, 4], query: 1.5, sigma: 1e-40 }),
   /^kernelRegression: /],
  ['kernel regression: every key equal', () => att.kernelRegression({ keys: [2, 2, 2], values: [1, 2, 6], query: 7, sigma: 1 }),
   (r) => Math.abs(r.estimate - 3) < 1e-5],
  // masks of the wrong length or all zero
  ['mask too short', () => att.attention({ ...ok, mask: [1, 1, 1] }), /^attention: mask has 3 entries but needs 6 \(2 rows of 3, one per query and key\)$/],
  ['mask too long', () => att.attention({ ...ok, mask: new Uint8Array(7).fill(1) }), /mask has 7 entries/],
  ['mask all zero: zero weights and outputs', () => att.attention({ ...ok, mask: new Uint8Array(6) }),
   (r) => isZero(r.weights) && isZero(r.output)],
  ['mask with a row all zero', () => att.attention({ ...ok, mask: [1, 1, 1, 0, 0, 0] }),
   (r) => rowsSum(r.weights)[0] > 0.99999 && rowsSum(r.weights)[1] === 0 && r.output.data[1] === 0],
  ['mask of strings', () => att.attention({ ...ok, mask: ['1', '1', '1', '1', '1', '1'] }), /^attention: mask\[0\] must be 0\/1 or a boolean, got the string "1"$/],
  ['validLength 0: nothing to attend', () => att.attention({ ...ok, validLength: 0 }), (r) => isZero(r.weights) && isZero(r.output)],
  ['validLength negative', () => att.attention({ ...ok, validLength: -1 }), /validLength must be between 0 and the number of keys \(3\)/],
  ['kernel path: validLength 0', () => att.attention({ ...ok, validLength: 0, intermediates: false }), (r) => isZero(r.output)],
  ['softmax mask all zero', () => att.softmax([[1, 2]], { mask: [0, 0] }), (m) => isZero(m)],
  // unknown options, wrong types
  ['unknown option', () => att.attention({ ...ok, casual: true }), /^attention: unknown option "casual" in options/],
  ['unknown score', () => att.attention({ ...ok, score: 'cosine' }), /^attention: unknown score 'cosine' \(expected dot, general, concat, additive or gaussian\)$/],
  ['a boolean as a matrix', () => att.attention({ ...ok, query: true }), /^attention: query must be a matrix \{ rows, cols, data \}, got boolean$/],
  ['a Symbol as a matrix', () => att.attention({ ...ok, query: Symbol('q') }), /query must be a matrix \{ rows, cols, data \}, got symbol/],
  ['a BigInt entry', () => att.attention({ ...ok, query: [[1n, 0], [0, 1]] }), /query\[0\]\[0\] must be a number, got bigint/],
  ['a BigInt64Array', () => att.softmax(new BigInt64Array(2)), /^softmax: x must be a matrix \{ rows, cols, data \}, got a BigInt64Array$/],
  ['a function as options', () => att.attention(() => ok), /^attention: options must be an object, got function$/],
  ['a string for causal', () => att.attention({ ...ok, causal: 'yes' }), /^attention: causal must be true or false, got the string "yes"$/],
  ['a float for heads', () => att.multiHeadAttention({ input: q, heads: 1.5 }), /heads must be an integer, got 1.5/],
  ['a number for tokens', () => att.embedTokens({ tokens: 42, d: 4 }), /^embedTokens: tokens must be an array of strings/],
  ['a negative seed', () => att.initXavier(2, 2, -1), /^initXavier: seed must be a non-negative integer, got -1$/],
  // huge n that would not fit
  ['a 100000 × 100000 map', () => att.attention({ query: fill(100000, 1, 0.5), key: fill(100000, 1, 0.5), value: fill(100000, 1, 1) }),
   /^attention: 100000 queries x 100000 keys is too large \(at most 16777216 scores in one map\)$/],
  ['2^34 multiply-adds without the map', () => att.attention({ query: fill(200000, 64, 0.01), key: fill(200000, 64, 0.01), value: fill(200000, 1, 1), intermediates: false }),
   /multiply-adds/],
  ['rows * cols past 2^31', () => att.softmax({ rows: 65536, cols: 65536, data: [] }), /^softmax: x.data has 0 entries but rows \* cols = 65536 \* 65536 = 4294967296$/],
  ['positional encoding too large', () => att.positionalEncoding(1e6, 1e6), /^positionalEncoding: /],
  // model files: truncated, bit-flipped, foreign
  ['model: empty', () => att.loadEncoder(new Uint8Array(0)), /^loadEncoder: model file: not an attention-wasm encoder file/],
  ['model: a PNG', () => att.loadEncoder(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0, 13)), /not an attention-wasm encoder file/],
  ['model: the header only', () => att.loadEncoder(encoderBytes.subarray(0, 16)), /^loadEncoder: model file: checksum mismatch/],
  ['model: cut in the vocabulary', () => att.loadEncoder(encoderBytes.subarray(0, 50000)), /checksum mismatch/],
  ['model: cut in the tensors', () => att.loadEncoder(encoderBytes.subarray(0, 20_000_000)), /checksum mismatch/],
  ['model: one bit flipped in the version', () => att.loadEncoder(flip(encoderBytes, 9, 0x01)), /^loadEncoder: model file: version 257 is not supported/],
  ['model: one bit flipped in the vocabulary', () => att.loadEncoder(flip(encoderBytes, 1000, 0x04)), /checksum mismatch/],
  ['model: one bit flipped in a weight', () => att.loadEncoder(flip(encoderBytes, 27_000_000, 0x80)), /checksum mismatch/],
  ['model: the checksum flipped', () => att.loadEncoder(flip(encoderBytes, encoderBytes.length - 1, 0x40)), /checksum mismatch/],
  ['model: random bytes with the magic', () => att.loadEncoder(Uint8Array.from([...Buffer.from('ATTNWENC'), ...new Uint8Array(64).map((_, i) => (i * 37) & 255)])),
   /^loadEncoder: model file: /],
  // the quantized file: cut, flipped, or wrong with a right checksum (the reader's own checks)
  ['model q: cut in its header', () => att.loadEncoder(quantizedBytes.subarray(0, 12)), /^loadEncoder: model file: truncated: 12 bytes$/],
  ['model q: cut in the codes', () => att.loadEncoder(quantizedBytes.subarray(0, 5_000_000)), /checksum mismatch/],
  ['model q: one bit flipped in the codes', () => att.loadEncoder(flip(quantizedBytes, 3_000_000, 0x08)), /checksum mismatch/],
  ['model q: version 1 with quantized tensors', () => att.loadEncoder(patch(quantizedBytes, 8, [1, 0, 0, 0])),
   /^loadEncoder: model file: tensor 'embeddings' is quantized \(dtype 4\) in a version 1 file$/],
  ['model q: a step of NaN', () => att.loadEncoder(patch(quantizedBytes, tensorAt(quantizedBytes, 'embeddings') + 9, [0, 0, 0xc0, 0x7f])),
   /^loadEncoder: model file: tensor 'embeddings' has step NaN$/],
  ['model q: 4 billion symbols', () => att.loadEncoder(patch(quantizedBytes, tensorAt(quantizedBytes, 'embeddings') + 17, [255, 255, 255, 255])),
   /tensor 'embeddings' has 4294967295 symbols \(1 to 65536\)/],
  ['model q: a matrix of 2^32 entries claimed', () => att.loadEncoder(patch(quantizedBytes, tensorAt(quantizedBytes, 'pool.W') + 1, [0, 0, 1, 0, 0, 0, 1, 0])),
   /tensor 'pool.W' \(65536, 65536\) cannot fit in \d+ bytes of codes/],
  ['model q: every code length 1', () => att.loadEncoder(patch(quantizedBytes, tensorAt(quantizedBytes, 'pool.W') + 21, [1, 1, 1])),
   /tensor 'pool.W' has an impossible code: more codes of length 1 than fit/],
  ['model: a number', () => att.loadEncoder(42), /^loadEncoder: bytes must be a Uint8Array or an ArrayBuffer of a model file, got 42$/],
  ['model: an Int16Array', () => att.loadEncoder(new Int16Array(8)), /bytes must be a Uint8Array or an ArrayBuffer/],
];

function flip(bytes, at, bit) {
  const copy = Uint8Array.from(bytes);
  copy[at] ^= bit;
  return copy;
}

// bytes written at `at`, and the checksum made right again
function patch(bytes, at, values) {
  const copy = Uint8Array.from(bytes);
  copy.set(values, at);
  new DataView(copy.buffer).setUint32(copy.length - 4, crc32(copy.subarray(0, copy.length - 4)), true);
  return copy;
}

// where a tensor's dtype byte is (after its length-prefixed name)
function tensorAt(bytes, name) {
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(Buffer.from(String.fromCharCode(name.length) + name, 'latin1'));
  if (at < 0) throw new Error(`no tensor ${name}`);
  return at + 1 + name.length;
}

for (const [name, call, expected] of BATTERY) {
  test(`battery: ${name}`, async () => {
    if (expected instanceof RegExp) {
      let error;
      try {
        await call();
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof Error, 'expected an Error');
      assert.match(error.message, expected);
    } else {
      assert.ok(expected(await call()), 'the result is not the defined one');
    }
  });
}

// Unicode: every general category, lone surrogates, noncharacters, controls,
// directional marks, joiners, the ▁ used by the tokenizer itself. Each gives
// pieces that cover the normalised text exactly, weights, and a unit embedding.
const UNICODE = [
  ['controls', 'a\u0000b\u0007c\u001b[31m d\u007f'],
  ['combining marks', 'cafe\u0301 n\u0303 a\u0308\u0308\u0308\u0308'],
  ['lone surrogates', 'x \ud800 y \udfff z \udc00\ud800'],
  ['noncharacters and private use', '\ufffe \uffff \ue000 \u{10ffff} \u{fdd0}'],
  ['directional marks and overrides', 'abc \u200f\u202edef\u202c \u2066ghi\u2069'],
  ['zero-width joiners and spaces', 'a\u200db \u200b c\ufeffd \u2060'],
  ['emoji and a ZWJ family', 'I ❤️ 👩‍👩‍👧‍👦 🏳️‍🌈 😀'],
  ['line and paragraph separators', 'one\u2028two\u2029three\r\nfour\tfive\vsix\fseven'],
  ['no-break and odd spaces', 'a\u00a0b\u2003c\u3000d\u205fe'],
  ['full-width and compatibility forms', 'ＡＢＣ１２３ ﬁ ½ ㍿ ℌ ①'],
  ['scripts the vocabulary lacks', 'Ελληνικά Русский العربية עברית हिन्दी ไทย 한국어 中文 日本語'],
  ['the tokenizer’s own ▁ and control pieces', '▁ ▁▁x <s> </s> <unk> extra_token_id_1'],
  ['the replacement character', '\ufffd\ufffd text \ufffd'],
  ['punctuation only', '!!! ??? ... --- ;;; ,,,'],
  ['one word of 10,000 letters', 'a'.repeat(10000)],
  ['10,000 characters of everything', Array.from({ length: 10000 }, (_, i) => String.fromCodePoint(32 + ((i * 7919) % 0x2fff))).join('')],
  ['100,000 bytes exactly', 'ab '.repeat(33333) + 'a'],
];

test(`battery: the tokenizer and encoder on ${UNICODE.length} kinds of Unicode give defined results`, () => {
  for (const [name, text] of UNICODE) {
    const r = enc.encode(text);
    const normalized = text.normalize('NFKC');
    assert.ok(r.ids.length >= 1 && r.ids.length <= 128, name);
    if (!r.truncated) {
      // the pieces put together are "▁" + the text with its spaces as ▁ (a lone surrogate becomes U+FFFD)
      const expected = '▁' + normalized.toWellFormed().replaceAll(' ', '▁');
      assert.equal(r.pieces.join(''), expected, name);
    }
    for (const layer of r.attention) for (const head of layer) assert.ok(isWeights(head), name);
    for (const layer of r.wordAttention) for (const head of layer) assert.ok(isWeights(head), name);
    assert.ok(Math.abs(r.embedding.reduce((s, x) => s + x * x, 0) - 1) < 1e-4, name);
  }
  assert.throws(() => enc.encode('ab '.repeat(33334)), /^AttentionError: encode: text is too long: 100002 bytes, at most 100000$/);
});

test(`battery: after all ${BATTERY.length + UNICODE.length} cases the module and the encoder still compute the golden numbers`, async () => {
  for (const [, call] of BATTERY) await Promise.resolve().then(call).catch(() => {});
  const w = att.softmax([[14, 12]]);
  assert.ok(Math.abs(w.data[0] - 0.880797) < 1e-6 && Math.abs(w.data[1] - 0.119203) < 1e-6);
  assert.equal(att.kernelRegression({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], weights: [0.1, 0.15, 0.45, 0.3] }).estimate, 64.75);
  const r = enc.encode('The woman took her umbrella because it was raining.');
  const W = r.wordAttention[0][0];
  const her = Array.from(W.data.subarray(3 * W.cols, 4 * W.cols));
  assert.equal(r.words[her.indexOf(Math.max(...her))], 'woman');
});
