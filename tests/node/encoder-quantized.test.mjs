// The quantized model file (web/model/encoder.q.bin, what the page loads)
// against float32 on every test sentence: attention weights within 0.01, the
// same top key in at least 99.5% of all map rows, embeddings with cosine at
// least 0.9999; the file at most 8 MB. Then its corrupt forms, which are
// Errors that say what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { att } from './module.mjs';
import { SENTENCES } from './encoder-reference.mjs';
import { crc32 } from '../../scripts/model.mjs';

const modelPath = (name) => new URL(`../../web/model/${name}`, import.meta.url);
const qBytes = fs.readFileSync(modelPath('encoder.q.bin'));
const exact = await att.loadEncoder(fs.readFileSync(modelPath('encoder.f32.bin')));
const small = await att.loadEncoder(qBytes);

test('the quantized file is at most 8 MB, version 2', () => {
  assert.ok(qBytes.length <= 8e6, `${qBytes.length} bytes`);
  assert.equal(qBytes.toString('latin1', 0, 8), 'ATTNWENC');
  assert.equal(qBytes.readUInt32LE(8), 2);
  assert.ok(qBytes.length < fs.statSync(modelPath('encoder.f16.bin')).size * 0.6);
});

test(`the quantized file's maps and embeddings are within the bounds on each of the ${SENTENCES.length} test sentences`, () => {
  let rows = 0, same = 0;
  for (const sentence of SENTENCES) {
    const x = exact.encode(sentence), y = small.encode(sentence);
    assert.deepEqual(Array.from(y.ids), Array.from(x.ids));
    for (let l = 0; l < 2; l++)
      for (let h = 0; h < 4; h++) {
        const p = x.attention[l][h], q = y.attention[l][h];
        let worst = 0;
        for (let i = 0; i < p.data.length; i++) worst = Math.max(worst, Math.abs(p.data[i] - q.data[i]));
        assert.ok(worst <= 0.01, `layer ${l} head ${h} of ${JSON.stringify(sentence)}: max |Δ weight| ${worst}`);
        for (let i = 0; i < p.rows; i++) {
          const row = (m) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
          const top = (xs) => xs.indexOf(Math.max(...xs));
          const rp = row(p), rq = row(q);
          rows++;
          if (top(rp) === top(rq)) same++;
          // where the top key changes, the two keys were within the error of each other
          else assert.ok(rp[top(rp)] - rp[top(rq)] <= 0.02, `a row of layer ${l} head ${h} of ${JSON.stringify(sentence)}`);
        }
      }
    const cosine = x.embedding.reduce((s, v, i) => s + v * y.embedding[i], 0);
    assert.ok(cosine >= 0.9999, `embedding of ${JSON.stringify(sentence)}: cosine ${cosine}`);
  }
  assert.ok(same / rows >= 0.995, `the same top key in ${same} of ${rows} rows`);
});

test('the quantized file shows the umbrella sentence as float32 does: "her" attends to "woman"', () => {
  const r = small.encode('The woman took her umbrella because it was raining.');
  const W = r.wordAttention[0][0];
  const her = Array.from(W.data.subarray(3 * W.cols, 4 * W.cols));
  assert.equal(r.words[her.indexOf(Math.max(...her))], 'woman');
  assert.ok(her[1] > 0.9);
});

// the file with bytes written at `at` and a right checksum: the reader's own checks meet them
function patched(at, bytes) {
  const copy = Uint8Array.from(qBytes);
  copy.set(bytes, at);
  new DataView(copy.buffer).setUint32(copy.length - 4, crc32(copy.subarray(0, copy.length - 4)), true);
  return copy;
}
const u32 = (x) => new Uint8Array(Uint32Array.of(x).buffer);
// the embedding table: its name, then dtype 4, rows, cols, step, lowest, symbols, lengths, code size, codes
const embeddings = qBytes.indexOf(Buffer.from('\x0aembeddings\x04', 'latin1')) + 12;
const symbols = qBytes.readUInt32LE(embeddings + 16);

