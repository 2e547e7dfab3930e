// The language model as attention is run today, trained on the names and the
// poems (web/data/*.json) in one run, every model the same size and steps:
//   1. positions: learned, sinusoidal, rotary, alibi, none at context 24, the
//      held-out loss of each text alone (evaluate(): as trained, one text a
//      sequence) and at lengths 24, 48 and 96 (evaluate({ length }): the
//      held-out texts joined, read in windows of that length; learned stops at 24);
//   2. kvHeads 4, 2, 1 at heads 4: held-out loss (each text alone), parameters,
//      the cache of a full context (2 layers context kvHeads dHead numbers);
//   3. window 8, 16 and none: held-out loss (each text alone);
//   4. StreamingLLM's experiment at this scale: a rotary model trained with
//      full attention, its parameters read by the same model with a window of
//      12 keeping 0, 1 and 4 sinks, the held-out loss at 96 (4x the context)
//      beside full attention's.
// Prints markdown tables and writes bench/results-positions.json.
//
// Steps: 800 on the names, 300 on the poems (a poem step costs 4x a name's:
// the unembedding of ~2,000 characters); --quick: 40 and 20.
//
//   node bench/positions.mjs [--quick]
import { readFileSync, writeFileSync } from 'node:fs';
import createAttention from '../web/wasm/attention.mjs';

const quick = process.argv.includes('--quick');
// steps per corpus: a poem step reads a vocabulary of ~2,000 characters, 4x a names step's time
const steps = { names: quick ? 40 : 800, poems: quick ? 20 : 300 };
const att = await createAttention();
const data = (name) => JSON.parse(readFileSync(new URL(`../web/data/${name}.json`, import.meta.url), 'utf8'));
const corpora = [{ ...data('names'), name: 'names', minCount: 1 }, { ...data('quatrains'), name: 'poems', minCount: 3 }];
const size = { layers: 2, heads: 4, dModel: 64, context: 24, batch: 32, seed: 1 };
const results = { steps, size, positions: [], kvHeads: [], windows: [], sinks: [] };
const f = (x) => (x === null ? '—' : x.toFixed(3));

// a trained model (deleted by the caller) and its training time
function trained(corpus, options) {
  const lm = att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut, minCount: corpus.minCount, ...size, ...options });
  return lm.then((m) => {
    const start = performance.now();
    const n = steps[corpus.name];
    for (let done = 0; done < n; done += 10) m.step(Math.min(10, n - done));
    return { lm: m, seconds: (performance.now() - start) / 1000 };
  });
}

const lossAt = (lm, length) => lm.evaluate({ length }).loss;

for (const corpus of corpora) {
  // 1. the position schemes
  for (const position of ['learned', 'sinusoidal', 'rotary', 'alibi', 'none']) {
    const { lm, seconds } = await trained(corpus, { position });
    const row = { corpus: corpus.name, position, seconds, alone: lm.evaluate().loss };
    for (const length of [24, 48, 96]) row[length] = position === 'learned' && length > 24 ? null : lossAt(lm, length);
    row.unigram = lm.evaluate({ length: 24 }).unigramLoss;
    results.positions.push(row);
    lm.delete();
    console.error(`${corpus.name} ${position}: ${f(row[24])} ${f(row[48])} ${f(row[96])} (${seconds.toFixed(0)} s)`);
  }
  // 2. shared keys
  for (const kvHeads of [4, 2, 1]) {
    const { lm } = await trained(corpus, { kvHeads });
    const cache = 2 * size.layers * size.context * kvHeads * (size.dModel / size.heads);
    results.kvHeads.push({ corpus: corpus.name, kvHeads, loss: lm.evaluate().loss, parameters: lm.info().parameters, cache });
    lm.delete();
  }
  // 3. windows, trained
  for (const window of [8, 16, 0]) {
    const { lm } = await trained(corpus, { window });
    results.windows.push({ corpus: corpus.name, window: window || null, loss: lm.evaluate().loss });
    lm.delete();
  }
  // 4. a window and sinks at reading time only, on a model trained with full attention
  const { lm: full } = await trained(corpus, { position: 'rotary' });
  const parameters = full.parameters();
  const row = { corpus: corpus.name, full24: lossAt(full, 24), full96: lossAt(full, 96) };
  for (const sinks of [0, 1, 4]) {
    const reader = await att.createLanguageModel({
      texts: corpus.train, heldOut: corpus.heldOut, minCount: corpus.minCount, ...size, position: 'rotary', window: 12, sinks,
    });
    reader.setParameters(parameters);
    row[`sinks${sinks}`] = lossAt(reader, 96);
    reader.delete();
  }
  full.delete();
  results.sinks.push(row);
}

console.log(`Positions (held-out loss, nats per character; ${steps.names} steps on the names, ${steps.poems} on the poems; 2 layers, 4 heads, dModel 64, context 24, batch 32):\n`);
console.log('| corpus | position | each text alone | joined, at 24 | at 48 | at 96 | unigram | training |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results.positions)
  console.log(`| ${r.corpus} | ${r.position} | ${f(r.alone)} | ${f(r[24])} | ${f(r[48])} | ${f(r[96])} | ${f(r.unigram)} | ${r.seconds.toFixed(0)} s |`);
console.log('\nShared keys (heads 4, learned positions):\n');
console.log('| corpus | kvHeads | held-out loss | parameters | cache of 24 positions (numbers) |');
console.log('|---|---|---|---|---|');
for (const r of results.kvHeads) console.log(`| ${r.corpus} | ${r.kvHeads} | ${f(r.loss)} | ${r.parameters} | ${r.cache} |`);
console.log('\nWindows, trained (learned positions):\n');
console.log('| corpus | window | held-out loss |');
console.log('|---|---|---|');
for (const r of results.windows) console.log(`| ${r.corpus} | ${r.window ?? 'none'} | ${f(r.loss)} |`);
console.log('\nA window of 12 at reading time on a rotary model trained with full attention (loss at 96 = 4x context):\n');
console.log('| corpus | full, at 24 | full, at 96 | window 12, 0 sinks | 1 sink | 4 sinks |');
console.log('|---|---|---|---|---|---|');
for (const r of results.sinks)
  console.log(`| ${r.corpus} | ${f(r.full24)} | ${f(r.full96)} | ${f(r.sinks0)} | ${f(r.sinks1)} | ${f(r.sinks4)} |`);
writeFileSync(new URL('results-positions.json', import.meta.url), JSON.stringify(results, null, 2) + '\n');
