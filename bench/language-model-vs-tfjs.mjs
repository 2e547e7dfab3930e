// npm run bench, part 4: the language model. Layers 2, heads 4, d_model 64,
// context 32, batch 32, Adam 3e-3 with 50 steps of warm-up and clipping at 1,
// on the quatrains (web/data/quatrains.json), trained by our core
// (att.createLanguageModel) and by TF.js (tfjs-core + tfjs-backend-wasm, SIMD,
// one thread; bench/language-model-tfjs.mjs) in one Node process:
//   1. the same vocabulary (ours, lm.vocabulary()) and, when lm.parameters() names
//      its tensors as the core does, the same starting parameters;
//   2. both train the same number of steps on batches of the same kind (each
//      side draws its own): their batch losses along the way and their
//      held-out losses at the end, against the unigram baseline, so that the
//      comparison is of two working models;
//   3. training tokens per second (targets per step over time per step), the two
//      taking turns round by round, each sample lasting about as long on both
//      sides, medians; the ratio;
//   4. the time to generate a 24-character poem (temperature 0.8, top-k 20):
//      ours with its key-value cache, TF.js with a full forward per character;
//      and ours in headless Chromium (a blank page importing attention.mjs):
//      the same training, then the same poems;
//   5. ours alone: baselines() on the quatrains and headRoles() of its 8 heads over
//      200 held-out characters, against their targets (200 ms and 5 ms).
// Writes bench/results-lm.json.
//   node bench/language-model-vs-tfjs.mjs [--quick] [--module=path/to/attention.mjs] [--peer-only]
// --quick: a smoke run; --module: another build of the module; --peer-only: TF.js
// alone (before the module has createLanguageModel).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { blankPageDir, onBlankPage } from './browser.mjs';
import {
  buildVocabulary, encode, generate, initParameters, lmBatches, lmEvaluationBatches, tensorShapes, tfjsLanguageModel,
  vocabularyOf,
} from './language-model-tfjs.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes('--quick');
const peerOnly = process.argv.includes('--peer-only');
const LOSS_STEPS = quick ? 30 : 300;  // steps both sides take before the timing
const REPORT = [1, 10, 50, 100, 200, 300].filter((s) => s <= LOSS_STEPS);
const ROUNDS = quick ? 3 : 11;         // samples per side
const K_TFJS = quick ? 1 : 3;          // steps per sample of TF.js; ours: as many as take as long
const POEMS = quick ? 5 : 21;          // generations timed, ours
const POEMS_TFJS = quick ? 2 : 5;
const OPTIONS = { layers: 2, heads: 4, dModel: 64, context: 32, seed: 1, batch: 32, learningRate: 3e-3, warmup: 50, clip: 1, minCount: 1 };
const GENERATE = { prompt: '', maxTokens: 24, temperature: 0.8, topK: 20 };
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const started = performance.now(), loadStart = os.loadavg();

const corpus = JSON.parse(readFileSync(path.join(root, 'web/data/quatrains.json'), 'utf8'));

// ---- ours ------------------------------------------------------------------------------
let att = null, ours = null, modulePath = null;
if (!peerOnly) {
  modulePath = path.resolve(arg('module') ?? path.join(root, 'web/wasm/attention.mjs'));
  const { default: createAttention } = await import(pathToFileURL(modulePath).href);
  att = await createAttention();
  if (typeof att.createLanguageModel !== 'function')
    throw new Error(`lm: ${modulePath} has no createLanguageModel (build it, point --module at a build that has it, or run with --peer-only)`);
  ours = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut, ...OPTIONS });
}

// ---- TF.js -------------------------------------------------------------------------------
const require = createRequire(path.join(root, 'bench/package.json'));
const version = (name) => JSON.parse(readFileSync(path.join(root, 'bench/node_modules', name, 'package.json'), 'utf8')).version;
const tf = require('@tensorflow/tfjs');  // tfjs-core plus the gradients of its ops
const tfWasm = require('@tensorflow/tfjs-backend-wasm');
tfWasm.setThreadsCount(1);  // before the backend initialises
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
tfWasm.setWasmPaths(path.join(root, 'bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/'));
await tf.setBackend('wasm');
await tf.ready();
const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');

