// npm run bench, part 3: training. The default model of cpp/attention/training/trainer.hpp on
// reverse (vocabulary 10, length 8, d_model 32, 1 head, batch 32, Adam 0.01)
// trained by our core (att.createTrainer) and by TF.js (tfjs-core +
// tfjs-backend-wasm, SIMD, one thread; bench/trainer-tfjs.mjs) from the same
// parameters on the same batches, in one Node process:
//   1. the losses of steps 1..5 side by side (they agree when both compute the same thing);
//   2. ms per step, the two taking turns round by round, k steps a sample, medians;
//   3. steps and ms to >= 99% held-out accuracy for seeds 1..5 (evaluating every 10 steps),
//      in Node and in headless Chromium (a blank page importing attention.mjs).
// Writes bench/results-train.json. --quick: fewer rounds (a smoke run).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { blankPageDir, onBlankPage } from './browser.mjs';
import { coreBatches, STREAM_PROBE, tfjsTrainer } from './trainer-tfjs.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const LOCKSTEP = quick ? 20 : 60;   // steps both sides take on the same batches
const ROUNDS = quick ? 5 : 21;       // samples per side
const K_OURS = quick ? 50 : 200;     // steps per sample
const K_TFJS = quick ? 5 : 20;
const SEEDS = [1, 2, 3, 4, 5];
const TARGET = 0.99;                 // held-out accuracy
const EVERY = 10;                    // steps between evaluations
const MAX_STEPS = 5000;
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const started = performance.now(), loadStart = os.loadavg();

const { default: createAttention } = await import(root + 'web/wasm/attention.mjs');
const att = await createAttention();

