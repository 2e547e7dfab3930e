// The encoder port against the published model run by TF.js: identical
// pieces, attention and embedding within 1e-5, on sentences of every kind.
// Then the float16 file against float32, and the API's errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { att } from './module.mjs';
import { SENTENCES, referenceIds, referenceRun } from './encoder-reference.mjs';

const modelPath = (name) => new URL(`../../web/model/${name}`, import.meta.url);
const f32Bytes = fs.readFileSync(modelPath('encoder.f32.bin'));
const enc = await att.loadEncoder(f32Bytes);

function maxAbsDiff(ours, rows) {
  let worst = 0;
  rows.flat().forEach((x, i) => { worst = Math.max(worst, Math.abs(ours[i] - x)); });
  return worst;
}

test('pieces, attention and embedding match the published model run by TF.js', async () => {
  const ids = referenceIds(SENTENCES);
  for (const [s, sentence] of SENTENCES.entries()) {
    const r = enc.encode(sentence);
    const expected = ids[s].slice(0, 128);
    assert.deepEqual(Array.from(r.ids), expected, `pieces of ${JSON.stringify(sentence)}`);
    assert.equal(r.truncated, ids[s].length > 128);
    const ref = await referenceRun(ids[s]);
    for (let l = 0; l < 2; l++)
      for (let h = 0; h < 4; h++) {
        const m = r.attention[l][h];
        assert.equal(m.rows, expected.length);
        const err = maxAbsDiff(m.data, ref.attention[l][h]);
        assert.ok(err < 1e-5, `layer ${l} head ${h} of ${JSON.stringify(sentence)}: max error ${err}`);
      }
    const err = maxAbsDiff(r.embedding, ref.embedding);
    assert.ok(err < 1e-5, `embedding of ${JSON.stringify(sentence)}: max error ${err}`);
  }
});

test('the umbrella sentence: layer 0 head 0 sends "her" to "woman"', () => {
  const r = enc.encode('The woman took her umbrella because it was raining.');
  assert.deepEqual(r.pieces.slice(0, 8), ['▁The', '▁woman', '▁took', '▁her', '▁u', 'mb', 're', 'lla']);
  assert.deepEqual(r.words, ['The', 'woman', 'took', 'her', 'umbrella', 'because', 'it', 'was', 'raining.']);
  assert.deepEqual(Array.from(r.wordOfPiece), [0, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 8, 8, 8]);
  const W = r.wordAttention[0][0];
  const her = Array.from(W.data.subarray(3 * W.cols, 4 * W.cols));
  assert.equal(her.indexOf(Math.max(...her)), 1);
  assert.ok(her[1] > 0.9);
  // word rows: the sum over the key word's pieces, the mean over the query word's pieces
  const P = r.attention[0][0], T = P.cols;
  const umbrellaToIt = [4, 5, 6, 7].reduce((s, i) => s + P.data[i * T + 9], 0) / 4;
  assert.ok(Math.abs(W.data[4 * W.cols + 6] - umbrellaToIt) < 1e-6);
  for (let a = 0; a < W.rows; a++) {
    const sum = W.data.subarray(a * W.cols, (a + 1) * W.cols).reduce((x, y) => x + y, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5);
  }
  // unit-length embeddings; a paraphrase is closer than an unrelated sentence
  const dot = (x, y) => x.reduce((s, v, i) => s + v * y[i], 0);
  const a = enc.encode('How old are you?').embedding;
  const b = enc.encode('What is your age?').embedding;
  const c = enc.encode('The stock market fell sharply today.').embedding;
  assert.ok(Math.abs(dot(a, a) - 1) < 1e-5);
  assert.ok(dot(a, b) > dot(a, c) + 0.2, `${dot(a, b)} vs ${dot(a, c)}`);
});

test('the float16 file: attention within 2e-3 of float32, the same top key in every row', async () => {
  const small = await att.loadEncoder(fs.readFileSync(modelPath('encoder.f16.bin')));
  try {
    for (const sentence of SENTENCES.slice(0, 21)) {
      const x = enc.encode(sentence), y = small.encode(sentence);
      for (let l = 0; l < 2; l++)
        for (let h = 0; h < 4; h++) {
          const p = x.attention[l][h], q = y.attention[l][h];
          for (let i = 0; i < p.data.length; i++) assert.ok(Math.abs(p.data[i] - q.data[i]) < 2e-3);
          for (let i = 0; i < p.rows; i++) {
            const row = (m) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
            const top = (xs) => xs.indexOf(Math.max(...xs));
            const rp = row(p), rq = row(q);
            // the same top key unless the two best are within the error
            if (top(rp) !== top(rq)) assert.ok(Math.abs(rp[top(rp)] - rp[top(rq)]) < 2e-3);
          }
        }
    }
  } finally {
    small.delete();
  }
});

