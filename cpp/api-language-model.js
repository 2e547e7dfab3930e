// The language model of the JS API, in the training module (appended inside
// its factory with --post-js, after api-checks.js and api-trainer.js;
// api-training-module.js puts it in the module's facade, and the attention module's
// createLanguageModel calls it).
//
//   const lm = await att.createLanguageModel({ texts: ['…'], heldOut: ['…'] });
//   lm.step(50);                 // { step, loss, losses, tokens }
//   lm.evaluate();               // { loss, unigramLoss, tokens } on the held-out texts
//   lm.generate({ seed: 3 });    // a text
//   lm.trace('Anna');            // the forward stage by stage: { tokens, stages, next, entropy }
//   lm.beginGeneration({ seed: 3 }); lm.nextToken();  // the same, one token at a time through the cache
//   lm.delete();
//
// The model lives in the WASM heap: JS holds a handle, never a pointer, and
// delete() frees it; every call after delete() throws, but delete() again
// does nothing.
// Options are checked against a schema as api.js does (unknown option, wrong
// type); sizes, ranges and memory limits are the core's checks, whose
// messages are said here with the JS option names:
//   "createLanguageModel: dModel 64 is not divisible by heads 3"
//   "languageModel.generate: topK must be an integer from 0 to 1000000000, got -1"
//   "languageModel.generate: topP must be a number greater than 0 and at most 1 (1: no nucleus filter), got 1.5"