// the vocabulary: ours when there is one (the peer's own construction must agree)
const built = buildVocabulary(corpus.train, corpus.heldOut, OPTIONS.minCount);
const vocabulary = ours ? vocabularyOf(ours.vocabulary().tokens) : built;
const sameVocabulary = vocabulary.tokens.join('\u0001') === built.tokens.join('\u0001');
if (!sameVocabulary) console.warn(`lm: the peer builds ${built.tokens.length} tokens where ours has ${vocabulary.tokens.length}; it uses ours`);
const peerOptions = { ...OPTIONS, vocab: vocabulary.tokens.length };

// the starting point: ours when its tensors have the core's names and shapes
let params = initParameters(peerOptions, OPTIONS.seed), sameStart = false;
if (ours) {
  const theirs = ours.parameters();
  const shapes = tensorShapes(peerOptions);
  sameStart = Object.entries(shapes).every(([k, [r, c]]) => theirs[k] && theirs[k].rows === r && theirs[k].cols === c) &&
    Object.keys(theirs).length === Object.keys(shapes).length;
  if (sameStart) params = Object.fromEntries(Object.keys(shapes).map((k) => [k, { rows: theirs[k].rows, cols: theirs[k].cols, data: Float32Array.from(theirs[k].data) }]));
  else console.warn(`lm: ours names its tensors ${Object.keys(theirs).join(', ')}: the peer starts from its own initialisation`);
}
const peer = tfjsLanguageModel(tf, peerOptions, params);
const sequences = corpus.train.map((t) => encode(vocabulary, t));
const nextBatch = lmBatches({ sequences, context: OPTIONS.context, batch: OPTIONS.batch, seed: OPTIONS.seed });
const heldOut = lmEvaluationBatches({ sequences: corpus.heldOut.map((t) => encode(vocabulary, t)), context: OPTIONS.context, batch: 64 });

// the held-out loss of the training unigram frequencies, add-one (the baseline)
function unigramLoss() {
  const counts = new Float64Array(vocabulary.tokens.length);
  let total = 0;
  for (const s of sequences) for (let i = 1; i < s.length; i++) { counts[s[i]]++; total++; }
  let sum = 0, n = 0;
  for (const b of heldOut) for (const t of b.targets) if (t >= 0) { sum -= Math.log((counts[t] + 1) / (total + counts.length)); n++; }
  return sum / n;
}

// ---- 1-2. the losses -------------------------------------------------------------------
const losses = [];  // { step, ours, tfjs }
let tokensPerStep = 0, stepMs = { ours: 0, tfjs: 0 };
for (let s = 1; s <= LOSS_STEPS; s++) {
  const batch = nextBatch();
  tokensPerStep = batch.count;
  let t0 = performance.now();
  const tfjs = peer.step(batch.tokens, batch.targets);
  stepMs.tfjs += performance.now() - t0;
  t0 = performance.now();
  const mine = ours ? ours.step(1).loss : NaN;
  stepMs.ours += performance.now() - t0;
  if (REPORT.includes(s)) losses.push({ step: s, ours: mine, tfjs });
}
const evaluation = {
  tfjs: peer.loss(heldOut),
  ours: ours ? ours.evaluate() : null,
  unigram: unigramLoss(),
};
const baseline = evaluation.ours ? evaluation.ours.unigramLoss : evaluation.unigram;
const working = {
  tfjs: evaluation.tfjs < baseline,
  ours: evaluation.ours ? evaluation.ours.loss < baseline : null,
};

// n steps, at most SLICE a call (one call may take only so much work: as the page, in slices)
const SLICE = 10;
function stepInSlices(lm, n) {
  let last;
  for (let done = 0; done < n; done += SLICE) last = lm.step(Math.min(SLICE, n - done));
  return last;
}