test('bad model files and bad calls give clear Errors; the encoder keeps working', async () => {
  const bad = async (bytes, pattern) => assert.rejects(att.loadEncoder(bytes), pattern);
  await bad('model.bin', /^AttentionError: loadEncoder: bytes must be a Uint8Array or an ArrayBuffer of a model file, got the string "model.bin"$/);
  await bad(undefined, /bytes must be a Uint8Array or an ArrayBuffer/);
  await bad(new Uint8Array(0), /^AttentionError: loadEncoder: model file: not an attention-wasm encoder file/);
  await bad(new TextEncoder().encode('<!doctype html><title>404</title>'), /not an attention-wasm encoder file/);
  await bad(f32Bytes.subarray(0, 1000), /^AttentionError: loadEncoder: model file: checksum mismatch/);
  await bad(f32Bytes.subarray(0, f32Bytes.length - 1), /checksum mismatch/);
  const flipped = Uint8Array.from(f32Bytes);
  flipped[5_000_000] ^= 0x10;
  await bad(flipped, /checksum mismatch: the file is truncated or corrupt/);
  await bad(f32Bytes.buffer.slice(f32Bytes.byteOffset, f32Bytes.byteOffset + 64), /model file: /);

  assert.throws(() => enc.encode(''), /^AttentionError: encode: text is empty: type a sentence$/);
  assert.deepEqual(enc.encode('  ').pieces, ['▁', '▁', '▁']);  // spaces only: defined, not an error
  assert.throws(() => enc.encode(42), /^AttentionError: encode: text must be a string, got 42$/);
  assert.throws(() => enc.encode('a'.repeat(100001)), /^AttentionError: encode: text is too long: 100001 bytes, at most 100000$/);
  const lone = enc.encode('a \ud800 b');  // a lone surrogate: an unknown piece, no crash
  assert.ok(lone.ids.includes(0));

  const other = await att.loadEncoder(f32Bytes.buffer.slice(f32Bytes.byteOffset, f32Bytes.byteOffset + f32Bytes.length));
  other.delete();
  other.delete();  // harmless
  assert.throws(() => other.encode('hello'), /^AttentionError: encode: this encoder was deleted$/);
  assert.throws(() => other.embed('hello'), /^AttentionError: embed: this encoder was deleted$/);
  assert.throws(() => enc.embed(''), /^AttentionError: embed: text is empty: type a sentence$/);
  assert.throws(() => enc.embed(null), /^AttentionError: embed: text must be a string, got null$/);
  assert.equal(enc.encode('The woman took her umbrella.').words[1], 'woman');
});

test('embed(text) is encode(text).embedding, bit for bit, without any map', () => {
  for (const text of SENTENCES) {
    const full = enc.encode(text), bare = enc.embed(text);
    assert.ok(bare instanceof Float32Array);
    assert.deepEqual(bare, full.embedding, text);
  }
});

test('200 encodes and a load/delete cycle leave the heap flat', async () => {
  // an encoder keeps its last result's room for the next (the first encodes make it)
  const texts = ['The woman took her umbrella.', 'The girl said she was tired.'];
  for (const text of [...texts, texts[1]]) enc.encode(text);
  const allocated = () => att.debug.memoryStats().allocatedBytes;
  allocated();  // the first call of memoryStats may itself keep a few bytes (the binding's first conversion)
  let before = allocated();
  for (let i = 0; i < 50; i++) enc.encode(texts[1]);
  assert.equal(allocated(), before, 'the same sentence again');
  for (let i = 0; i < 200; i++) enc.encode(texts[i % 2]);
  // Two shapes in turn, and a load/delete cycle: the allocator's count of bytes
  // in use may move by a few bytes (a free block split anew leaves a sliver too
  // small to list, counted with its neighbour), but nothing grows with the calls.
  const flat = (what) => assert.ok(Math.abs(allocated() - before) < 256, `${allocated() - before} bytes after ${what}`);
  flat('200 encodes');
  before = allocated();
  const again = await att.loadEncoder(f32Bytes);
  assert.ok(allocated() > before + 20e6);
  again.delete();
  flat('a load and a delete');
});
