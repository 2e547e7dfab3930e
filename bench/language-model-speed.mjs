// The language model's speed in Node (WASM SIMD128): milliseconds per Adam
// step of the benchmark model (2 layers, 4 heads, dModel 64, context 32,
// batch 32), the median over single steps after 20 warm-up steps, tokens per
// second (the predicted characters of a step, padding left out, over its
// time), and generate() of a 24-character poem (the median of 50 seeds).
// On web/data/quatrains.json and names.json when present (scripts/corpora.mjs),
// else on a synthetic corpus of 24-character lines.
//
//   node bench/language-model-speed.mjs [--quick]
import { existsSync, readFileSync } from 'node:fs';
import createAttention from '../web/wasm/attention.mjs';

const quick = process.argv.includes('--quick');
const att = await createAttention();
const root = new URL('../', import.meta.url);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function corpus(name) {
  const file = new URL('web/data/' + name + '.json', root);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  return null;
}

// 24-character lines over 2000 characters, punctuation where a quatrain has it
function synthetic() {
  const texts = [];
  let x = 1;
  for (let i = 0; i < 3000; i++) {
    let t = '';
    for (let k = 1; k <= 24; k++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      t += k % 12 === 0 ? '。' : k % 6 === 0 ? '，' : String.fromCodePoint(0x4e00 + (x >> 8) % 2000);
    }
    texts.push(t);
  }
  return { name: 'synthetic', train: texts, heldOut: texts.slice(0, 50) };
}

const model = { layers: 2, heads: 4, dModel: 64, context: 32, batch: 32, seed: 1 };
const corpora = [corpus('quatrains'), corpus('names')].filter(Boolean);
if (!corpora.length) corpora.push(synthetic());
for (const c of corpora) {
  for (const minCount of c.name === 'quatrains' ? [1, 3] : [1]) {
    const lm = await att.createLanguageModel({ texts: c.train, heldOut: c.heldOut, minCount, ...model });
    // characters predicted per step: every text's characters and its end (windows of
    // at most context), averaged over the corpus; a step draws batch of them
    let targets = 0;
    for (const t of c.train) targets += Math.min([...t].length + 1, model.context);
    const perStep = (targets / c.train.length) * model.batch;
    for (let i = 0; i < 20; i++) lm.step(1);
    const count = quick ? 20 : 100, times = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      lm.step(1);
      times.push(performance.now() - start);
    }
    const ms = median(times);
    const generate = [];
    for (let seed = 1; seed <= 50; seed++) {
      const start = performance.now();
      lm.generate({ maxTokens: 24, seed });
      generate.push(performance.now() - start);
    }
    console.log(`${c.name} (vocab ${lm.info().vocab}, minCount ${minCount}): ${ms.toFixed(2)} ms per step (median of ${count}), ` +
      `${Math.round(perStep / ms * 1000)} tokens/s (${perStep.toFixed(0)} predicted per step), ` +
      `generate 24: ${median(generate).toFixed(2)} ms`);
    lm.delete();
  }
}
