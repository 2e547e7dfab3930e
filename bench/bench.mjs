// npm run bench: how fast attention runs in this module, against what a user
// would pick instead, on this machine. One Node process; the implementations
// take turns sample by sample (so a slow spell of the machine hits them all),
// and each figure is the median (min, max) of several samples.
//
//   ours         att.attention({ query, key, value, intermediates: false }): the
//                fused SIMD128 kernel through the public JS API, copies included
//   kernel       the same kernel called from WASM, no JS API (bench/kernels.cpp)
//   eigen        our Eigen path in WASM: scores, softmax, weights * V, as before the kernel
//   js           a tutorial-style JS loop over arrays of rows
//   tfjs         @tensorflow/tfjs-backend-wasm (SIMD, one thread): matMul, softmax, matMul
//   ort          onnxruntime-web (WASM, SIMD, one thread): its fused MultiHeadAttention
//   native       our Eigen path, g++ -O3 -march=native (bench/native.cpp, a child process)
//
// Also the f32x4 multiply-add peak (what "% of peak" divides by), causal
// against unmasked, the WASM heap after n = 16384, the latency of an n = 16
// call and the size of the module; then the speed targets (docs/performance.md), met or not.
// Writes bench/results.json. --quick: a few small sizes (a smoke run).
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { randomSigned } from '../web/runtime/random.js';  // mulberry32, uniform on [-1, 1)
import { multiHeadAttentionModel } from './onnx.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const SIZES = quick ? [16, 256] : [16, 64, 256, 1024, 2048, 4096];
const WIDTHS = quick ? [64] : [64, 128];
const flops = (n, d) => 4 * n * n * d;  // Q K^T and weights V: 2 n^2 d each
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];

// ---- inputs ------------------------------------------------------------------

function randomData(length, seed) {
  const rand = randomSigned(seed), out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = rand();
  return out;
}

// ---- the implementations -----------------------------------------------------

const require = createRequire(root + 'bench/package.json');
const version = (name) => JSON.parse(readFileSync(root + 'bench/node_modules/' + name + '/package.json', 'utf8')).version;

const { default: createAttention } = await import(root + 'web/wasm/attention.mjs');
const { default: createBench } = await import(root + 'build-wasm/bench/attention_bench.mjs');
const att = await createAttention();
const bench = await createBench();

