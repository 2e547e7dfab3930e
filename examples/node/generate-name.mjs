// Generating a name: a tiny Transformer trained on 7,580 English first names
// for 300 steps, then sampled.
//   node examples/node/generate-name.mjs [steps]
// Needs the corpus the build writes (web/data/names.json).
import { readFile } from 'node:fs/promises';
import createAttention from '../../web/wasm/attention.mjs';

const att = await createAttention();
const corpus = JSON.parse(await readFile(new URL('../../web/data/names.json', import.meta.url), 'utf8'));
const steps = Number(process.argv[2] ?? 300);
const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut, context: 16, learningRate: 0.01, warmup: 20 });
try {
  while (lm.info().step < steps) lm.step(Math.min(25, steps - lm.info().step));
  const { loss, unigramLoss } = lm.evaluate();
  console.log(`after ${steps} steps: held-out loss ${loss.toFixed(3)} nats per character (counting letters alone: ${unigramLoss.toFixed(3)})`);
  const known = new Set(corpus.train);
  for (let seed = 1; seed <= 8; seed++) {
    const name = lm.generate({ seed, temperature: 0.8 });
    console.log(`${name}${known.has(name) ? '' : '  (new)'}`);
  }
} finally {
  lm.delete();
}
