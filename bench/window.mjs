// A sliding window against full causal attention, through the JS API: the
// fused kernel skips the tiles of keys before each query's window, so its time
// grows as n * window, not n^2. The two calls take turns (a slow spell of the
// machine hits both); each figure is the median of the samples. Writes
// bench/results-window.json.
//   node bench/window.mjs [--quick]   (n = 16,384, d = 64, window 256; --quick: n = 2,048)
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import createAttention from '../web/wasm/attention.mjs';
import { randomSigned } from '../web/runtime/random.js';

const quick = process.argv.includes('--quick');
const n = quick ? 2048 : 16384, d = 64, window = 256, SAMPLES = 7;
const rand = randomSigned(11), data = { rows: n, cols: d, data: new Float32Array(n * d) };
for (let i = 0; i < data.data.length; i++) data.data[i] = rand();
const att = await createAttention();
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const time = (options) => {
  const start = performance.now();
  att.attention({ query: data, key: data, value: data, causal: true, intermediates: false, ...options });
  return performance.now() - start;
};
time({});  // warm-up: the first call of a size runs before the engine's optimised code
time({ window });
const full = [], windowed = [];
for (let s = 0; s < SAMPLES; s++) {
  if (s % 2) windowed.push(time({ window }));
  full.push(time({}));
  if (!(s % 2)) windowed.push(time({ window }));
}
const result = {
  n, d, window, samples: SAMPLES, load: os.loadavg()[0], date: new Date().toISOString(),
  fullMs: median(full), windowMs: median(windowed), speedup: median(full) / median(windowed),
};
writeFileSync(new URL('./results-window.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
console.log(`window ${window} against full causal, n = ${n}, d = ${d}: ${result.fullMs.toFixed(0)} ms / ` +
            `${result.windowMs.toFixed(1)} ms = ${result.speedup.toFixed(1)}x faster (target: 10x)`);