const tf = require('@tensorflow/tfjs-core');
const tfWasm = require('@tensorflow/tfjs-backend-wasm');
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);  // one thread, like the others
tfWasm.setWasmPaths(root + 'bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
await tf.setBackend('wasm');
await tf.ready();

const ort = await import(root + 'bench/node_modules/onnxruntime-web/dist/ort.node.min.mjs');
ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = root + 'bench/node_modules/onnxruntime-web/dist/';
ort.env.logLevel = 'error';
const ortSession = await ort.InferenceSession.create(multiHeadAttentionModel(), { executionProviders: ['wasm'] });

// the native side answers one line per sample: seconds per call, checksum
const native = spawn(root + 'build-bench/attention_bench_native', [], { stdio: ['pipe', 'pipe', 'inherit'] });
const nativeLines = [];
let nativeWaiting = null;
native.stdout.setEncoding('utf8');
native.stdout.on('data', (chunk) => {
  nativeLines.push(...chunk.split('\n').filter(Boolean));
  if (nativeWaiting && nativeLines.length) nativeWaiting(nativeLines.shift());
});
function nativeCall(line) {
  return new Promise((resolve) => {
    nativeWaiting = (answer) => ((nativeWaiting = null), resolve(answer));
    native.stdin.write(line + '\n');
  });
}

// The attention of a tutorial: arrays of rows, map and reduce.
function tutorialAttention(Q, K, V, scale) {
  const scores = Q.map((q) => K.map((k) => q.reduce((s, x, i) => s + x * k[i], 0) * scale));
  const weights = scores.map((row) => {
    const top = Math.max(...row);
    const e = row.map((x) => Math.exp(x - top));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
  return weights.map((w) => V[0].map((_, c) => w.reduce((s, wj, j) => s + wj * V[j][c], 0)));
}
const rowsOf = (data, n, d) => Array.from({ length: n }, (_, i) => Array.from(data.subarray(i * d, (i + 1) * d)));

// Each implementation: setup(n, d, inputs) -> { call(), output() } for one size;
// call() may return a promise; measure(reps) may override the timing.
const IMPLEMENTATIONS = [
  {
    name: 'ours', label: 'ours (JS API)', maxN: Infinity,
    setup(n, d, { q, k, v }) {
      const query = { rows: n, cols: d, data: q }, key = { rows: n, cols: d, data: k }, value = { rows: n, cols: d, data: v };
      let out;
      return { call: () => (out = att.attention({ query, key, value, intermediates: false })), output: () => out.output.data };
    },
  },
  {
    name: 'kernel', label: 'kernel (no JS API)', maxN: Infinity,
    setup(n, d, inputs) {
      const p = heapInputs(n, d, inputs);
      return { call: () => bench._bench_kernel(p.q, p.k, p.v, n, d, 0, p.out), output: () => p.output(), free: p.free };
    },
  },
  {
    name: 'eigen', label: 'our Eigen path (WASM)', maxN: 4096,
    setup(n, d, inputs) {
      const p = heapInputs(n, d, inputs);
      return { call: () => bench._bench_eigen(p.q, p.k, p.v, n, d, 0, p.out), output: () => p.output(), free: p.free };
    },
  },
  {
    name: 'js', label: 'tutorial JS loop', maxN: 1024,
    setup(n, d, { q, k, v }) {
      const Q = rowsOf(q, n, d), K = rowsOf(k, n, d), V = rowsOf(v, n, d), scale = 1 / Math.sqrt(d);
      let out;
      return { call: () => (out = tutorialAttention(Q, K, V, scale)), output: () => Float32Array.from(out.flat()) };
    },
  },
  {
    name: 'tfjs', label: `tfjs-backend-wasm ${version('@tensorflow/tfjs-backend-wasm')}`, maxN: 4096,
    setup(n, d, { q, k, v }) {
      const scale = 1 / Math.sqrt(d);
      let out;
      const call = () => {
        const y = tf.tidy(() => {
          const Q = tf.tensor2d(q, [n, d]), K = tf.tensor2d(k, [n, d]), V = tf.tensor2d(v, [n, d]);
          return tf.matMul(tf.softmax(tf.mul(tf.matMul(Q, K, false, true), scale)), V);
        });
        out = y.dataSync();
        y.dispose();
      };
      return { call, output: () => out };
    },
  },
  {
    name: 'ort', label: `onnxruntime-web ${version('onnxruntime-web')} (MultiHeadAttention)`, maxN: 4096,
    setup(n, d, { q, k, v }) {
      let out;
      const call = async () => {
        const r = await ortSession.run({
          query: new ort.Tensor('float32', q, [1, n, d]), key: new ort.Tensor('float32', k, [1, n, d]),
          value: new ort.Tensor('float32', v, [1, n, d]),
        });
        out = r.output.data;
        r.output.dispose?.();
      };
      return { call, output: () => out };
    },
  },
  {
    name: 'native', label: 'our Eigen path, native -O3 -march=native', maxN: 4096,
    setup(n, d) {
      return {
        call: () => nativeCall(`${n} ${d} 0 1`),
        async measure(reps) {
          return Number((await nativeCall(`${n} ${d} 0 ${reps}`)).split(' ')[0]);
        },
      };
    },
  },
];

// inputs copied once into the bench module's heap
function heapInputs(n, d, { q, k, v }) {
  const size = n * d, base = bench._malloc(16 * size), at = base >> 2;
  bench.HEAPF32.set(q, at);
  bench.HEAPF32.set(k, at + size);
  bench.HEAPF32.set(v, at + 2 * size);
  return {
    q: base, k: base + 4 * size, v: base + 8 * size, out: base + 12 * size,
    output: () => bench.HEAPF32.slice(at + 3 * size, at + 4 * size),
    free: () => bench._free(base),
  };
}

// seconds per call over reps calls
async function measure(run, reps) {
  if (run.measure) return run.measure(reps);
  const start = performance.now();
  for (let r = 0; r < reps; r++) {
    const x = run.call();
    if (x && typeof x.then === 'function') await x;
  }
  return (performance.now() - start) / 1000 / reps;
}

// Warms up (JIT tiers, first-use allocations), picks reps so that one sample
// takes about 40 ms, then takes the samples in turn. A run that throws is
// reported as { error } and left out of the rest.
async function compare(runs, samples) {
  const plan = [];
  for (const run of runs) {
    try {
      let once = await measure(run, 1);
      const warmStart = performance.now();
      while (performance.now() - warmStart < 300) once = Math.min(once, await measure(run, 1));
      plan.push({ run, reps: Math.max(1, Math.round(0.04 / once)), times: [] });
    } catch (e) {
      plan.push({ run, error: String(e.message ?? e).split('\n')[0].slice(0, 200) });
    }
  }
  const live = plan.filter((p) => !p.error);
  for (let s = 0; s < samples; s++)
    for (let i = 0; i < live.length; i++) {
      const p = live[(i + s) % live.length];  // a different order each round
      p.times.push(await measure(p.run, p.reps));
    }
  return plan.map((p) => (p.error ? { error: p.error }
    : { median: median(p.times), min: Math.min(...p.times), max: Math.max(...p.times), reps: p.reps }));
}

const maxAbsDifference = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

// ---- the peak -------------------------------------------------------------------

// chains of acc = acc * m + c: 8 flops a step each; 12 chains hide the latency
// of multiply-then-add, 8 do not (a plain loop's figure). Then
// the kernel's 4 x 8 register block alone, on operands in L1: the most a
// matrix product gets out of V8's code for it.
async function peak() {
  const steps = 4e6, repeats = 2e4, out = {};
  const runs = [8, 12].map((chains) => ({ call: () => bench._bench_peak(chains, steps), flops: chains * 8 * steps }));
  runs.push({ call: () => bench._bench_block(repeats), flops: repeats * 64 * 64 });
  const stats = await compare(runs, 7);
  // medians, like every other figure (best: the fastest sample)
  const rate = (i) => ({ gflops: runs[i].flops / stats[i].median / 1e9, best: runs[i].flops / stats[i].min / 1e9 });
  return { 8: rate(0), 12: rate(1), block: rate(2) };
}

// ---- run --------------------------------------------------------------------------

const loadStart = os.loadavg();
const started = Date.now();
const results = { machine: {}, peak: {}, sizes: [], causal: [], memory: {}, latency: {}, size: {}, targets: {} };
results.machine = {
  cpu: os.cpus()[0].model, cores: os.cpus().length, memoryGB: Math.round(os.totalmem() / 2 ** 30),
  os: `${os.type()} ${os.release()}`, node: process.version, date: new Date().toISOString(),
  simd: 'wasm-simd128, one thread', peers: { tfjs: version('@tensorflow/tfjs-backend-wasm'), ort: version('onnxruntime-web') },
};
console.log(`machine: ${results.machine.cpu}, ${results.machine.cores} cores, Node ${process.version}, load ${loadStart.map((x) => x.toFixed(2)).join(' ')}`);

results.peak = await peak();
const PEAK = Math.max(results.peak[8].gflops, results.peak[12].gflops);
console.log(`f32x4 multiply-add peak: ${results.peak[12].gflops.toFixed(1)} GFLOP/s with 12 chains, ` +
            `${results.peak[8].gflops.toFixed(1)} with 8; the kernel's register block alone ${results.peak.block.gflops.toFixed(1)} (medians)`);

for (const n of SIZES)  // (n = 4096 last: a peer that fails there may not recover)
  for (const d of WIDTHS) {
    const inputs = { q: randomData(n * d, 1), k: randomData(n * d, 2), v: randomData(n * d, 3) };
    const impls = IMPLEMENTATIONS.filter((impl) => n <= impl.maxN);
    const runs = impls.map((impl) => impl.setup(n, d, inputs));
    const samples = n >= 1024 ? 5 : 7;
    const stats = await compare(runs, samples);
    const row = { n, d, flops: flops(n, d), impls: {} };
    const ours = runs[0].output();
    impls.forEach((impl, i) => {
      if (stats[i].error) {
        row.impls[impl.name] = stats[i];
        console.warn(`${impl.name} failed at n=${n} d=${d}: ${stats[i].error}`);
      } else {
        const check = runs[i].output ? maxAbsDifference(runs[i].output(), ours) : null;
        row.impls[impl.name] = { ...stats[i], gflops: flops(n, d) / stats[i].median / 1e9, maxAbsDifference: check };
        if (check !== null && !(check < 1e-4)) console.warn(`warning: ${impl.name} differs from ours by ${check} at n=${n} d=${d}`);
      }
      runs[i].free?.();
    });
    results.sizes.push(row);
    const o = row.impls.ours, ratio = (name) => (row.impls[name].error ? 'failed' : 'x' + (row.impls[name].median / o.median).toFixed(2));
    console.log(`n=${String(n).padStart(4)} d=${d}: ours ${(o.median * 1e3).toFixed(3)} ms, ${o.gflops.toFixed(1)} GFLOP/s, ` +
                impls.slice(1).map((impl) => `${impl.name} ${ratio(impl.name)}`).join(', '));
  }

// ours against the peak and the register block in the same minute: this
// machine's speed drifts by +-20% over seconds (a shared host), so a fraction
// of the peak needs both measured side by side
{
  const n = quick ? 256 : 1024, d = 64, m = (seed) => ({ rows: n, cols: d, data: randomData(n * d, seed) });
  const query = m(11), key = m(12), value = m(13), steps = 4e6, repeats = 2e4;
  const runs = [
    { call: () => att.attention({ query, key, value, intermediates: false }), flops: flops(n, d) },
    { call: () => bench._bench_peak(12, steps), flops: 12 * 8 * steps },
    { call: () => bench._bench_block(repeats), flops: repeats * 64 * 64 },
  ];
  const [ours, peak12, block] = (await compare(runs, 9)).map((t, i) => runs[i].flops / t.median / 1e9);
  results.sideBySide = { n, d, ours, peak: peak12, block, fraction: ours / peak12, ofBlock: ours / block };
  console.log(`side by side at n=${n} d=${d}: ours ${ours.toFixed(1)}, peak ${peak12.toFixed(1)}, register block ${block.toFixed(1)} GFLOP/s: ` +
              `${(100 * ours / peak12).toFixed(0)}% of the peak`);
}

// causal against unmasked, through the JS API, interleaved
for (const n of quick ? [256] : [1024, 4096]) {
  const d = 64, data = { rows: n, cols: d, data: randomData(n * d, 4) };
  const call = (causal) => ({ call: () => att.attention({ query: data, key: data, value: data, causal, intermediates: false }) });
  const [unmasked, causal] = await compare([call(false), call(true)], 7);
  results.causal.push({ n, d, unmasked, causal, ratio: causal.median / unmasked.median });
  console.log(`causal / unmasked at n=${n} d=${d}: ${(causal.median / unmasked.median).toFixed(3)}`);
}

// latency of a small call: the JS API, and the kernel alone
{
  const n = 16, d = 64, m = (seed) => ({ rows: n, cols: d, data: randomData(n * d, seed) });
  const query = m(5), key = m(6), value = m(7);
  const api = { call: () => att.attention({ query, key, value, intermediates: false }) };
  const p = heapInputs(n, d, { q: query.data, k: key.data, v: value.data });
  const kernel = { call: () => bench._bench_kernel(p.q, p.k, p.v, n, d, 0, p.out) };
  const [a, k] = await compare([api, kernel], 15);
  p.free();
  results.latency = { n, d, apiMicroseconds: a.median * 1e6, kernelMicroseconds: k.median * 1e6, apiMin: a.min * 1e6 };
  console.log(`n=16 d=64 call: ${(a.median * 1e6).toFixed(2)} us through the JS API, ${(k.median * 1e6).toFixed(2)} us for the kernel alone`);
}

// the WASM heap of a fresh module after one call with n = 16384, d = 64
{
  const n = 16384, d = 64, fresh = await createAttention();
  const m = (seed) => ({ rows: n, cols: d, data: randomData(n * d, seed) });
  const before = fresh.debug.memoryStats().heapBytes;
  const start = performance.now();
  const out = fresh.attention({ query: m(8), key: m(9), value: m(10), intermediates: false });
  const seconds = (performance.now() - start) / 1000;
  results.memory = { n, d, heapBytesBefore: before, heapBytes: fresh.debug.memoryStats().heapBytes, seconds,
                     finite: out.output.data.every(Number.isFinite) };
  console.log(`n=16384 d=64: WASM heap ${(results.memory.heapBytes / 2 ** 20).toFixed(1)} MB (${(before / 2 ** 20).toFixed(1)} MB before), ${seconds.toFixed(2)} s`);
}

{
  const file = readFileSync(root + 'web/wasm/attention.mjs');
  results.size = { bytes: statSync(root + 'web/wasm/attention.mjs').size, gzipBytes: gzipSync(file, { level: 9 }).length };
}
native.stdin.end();

// ---- targets ------------------------------------------------------------------------

const at = (n, d) => results.sizes.find((r) => r.n === n && r.d === d);
const headline = at(1024, 64) ?? results.sizes[results.sizes.length - 1];
const peers = (row) => Math.min(row.impls.tfjs?.median ?? Infinity, row.impls.ort?.median ?? Infinity);  // a failed peer: undefined
results.targets = {
  fractionOfPeak: { n: results.sideBySide.n, d: results.sideBySide.d, value: results.sideBySide.fraction, target: 0.85,
                    ofBlock: results.sideBySide.ofBlock, ofEightChains: results.sideBySide.ours / results.peak[8].gflops },
  // (what 1.5x the faster peer asks of the kernel: 1.5 times the peer's GFLOP/s, as a share of the peak)
  speedupOverFasterPeer: { n: headline.n, d: headline.d, value: peers(headline) / headline.impls.ours.median, target: 1.5,
                           peakShareNeeded: 1.5 * headline.flops / peers(headline) / 1e9 / PEAK },
  causalRatio: { n: results.causal[0].n, value: results.causal[0].ratio, target: 0.55, atMost: true },
  heapMB16384: { value: results.memory.heapBytes / 2 ** 20, target: 32, atMost: true },
  latencyMicroseconds: { value: results.latency.apiMicroseconds, target: 10, atMost: true },
  moduleKB: { value: results.size.bytes / 1000, target: 380, atMost: true },  // without the encoder and the trainers
};
for (const t of Object.values(results.targets)) t.met = t.atMost ? t.value <= t.target : t.value >= t.target;

// ---- the table ----------------------------------------------------------------------

const COLUMNS = ['kernel', 'eigen', 'js', 'tfjs', 'ort', 'native'];
const lines = [];
lines.push(`Machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGB} GB, ${results.machine.os}, ` +
           `Node ${process.version}; one thread; load average ${loadStart[0].toFixed(2)} at the start.`);
lines.push(`f32x4 multiply-add peak (WASM), measured at the start: ${PEAK.toFixed(1)} GFLOP/s (12 chains; 8 chains: ` +
           `${results.peak[8].gflops.toFixed(1)}); the kernel's 4 × 8 register block alone: ${results.peak.block.gflops.toFixed(1)}. ` +
           `Side by side with ours at n = ${results.sideBySide.n}, d = ${results.sideBySide.d}: peak ${results.sideBySide.peak.toFixed(1)}, ` +
           `block ${results.sideBySide.block.toFixed(1)}, ours ${results.sideBySide.ours.toFixed(1)} (this machine's speed drifts by about 20% over seconds).`);
lines.push('');
lines.push('Time of each implementation divided by ours (> 1: ours is faster); median of 5-7 interleaved samples.');
lines.push('');
lines.push('| n | d | ours (JS API) | GFLOP/s | ' + COLUMNS.map((c) => IMPLEMENTATIONS.find((i) => i.name === c).label).join(' | ') + ' |');
lines.push('|' + ' ---: |'.repeat(4 + COLUMNS.length));
for (const row of results.sizes) {
  const o = row.impls.ours;
  const ms = o.median * 1e3;
  const cells = COLUMNS.map((c) => (!row.impls[c] ? '—' : row.impls[c].error ? 'fails' : (row.impls[c].median / o.median).toFixed(2) + '×'));
  lines.push(`| ${row.n} | ${row.d} | ${ms < 1 ? ms.toFixed(3) : ms.toFixed(1)} ms | ${o.gflops.toFixed(1)} | ${cells.join(' | ')} |`);
}
lines.push('');
const T = results.targets, mark = (t) => (t.met ? 'met' : 'missed');
lines.push('| target | measured | |');
lines.push('| --- | ---: | --- |');
lines.push(`| ≥ 85% of the f32x4 peak at n = ${T.fractionOfPeak.n}, d = ${T.fractionOfPeak.d} (measured side by side) | ` +
           `${(100 * T.fractionOfPeak.value).toFixed(0)}%: ${results.sideBySide.ours.toFixed(1)} of ${results.sideBySide.peak.toFixed(1)} GFLOP/s ` +
           `(${(100 * T.fractionOfPeak.ofBlock).toFixed(0)}% of the register block alone, ${(100 * T.fractionOfPeak.ofEightChains).toFixed(0)}% of the 8-chain loop) | ${mark(T.fractionOfPeak)} |`);
lines.push(`| ≥ 1.5× faster than the faster peer at n = ${T.speedupOverFasterPeer.n}, d = ${T.speedupOverFasterPeer.d} | ${T.speedupOverFasterPeer.value.toFixed(2)}× ` +
           `(1.5× the peer is ${(100 * T.speedupOverFasterPeer.peakShareNeeded).toFixed(0)}% of the peak) | ${mark(T.speedupOverFasterPeer)} |`);
lines.push(`| causal ≤ 0.55× unmasked (n = ${T.causalRatio.n}) | ${T.causalRatio.value.toFixed(2)}× | ${mark(T.causalRatio)} |`);
lines.push(`| n = 16384, d = 64 in ≤ 32 MB of WASM heap | ${T.heapMB16384.value.toFixed(1)} MB | ${mark(T.heapMB16384)} |`);
lines.push(`| an n = 16 call ≤ 10 µs | ${T.latencyMicroseconds.value.toFixed(1)} µs (kernel alone ${results.latency.kernelMicroseconds.toFixed(1)} µs) | ${mark(T.latencyMicroseconds)} |`);
lines.push(`| attention.mjs ≤ 380 KB | ${results.size.bytes.toLocaleString('en')} bytes (${results.size.gzipBytes.toLocaleString('en')} gzipped) | ${mark(T.moduleKB)} |`);
results.loadAverage = { start: loadStart, end: os.loadavg() };
results.seconds = (Date.now() - started) / 1000;
console.log('\n' + lines.join('\n'));
console.log(`\nload average at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${results.seconds.toFixed(0)} s`);
writeFileSync(root + 'bench/results.json', JSON.stringify(results, null, 2) + '\n');
console.log('wrote bench/results.json');
