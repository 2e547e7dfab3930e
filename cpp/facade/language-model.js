// The language model of the JS API, in the training module (training-module.js
// puts it in its facade; the attention module's createLanguageModel calls it there).
//
//   const lm = await att.createLanguageModel({ texts: ['…'], heldOut: ['…'] });
//   lm.step(50);                 // { step, loss, losses, tokens }
//   await lm.train(50, { onProgress });  // the same steps, by `threads` workers when created with them
//   lm.evaluate();               // { loss, unigramLoss, tokens } on the held-out texts
//   lm.evaluate({ length: 96 }); // the same read in windows of 96 positions (up to 4 context; texts: others)
//   lm.positionLosses('Anna');   // the loss of each next token along ⏎ Anna ⏎, read through the cache
//   lm.generate({ seed: 3 });    // a text
//   lm.trace('Anna');            // the forward stage by stage: { tokens, stages, next, entropy }
//   lm.beginGeneration({ seed: 3 }); lm.nextToken();  // the same, one token at a time through the cache
//   lm.delete();
//
// The model lives in the WASM heap: JS holds a handle, never a pointer, and
// delete() frees it (handles.js). Options are checked against a schema
// (unknown option, wrong type); their defaults, sizes, ranges and memory
// limits are the core's (LanguageModelOptions, GenerateOptions, TraceOptions,
// RepeatsOptions, OwnOptions), whose messages name the JS options:
//   "createLanguageModel: dModel 64 is not divisible by heads 3"
//   "languageModel.generate: topK must be an integer from 0 to 1000000000, got -1"
import { fail } from './error.js';
import { describe, kinds, own } from './kinds.js';
import { check } from './schema.js';
import { moduleUrl, runsOf, stepPool } from './parallel.js';
import { stepCount, trainerObject } from './trainer.js';

// sampling: softmax(logits / temperature) over the topK most likely, then the fewest most likely
// reaching topP (the nucleus), then those at least minP times as likely as the first (cpp/attention/language_model/sampling.hpp)
const sampling = { temperature: 'number', topK: 'int', topP: 'number', minP: 'number', seed: 'seed' };

export const schemas = {
  createLanguageModel: {
    texts: 'strings!', heldOut: 'strings!', layers: 'int', heads: 'int', dModel: 'int', context: 'int',
    seed: 'seed', batch: 'int', learningRate: 'number', warmup: 'int', clip: 'number', minCount: 'int',
    // as attention is run today: 'learned' | 'sinusoidal' | 'rotary' | 'alibi' | 'none', shared keys, windows
    position: 'string', kvHeads: 'int', window: 'int', sinks: 'int',
    // threads computing each step's chunks in train(): this one and threads - 1 workers
    threads: ['int', 1],
  },
  'languageModel.generate': { prompt: 'string', maxTokens: 'int', ...sampling, cachePositions: 'string' },
  'languageModel.beginGeneration': { prompt: 'string', ...sampling, cachePositions: 'string' },
  'languageModel.evaluate': { texts: 'strings', length: 'int!' },
  'languageModel.positionLosses': { cached: 'boolean', cachePositions: 'string' },
  'languageModel.trace': { residual: 'boolean', layerNorm: 'boolean', temperature: 'number' },
  repeatsCorpus: { train: 'int', heldOut: 'int', minLength: 'int', maxLength: 'int', alphabet: 'string', seed: 'seed' },
  ownCorpus: { context: 'int', minCount: 'int' },
};

// texts to measure on, or (absent) the model's held-out texts
const optionalTexts = (fn, texts) => (texts === undefined ? [] : kinds.strings(fn, 'texts', texts));
// { handle, ...options } checked against the schema of fn ('languageModel.generate')
const withOptions = (fn, handle, options) => ({ handle, ...check(fn, 'options', options, schemas[fn]) });

// the tensors named (as parameters() names them; the others keep theirs) set to the matrices given
function setParameters(call, fn, handle, tensors) {
  if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors) || ArrayBuffer.isView(tensors))
    fail(fn, 'tensors must be an object { name: matrix } as parameters() gives, got ' + describe(tensors));
  const names = Object.keys(tensors);
  if (names.length === 0) fail(fn, 'tensors is empty: name at least one tensor of parameters()');
  call(fn, 'raw_lm_set_parameters', { handle, names, values: names.map((name) => tensor(fn, name, tensors[name])) });
}

// a matrix, or the empty (0, cols) tensor parameters() gives for positions a model does not learn
// (its shape is the core's to check, as every other's)
function tensor(fn, name, value) {
  const data = value !== null && typeof value === 'object' ? own(value, 'data') : undefined;
  const empty = data !== undefined && own(value, 'rows') === 0 && (Array.isArray(data) || ArrayBuffer.isView(data)) &&
    data.length === 0;
  return empty ? { rows: 0, cols: kinds.int(fn, name + '.cols', own(value, 'cols')), data: new Float32Array(0) }
    : kinds.matrix(fn, name, value);
}