// ---- 3. tokens per second, taking turns ------------------------------------------------
const kOurs = ours ? Math.max(1, Math.round((K_TFJS * stepMs.tfjs) / Math.max(stepMs.ours, 1e-3))) : 0;
const tensorsBefore = tf.memory().numTensors;
const times = { ours: [], tfjs: [] };
const sides = {
  ours: { steps: kOurs, run: () => stepInSlices(ours, kOurs) },
  tfjs: { steps: K_TFJS, run: (batches) => batches.forEach((b) => peer.step(b.tokens, b.targets)) },
};
const names = ours ? ['ours', 'tfjs'] : ['tfjs'];
for (let r = -1; r < ROUNDS; r++) {  // round -1: a warm-up
  for (const name of r % 2 ? names.slice().reverse() : names) {
    const batches = name === 'tfjs' ? Array.from({ length: K_TFJS }, nextBatch) : null;  // outside the clock
    const t0 = performance.now();
    sides[name].run(batches);
    if (r >= 0) times[name].push((performance.now() - t0) / sides[name].steps);
  }
}
const tensorsLeaked = tf.memory().numTensors - tensorsBefore;
const msPerStep = { tfjs: stats(times.tfjs), ours: ours ? stats(times.ours) : null };
const tokensPerSecond = {
  tfjs: (tokensPerStep * 1000) / msPerStep.tfjs.median,
  ours: ours ? (tokensPerStep * 1000) / msPerStep.ours.median : null,
};
const ratio = ours ? msPerStep.tfjs.median / msPerStep.ours.median : null;
const info = ours ? ours.info() : null;