var attentionLanguageModels = (function defineAttentionLanguageModels(Module, checks, trainers) {
  'use strict';

  const kinds = checks.kinds, check = checks.check;

  // the core's argument names -> the JS option names
  const renames = [
    [/\bd_model\b/g, 'dModel'], [/\blearning_rate\b/g, 'learningRate'], [/\bmin_count\b/g, 'minCount'],
    [/\bheld_out\b/g, 'heldOut'], [/\bmax_tokens\b/g, 'maxTokens'], [/\btop_k\b/g, 'topK'], [/\btop_p\b/g, 'topP'], [/\bmin_p\b/g, 'minP'],
    [/\bmin_length\b/g, 'minLength'], [/\bmax_length\b/g, 'maxLength'],
  ];
  const call = checks.coreCaller(Module, renames);

  const schema = {
    texts: 'strings!', heldOut: 'strings!', layers: 'int', heads: 'int', dModel: 'int', context: 'int',
    seed: 'seed', batch: 'int', learningRate: 'number', warmup: 'int', clip: 'number', minCount: 'int',
  };
  const defaults = {
    layers: 2, heads: 4, dModel: 64, context: 32, seed: 1, batch: 32, learningRate: 3e-3, warmup: 50, clip: 1,
    minCount: 1,
  };
  // sampling: softmax(logits / temperature) over the topK most likely, then the fewest most likely
  // reaching topP (the nucleus), then those at least minP times as likely as the first (cpp/attention/language_model/sampling.hpp)
  const generateSchema = { prompt: 'string', maxTokens: 'int', temperature: 'number', topK: 'int', topP: 'number', minP: 'number', seed: 'seed' };
  const generateDefaults = { prompt: '', maxTokens: 24, temperature: 0.8, topK: 20, topP: 1, minP: 0, seed: 1 };
  const beginSchema = { prompt: 'string', temperature: 'number', topK: 'int', topP: 'number', minP: 'number', seed: 'seed' };
  const traceSchema = { residual: 'boolean', layerNorm: 'boolean', temperature: 'number' };
  const traceDefaults = { residual: true, layerNorm: true, temperature: 1 };

  // texts to measure on, or (absent) the model's held-out texts
  const optionalTexts = (fn, texts) => (texts === undefined ? [] : kinds.strings(fn, 'texts', texts));

  function createLanguageModel(options) {
    const fn = 'createLanguageModel';
    const o = Object.assign({}, defaults, check(fn, 'options', options, schema));
    const handle = call(fn, 'raw_lm_create', o).handle;
    // the options kept on the object: every size and rate, not the texts
    const kept = {};
    for (const key of Object.keys(defaults)) kept[key] = o[key];
    // info(): its options (trainerObject), and from the core its parameter count, vocabulary size,
    // the tokens a step predicts and the steps taken
    const describe = (fn, handle) => {
      const i = call(fn, 'raw_lm_info', { handle });
      return { parameters: i.parameters, vocab: i.vocab, tokensPerStep: i.tokensPerStep, step: i.steps };
    };
    const described = trainers.trainerObject('languageModel', handle, 'raw_lm_delete', Object.freeze(kept), describe, {
      // n Adam steps: { step: steps so far, loss: the last step's, losses: Float64Array(n) }
      step: (fn, handle, steps) => call(fn, 'raw_lm_step', { handle, steps: trainers.stepCount(fn, steps) }),
      evaluate: (fn, handle) => call(fn, 'raw_lm_evaluate', { handle }),
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
      generate: (fn, handle, g) => call(fn, 'raw_lm_generate',
        Object.assign({ handle }, generateDefaults, check(fn, 'options', g, generateSchema))).text,
      // the forward on ⏎ + text stage by stage, the residuals or layer norms removed if asked:
      // { tokens, stages: [{ name, layer, values: Matrix, rms }], next: { tokens, probabilities }, entropy }
      trace: (fn, handle, text, t) => call(fn, 'raw_lm_trace', Object.assign(
        { handle, text: kinds.string(fn, 'text', text) }, traceDefaults, check(fn, 'options', t, traceSchema))),
      // generation one token at a time through the key-value cache: the prompt's steps, then one per call
      beginGeneration: (fn, handle, g) => call(fn, 'raw_lm_begin_generation',
        Object.assign({ handle }, generateDefaults, check(fn, 'options', g, beginSchema))),
      nextToken: (fn, handle) => call(fn, 'raw_lm_next_token', { handle }),
      gradientCheck: (fn, handle) => call(fn, 'raw_lm_gradient_check', { handle }),
      vocabulary: (fn, handle) => call(fn, 'raw_lm_vocabulary', { handle }),
      parameters: (fn, handle) => call(fn, 'raw_lm_parameters', { handle }),
      // the tensors named (as parameters() names them; the others keep theirs) set to the matrices given
      setParameters: (fn, handle, tensors) => {
        if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors) || ArrayBuffer.isView(tensors))
          checks.fail(fn, 'tensors must be an object { name: matrix } as parameters() gives, got ' + checks.describe(tensors));
        const names = Object.keys(tensors);
        if (names.length === 0) checks.fail(fn, 'tensors is empty: name at least one tensor of parameters()');
        call(fn, 'raw_lm_set_parameters', { handle, names, values: names.map((name) => kinds.matrix(fn, name, tensors[name])) });
      },
    });
    return described;
  }

  // { train, heldOut }: the repeats corpus, each text a random string of distinct
  // characters written twice (its second half predictable only by copying)
  const repeatsSchema = { train: 'int', heldOut: 'int', minLength: 'int', maxLength: 'int', alphabet: 'string', seed: 'seed' };
  const repeatsDefaults = { train: 4000, heldOut: 200, minLength: 4, maxLength: 10, alphabet: 'abcdefghijklmnopqrstuvwxyz', seed: 1 };
  function repeatsCorpus(options) {
    const fn = 'repeatsCorpus';
    return call(fn, 'raw_repeats_corpus', Object.assign({}, repeatsDefaults, check(fn, 'options', options, repeatsSchema)));
  }

  // { train, heldOut, repeats }: the reader's own text, its lines (long ones in windows of
  // context - 1 characters), a text equal to an earlier one dropped (repeats counts them),
  // every tenth held out; refused with a message when it is empty, binary, too short
  // (in all or once the repeats are dropped) or has too many distinct characters
  const ownSchema = { context: 'int', minCount: 'int' };
  const ownDefaults = { context: 32, minCount: 3 };
  function ownCorpus(text, options) {
    const fn = 'ownCorpus';
    return call(fn, 'raw_own_corpus', Object.assign({ text: kinds.string(fn, 'text', text) }, ownDefaults,
      check(fn, 'options', options, ownSchema)));
  }

  return { createLanguageModel, repeatsCorpus, ownCorpus };
})(Module, attentionChecks, attentionTrainers);
