// The memory side of the "flash" widget, measured in its Web Worker
// (worker.js): self-attention of n queries, keys and values of width D, for
// n = 256, 512, …, run two ways, each in a module of its own so that its heap
// is its own:
//   full    attention(): every step of the chain, so the (n, n) matrices of
//           scores, scaled scores, masked scores, exps and weights
//   kernel  attention({ intermediates: false, logSumExp: true }): the fused
//           kernel, the same online softmax over tiles of keys, no (n, n) matrix
// For each n: the numbers the call returned, the module's heap after it (its
// WebAssembly memory, which only grows: the most any call so far needed) and
// the time of the one call; where both ran, the core's largest difference of
// the two outputs. The first refusal (an AttentionError: its code and message)
// ends that side: a finding, not a failure. Only clocks and counts here: every
// number is a core call's result, its heap or its time.
//
//   measureMemory(createModule, maxN, report(run)) -> the finished run
//   run: { maxN, d, status: 'running' | 'done', current: { impl, n } | null,
//          sides: { full, kernel: { baseHeap, points: [{ n, numbers, heap, ms, diff? }], refused: { n, code, message } | null } } }

export const N_VALUES = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];
export const D = 16;
export const IMPLS = ['full', 'kernel'];
const SEED = 5;  // the core's initialiser: Q, K, V are its streams 0, 1, 2

const CALLS = {
  full: (att, query, key, value) => att.attention({ query, key, value }),
  kernel: (att, query, key, value) => att.attention({ query, key, value, intermediates: false, logSumExp: true }),
};

// The entries of the float matrices and vectors a result holds: what the call handed back.
function numbersIn(result) {
  let count = 0;
  for (const part of Object.values(result)) {
    if (part instanceof Float32Array) count += part.length;
    else if (part?.data instanceof Float32Array) count += part.data.length;
  }
  return count;
}

const inputs = (att, n) => [0, 1, 2].map((stream) => att.initUniform(n, D, SEED, 1, stream));

// One side: every n up to maxN until the module refuses one. outputs: n -> the
// full chain's output (kept by that side, compared with by the kernel's).
async function measureSide(att, impl, sizes, run, outputs, report) {
  const side = run.sides[impl];
  side.baseHeap = att.debug.memoryStats().heapBytes;
  CALLS[impl](att, ...inputs(att, sizes[0]));  // warm-up: the first call of a module, not kept
  for (const n of sizes) {
    run.current = { impl, n };
    report(structuredClone(run));
    const [query, key, value] = inputs(att, n);
    const start = performance.now();
    let result;
    try {
      result = CALLS[impl](att, query, key, value);
    } catch (error) {
      side.refused = { n, code: String(error?.code ?? error?.name ?? ''), message: String(error?.message ?? error) };
      return;
    }
    const point = { n, ms: performance.now() - start, heap: att.debug.memoryStats().heapBytes, numbers: numbersIn(result) };
    if (impl === 'full') outputs.set(n, result.output);
    else if (outputs.has(n)) point.diff = att.maxAbsDifference(result.output, outputs.get(n));
    side.points.push(point);
    // a macrotask between two calls: the worker reads a message (none is expected; it is ended instead)
    await new Promise((done) => setTimeout(done, 0));
  }
}

export async function measureMemory(createModule, maxN, report) {
  const sizes = N_VALUES.filter((n) => n <= maxN);
  const run = { maxN, d: D, status: 'running', current: null, sides: {} };
  for (const impl of IMPLS) run.sides[impl] = { baseHeap: null, points: [], refused: null };
  const outputs = new Map();
  for (const impl of IMPLS) {
    const att = await createModule();  // a fresh module: its heap holds this side's calls only
    await measureSide(att, impl, sizes, run, outputs, report);
  }
  run.status = 'done';
  run.current = null;
  report(structuredClone(run));
  return run;
}
