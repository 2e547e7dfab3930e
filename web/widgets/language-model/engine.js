// The language-model widget's engine for the live-training loop (live/loop.js),
// the same in its Web Worker and on the page: a core language model trained on one corpus, the
// history of its losses and head scores, and snapshots of what the widget
// shows. Every number comes from the core (att.createLanguageModel,
// att.quatrainForm); this file keeps them in order and measures time.
//
//   engine = createEngine(att)
//   await engine.reset(options)   options: { corpus: 'poems' | 'names' | 'repeats' | 'own', url (of its JSON; none
//                                 for repeats, which the core generates, and own), text (own: the reader's),
//                                 layers, heads, dModel, seed }
//   engine.step()                 one Adam step
//   engine.setView(settings)      { temperature, topK, sample, prefix }: what a full snapshot generates
//   engine.snapshot(full)         -> { step, losses, tokensPerSecond, full, ...(when full) the figures' data }
//   engine.fullEveryMs            full snapshots (evaluation, maps, samples) at most once a second while training
//   engine.parameters()           every tensor by name, for the export
//   engine.gradientCheck()        lm.gradientCheck() now, with the step (the widget's button)
//   engine.dispose()

// Per corpus: the model's options besides the size (the longest text and its
// boundaries fit the context; the poems fold characters seen fewer than 3
// times), the held-out texts evaluated, the longest text generated, and the
// two head scores plotted over training: the poems' of lm.headScores on the
// example, the others' roles of lm.headRoles (their definitions are there).
// The repeats are not a file: att.repeatsCorpus makes them (seed 1, 4,000
// texts); their smaller rate lets the induction head form for seeds 1-3 (tests/node/induction.test.mjs).
export const CORPORA = {
  poems: { file: 'data/quatrains.json', options: { context: 25, minCount: 3, learningRate: 0.01, warmup: 20 }, heldOut: 64, maxTokens: 24, period: 6,
    plots: ['previousLine', 'punctuation'] },
  names: { file: 'data/names.json', options: { context: 16, learningRate: 0.01, warmup: 20 }, heldOut: 200, maxTokens: 15, period: 0,
    plots: ['previous', 'first'] },
  repeats: { file: null, options: { context: 24, learningRate: 6e-4, warmup: 50 }, heldOut: 200, maxTokens: 22, period: 0,
    plots: ['induction', 'previous'], halves: true },
  // the reader's text, split by the core (att.ownCorpus): lines, long ones in windows of 31 characters
  own: { file: null, own: true, options: { context: 32, minCount: 3, learningRate: 0.01, warmup: 20 }, heldOut: 200, maxTokens: 31, period: 0,
    plots: ['previous', 'first'] },
};
// a head has taken a role once it scores this much (the induction step: the first
// snapshot where a head after the first layer scores this as `induction`)
export const ROLE_FORMED = 0.5;
export const BATCH = 32;
// texts written per snapshot, with the sampling seeds sample, sample + 1, ...
export const SAMPLES = 6;

const corpora = new Map();  // url -> Promise<corpus>, once per thread

// A corpus file: { name, source, license, dataLicense?, train: [text], heldOut: [text] }.
export function loadCorpus(url) {
  if (!corpora.has(url)) {
    const file = decodeURIComponent(new URL(url).pathname.split('/').pop());
    const read = fetch(url).catch((error) => { throw new Error(`${file} could not be read (${error.message})`); });
    const promise = read.then(async (response) => {
      if (!response.ok) throw new Error(`${file} could not be read (HTTP ${response.status})`);
      const corpus = await response.json();
      const texts = (list) => Array.isArray(list) && list.length > 0 && list.every((x) => typeof x === 'string');
      if (!texts(corpus?.train) || !texts(corpus?.heldOut)) throw new Error(`${file} is not a corpus: it needs lists of texts "train" and "heldOut"`);
      return corpus;
    });
    promise.catch(() => corpora.delete(url));  // a failed read is tried again next time
    corpora.set(url, promise);
  }
  return corpora.get(url);
}

// Trains lm `steps` steps in slices of `slice`, calling trained(k) after each
// slice of k steps, with a macrotask between two: in a worker its messages are
// read then (the positions and windows sections' experiments).
export async function trainInSlices(lm, steps, slice, trained) {
  for (let done = 0; done < steps; done += slice) {
    const k = Math.min(slice, steps - done);
    lm.step(k);
    trained(k);
    await new Promise((next) => setTimeout(next, 0));
  }
}

