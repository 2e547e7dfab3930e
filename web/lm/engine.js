// The language-model widget's engine for the live-training loop (live/loop.js),
// the same in its Web Worker and on the page: a core language model trained on one corpus, the
// history of its losses and head scores, and snapshots of what the widget
// shows. Every number comes from the core (att.createLanguageModel,
// att.quatrainForm); this file keeps them in order and measures time.
//
//   engine = createEngine(att)
//   await engine.reset(options)   options: { corpus: 'poems' | 'names', url (of its JSON), layers, heads, dModel, seed }
//   engine.step()                 one Adam step
//   engine.setView(settings)      { temperature, topK, sample, prefix }: what a full snapshot generates
//   engine.snapshot(full)         -> { step, losses, tokensPerSecond, full, ...(when full) the figures' data }
//   engine.fullEveryMs            full snapshots (evaluation, maps, samples) at most once a second while training
//   engine.parameters()           every tensor by name, for the export
//   engine.dispose()

// Per corpus: the model's options besides the size (the longest text and its
// boundaries fit the context; the poems fold characters seen fewer than 3
// times), the held-out texts evaluated, the longest text generated.
export const CORPORA = {
  poems: { file: 'data/quatrains.json', options: { context: 25, minCount: 3, learningRate: 0.01, warmup: 20 }, heldOut: 64, maxTokens: 24, period: 6 },
  names: { file: 'data/names.json', options: { context: 16, learningRate: 0.01, warmup: 20 }, heldOut: 200, maxTokens: 15, period: 0 },
};
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

const copyMatrix = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });
const message = (error) => (error instanceof Error ? error.message : String(error));

export function createEngine(att, { now = () => performance.now() } = {}) {
  let lm = null;
  let spec = null;
  let corpus = null;
  let example = '';
  let losses = [];        // the batch loss of step k at index k - 1
  let evaluations = [];   // [{ step, loss }] on the held-out texts, at full snapshots
  let scores = [];        // [{ step, previousLine, punctuation }] of the example (poems)
  let unigram = NaN;
  let step = 0;
  let tokens = 0;         // characters predicted in training (the core counts them)
  let trainMs = 0;        // time spent in the core's steps
  let view = { temperature: 0.8, topK: 20, sample: 1, prefix: '' };

  function dispose() {
    lm?.delete();
    lm = null;
  }

  function samples() {
    const texts = [];
    for (let i = 0; i < SAMPLES; i++) {
      texts.push(lm.generate({ prompt: '', maxTokens: spec.maxTokens, temperature: view.temperature, topK: view.topK, seed: view.sample + i }));
    }
    if (spec.period) {
      // the form of each poem, and the share of all, from the core's check
      return { texts, form: texts.map((text) => att.quatrainForm([text]).passed === 1), share: att.quatrainForm(texts).share };
    }
    const known = new Set(corpus.train);
    return { texts, known: texts.map((text) => known.has(text)) };
  }

  function next() {
    try {
      const r = lm.next(view.prefix);
      return { prefix: view.prefix, tokens: r.tokens, probabilities: Float32Array.from(r.probabilities) };
    } catch (error) {
      return { prefix: view.prefix, error: message(error) };
    }
  }

  return {
    fullEveryMs: 1000,
    async reset(options) {
      dispose();
      spec = Object.hasOwn(CORPORA, options.corpus) ? CORPORA[options.corpus] : null;
      if (!spec) throw new Error(`unknown corpus ${JSON.stringify(options.corpus)}`);
      corpus = await loadCorpus(options.url);
      const made = await att.createLanguageModel({
        texts: corpus.train, heldOut: corpus.heldOut.slice(0, spec.heldOut),
        layers: options.layers, heads: options.heads, dModel: options.dModel, seed: options.seed, batch: BATCH, ...spec.options,
      });
      dispose();  // a reset that overtook this one may have made a model meanwhile
      lm = made;
      example = corpus.heldOut[0];
      losses = [];
      evaluations = [];
      scores = [];
      step = 0;
      tokens = 0;
      trainMs = 0;
      unigram = NaN;
    },
    step() {
      const start = now();
      const r = lm.step(1);
      trainMs += now() - start;
      tokens += r.tokens;
      step = r.step;
      losses.push(r.loss);
    },
    setView(settings) {
      view = { ...view, ...settings };
    },
    snapshot(full) {
      const light = { step, losses: Float64Array.from(losses), tokensPerSecond: trainMs > 0 ? (1000 * tokens) / trainMs : null, full };
      if (!full) return light;
      if (evaluations.at(-1)?.step !== step) {
        const e = lm.evaluate();
        unigram = e.unigramLoss;
        evaluations.push({ step, loss: e.loss });
      }
      const attention = lm.attention(example);
      if (spec.period && scores.at(-1)?.step !== step) scores.push({ step, ...lm.headScores(example, spec.period) });
      const vocabulary = lm.vocabulary();
      return {
        ...light,
        evaluations: evaluations.slice(),
        unigram,
        example: { text: example, tokens: attention.tokens, weights: attention.weights.map((layer) => layer.map(copyMatrix)) },
        scores: scores.slice(),
        samples: samples(),
        next: next(),
        vocabulary: { size: vocabulary.tokens.length, unknown: vocabulary.unknown, coverage: vocabulary.coverage },
        parameters: lm.info().parameters,
        corpus: { name: corpus.name, source: corpus.source, license: corpus.license, dataLicense: corpus.dataLicense ?? '',
          train: corpus.train.length, heldOut: Math.min(spec.heldOut, corpus.heldOut.length) },
      };
    },
    // every tensor by name, for the export
    parameters() {
      return Object.fromEntries(Object.entries(lm.parameters()).map(([k, m]) => [k, { rows: m.rows, cols: m.cols, data: Array.from(m.data) }]));
    },
    dispose,
  };
}