// the methods of a language model: { name: (fn, handle, ...args) => result }
const methods = (call) => ({
  // n Adam steps: { step: steps so far, loss: the last step's, losses: Float64Array(n) }
  step: (fn, handle, steps) => call(fn, 'raw_lm_step', { handle, steps: stepCount(fn, steps) }),
  // the held-out loss; with { length } read in windows of length positions (texts: these instead)
  evaluate: (fn, handle, options) => call(fn, 'raw_lm_evaluate', options === undefined
    ? { handle } : { texts: [], ...withOptions(fn, handle, options) }),
  // the loss of every next token along ⏎ + text + ⏎, read through the cache (or cached: false, the full forward):
  // { tokens, losses: Float64Array (losses[i] of tokens[i + 1]), mean }
  positionLosses: (fn, handle, text, options) => call(fn, 'raw_lm_position_losses',
    { text: kinds.string(fn, 'text', text), ...withOptions(fn, handle, options) }),
  next: (fn, handle, prefix) => call(fn, 'raw_lm_next', { handle, prefix: kinds.string(fn, 'prefix', prefix) }),
  attention: (fn, handle, text) => call(fn, 'raw_lm_attention', { handle, text: kinds.string(fn, 'text', text) }),
  headScores: (fn, handle, text, period) => call(fn, 'raw_lm_head_scores', {
    handle, text: kinds.string(fn, 'text', text), period: kinds.int(fn, 'period', period === undefined ? 6 : period),
  }),
  // what each head attends to, over the texts given or the held-out texts (the roles
  // of cpp/attention/language_model/analysis.hpp): { heads: [layer][head] { previous, self, first, induction,
  // line, best, score }, texts, queries }; a role no query has is null
  headRoles: (fn, handle, texts) => call(fn, 'raw_lm_head_roles', { handle, texts: optionalTexts(fn, texts) }),
  // texts written twice (att.repeatsCorpus): { first, second: { loss, accuracy, tokens } }
  halves: (fn, handle, texts) => call(fn, 'raw_lm_halves', { handle, texts: optionalTexts(fn, texts) }),
  // the n-gram ladder on the held-out texts: { ladder: [{ order, loss, k }], tokens }
  baselines: (fn, handle) => call(fn, 'raw_lm_baselines', { handle }),
  generate: (fn, handle, g) => call(fn, 'raw_lm_generate', withOptions(fn, handle, g)).text,
  // the forward on ⏎ + text stage by stage, the residuals or layer norms removed if asked:
  // { tokens, stages: [{ name, layer, values: Matrix, rms }], next: { tokens, probabilities }, entropy }
  trace: (fn, handle, text, t) => call(fn, 'raw_lm_trace', { text: kinds.string(fn, 'text', text), ...withOptions(fn, handle, t) }),
  // generation one token at a time through the key-value cache: the prompt's steps, then one per call
  beginGeneration: (fn, handle, g) => call(fn, 'raw_lm_begin_generation', withOptions(fn, handle, g)),
  nextToken: (fn, handle) => call(fn, 'raw_lm_next_token', { handle }),
  gradientCheck: (fn, handle) => call(fn, 'raw_lm_gradient_check', { handle }),
  vocabulary: (fn, handle) => call(fn, 'raw_lm_vocabulary', { handle }),
  parameters: (fn, handle) => call(fn, 'raw_lm_parameters', { handle }),
  setParameters: (fn, handle, tensors) => setParameters(call, fn, handle, tensors),
});

export const MAX_THREADS = 16;

// train()'s onProgress (none: a function that does nothing) and its count of steps, checked
function progressOf(fn, given) {
  const onProgress = given === undefined ? undefined : own(given, 'onProgress');
  if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given)))
    fail(fn, 'options must be an object, got ' + describe(given));
  if (onProgress !== undefined && typeof onProgress !== 'function')
    fail(fn, 'onProgress must be a function, got ' + describe(onProgress));
  return onProgress || (() => {});
}
function trainSteps(fn, steps) {
  const n = stepCount(fn, steps);
  if (!Number.isInteger(n) || n < 1 || n > 1e6) fail(fn, 'steps must be an integer from 1 to 1000000, got ' + describe(steps));
  return n;
}