// the repeats corpus, as a corpus file would describe it: made once per module
const repeats = new WeakMap();  // att -> Promise<corpus>
function generated(att) {
  if (!repeats.has(att)) {
    repeats.set(att, att.repeatsCorpus({ seed: 1 }).then(({ train, heldOut }) => ({ name: 'repeats', source: 'att.repeatsCorpus', license: '', train, heldOut })));
  }
  return repeats.get(att);
}

// the reader's text as a corpus, or the core's reason why not (an Error); the
// last text's is kept, so that another model size does not split it again
let lastOwn = { text: null, corpus: null };
async function ownCorpus(att, text, spec) {
  if (lastOwn.text !== (text ?? '')) {
    const { train, heldOut, repeats } = await att.ownCorpus(text ?? '', { context: spec.options.context, minCount: spec.options.minCount });
    lastOwn = { text: text ?? '', corpus: { name: 'own', source: '', license: '', train, heldOut, repeats } };
  }
  return lastOwn.corpus;
}

// The n-gram ladder depends on the corpus alone (its texts and the corpus's
// options), not on the model's size or seed: counted by the core once per corpus.
const ladders = new WeakMap();  // corpus -> [{ order, loss, k }]
function ladderOf(corpus, lm) {
  if (!ladders.has(corpus)) ladders.set(corpus, lm.baselines().ladder);
  return ladders.get(corpus);
}

const copyMatrix = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
const message = (error) => (error instanceof Error ? error.message : String(error));

export function createEngine(att, { now = () => performance.now() } = {}) {
  // the engine: what the functions below share
  const e = {
    att, lm: null, spec: null, corpus: null, example: '',
    losses: [],        // the batch loss of step k at index k - 1
    evaluations: [],   // [{ step, loss }] on the held-out texts, at full snapshots
    scores: [],        // [{ step, previousLine, punctuation }] of the example (poems)
    roles: [],         // [{ step, previous, self, first, induction, line: [layer][head] }] on the held-out texts
    halves: [],        // [{ step, first, second: { loss, accuracy } }] (repeats)
    baselines: null,   // the n-gram ladder: [{ order, loss, k }] (its unigram is the one the widget shows)
    shared: false,     // its steps are taken by workers (train(), which goes on alone if one fails)
    step: 0,
    tokens: 0,         // characters predicted in training (the core counts them)
    trained: 0,        // steps timed in trainMs
    trainMs: 0,        // time spent in the core's steps (and its workers')
    view: { temperature: 0.8, topK: 20, sample: 1, prefix: '' },
  };
  const dispose = () => {
    e.lm?.delete();
    e.lm = null;
  };
  return {
    fullEveryMs: 1000,
    async reset(options) {
      dispose();
      e.spec = Object.hasOwn(CORPORA, options.corpus) ? CORPORA[options.corpus] : null;
      if (!e.spec) throw new Error(`unknown corpus ${JSON.stringify(options.corpus)}`);
      e.corpus = e.spec.file ? await loadCorpus(options.url) : e.spec.own ? await ownCorpus(att, options.text, e.spec) : await generated(att);
      const made = await att.createLanguageModel({
        texts: e.corpus.train, heldOut: e.corpus.heldOut.slice(0, e.spec.heldOut),
        layers: options.layers, heads: options.heads, dModel: options.dModel, seed: options.seed, batch: BATCH, ...e.spec.options,
        threads: options.threads ?? 1,
      });
      dispose();  // a reset that overtook this one may have made a model meanwhile
      Object.assign(e, { lm: made, example: e.corpus.heldOut[0], losses: [], evaluations: [], scores: [], roles: [], halves: [],
        baselines: ladderOf(e.corpus, made), step: 0, tokens: 0, trained: 0, trainMs: 0, shared: made.info().threads > 1 });
    },
    // one step: on this thread, or (threads > 1) by the model's workers, a Promise
    step() {
      const start = now();
      const took = (r) => {
        e.trainMs += now() - start;
        e.tokens += r.tokens;
        e.trained += 1;
        e.step = r.step;
        e.losses.push(r.loss);
      };
      if (e.shared) return e.lm.train(1).then(took);
      took(e.lm.step(1));
      return undefined;
    },
    setView(settings) {
      e.view = { ...e.view, ...settings };
    },
    snapshot: (full) => snapshot(e, full),
    // every tensor by name, for the export
    parameters() {
      return Object.fromEntries(Object.entries(e.lm.parameters()).map(([k, m]) => [k, { rows: m.rows, cols: m.cols, data: Array.from(m.data) }]));
    },
    // the gradient check of the model as it is now, and the step it was made at
    gradientCheck: () => ({ ...e.lm.gradientCheck(), step: e.step }),
    dispose,
  };
}