// ---- the training table (printed now: a failure later keeps it) ------------------------
const f = (x, digits = 3) => (x == null || Number.isNaN(x) ? '–' : x.toFixed(digits));
const o = OPTIONS;
const table = ['', `Language model (quatrains: ${corpus.train.length} training texts, vocabulary ${vocabulary.tokens.length}; ` +
  `layers ${o.layers}, heads ${o.heads}, d_model ${o.dModel}, context ${o.context}, batch ${o.batch}, ` +
  `Adam ${o.learningRate}, warm-up ${o.warmup}, clip ${o.clip}; ${tokensPerStep} targets a step), ours against TF.js ` +
  `${version('@tensorflow/tfjs-core')} (tfjs-backend-wasm, ${simd ? 'SIMD' : 'NO SIMD'}, ${tfWasm.getThreadsCount()} thread)` +
  (ours ? '' : ': TF.js ALONE (--peer-only)'),
  `${ours ? (sameVocabulary ? 'same vocabulary' : 'the peer uses OUR vocabulary (its own differs)') : 'the peer\'s vocabulary'}; ` +
  `${sameStart ? 'same starting parameters' : 'each its own initialisation'}; batches of the same kind, each side its own`,
  'training batch loss, ours / TF.js: ' + losses.map((l) => `step ${l.step} ${f(l.ours, 3)} / ${f(l.tfjs, 3)}`).join(', '),
  `held-out loss after ${LOSS_STEPS} steps: ours ${f(evaluation.ours?.loss)}, TF.js ${f(evaluation.tfjs)}; ` +
  `unigram baseline ${f(baseline)}${evaluation.ours ? ` (ours; this script's ${f(evaluation.unigram)})` : ''}: ` +
  `TF.js ${working.tfjs ? 'below it' : 'NOT BELOW IT'}${ours ? `, ours ${working.ours ? 'below it' : 'NOT BELOW IT'}` : ''}` +
  (tensorsLeaked ? `; TF.js leaked ${tensorsLeaked} tensors` : ''),
  '', '| | ms per step (median, min–max) | training tokens per second |', '|---|---|---|',
  `| ours | ${ours ? `${f(msPerStep.ours.median, 2)} (${f(msPerStep.ours.min, 2)}–${f(msPerStep.ours.max, 2)})` : '–'} | ${f(tokensPerSecond.ours, 0)} |`,
  `| TF.js | ${f(msPerStep.tfjs.median, 1)} (${f(msPerStep.tfjs.min, 1)}–${f(msPerStep.tfjs.max, 1)}) | ${f(tokensPerSecond.tfjs, 0)} |`,
  ...(ours ? [`| ratio | ${f(ratio, 1)}× (target ≥ 5×: ${ratio >= 5 ? 'met' : 'NOT met'}) | |`] : []),
  `(${ROUNDS} samples a side, taking turns: ${kOurs ? `${kOurs} steps ours, ` : ''}${K_TFJS} steps TF.js${info ? `; ours' info().tokensPerStep ${info.tokensPerStep}` : ''})`,
];
console.log(table.join('\n'));

// ---- 4. a 24-character poem -------------------------------------------------------------
// ms: over the poems that reached 24 characters (all of them if none did)
function timePoems(count, write) {
  const ms = [], poems = [], full = [];
  for (let seed = 1; seed <= count + 1; seed++) {
    const t0 = performance.now();
    const poem = write(seed);
    const took = performance.now() - t0;
    if (seed === 1) continue;  // a warm-up
    ms.push(took);
    poems.push(poem);
    if (Array.from(poem).length === GENERATE.maxTokens) full.push(took);
  }
  const example = poems.find((p) => Array.from(p).length === GENERATE.maxTokens) ?? poems[0];
  return { ms: stats(full.length ? full : ms), full: full.length, poems, example, characters: median(poems.map((p) => Array.from(p).length)) };
}
const poems = {
  tfjs: timePoems(POEMS_TFJS, (seed) => generate(peer, vocabulary, OPTIONS.context, { ...GENERATE, seed })),
  ours: ours ? timePoems(POEMS, (seed) => ours.generate({ ...GENERATE, seed })) : null,
};
// ours in headless Chromium: train as many steps, then time the same poems
async function inChromium() {
  const dir = blankPageDir('lm', 'language model bench', modulePath);
  try {
    return await onBlankPage(dir, (page) => page.evaluate(async ({ texts, heldOut, options, steps, slice, count, generateOptions }) => {
      const { default: createAttention } = await import('./attention.mjs');
      const att = await createAttention();
      const lm = await att.createLanguageModel({ texts, heldOut, ...options });
      let t0 = performance.now();
      let loss;
      for (let done = 0; done < steps; done += slice) loss = lm.step(Math.min(slice, steps - done)).loss;
      const trainMs = performance.now() - t0;
      const ms = [], full = [], poems = [];
      for (let seed = 1; seed <= count + 1; seed++) {
        t0 = performance.now();
        const poem = lm.generate({ ...generateOptions, seed });
        const took = performance.now() - t0;
        if (seed === 1) continue;
        ms.push(took);
        poems.push(poem);
        if (Array.from(poem).length === generateOptions.maxTokens) full.push(took);
      }
      lm.delete();
      return { loss, trainMs, ms: full.length ? full : ms, full: full.length, poems, userAgent: navigator.userAgent };
    }, { texts: corpus.train, heldOut: corpus.heldOut, options: OPTIONS, steps: LOSS_STEPS, slice: SLICE, count: POEMS, generateOptions: GENERATE }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const browser = ours ? await inChromium() : null;
if (browser) browser.ms = stats(browser.ms);
const form = ours && att.quatrainForm ? { ours: att.quatrainForm(poems.ours.poems), tfjs: att.quatrainForm(poems.tfjs.poems) } : null;
peer.dispose();

// The yardsticks: baselines() (the n-gram ladder, computed on its first call)
// on fresh models, the least of 3; headRoles() of the trained model's 8 heads
// over held-out poems of 200 characters with their boundaries, the median of 21
async function yardsticks() {
  if (!ours?.baselines) return null;
  const fresh = [];
  for (let k = 0; k < 3; k++) {
    const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut, ...OPTIONS });
    const t = performance.now();
    lm.baselines();
    fresh.push(performance.now() - t);
    lm.delete();
  }
  const texts = [];
  for (let chars = 0; chars < 200;) {
    const text = corpus.heldOut[texts.length];
    texts.push(text);
    chars += [...text].length + 1;
  }
  const roles = [];
  for (let k = 0; k < 21; k++) {
    const t = performance.now();
    ours.headRoles(texts);
    roles.push(performance.now() - t);
  }
  return { baselinesMs: Math.min(...fresh), headRolesMs: median(roles), roleTexts: texts.length,
    roleCharacters: texts.reduce((n, t) => n + [...t].length + 1, 0), ladder: ours.baselines().ladder };
}
const measured = await yardsticks();
ours?.delete();
if (measured) {
  console.log(['', `The yardsticks: baselines() on the quatrains ${f(measured.baselinesMs, 1)} ms (the least of 3 fresh models; ` +
    `target ≤ 200 ms: ${measured.baselinesMs <= 200 ? 'met' : 'NOT met'}): ` +
    measured.ladder.map((r) => `${r.order}-gram ${f(r.loss)} (k ${r.k})`).join(', '),
  `headRoles() of 8 heads over ${measured.roleTexts} held-out poems (${measured.roleCharacters} characters with ⏎): ` +
    `${f(measured.headRolesMs, 2)} ms (median of 21; target ≤ 5 ms: ${measured.headRolesMs <= 5 ? 'met' : 'NOT met'})`].join('\n'));
}

const poemLines = [
  '', `A 24-character poem (temperature ${GENERATE.temperature}, top-k ${GENERATE.topK}), ms (median, min–max):`,
  ...(ours ? [`ours: ${f(poems.ours.ms.median, 2)} (${f(poems.ours.ms.min, 2)}–${f(poems.ours.ms.max, 2)}) ${poems.ours.full ? `over the ${poems.ours.full} of ${POEMS} seeds that wrote 24 characters` : `over ${POEMS} seeds (none wrote 24 characters)`}; ` +
    `e.g. ${poems.ours.example}` +
    (form ? `; form ${form.ours.passed}/${form.ours.total}` : '')] : []),
  ...(browser ? [`ours in headless Chromium: ${f(browser.ms.median, 2)} (${f(browser.ms.min, 2)}–${f(browser.ms.max, 2)}) ` +
    `over ${browser.full ? `the ${browser.full} of ${POEMS} seeds that wrote 24 characters` : `${POEMS} seeds (none wrote 24 characters)`} ` +
    `(target ≤ 30 ms: ${browser.ms.median <= 30 ? 'met' : 'NOT met'}), after ${LOSS_STEPS} steps in ${f(browser.trainMs / 1000, 1)} s ` +
    `(${f(browser.trainMs / LOSS_STEPS, 2)} ms a step, loss ${f(browser.loss)}; ` +
    `${browser.userAgent.match(/Chrom[a-z]*\/[\d.]+/)?.[0] ?? 'Chromium'})`] : []),
  `TF.js (a full forward per character): ${f(poems.tfjs.ms.median, 1)} (${f(poems.tfjs.ms.min, 1)}–${f(poems.tfjs.ms.max, 1)}) ${poems.tfjs.full ? `over the ${poems.tfjs.full} of ${POEMS_TFJS} seeds that wrote 24 characters` : `over ${POEMS_TFJS} seeds (none wrote 24 characters)`}; ` +
    `e.g. ${poems.tfjs.example}` + (form ? `; form ${form.tfjs.passed}/${form.tfjs.total}` : ''),
  `load average at the start: ${loadStart.map((x) => x.toFixed(2)).join(' ')}; at the end: ` +
    `${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
];
console.log(poemLines.join('\n'));

writeFileSync(path.join(root, 'bench/results-lm.json'), JSON.stringify({
  machine: { cpu: os.cpus()[0].model, cores: os.cpus().length, node: process.version, date: new Date().toISOString() },
  loadAverage: { start: loadStart, end: os.loadavg() },
  options: OPTIONS, corpus: { train: corpus.train.length, heldOut: corpus.heldOut.length, vocabulary: vocabulary.tokens.length },
  peer: { tfjsCore: version('@tensorflow/tfjs-core'), tfjsBackendWasm: version('@tensorflow/tfjs-backend-wasm'), threads: tfWasm.getThreadsCount(), simd },
  peerOnly: !ours, sameVocabulary, sameStart, tokensPerStep, oursInfo: info,
  losses, evaluation, baseline, working, tensorsLeaked,
  rounds: ROUNDS, stepsPerSample: { ours: kOurs, tfjs: K_TFJS }, msPerStep, tokensPerSecond, ratio,
  poems, chromium: browser, form, yardsticks: measured,
  targets: ours ? { fiveTimesTfjs: ratio >= 5, poemUnder30msInChromium: browser.ms.median <= 30,
    baselinesUnder200ms: measured ? measured.baselinesMs <= 200 : null, headRolesUnder5ms: measured ? measured.headRolesMs <= 5 : null } : null,
}, null, 2));
