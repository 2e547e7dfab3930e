// npm run bench, part 2: the pretrained encoder. Its model files (sizes, and
// gzipped as a static host would send them); in headless Chromium: download,
// load and encode times; and what the small precisions cost: the largest
// change of any attention weight and embedding entry against float32, and how
// many rows keep their top key, over the test sentences.
// Writes bench/results-encoder.json. --quick: fewer repetitions.
import { rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readPackage, writeModel } from '../scripts/model.mjs';
import { SENTENCES } from '../tests/node/encoder-reference.mjs';
import { blankPageDir, onBlankPage } from './browser.mjs';
import { encoderError } from './encoder-error.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const median = (xs) => xs.slice().sort((a, b) => a - b)[(xs.length - 1) >> 1];
const UMBRELLA = 'The woman took her umbrella because it was raining.';
const LONG = SENTENCES[SENTENCES.length - 1];  // cut at 128 pieces

// ---- the files: float32, float16 and quantized as built, int8 written here --------
const dir = blankPageDir('encoder', 'encoder bench', path.join(root, 'web/wasm/attention.mjs'));
const FILES = { float32: 'encoder.f32.bin', float16: 'encoder.f16.bin', quantized: 'encoder.q.bin', int8: 'encoder.int8.bin' };
for (const dtype of ['float32', 'float16', 'quantized']) symlinkSync(path.join(root, 'web/model', FILES[dtype]), path.join(dir, FILES[dtype]));
writeFileSync(path.join(dir, FILES.int8), writeModel(readPackage(), 'int8'));

const results = { files: {}, browser: {}, errors: {} };
for (const [dtype, file] of Object.entries(FILES)) {
  const bytes = readFileSync(path.join(dir, file));
  results.files[dtype] = { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 6 }).length };
}

// ---- in the browser ---------------------------------------------------------------
await onBlankPage(dir, async (page) => {
  for (const [dtype, file] of Object.entries(FILES)) {
    results.browser[dtype] = await page.evaluate(async ({ file, reps, sentences }) => {
      const { default: createAttention } = await import('./attention.mjs');
      const att = await createAttention();
      const t0 = performance.now();
      const bytes = new Uint8Array(await (await fetch(file, { cache: 'no-store' })).arrayBuffer());
      const t1 = performance.now();
      const enc = await att.loadEncoder(bytes);
      const t2 = performance.now();
      const times = (text, n) => {
        const out = [];
        for (let i = 0; i < n; i++) {
          const s = performance.now();
          enc.encode(text);
          out.push(performance.now() - s);
        }
        return out;
      };
      const first = times(sentences[0], 1)[0];
      const short = times(sentences[0], reps);
      const long = times(sentences[1], Math.max(3, reps >> 2));
      const pieces = [enc.encode(sentences[0]).ids.length, enc.encode(sentences[1]).ids.length];
      const heapBytes = att.debug.memoryStats().heapBytes;
      enc.delete();
      return { downloadMs: t1 - t0, loadMs: t2 - t1, firstEncodeMs: first, encodeMs: short, longEncodeMs: long, pieces, heapBytes };
    }, { file, reps: quick ? 8 : 40, sentences: [UMBRELLA, LONG] });
    const r = results.browser[dtype];
    r.encodeMs = { median: median(r.encodeMs), min: Math.min(...r.encodeMs) };
    r.longEncodeMs = { median: median(r.longEncodeMs), min: Math.min(...r.longEncodeMs) };
  }
  results.browser.userAgent = await page.evaluate(() => navigator.userAgent);
});

// ---- the cost of the small precisions, in Node -----------------------------------
const { default: createAttention } = await import(path.join(root, 'web/wasm/attention.mjs'));
const att = await createAttention();
const load = (file) => att.loadEncoder(readFileSync(path.join(dir, file)));
const exact = await load(FILES.float32);
for (const dtype of ['float16', 'quantized', 'int8']) {
  const small = await load(FILES[dtype]);
  const e = encoderError(SENTENCES, (s, sentence) => exact.encode(sentence), small);
  small.delete();
  results.errors[dtype] = { sentences: SENTENCES.length, maxWeightError: e.weight, maxEmbeddingError: e.embedding, rows: e.rows, sameTop: e.sameTop, minCosine: e.cosine };
}
exact.delete();
rmSync(dir, { recursive: true, force: true });

// ---- the table ------------------------------------------------------------------
const MB = (b) => (b / 1e6).toFixed(1) + ' MB';
const ms = (x) => x.toFixed(x < 10 ? 1 : 0) + ' ms';
const lines = ['', 'Encoder (Universal Sentence Encoder Lite, 2 layers × 4 heads) in headless Chromium:',
  '| file | size | gzipped | download (localhost) | load | encode, 14 pieces | encode, 128 pieces | max Δ weight | max Δ embedding | same top key |',
  '|---|---|---|---|---|---|---|---|---|---|'];
for (const dtype of Object.keys(FILES)) {
  const f = results.files[dtype], b = results.browser[dtype], e = results.errors[dtype];
  lines.push(`| ${dtype} | ${MB(f.bytes)} | ${MB(f.gzipBytes)} | ${ms(b.downloadMs)} | ${ms(b.loadMs)} | ` +
             `${ms(b.encodeMs.median)} (first ${ms(b.firstEncodeMs)}) | ${ms(b.longEncodeMs.median)} | ` +
             (e ? `${e.maxWeightError.toExponential(1)} | ${e.maxEmbeddingError.toExponential(1)} | ${e.sameTop}/${e.rows} |`
                : 'reference | reference | reference |'));
}
lines.push(`(medians; errors over ${SENTENCES.length} sentences against float32; the page loads quantized; bench/quantize.mjs compares the formats tried)`);
console.log(lines.join('\n'));
writeFileSync(path.join(root, 'bench/results-encoder.json'), JSON.stringify(results, null, 2));