// train(steps, { onProgress }) of a model made with `threads` threads, and its end()
// (delete()): threads 1 steps here in slices of about a frame, yielding between them;
// more compute the first run of each step's chunks here and start threads - 1
// workers (parallel.js) for the others on the first train(). A worker failing
// rejects train() with WORKER_FAILED, the step it was on not taken, and the model
// goes on at threads 1. onProgress({ step, loss, done, steps }) after every step.
function training(call, handle, threads, options) {
  let pool = null, running = false, deleted = false;
  const here = async (fn, n, report, out) => {
    while (out.done < n) {
      const start = Date.now();
      do {
        out.add(call(fn, 'raw_lm_step', { handle, steps: 1 }), report);
      } while (out.done < n && Date.now() - start < 16);
      if (out.done < n) await new Promise((resolve) => setTimeout(resolve, 0));
      if (deleted) fail(fn, 'this languageModel was deleted', 'DELETED');
    }
  };
  // a worker failed: the pool ended, the model at threads 1 (the step it was on not
  // taken: its batch, drawn here, stays the next step's)
  const failed = (fn, error, out, n) => {
    if (deleted) fail(fn, 'this languageModel was deleted', 'DELETED');
    pool.end();
    pool = null;
    threads = 1;
    fail(fn, 'a worker failed (' + error.message + '); the model took ' + out.done + ' of the ' + n +
      ' steps and goes on at threads 1', 'WORKER_FAILED');
  };
  const apart = async (fn, n, report, out) => {
    pool = pool || stepPool(threads - 1, options, moduleUrl());
    try {
      await pool.ready();
    } catch (error) {
      failed(fn, error, out, n);
    }
    while (out.done < n) {
      const state = call(fn, 'raw_lm_step_state', { handle });
      const [mine, ...theirs] = runsOf(state.chunks, threads);
      let chunks;
      try {
        // this thread's run computed while the workers compute theirs, its sums kept in the core
        chunks = await pool.step(state.values, state.state, theirs,
          () => call(fn, 'raw_lm_chunk_sums', { handle, first: mine[0], end: mine[1] }));
      } catch (error) {
        if (!error.worker) throw error;
        failed(fn, error, out, n);
      }
      if (deleted) fail(fn, 'this languageModel was deleted', 'DELETED');
      out.add(call(fn, 'raw_lm_apply_chunks', { handle, ...chunks, kept: true }), report);
    }
  };
  return {
    threads: () => threads,
    busy: (fn) => {
      if (running) fail(fn, 'train() is running: await it first');
    },
    async train(fn, steps, given) {
      const n = trainSteps(fn, steps), report = progressOf(fn, given);
      if (running) fail(fn, 'train() is running: await it first');
      running = true;
      const losses = new Float64Array(n);
      const out = { done: 0, tokens: 0, last: null };
      out.add = (r, f) => {
        losses[out.done++] = r.loss;
        out.tokens += r.tokens;
        out.last = r;
        f({ step: r.step, loss: r.loss, done: out.done, steps: n });
      };
      try {
        await (threads > 1 ? apart : here)(fn, n, report, out);
      } finally {
        running = false;
      }
      return { step: out.last.step, loss: out.last.loss, losses, tokens: out.tokens };
    },
    end() {
      deleted = true;
      if (pool) pool.end();
    },
  };
}

export const FUNCTIONS = {
  createLanguageModel: ({ call }) => function createLanguageModel(options) {
    const fn = 'createLanguageModel';
    const { threads, ...checked } = check(fn, 'options', options, schemas.createLanguageModel);
    if (threads < 1 || threads > MAX_THREADS) fail(fn, 'threads must be an integer from 1 to ' + MAX_THREADS + ', got ' + threads);
    if (threads > 1 && !moduleUrl())
      fail(fn, 'threads ' + threads + ' needs the address of attention-training.js for its workers: load it through attention.js');
    // { handle, options: every size and rate (not the texts), the core's defaults filled in }
    const created = call(fn, 'raw_lm_create', checked);
    const trains = training(call, created.handle, Math.min(threads, call(fn, 'raw_lm_info', { handle: created.handle }).chunks), checked);
    // info(): its options (trainerObject), and from the core its parameter count, vocabulary size,
    // the tokens a step predicts and the steps taken; the threads train() uses
    const about = (fn, handle) => {
      const i = call(fn, 'raw_lm_info', { handle });
      return {
        parameters: i.parameters, vocab: i.vocab, tokensPerStep: i.tokensPerStep, step: i.steps,
        position: i.position, kvHeads: i.kvHeads, window: i.window, sinks: i.sinks, threads: trains.threads(), chunks: i.chunks,
      };
    };
    const all = methods(call);
    const guarded = (name) => (fn, handle, ...args) => {
      trains.busy(fn);
      return all[name](fn, handle, ...args);
    };
    return trainerObject(call, 'languageModel', { ...created, options: { ...created.options, threads } }, 'raw_lm_delete',
      about, { ...all, step: guarded('step'), setParameters: guarded('setParameters'),
        train: (fn, handle, steps, given) => trains.train(fn, steps, given) }, trains.end);
  },
  // { train, heldOut }: the repeats corpus, each text a random string of distinct
  // characters written twice (its second half predictable only by copying)
  repeatsCorpus: ({ call }) => function repeatsCorpus(options) {
    return call('repeatsCorpus', 'raw_repeats_corpus', check('repeatsCorpus', 'options', options, schemas.repeatsCorpus));
  },
  // { train, heldOut, repeats }: the reader's own text, its lines (long ones in windows of
  // context - 1 characters), a text equal to an earlier one dropped (repeats counts them),
  // every tenth held out; refused with a message when it is empty, binary, too short
  // (in all or once the repeats are dropped) or has too many distinct characters
  ownCorpus: ({ call }) => function ownCorpus(text, options) {
    const fn = 'ownCorpus';
    return call(fn, 'raw_own_corpus', { text: kinds.string(fn, 'text', text), ...check(fn, 'options', options, schemas.ownCorpus) });
  },
};
