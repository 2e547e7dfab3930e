// The "windows" widget's generation experiment, run in its Web Worker
// (worker.js): two small language models on the names, the same size, seed,
// data, steps and rotary positions, one trained with a sliding window and a
// sink (WINDOWED), one without. Then each generates through its key-value
// cache: the windowed one reads a prompt of held-out names 4x its context
// less one character long (the longest the core takes) and writes on; the
// other can read context - 1 characters and write until its context is full.
// Then StreamingLLM's experiment at this scale: one long text (held-out names
// one after another, ALONG characters, read after the ⏎ that opens every
// text), the loss of each next token along it (lm.positionLosses) of the model
// trained without a window, as trained (the full forward, up to 4x its
// context: what a cache keeping every position gives) and with its
// parameters() set into the same model with a window of SINK_WINDOW keeping
// 0, 1 and 4 sinks, read token by token through the ring of its cache; and its
// heads' weight on the ⏎ that opens a text (headRoles: 'first'). Every number
// is a core call's result (lm.beginGeneration, lm.nextToken: cacheEntries and
// cacheNumbers after each position; positionLosses, headRoles); here only
// their order.
//
//   runGeneration(createModule, corpusUrl, { steps }, report(run)) -> the finished run
//   run: { steps, context, status: 'running' | 'done', done, total,
//          models: [{ window, sinks, loss, prompt, text, done: 'boundary' | 'context',
//                     positions: [{ position, token, cacheEntries, cacheNumbers }] }],
//          sinks: { window, text, reads: [{ sinks (null: as trained, no window), losses: [the loss of
//                   text[i], read after position i] }], first: [{ layer, head, weight }] } }
import { CORPORA, loadCorpus, trainInSlices } from '../language-model/engine.js';

export const MODEL = { layers: 2, heads: 4, dModel: 32, batch: 32, position: 'rotary', seed: 1 };
export const WINDOWED = { window: 8, sinks: 1 };
// the full model's prompt: a few characters short of its context, so that it writes some
const ROOM = 4;
const SLICE = 20;  // steps between two reports
export const SINK_WINDOW = 8;
export const SINK_COUNTS = [0, 1, 4];
// the long text's characters: 321 positions with its ⏎, about 20 times the context
export const ALONG = 320;

// the prompt: held-out names one after another (each starts with its capital), cut to `length` characters
const promptOf = (names, length) => names.join('').slice(0, length);

function generate(lm, prompt) {
  const steps = lm.beginGeneration({ prompt, temperature: 0, seed: 1 });
  let last = steps.at(-1);
  while (!last.done) steps.push(last = lm.nextToken());
  // the last step sampled ⏎, or (no window) the context had no position left
  const info = lm.info();
  const done = info.window === 0 && steps.length === info.options.context ? 'context' : 'boundary';
  return {
    prompt, done, text: steps.slice(1).map((s) => s.token).join(''),
    positions: steps.map((s) => ({ position: s.position, token: s.token, cacheEntries: s.cacheEntries, cacheNumbers: s.cacheNumbers })),
  };
}

// the model trained without a window, read along the text as it is and with a window keeping 0, 1 and 4 sinks
async function readWithSinks(att, lm, options, text, context) {
  // the loss of each of the text's characters: the closing ⏎ left out (the text is cut where a name goes on)
  const read = (m, t, o) => ({ losses: Array.from(m.positionLosses(t, o).losses.subarray(0, -1)) });
  // as trained: 4 context positions at most (⏎ and 4 context - 1 characters), read at once
  const reads = [{ sinks: null, ...read(lm, text.slice(0, 4 * context - 1), { cached: false }) }];
  const parameters = lm.parameters();
  for (const sinks of SINK_COUNTS) {
    const windowed = await att.createLanguageModel({ ...options, window: SINK_WINDOW, sinks });
    try {
      windowed.setParameters(parameters);
      reads.push({ sinks, ...read(windowed, text) });
    } finally {
      windowed.delete();
    }
  }
  const first = lm.headRoles().heads.flatMap((heads, layer) => heads.map((h, head) => ({ layer: layer + 1, head: head + 1, weight: h.first })));
  return { window: SINK_WINDOW, text, reads, first };
}

export async function runGeneration(createModule, corpusUrl, { steps }, report) {
  const att = await createModule();
  const spec = CORPORA.names;
  const corpus = await loadCorpus(corpusUrl);
  const context = spec.options.context;
  const run = { steps, context, status: 'running', done: 0, total: 2 * steps, models: [] };
  const options = { texts: corpus.train, heldOut: corpus.heldOut.slice(0, spec.heldOut), ...spec.options, ...MODEL };
  for (const shape of [WINDOWED, { window: 0, sinks: 0 }]) {
    const lm = await att.createLanguageModel({ ...options, ...shape });
    try {
      await trainInSlices(lm, steps, SLICE, (k) => {
        run.done += k;
        report(structuredClone(run));
      });
      const length = shape.window ? 4 * context - 1 : context - 1 - ROOM;
      run.models.push({ ...shape, loss: lm.evaluate().loss, ...generate(lm, promptOf(corpus.heldOut, length)) });
      if (!shape.window) run.sinks = await readWithSinks(att, lm, options, promptOf(corpus.heldOut, ALONG), context);
    } finally {
      lm.delete();
    }
  }
  run.status = 'done';
  report(structuredClone(run));
  return run;
}
