// The size/error frontier of the encoder's model file formats: for each way of
// storing the matrices, the file's size, and against float32 over the encoder
// tests' sentences the largest change of any attention weight, the share of
// rows (of every map of every sentence) that keep their top key, and the lowest
// cosine between a sentence's two embeddings. The written formats are read by
// the core's reader; the others are quantized, dequantized here, and run by the
// core from a float32 file. Target: ≤ 8 MB, Δ ≤ 0.01, ≥ 99.5%, cosine ≥ 0.9999.
//   node bench/quantize.mjs              the frontier
//   node bench/quantize.mjs --tensors    also each matrix alone in q8 (the rest float32)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readPackage, writeModel, fineness, quantizedStep } from '../scripts/model.mjs';
import { toHalf, fromHalf, quantizeUniform, encodeUniform, uniformBytes } from '../scripts/quantize.mjs';
import { CALIBRATION, calibrate } from './calibration.mjs';
import { quantizeQ8, dequantizeQ8, quantizeQ8Gptq, quantizeCodebook, Q8_FORMAT,
  quantizeUniformGptq } from './quantizers.mjs';
import { encoderError } from './encoder-error.mjs';
import { SENTENCES } from '../tests/node/encoder-reference.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const { default: createAttention } = await import(path.join(root, 'web/wasm/attention.mjs'));
const att = await createAttention();
const model = readPackage();
const matrices = Object.keys(model.tensors).filter((n) => model.tensors[n].rows > 1);
const f32File = writeModel(model, 'float32');
const exactEncoder = await att.loadEncoder(f32File);
const exact = SENTENCES.map((s) => exactEncoder.encode(s));
const t0 = performance.now();
const hessians = calibrate(model, CALIBRATION.map((s) => Array.from(exactEncoder.encode(s).ids)));
console.log(`calibration: ${CALIBRATION.length} sentences outside the test set, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
// the file's bytes outside its matrices' data (magic, vocabulary, vectors, names, shapes)
const header = f32File.length - matrices.reduce((n, m) => n + 4 * model.tensors[m].data.length, 0);

const axis = (name) => Q8_FORMAT(name).axis;
const uniform = (t, name, k, step) => ({ values: Float32Array.from(k, (v) => v * step), bytes: uniformBytes(encodeUniform(k, step)) });
// one matrix in one way: { values (as decoded), bytes (its data as stored) }
const ways = {
  float32: (t) => ({ values: t.data, bytes: 4 * t.data.length }),
  float16: (t) => ({ values: Float32Array.from(t.data, (x) => fromHalf(toHalf(x))), bytes: 2 * t.data.length }),
  q8: (t, name, options) => {
    const q = options?.gptq ? quantizeQ8Gptq(t, hessians[name].H, Q8_FORMAT(name)) : quantizeQ8(t, { ...Q8_FORMAT(name), ...options });
    return { values: dequantizeQ8(t.rows, t.cols, q), bytes: 5 + 2 * q.scales.length + q.q.length };
  },
  codebook: (t) => {
    const { book, index } = quantizeCodebook(t);
    return { values: Float32Array.from(index, (k) => book[k]), bytes: 4 * 256 + index.length };
  },
  // a uniform step rms / c, Huffman-coded; rounded to nearest, or with error compensation
  huffman: (t, name, { c, gptq }) => {
    const step = quantizedStep(t, c);
    return uniform(t, name, gptq && name !== 'pool.W' ? quantizeUniformGptq(t, hessians[name].H, step, { axis: axis(name) }) : quantizeUniform(t, step), step);
  },
};

function compare(enc) {
  const { weight, rows, sameTop, cosine } = encoderError(SENTENCES, (s) => exact[s], enc);
  return { weight, sameTop: sameTop / rows, cosine };
}

const meets = (r) => r.bytes <= 8e6 && r.weight <= 0.01 && r.sameTop >= 0.995 && r.cosine >= 0.9999;
const print = (r) => console.log(`| ${r.label} | ${(r.bytes / 1e6).toFixed(2)} MB | ${r.gzip ? (r.gzip / 1e6).toFixed(2) + ' MB' : '—'} | ` +
  `${r.weight.toFixed(4)} | ${(100 * r.sameTop).toFixed(2)}% | ${r.cosine.toFixed(6)} | ${meets(r) ? 'yes' : 'no'} |`);

// a variant simulated: name -> [way, options] for each matrix
async function simulated(label, choose) {
  const tensors = {};
  let bytes = header;
  for (const [name, t] of Object.entries(model.tensors)) {
    if (t.rows === 1) { tensors[name] = t; continue; }
    const [way, options] = choose(name);
    const r = ways[way](t, name, options);
    tensors[name] = { rows: t.rows, cols: t.cols, data: r.values };
    bytes += r.bytes;
  }
  const enc = await att.loadEncoder(writeModel({ ...model, tensors }, 'float32'));
  const r = { label, bytes, ...compare(enc) };
  enc.delete();
  print(r);
  return r;
}

// a file as written by the converter, read by the core
async function written(label, file) {
  const enc = await att.loadEncoder(file);
  const r = { label, bytes: file.length, gzip: gzipSync(file, { level: 6 }).length, ...compare(enc) };
  enc.delete();
  print(r);
  return r;
}

console.log(`\nModel file formats against float32 over the ${SENTENCES.length} test sentences (${exact.reduce((n, x) => n + 8 * x.ids.length, 0)} map rows):`);
console.log('| matrices | size | gzipped | max Δ attention | same top key | min cosine | meets target |');
console.log('|---|---|---|---|---|---|---|');
if (process.argv.includes('--tensors')) {
  for (const m of matrices) await simulated(`${m} alone in q8, round to nearest`, (n) => (n === m ? ['q8', { clips: [1] }] : ['float32']));
  for (const m of matrices) await simulated(`${m} alone in q8, GPTQ`, (n) => (n === m ? ['q8', { gptq: true }] : ['float32']));
}
await written('float32', f32File);
await written('float16', writeModel(model, 'float16'));
await written('int8, a scale per row', writeModel(model, 'int8'));
await simulated('q8, blocks of 32, round to nearest', () => ['q8', { clips: [1] }]);
await simulated('q8, blocks of 32, clip search (0.70-1 × max/127, least squared error)', () => ['q8', { clips: Array.from({ length: 16 }, (_, k) => 1 - 0.02 * k) }]);
await simulated('q8, blocks of 32, scale search (least squared error, 0.97-1.03 × max/127)', () => ['q8']);
await simulated('q8, blocks of 32, GPTQ (calibrated)', () => ['q8', { gptq: true }]);
await simulated('codebook of 256 per tensor (k-means)', () => ['codebook']);
await simulated('q8 round to nearest; layer 0 residual, QKV float16', (n) => (/^layer0\.(residual|qkv)\.W$/.test(n) ? ['float16'] : ['q8', { clips: [1] }]));
await simulated('uniform step rms/120, Huffman, round to nearest', (n) => ['huffman', { c: 120 }]);
await simulated('uniform step rms/120, Huffman, GPTQ (calibrated)', (n) => ['huffman', { c: 120, gptq: true }]);
await simulated('uniform step by role (converter), Huffman, GPTQ (calibrated)', (n) => ['huffman', { c: fineness(n), gptq: true }]);
await written('uniform step by role (converter), Huffman, round to nearest: encoder.q.bin', writeModel(model, 'quantized'));
exactEncoder.delete();