test('a quantized file cut or wrong anywhere is an Error naming what is wrong', async () => {
  const bad = (bytes, pattern) => assert.rejects(att.loadEncoder(bytes), pattern);
  assert.equal(qBytes.readUInt32LE(embeddings), 8002);
  await bad(qBytes.subarray(0, 4_000_000), /^AttentionError: loadEncoder: model file: checksum mismatch/);
  await bad(patched(8, u32(1)), /^AttentionError: loadEncoder: model file: tensor 'embeddings' is quantized \(dtype 4\) in a version 1 file$/);
  await bad(patched(8, u32(3)), /version 3 is not supported \(this module reads versions 1 and 2\)/);
  await bad(patched(embeddings + 8, new Uint8Array(Float32Array.of(-1).buffer)), /tensor 'embeddings' has step -1/);
  await bad(patched(embeddings + 16, u32(0)), /tensor 'embeddings' has 0 symbols \(1 to 65536\)/);
  await bad(patched(embeddings + 20, [30]), /tensor 'embeddings' has a code of length 30 \(at most 24\)/);
  await bad(patched(embeddings + 20, [1, 1]), /tensor 'embeddings' has an impossible code/);
  await bad(patched(embeddings + 20 + symbols, u32(1000)), /tensor 'embeddings' \(8002, 256\) cannot fit in 1000 bytes of codes/);
  await bad(patched(embeddings + 20 + symbols, u32(0x7fffffff)), /truncated: the codes of 'embeddings' need 2147483647 bytes/);
  assert.equal(small.encode('The cat sat.').words[1], 'cat');
});

// The file with two more tensors (and a right checksum): 'big', 4096 x 4096 of 1-bit codes (2 MB in
// the file, 64 MB decoded), then 'late', whose header claims a float32 (1000, 1000) that the file
// does not hold. Refused before any tensor is decoded: the heap of a fresh encoder module grows by
// the file's copy at most, not by the 64 MB (nor the 28 MB of the real tensors before them).
test('a file whose tensors claim more than it holds is refused before any tensor is decoded', async () => {
  const tensor = (name, dtype, rows, cols) => [name.length, ...Buffer.from(name, 'latin1'), dtype, ...u32(rows), ...u32(cols)];
  const big = [...tensor('big', 4, 4096, 4096), ...new Uint8Array(Float32Array.of(0.5).buffer), ...u32(0), ...u32(1), 1, ...u32(2 ** 21)];
  const late = tensor('late', 1, 1000, 1000);
  const doctored = new Uint8Array(qBytes.length + big.length + 2 ** 21 + late.length);
  doctored.set(qBytes.subarray(0, qBytes.length - 4));
  let at = qBytes.length - 4;
  for (const part of [big, new Uint8Array(2 ** 21), late]) { doctored.set(part, at); at += part.length; }
  const view = new DataView(doctored.buffer);
  view.setUint32(32, view.getUint32(32, true) + 2, true);  // the tensor count
  view.setUint32(at, crc32(doctored.subarray(0, at)), true);
  const { default: createAttentionEncoder } = await import('../../web/wasm/attention-encoder.mjs');
  const part = await createAttentionEncoder();
  const before = part.debug.memoryStats().heapBytes;
  assert.throws(() => part.loadEncoder(doctored), (e) => e.message === "loadEncoder: model file: truncated: tensor 'late' (1000, 1000) needs 4000000 bytes, only 0 left");
  const grown = part.debug.memoryStats().heapBytes - before;
  assert.ok(grown <= 2 * doctored.length, `the heap grew by ${grown} bytes for a file of ${doctored.length}`);
  // the same module then loads the real file
  const encoder = part.loadEncoder(qBytes);
  assert.equal(encoder.encode('The cat sat.').words[1], 'cat');
  encoder.delete();
});