const require = createRequire(root + 'bench/package.json');
const version = (name) => JSON.parse(readFileSync(root + 'bench/node_modules/' + name + '/package.json', 'utf8')).version;
const tf = require('@tensorflow/tfjs');  // tfjs-core plus the gradients of its ops (tfjs-core alone registers none)
const tfWasm = require('@tensorflow/tfjs-backend-wasm');
tfWasm.setThreadsCount(1);                               // before the backend initialises
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
tfWasm.setWasmPaths(root + 'bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
await tf.setBackend('wasm');
await tf.ready();

// Trains a fresh default trainer of `seed` in slices of `every` steps until the
// held-out accuracy reaches `target`. Self-contained: it also runs in the page.
// -> Promise<{ seed, steps, accuracy, ms: wall time of steps and evaluations, stepMs: of the steps alone }>
async function trainToTarget(att, seed, target, every, maxSteps) {
  const t = await att.createTrainer({ task: 'reverse', seed });
  let steps = 0, accuracy = 0, stepMs = 0;
  const t0 = performance.now();
  while (accuracy < target && steps < maxSteps) {
    const s = performance.now();
    steps = t.step(every).step;
    stepMs += performance.now() - s;
    accuracy = t.evaluate().accuracy;
  }
  const ms = performance.now() - t0;
  t.delete();
  return { seed, steps, accuracy, ms, stepMs, reached: accuracy >= target };
}

// ---- 1. the same start and the same batches, in lockstep ---------------------------
const ours = await att.createTrainer({ task: 'reverse', seed: 1 });
const options = ours.options;
const probeInput = Array.from(ours.probe().input);
const drawnProbe = Array.from(coreBatches({ ...options, batch: 1 }, STREAM_PROBE)().tokens);
const sameBatches = probeInput.join() === drawnProbe.join();
if (!sameBatches) console.warn(`train: the JS copy of the batch generator draws ${drawnProbe} where the core's probe is ${probeInput}; TF.js gets other batches`);
const peer = tfjsTrainer(tf, options, ours.parameters(), att.positionalEncoding(options.length, options.dModel));
const nextBatch = coreBatches(options);
const lockstep = [];  // { step, ours, tfjs }: each side's loss of the same batch
for (let s = 1; s <= LOCKSTEP; s++) {
  const { tokens, targets } = nextBatch();
  lockstep.push({ step: s, ours: ours.step(1).loss, tfjs: peer.step(tokens, targets) });
}
const firstSteps = lockstep.slice(0, 5), lastLockstep = lockstep[lockstep.length - 1];
const firstDiff = Math.max(...firstSteps.map((r) => Math.abs(r.ours - r.tfjs) / r.ours));

// ---- 2. ms per step, taking turns --------------------------------------------------
// Each side's sample lasts about as long as the other's (ours takes more steps),
// so that a busy spell of the machine weighs on both alike.
const tensorsBefore = tf.memory().numTensors;
const sides = {
  ours: { steps: K_OURS, run: () => ours.step(K_OURS).loss },
  tfjs: { steps: K_TFJS, run: (batches) => batches.map(({ tokens, targets }) => peer.step(tokens, targets)).pop() },
};
const times = { ours: [], tfjs: [] }, lastLosses = {};
const batchesFor = (name) => (name === 'tfjs' ? Array.from({ length: K_TFJS }, nextBatch) : null);  // outside the clock
for (let r = -1; r < ROUNDS; r++) {  // round -1: a warm-up
  for (const name of r % 2 ? ['tfjs', 'ours'] : ['ours', 'tfjs']) {
    const batches = batchesFor(name);
    const t0 = performance.now();
    lastLosses[name] = sides[name].run(batches);
    if (r >= 0) times[name].push((performance.now() - t0) / sides[name].steps);
  }
}
const stepsTaken = { ours: LOCKSTEP + (ROUNDS + 1) * K_OURS, tfjs: LOCKSTEP + (ROUNDS + 1) * K_TFJS };
const tensorsLeaked = tf.memory().numTensors - tensorsBefore;
peer.dispose();
ours.delete();
const perStep = { ours: stats(times.ours), tfjs: stats(times.tfjs) };
const ratio = perStep.tfjs.median / perStep.ours.median;

// ---- 3. steps and time to 99% ------------------------------------------------------
const node = [];  // one seed after another
for (const seed of SEEDS) node.push(await trainToTarget(att, seed, TARGET, EVERY, MAX_STEPS));

const dir = blankPageDir('train', 'training bench', path.join(root, 'web/wasm/attention.mjs'));
let browser;
try {
  browser = await onBlankPage(dir, (page) => page.evaluate(async ({ source, seeds, target, every, maxSteps }) => {
    const { default: createAttention } = await import('./attention.mjs');
    const att = await createAttention();
    const train = (0, eval)('(' + source + ')');
    const runs = [];
    for (const seed of seeds) runs.push(await train(att, seed, target, every, maxSteps));
    return { runs, userAgent: navigator.userAgent };
  }, { source: trainToTarget.toString(), seeds: SEEDS, target: TARGET, every: EVERY, maxSteps: MAX_STEPS }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// ---- the tables ----------------------------------------------------------------------
const f = (x, digits = 3) => x.toFixed(digits);
const all = (runs, key) => runs.map((r) => r[key]);
const slowest = (runs) => Math.max(...all(runs, 'ms'));
const reachedAll = (runs) => runs.every((r) => r.reached);
const targets = {
  tenTimesFaster: ratio >= 10,
  chromiumUnderOneSecond: reachedAll(browser.runs) && slowest(browser.runs) < 1000,
};
const o = options;
const lines = ['', `Training (reverse: vocabulary ${o.vocab}, length ${o.length}, d_model ${o.dModel}, ${o.heads} head, ` +
  `batch ${o.batch}, Adam ${o.learningRate}), ours against TF.js ${version('@tensorflow/tfjs-core')} ` +
  '(tfjs-backend-wasm, SIMD, one thread), same parameters and batches:',
  `${sameBatches ? 'same' : 'OTHER'} batches; losses at steps 1..5, ours / TF.js: ` +
  firstSteps.map((r) => `${f(r.ours, 4)} / ${f(r.tfjs, 4)}`).join(', ') + ` (largest relative difference ${firstDiff.toExponential(1)})`,
  `at step ${lastLockstep.step}: ours ${f(lastLockstep.ours, 4)}, TF.js ${f(lastLockstep.tfjs, 4)}; at the end of the timing ` +
  `(ours ${stepsTaken.ours} steps, TF.js ${stepsTaken.tfjs}): ours ${f(lastLosses.ours, 4)}, TF.js ${f(lastLosses.tfjs, 4)}` +
  (tensorsLeaked ? `; TF.js leaked ${tensorsLeaked} tensors` : ''),
  '', '| | ms per step (median, min–max) |', '|---|---|',
  `| ours | ${f(perStep.ours.median)} (${f(perStep.ours.min)}–${f(perStep.ours.max)}) |`,
  `| TF.js | ${f(perStep.tfjs.median)} (${f(perStep.tfjs.min)}–${f(perStep.tfjs.max)}) |`,
  `| ratio | ${f(ratio, 1)}× (target ≥ 10×: ${targets.tenTimesFaster ? 'met' : 'NOT met'}) |`,
  `(${ROUNDS} samples a side, taking turns: ${K_OURS} steps ours, ${K_TFJS} steps TF.js)`,
  '', `To ${TARGET * 100}% held-out accuracy (256 sequences, evaluated every ${EVERY} steps; ms: steps and evaluations):`,
  '| seed | steps | Node ms | Chromium ms |', '|---|---|---|---|'];
for (let i = 0; i < SEEDS.length; i++) {
  const n = node[i], b = browser.runs[i];
  const steps = n.steps === b.steps ? `${n.steps}` : `${n.steps} (Chromium ${b.steps})`;
  lines.push(`| ${SEEDS[i]} | ${steps}${n.reached && b.reached ? '' : ' NOT REACHED'} | ${f(n.ms, 0)} | ${f(b.ms, 0)} |`);
}
lines.push(`Chromium under one second for every seed: ${targets.chromiumUnderOneSecond ? 'met' : 'NOT met'} ` +
  `(slowest ${f(slowest(browser.runs), 0)} ms; ${browser.userAgent.match(/Chrom[a-z]*\/[\d.]+/)?.[0] ?? 'Chromium'})`);
lines.push(`load average at the start: ${loadStart.map((x) => x.toFixed(2)).join(' ')}; at the end: ` +
  `${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(lines.join('\n'));

writeFileSync(path.join(root, 'bench/results-train.json'), JSON.stringify({
  machine: { cpu: os.cpus()[0].model, cores: os.cpus().length, node: process.version, date: new Date().toISOString() },
  loadAverage: { start: loadStart, end: os.loadavg() },
  options, peer: { tfjsCore: version('@tensorflow/tfjs-core'), tfjsBackendWasm: version('@tensorflow/tfjs-backend-wasm'), threads: tfWasm.getThreadsCount() },
  sameBatches, lockstep, firstStepsMaxRelativeDifference: firstDiff,
  rounds: ROUNDS, stepsPerSample: { ours: K_OURS, tfjs: K_TFJS }, stepsTaken, lastLosses, tensorsLeaked,
  msPerStep: perStep, ratio,
  toTarget: { target: TARGET, every: EVERY, node, chromium: browser.runs, userAgent: browser.userAgent },
  targets,
}, null, 2));