// What the widget shows: the step, the losses and the speed; when full, also
// the held-out loss, the example's maps and head scores, the samples, the next
// characters, the vocabulary and the corpus.
function snapshot(e, full) {
  const { lm, spec, step, corpus } = e;
  const rate = (count) => (e.trainMs > 0 ? (1000 * count) / e.trainMs : null);
  const light = { step, losses: Float64Array.from(e.losses), tokensPerSecond: rate(e.tokens), stepsPerSecond: rate(e.trained),
    ...threadsOf(lm), full };
  if (!full) return light;
  if (e.evaluations.at(-1)?.step !== step) {
    e.evaluations.push({ step, loss: lm.evaluate().loss });
  }
  const attention = lm.attention(e.example);
  if (spec.period && e.scores.at(-1)?.step !== step) e.scores.push({ step, ...lm.headScores(e.example, spec.period) });
  if (e.roles.at(-1)?.step !== step) e.roles.push(rolesAt(lm, step));
  if (spec.halves && e.halves.at(-1)?.step !== step) {
    const { first, second } = lm.halves();
    e.halves.push({ step, first: { loss: first.loss, accuracy: first.accuracy }, second: { loss: second.loss, accuracy: second.accuracy } });
  }
  const vocabulary = lm.vocabulary();
  return {
    ...light,
    evaluations: e.evaluations.slice(),
    example: { text: e.example, tokens: attention.tokens, weights: attention.weights.map((layer) => layer.map(copyMatrix)) },
    scores: e.scores.slice(),
    roles: e.roles.slice(),
    halves: e.halves.slice(),
    baselines: e.baselines,
    samples: samples(e),
    next: next(e),
    vocabulary: { size: vocabulary.tokens.length, unknown: vocabulary.unknown, coverage: vocabulary.coverage },
    parameters: lm.info().parameters,
    corpus: { name: corpus.name, source: corpus.source, license: corpus.license, dataLicense: corpus.dataLicense ?? '',
      train: corpus.train.length, heldOut: Math.min(spec.heldOut, corpus.heldOut.length), repeats: corpus.repeats ?? 0 },
  };
}

// the workers training it (1: this thread; 1 again after a worker failed), the chunks a step is cut into, the batch,
// and the cores the browser reports
function threadsOf(lm) {
  const { threads, chunks, options } = lm.info();
  return { threads, chunks, batch: options.batch, cores: globalThis.navigator?.hardwareConcurrency ?? 1 };
}

// each role's score per [layer][head] on the held-out texts (null: no query has it)
function rolesAt(lm, step) {
  const { heads } = lm.headRoles();
  const entry = { step };
  for (const role of ['previous', 'self', 'first', 'induction', 'line']) entry[role] = heads.map((layer) => layer.map((h) => h[role]));
  return entry;
}

// SAMPLES texts written with the view's temperature, top-k and seeds; the
// poems' form (the core's check) or whether each name is in the training list
function samples({ att, lm, spec, view, corpus }) {
  const texts = [];
  for (let i = 0; i < SAMPLES; i++) {
    texts.push(lm.generate({ prompt: '', maxTokens: spec.maxTokens, temperature: view.temperature, topK: view.topK, seed: view.sample + i }));
  }
  if (spec.halves) {
    // a text written twice, its two halves the same
    return { texts, twice: texts.map((text) => { const c = [...text]; return c.length > 0 && c.length % 2 === 0 && text === c.slice(0, c.length / 2).join('').repeat(2); }) };
  }
  if (spec.period) {
    return { texts, form: texts.map((text) => att.quatrainForm([text]).passed === 1), share: att.quatrainForm(texts).share };
  }
  const known = new Set(corpus.train);
  return { texts, known: texts.map((text) => known.has(text)) };
}

// the most likely next characters after the view's prefix, or why there are none
function next({ lm, view }) {
  try {
    const r = lm.next(view.prefix);
    return { prefix: view.prefix, tokens: r.tokens, probabilities: Float32Array.from(r.probabilities) };
  } catch (error) {
    return { prefix: view.prefix, error: message(error) };
  }
}
