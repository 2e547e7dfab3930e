// Loads the module once for all the Node tests, as a user would.
import createAttention from '../../web/wasm/attention.mjs';

export const att = await createAttention();

// f(lm) on a language model made with these options, deleted after it
export async function withModel(options, f) {
  const lm = await att.createLanguageModel(options);
  try {
    return await f(lm);
  } finally {
    lm.delete();
  }
}

// Matrix from nested rows
export function matrix(rows) {
  return { rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) };
}

// Deterministic random numbers for the tests (mulberry32), uniform on [-1, 1).
export { randomSigned as random } from '../../web/runtime/random.js';

export function randomMatrix(rows, cols, rand) {
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = rand();
  return { rows, cols, data };
}

// largest |a - b| / (1 + |b|); equal infinities count as 0
export function maxRelError(a, b) {
  const x = a.data ?? a, y = b.data ?? b;
  if (x.length !== y.length) throw new Error(`lengths differ: ${x.length} vs ${y.length}`);
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] === y[i]) continue;
    worst = Math.max(worst, Math.abs(x[i] - y[i]) / (1 + Math.abs(y[i])));
  }
  return worst;
}
