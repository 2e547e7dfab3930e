// npm run bench, part 5: the language model trained by threads. The page's
// poem model (layers 2, heads 4, d_model 64, context 25, batch 32, characters
// seen fewer than 3 times folded, Adam 0.01 with 20 steps of warm-up, clipping
// at 1) on the quatrains, in one Node process:
//   1. the same losses: 2 and 3 threads (createLanguageModel({ threads }),
//      lm.train(): this thread and 1 or 2 workers) against step() on this
//      thread, bit for bit, over the first steps;
//   2. milliseconds per step, the sides taking turns round by round, medians:
//      ours on one thread (step(), the core's chunks one after another), ours
//      on 2 threads (train()), and TF.js (tfjs-backend-wasm, SIMD, one
//      thread; bench/language-model-tfjs.mjs) on batches of the same kind;
//   3. the ratios and the targets (docs/performance.md): 2 threads at least 1.8x
//      one thread on a machine of 2 cores; at least 5x TF.js, our 2 threads
//      against its one thread.
// TF.js's threaded WASM backend is not timed: it needs SharedArrayBuffer, so a
// cross-origin isolated page in a browser, which the page this module serves
// cannot ask of its hosts.
// Writes bench/results-lm-threads.json.
//   node bench/language-model-threads.mjs [--quick]
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode, lmBatches, tfjsLanguageModel, vocabularyOf } from './language-model-tfjs.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const SAME_STEPS = quick ? 3 : 10;   // steps compared bit for bit
const ROUNDS = quick ? 3 : 9;        // samples per side
const STEPS = quick ? 2 : 6;         // steps per sample, each side
const OPTIONS = { layers: 2, heads: 4, dModel: 64, context: 25, batch: 32, seed: 1, learningRate: 0.01, warmup: 20, clip: 1, minCount: 3 };
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const loadStart = os.loadavg();

const corpus = JSON.parse(readFileSync(path.join(root, 'web/data/quatrains.json'), 'utf8'));
const { default: createAttention } = await import(path.join(root, 'web/wasm/attention.mjs'));
const att = await createAttention();
const model = (threads) => att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut, ...OPTIONS, threads });

// ---- 1. the same losses ------------------------------------------------------------------
const alone = await model(1);
const expected = Array.from(alone.step(SAME_STEPS).losses);
const same = {};
for (const threads of [2, 3]) {
  const lm = await model(threads);
  const losses = Array.from((await lm.train(SAME_STEPS)).losses);
  same[threads] = losses.every((x, i) => Object.is(x, expected[i]));
  lm.delete();
}

// ---- 2. the time of a step, taking turns -------------------------------------------------
const require = createRequire(path.join(root, 'bench/package.json'));
const version = (name) => JSON.parse(readFileSync(path.join(root, 'bench/node_modules', name, 'package.json'), 'utf8')).version;
const tf = require('@tensorflow/tfjs');
const tfWasm = require('@tensorflow/tfjs-backend-wasm');
tfWasm.setThreadsCount(1);
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
tfWasm.setWasmPaths(path.join(root, 'bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/'));
await tf.setBackend('wasm');
await tf.ready();
const vocabulary = vocabularyOf(alone.vocabulary().tokens);
const peer = tfjsLanguageModel(tf, { ...OPTIONS, vocab: vocabulary.tokens.length }, alone.parameters());
const nextBatch = lmBatches({ sequences: corpus.train.map((t) => encode(vocabulary, t)), context: OPTIONS.context, batch: OPTIONS.batch, seed: 1 });

const two = await model(2);
const sides = {
  'ours, 1 thread': async () => { for (let s = 0; s < STEPS; s++) alone.step(1); },
  'ours, 2 threads': async () => { await two.train(STEPS); },
  'TF.js, 1 thread': async (batches) => { for (const b of batches) peer.step(b.tokens, b.targets); },
};
const times = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
const names = Object.keys(sides);
for (let r = -1; r < ROUNDS; r++) {  // round -1: a warm-up
  for (const name of r % 2 ? names.slice().reverse() : names) {
    const batches = Array.from({ length: STEPS }, nextBatch);  // outside the clock
    const t0 = performance.now();
    await sides[name](batches);
    if (r >= 0) times[name].push((performance.now() - t0) / STEPS);
  }
}
const ms = Object.fromEntries(names.map((name) => [name, stats(times[name])]));
const speedup = ms['ours, 1 thread'].median / ms['ours, 2 threads'].median;
const overTfjs = ms['TF.js, 1 thread'].median / ms['ours, 2 threads'].median;
const oneOverTfjs = ms['TF.js, 1 thread'].median / ms['ours, 1 thread'].median;
alone.delete();
two.delete();
peer.dispose();

// ---- 3. the table -------------------------------------------------------------------------
const f = (x, digits = 1) => x.toFixed(digits);
const cores = os.cpus().length;
const lines = ['', `Language model by threads (the page's poem model on the quatrains: layers 2, heads 4, d_model 64, ` +
  `context 25, batch 32 in 8 chunks), ${cores} cores, load average ${loadStart.map((x) => f(x, 2)).join(' ')} at the start`,
  `same losses as step() over ${SAME_STEPS} steps: 2 threads ${same[2] ? 'yes, bit for bit' : 'NO'}, 3 threads ${same[3] ? 'yes, bit for bit' : 'NO'}`,
  '', '| | ms per step (median, min–max) |', '|---|---|',
  ...names.map((name) => `| ${name} | ${f(ms[name].median)} (${f(ms[name].min)}–${f(ms[name].max)}) |`),
  `2 threads over 1 thread: ${f(speedup, 2)}× (target ≥ 1.8× on 2 cores: ${speedup >= 1.8 ? 'met' : 'NOT met'}); ` +
  `over TF.js ${version('@tensorflow/tfjs-core')} on 1 thread: ${f(overTfjs, 2)}× (target ≥ 5×: ${overTfjs >= 5 ? 'met' : 'NOT met'}); ` +
  `ours on 1 thread over TF.js: ${f(oneOverTfjs, 2)}×`,
  `(${ROUNDS} samples a side of ${STEPS} steps, taking turns; TF.js's threaded backend needs SharedArrayBuffer: not timed)`];
console.log(lines.join('\n'));
writeFileSync(path.join(root, 'bench/results-lm-threads.json'), JSON.stringify({
  date: new Date().toISOString(), cores, loadStart, loadEnd: os.loadavg(), options: OPTIONS, same, ms, speedup, overTfjs, oneOverTfjs,
  tfjs: version('@tensorflow/tfjs-core'),
}, null, 2) + '\n');
