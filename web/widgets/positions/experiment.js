// The "positions" widget's experiment, run in its Web Worker (worker.js): five
// small language models, one per way of giving positions (none, sinusoidal,
// learned, rotary, alibi), each the same size, seed and data, trained the same
// steps on the names corpus at its context (16 characters), then read on the
// held-out names joined into one stream and cut into windows of 1x, 2x, 3x and
// 4x the context (lm.evaluate({ length })): a window starts anywhere in a name,
// and positions reach 4x what training saw. Learned positions are a table of
// context rows: past it the core refuses, and that is the finding. Every
// number is a core call's result; here only the order of the calls.
//
//   runExperiment(createModule, corpusUrl, { steps, seed }, report(run)) -> the finished run
//   run: { steps, seed, context, status: 'running' | 'done', current: position | null, done, total,
//          unigram, models: [{ position, losses: [{ length, loss } | { length, refused: { code, message } }] }] }
import { CORPORA, loadCorpus, trainInSlices } from '../language-model/engine.js';

export const POSITIONS = ['none', 'sinusoidal', 'learned', 'rotary', 'alibi'];
export const MULTIPLES = [1, 2, 3, 4];
export const MODEL = { layers: 2, heads: 4, dModel: 32, batch: 32 };
const SLICE = 20;  // steps between two reports

export async function runExperiment(createModule, corpusUrl, { steps, seed }, report) {
  const att = await createModule();
  const spec = CORPORA.names;
  const corpus = await loadCorpus(corpusUrl);
  const context = spec.options.context;
  const run = { steps, seed, context, status: 'running', current: null, done: 0, total: POSITIONS.length * steps, unigram: null, models: [] };
  for (const position of POSITIONS) {
    run.current = position;
    report(structuredClone(run));
    const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: corpus.heldOut, ...spec.options, ...MODEL, seed, position });
    try {
      await trainInSlices(lm, steps, SLICE, (k) => {
        run.done += k;
        report(structuredClone(run));
      });
      const losses = [];
      for (const k of MULTIPLES) {
        const length = k * context;
        try {
          const read = lm.evaluate({ length });
          losses.push({ length, loss: read.loss });
          run.unigram ??= read.unigramLoss;
        } catch (error) {
          losses.push({ length, refused: { code: String(error?.code ?? error?.name ?? ''), message: String(error?.message ?? error) } });
        }
      }
      run.models.push({ position, losses });
    } finally {
      lm.delete();
    }
  }
  run.status = 'done';
  run.current = null;
  report(structuredClone(run));
  return run;
}
