// Two builds of the modules side by side in one Node process: the figures a
// change of the facade, the bindings or the core's layout could move. The
// builds take turns sample by sample (a slow spell of the machine hits both),
// and each figure is the median of its samples; the last column is after /
// before (below 1: the second build takes less time).
//   a call of the facade    softmax of a 4x4 matrix; attention() at n = 16 (the lean path)
//                           and with its intermediates; a bad call answered with its AttentionError
//   the kernel              attention() at n = 256 and 1024, d = 64, intermediates: false
//   the smaller ones        selfAttention, multiHeadAttention, kernelRegression over a range,
//                           dotProductSamples and their histogram (the page's widgets)
//   training                a step of the trainer (its defaults) and of the language model
//                           (2 layers, 4 heads, dModel 64, context 32, batch 32, on the names)
//   the modules             the bytes of attention.mjs, attention-training.mjs, attention-encoder.mjs
//
//   node bench/builds.mjs <before: a checkout's web/wasm/> [<after: default this tree's web/wasm/>]
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomSigned } from '../web/runtime/random.js';

const [beforeDir, afterDir = new URL('../web/wasm/', import.meta.url).pathname] = process.argv.slice(2);
if (!beforeDir) throw new Error('usage: node bench/builds.mjs <before web/wasm/> [<after web/wasm/>]');
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const names = JSON.parse(readFileSync(new URL('../web/data/names.json', import.meta.url), 'utf8'));

function matrix(rows, cols, seed) {
  const rand = randomSigned(seed), data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = rand();
  return { rows, cols, data };
}

async function load(dir) {
  const { default: createAttention } = await import(pathToFileURL(resolve(dir, 'attention.mjs')).href);
  const att = await createAttention();
  const trainer = await att.createTrainer();
  const lm = await att.createLanguageModel({ texts: names.train, heldOut: names.heldOut, layers: 2, heads: 4, dModel: 64, context: 32, batch: 32, seed: 1 });
  trainer.step(5);
  lm.step(5);
  return { dir, att, trainer, lm };
}

// name -> (build) => one sample's milliseconds per call
const small = matrix(4, 4, 1), q16 = matrix(16, 64, 2), k16 = matrix(16, 64, 3), v16 = matrix(16, 64, 4);
const big = Object.fromEntries([256, 1024].map((n) => [n, [matrix(n, 64, 5), matrix(n, 64, 6), matrix(n, 64, 7)]]));
const repeat = (count, f) => {
  const start = performance.now();
  for (let i = 0; i < count; i++) f();
  return (performance.now() - start) / count;
};
const FIGURES = {
  'softmax, 4x4 (us)': (b) => 1000 * repeat(1000, () => b.att.softmax(small)),
  'attention, n = 16, lean (us)': (b) => 1000 * repeat(1000, () => b.att.attention({ query: q16, key: k16, value: v16, intermediates: false })),
  'attention, n = 16, intermediates (us)': (b) => 1000 * repeat(300, () => b.att.attention({ query: q16, key: k16, value: v16 })),
  'a refused call (us)': (b) => 1000 * repeat(300, () => {
    try { b.att.softmax(small, { temperature: 0 }); } catch { /* its AttentionError */ }
  }),
  'attention, n = 256, d = 64 (ms)': (b) => repeat(10, () => b.att.attention({ query: big[256][0], key: big[256][1], value: big[256][2], intermediates: false })),
  'attention, n = 1024, d = 64 (ms)': (b) => repeat(2, () => b.att.attention({ query: big[1024][0], key: big[1024][1], value: big[1024][2], intermediates: false })),
  // the page's smaller computations (mechanism/ and measures/ beside attention())
  'selfAttention, n = 256, d = 64 (ms)': (b) => repeat(5, () => b.att.selfAttention({ input: big[256][0], seed: 1 })),
  'multiHeadAttention, n = 256, 4 heads (ms)': (b) => repeat(5, () => b.att.multiHeadAttention({ input: big[256][0], heads: 4 })),
  'kernelRegression, 400 queries (us)': (b) => 1000 * repeat(50, () => b.att.kernelRegression({ keys: k16.data, values: v16.data, range: { from: -1, to: 1, count: 400 }, sigma: 0.3 })),
  'dotProductSamples + histogram, 10,000 (ms)': (b) => repeat(5, () => b.att.histogram({ values: b.att.dotProductSamples({ d: 64, count: 10000, seed: 1 }).dots, from: -40, to: 40, bins: 40 })),
  'trainer step (ms)': (b) => repeat(5, () => b.trainer.step(1)),
  'language model step (ms)': (b) => repeat(2, () => b.lm.step(1)),
};

const ROUNDS = 41;  // samples per figure and build: enough for a stable median on a busy machine
const builds = [await load(beforeDir), await load(afterDir)];
const samples = Object.fromEntries(Object.keys(FIGURES).map((name) => [name, [[], []]]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, figure] of Object.entries(FIGURES)) {
    for (let i = 0; i < 2; i++) {
      const k = (round + i) % 2;  // who goes first alternates
      samples[name][k].push(figure(builds[k]));
    }
  }
}

const rows = [['figure', 'before', 'after', 'after / before']];
for (const [name, [a, b]] of Object.entries(samples)) {
  const [x, y] = [median(a), median(b)];
  rows.push([name, x.toFixed(2), y.toFixed(2), (y / x).toFixed(2)]);
}
for (const file of ['attention.mjs', 'attention-training.mjs', 'attention-encoder.mjs']) {
  const [x, y] = builds.map((b) => statSync(resolve(b.dir, file)).size);
  rows.push([file + ' (bytes)', String(x), String(y), (y / x).toFixed(3)]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const r of rows) console.log(r.map((cell, c) => (c ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  '));
for (const b of builds) {
  b.trainer.delete();
  b.lm.delete();
}
