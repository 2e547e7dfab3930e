// The public JS API of the attention module (appended inside the module
// factory with --post-js, so `Module` is the module being built).
//
// createAttention() resolves to `api` below, frozen: the documented functions
// and nothing else (not the Emscripten module, whose heap views, malloc and
// unchecked raw_* bindings would bypass every check).
//
// Each public function checks the JS types of its arguments against a
// declarative schema (api-checks.js), converts them to one canonical form,
// fills in the defaults, and calls its raw_* twin (cpp/bindings/raw_attention.cpp). The
// core checks shapes and values; a raw function that fails returns the
// message, which becomes an AttentionError here (api-error.js; its code read
// from the message, its words in the function's own option names):
//   "attention: key has 3 columns but query has 4; the dot score needs equal widths"
// Results are plain objects holding copies: nothing aliases the WASM heap and
// nothing needs .delete().

(function defineAttentionApi(Module, checks) {
  'use strict';

  const INT32_MAX = checks.INT32_MAX, fail = checks.fail, describe = checks.describe;
  const isNumericArray = checks.isNumericArray, lengthOf = checks.lengthOf, checkLength = checks.checkLength;
  const keepingFloat32 = checks.keepingFloat32, kinds = checks.kinds, check = checks.check;

  // The core's messages name the core's arguments (valid_length, d_k); each
  // function says them with its own option names.
  const renames = {
    valid_length: [/\bvalid_length\b/g, 'validLength'],
    d_k: [/\bd_k\b/g, 'dK'],
    d_v: [/\bd_v\b/g, 'dV'],
    d_model: [/\bd_model\b/g, 'dModel'],
  };
  const renamed = {
    attention: ['valid_length'],
    selfAttention: ['valid_length', 'd_k', 'd_v'],
    crossAttention: ['valid_length', 'd_k', 'd_v'],
    conditionalAttention: ['valid_length', 'd_k', 'd_v'],
    multiHeadAttention: ['valid_length', 'd_model'],
  };
  function jsMessage(fn, message) {
    for (const name of renamed[fn] || []) message = message.replace(renames[name][0], renames[name][1]);
    return message;
  }

  // said: more [pattern, name] renames, for this call's own words (kernelRegression's sigma)
  function call(fn, raw, canonical, said) {
    const result = Module[raw](canonical);
    if (typeof result === 'string') {
      let message = jsMessage(fn, result);
      for (const rename of said || []) message = message.replace(rename[0], rename[1]);
      fail(fn, message, checks.codeOf(result));
    }
    return result;
  }

  const api = {};

  const scoreParams = { W: 'matrix', U: 'matrix', v: 'vector', sigma: 'number', seed: 'seed', hidden: 'int' };
  const attentionOptions = { score: 'string', scale: 'number', params: scoreParams, mask: 'mask', causal: 'boolean', validLength: 'int' };
  const projections = { Wq: 'matrix', Wk: 'matrix', Wv: 'matrix' };
  // (Object.assign, not spread: the optimizer of this Emscripten predates object spread)
  const projected = Object.assign({ input: 'matrix!', dK: 'int', dV: 'int', seed: 'seed', projections }, attentionOptions);

  const schemas = {
    softmax: { temperature: 'number', mask: 'mask' },
    attention: Object.assign({ query: 'matrix!', key: 'matrix!', value: 'matrix!', intermediates: 'boolean' }, attentionOptions),
    selfAttention: projected,
    crossAttention: Object.assign({ memory: 'matrix!' }, projected),
    multiHeadAttention: {
      input: 'matrix!', memory: 'matrix', heads: 'int!', dModel: 'int', seed: 'seed',
      projections: Object.assign({ Wo: 'matrix' }, projections), scale: 'number', mask: 'mask', causal: 'boolean', validLength: 'int',
    },
    conditionalAttention: Object.assign({ input: 'matrix!', condition: 'vector!', fusion: 'string', dK: 'int', dV: 'int', seed: 'seed' },
                                        attentionOptions),
    kernelRegression: {
      keys: 'vector!', values: 'vector!', query: 'number', queries: 'vector',
      range: { from: 'number!', to: 'number!', count: 'int!' }, weights: 'vector',
      score: 'string', sigma: 'number', scale: 'number', params: scoreParams, mask: 'mask',
    },
    costModel: { n: 'int!', d: 'int!', k: 'int' },
    generationCost: { n: 'int!', d: 'int!' },
    selfMapStats: { scores: 'matrix!', weights: 'matrix!' },
    dotAndKernel: { query: 'vector!', keys: 'matrix!', equalLength: 'boolean' },
    embedTokens: { tokens: 'strings!', d: 'int!', seed: 'seed' },
    dotProductSamples: { d: 'int!', count: 'int', seed: 'seed' },
    histogram: { values: 'vector!', bins: 'int!', from: 'number!', to: 'number!' },
  };

  // The defaults that depend on nothing but the call; those that depend on the
  // data (the scale 1/sqrt(d_k), the additive hidden width) are the core's.
  // (widths left out are those of the projections given, else the input's)
  function projectionWidths(o) {
    const W = o.projections || {};
    if (o.dK === undefined) o.dK = (W.Wq || W.Wk || o.input).cols;
    if (o.dV === undefined) o.dV = W.Wv ? W.Wv.cols : o.dK;
    if (o.seed === undefined) o.seed = 1;
    return o;
  }

  api['softmax'] = function softmax(x, options) {
    const o = check('softmax', 'options', options, schemas.softmax);
    o.x = kinds.matrix('softmax', 'x', x);
    if (o.temperature === undefined) o.temperature = 1;
    return call('softmax', 'raw_softmax', o);
  };
  // attention({ ..., intermediates: false }) for the dot score without an explicit
  // mask: the inputs go straight into the heap and the kernel is called with
  // numbers alone (see raw_attention_output_lean in bindings/lean.cpp). Returns
  // undefined when the core rejects the input, for the general path to say why.
  // A small call reuses one buffer of up to LEAN_KEPT bytes (a malloc and a free
  // were a tenth of an n = 16 call); a larger one has its own, freed after it.
  const LEAN_KEPT = 64 * 1024;
  let kept = 0;  // the kept buffer's address (0: none yet)
  function attentionOutputLean(o) {
    const q = o.query, k = o.key, v = o.value, size = q.rows * v.cols;
    const qn = lengthOf(q.data), kn = lengthOf(k.data), vn = lengthOf(v.data), total = qn + kn + vn + size;
    // a length changed by a getter since the check: the general path says so
    if (qn !== q.rows * q.cols || kn !== k.rows * k.cols || vn !== v.rows * v.cols) return undefined;
    if (total > INT32_MAX / 4) return undefined;
    const small = 4 * total <= LEAN_KEPT;
    if (small && !kept) kept = Module['_malloc'](LEAN_KEPT);
    const base = small ? kept : Module['_malloc'](4 * total);
    if (!base) return undefined;
    try {
      const qAt = base >> 2, kAt = qAt + qn, vAt = kAt + kn, outAt = vAt + vn;
      HEAPF32.set(q.data, qAt);  // HEAPF32 read after malloc, which may have grown the memory
      HEAPF32.set(k.data, kAt);
      HEAPF32.set(v.data, vAt);
      const status = Module['_raw_attention_output_lean'](
        qAt << 2, kAt << 2, vAt << 2, outAt << 2, q.rows, k.rows, v.rows, q.cols, k.cols, v.cols,
        o.scale === undefined ? NaN : o.scale, o.causal ? 1 : 0, o.validLength === undefined ? -1 : o.validLength);
      if (status !== 0) return undefined;
      return { output: { rows: q.rows, cols: v.cols, data: HEAPF32.slice(outAt, outAt + size) } };
    } finally {
      if (!small) Module['_free'](base);
    }
  }

  api['attention'] = function attention(options) {
    const fn = 'attention';
    const o = keepingFloat32(() => check(fn, 'options', options, schemas.attention));
    // { output } alone; the dot score runs the fused kernel: no (n_q, n_k) matrix
    if (o.intermediates === false && (o.score === undefined || o.score === 'dot') && o.mask === undefined &&
        o.params === undefined) {
      const lean = attentionOutputLean(o);
      if (lean) return lean;
    }
    for (const name of ['query', 'key', 'value']) {  // Embind reads copies, not the caller's arrays
      const m = o[name];
      checkLength(fn, name, m.rows, m.cols, lengthOf(m.data));  // a getter may have moved its buffer
      o[name] = { rows: m.rows, cols: m.cols, data: new Float32Array(m.data) };
    }
    return call(fn, o.intermediates === false ? 'raw_attention_output' : 'raw_attention', o);
  };
  api['selfAttention'] = function selfAttention(options) {
    const o = projectionWidths(check('selfAttention', 'options', options, schemas.selfAttention));
    return call('selfAttention', 'raw_projected_attention', o);
  };
  api['crossAttention'] = function crossAttention(options) {
    const o = projectionWidths(check('crossAttention', 'options', options, schemas.crossAttention));
    return call('crossAttention', 'raw_projected_attention', o);
  };
  api['multiHeadAttention'] = function multiHeadAttention(options) {
    const o = check('multiHeadAttention', 'options', options, schemas.multiHeadAttention);
    if (o.dModel === undefined) o.dModel = o.input.cols;
    if (o.seed === undefined) o.seed = 1;
    return call('multiHeadAttention', 'raw_multi_head_attention', o);
  };
  api['conditionalAttention'] = function conditionalAttention(options) {
    const o = projectionWidths(check('conditionalAttention', 'options', options, schemas.conditionalAttention));
    if (o.fusion === undefined) o.fusion = 'concat';
    return call('conditionalAttention', 'raw_conditional_attention', o);
  };
  api['positionalEncoding'] = function positionalEncoding(n, d) {
    return call('positionalEncoding', 'raw_positional_encoding',
                { n: kinds.int('positionalEncoding', 'n', n), d: kinds.int('positionalEncoding', 'd', d) });
  };
  api['addPositionalEncoding'] = function addPositionalEncoding(input) {
    return call('addPositionalEncoding', 'raw_add_positional_encoding',
                { input: kinds.matrix('addPositionalEncoding', 'input', input) });
  };
  api['permuteMap'] = function permuteMap(map, order) {
    const fn = 'permuteMap';
    const m = kinds.matrix(fn, 'map', map);
    if (!isNumericArray(order)) fail(fn, 'order must be an array of indices, got ' + describe(order));
    const indices = new Int32Array(order.length);
    for (let i = 0; i < order.length; i++) indices[i] = kinds.int(fn, 'order[' + i + ']', order[i]);
    return call(fn, 'raw_permute_map', { map: m, order: indices });
  };
  api['maxAbsDifference'] = function maxAbsDifference(a, b) {
    const fn = 'maxAbsDifference';
    return call(fn, 'raw_max_abs_difference', { a: kinds.matrix(fn, 'a', a), b: kinds.matrix(fn, 'b', b) });
  };
  api['selfMapStats'] = function selfMapStats(options) {
    return call('selfMapStats', 'raw_self_map_stats', check('selfMapStats', 'options', options, schemas.selfMapStats));
  };
  api['dotAndKernel'] = function dotAndKernel(options) {
    const o = check('dotAndKernel', 'options', options, schemas.dotAndKernel);
    if (o.equalLength === undefined) o.equalLength = false;
    return call('dotAndKernel', 'raw_dot_and_kernel', o);
  };
  api['kernelRegression'] = function kernelRegression(options) {
    const fn = 'kernelRegression';
    const o = check(fn, 'options', options, schemas.kernelRegression);
    const given = ['query', 'queries', 'range', 'weights'].filter((k) => k in o);
    if (given.length !== 1) fail(fn, given.length ? 'give only one of ' + given.join(', ') : 'give query, queries, range or weights');
    if (o.weights) {  // weights chosen by hand: no score is computed
      const scoring = ['score', 'sigma', 'scale', 'params', 'mask'].filter((k) => k in o);
      if (scoring.length) fail(fn, 'with weights given, ' + scoring.join(', ') + ' would be ignored; leave them out');
      return call(fn, 'raw_kernel_weights', o);
    }
    if (o.query !== undefined) o.queries = new Float32Array([o.query]);
    if (o.score === undefined) o.score = 'gaussian';
    if (o.sigma === undefined) return call(fn, 'raw_kernel_regression', o);
    // shorthand for params.sigma, and said as the caller wrote it
    if (o.params && o.params.sigma !== undefined) fail(fn, 'give sigma or params.sigma, not both');
    o.params = Object.assign({}, o.params, { sigma: o.sigma });
    return call(fn, 'raw_kernel_regression', o, [[/\bparams\.sigma\b/g, 'sigma']]);
  };
  api['costModel'] = function costModel(options) {
    const o = check('costModel', 'options', options, schemas.costModel);
    if (o.k === undefined) o.k = 3;
    return call('costModel', 'raw_cost_model', o);
  };
  api['generationCost'] = function generationCost(options) {
    return call('generationCost', 'raw_generation_cost', check('generationCost', 'options', options, schemas.generationCost));
  };
  api['entropy'] = function entropy(weights) {
    return call('entropy', 'raw_entropy', { weights: kinds.matrix('entropy', 'weights', weights) });
  };
  api['sigmoid'] = function sigmoid(x) {
    return call('sigmoid', 'raw_sigmoid', { x: kinds.matrix('sigmoid', 'x', x) });
  };
  // the small arithmetic the page shows: sums of rows, a matrix times a
  // number, the top entry of each row, the dot products of two sets of rows, log n
  api['rowSums'] = function rowSums(m) {
    return call('rowSums', 'raw_row_sums', { m: kinds.matrix('rowSums', 'm', m) });
  };
  api['scale'] = function scale(m, factor) {
    const fn = 'scale';
    return call(fn, 'raw_scale', { m: kinds.matrix(fn, 'm', m), factor: kinds.number(fn, 'factor', factor) });
  };
  api['dotProducts'] = function dotProducts(a, b) {
    const fn = 'dotProducts';
    return call(fn, 'raw_dot_products', { a: kinds.matrix(fn, 'a', a), b: kinds.matrix(fn, 'b', b) });
  };
  api['argmaxRows'] = function argmaxRows(m) {
    return call('argmaxRows', 'raw_top_rows', { m: kinds.matrix('argmaxRows', 'm', m) });
  };
  api['maxEntropy'] = function maxEntropy(n) {
    return call('maxEntropy', 'raw_max_entropy', { n: kinds.int('maxEntropy', 'n', n) });
  };
  api['embedTokens'] = function embedTokens(options) {
    const o = check('embedTokens', 'options', options, schemas.embedTokens);
    if (o.seed === undefined) o.seed = 1;
    return call('embedTokens', 'raw_embed_tokens', o);
  };
  api['dotProductSamples'] = function dotProductSamples(options) {
    const o = check('dotProductSamples', 'options', options, schemas.dotProductSamples);
    if (o.count === undefined) o.count = 2000;
    if (o.seed === undefined) o.seed = 1;
    return call('dotProductSamples', 'raw_dot_product_samples', o);
  };
  api['histogram'] = function histogram(options) {
    return call('histogram', 'raw_histogram', check('histogram', 'options', options, schemas.histogram));
  };
  // least squares: { slope, intercept, rSquared } of y = slope x + intercept
  api['fitLine'] = function fitLine(xs, ys) {
    const fn = 'fitLine';
    return call(fn, 'raw_fit_line', { xs: kinds.vector(fn, 'xs', xs), ys: kinds.vector(fn, 'ys', ys) });
  };
  api['initXavier'] = function initXavier(rows, cols, seed, stream) {
    const fn = 'initXavier';
    return call(fn, 'raw_init_xavier', {
      rows: kinds.int(fn, 'rows', rows), cols: kinds.int(fn, 'cols', cols), seed: kinds.seed(fn, 'seed', seed),
      stream: stream === undefined ? 0 : kinds.seed(fn, 'stream', stream),
    });
  };
  api['initUniform'] = function initUniform(rows, cols, seed, limit, stream) {
    const fn = 'initUniform';
    return call(fn, 'raw_init_uniform', {
      rows: kinds.int(fn, 'rows', rows), cols: kinds.int(fn, 'cols', cols), seed: kinds.seed(fn, 'seed', seed),
      limit: kinds.number(fn, 'limit', limit), stream: stream === undefined ? 0 : kinds.seed(fn, 'stream', stream),
    });
  };
  // { passed, total, share }: the five-character quatrain form of each text
  // (the language model's poems are checked with it)
  api['quatrainForm'] = function quatrainForm(texts) {
    const fn = 'quatrainForm';
    return call(fn, 'raw_quatrain_form', { texts: kinds.strings(fn, 'texts', texts) });
  };

  // ---- the two other modules, each loaded on first use ----------------------
  // attentionParts (parts-import.js or parts-script.js) finds them beside this
  // one. A failed load is an Error of the function that asked; the next call
  // tries again.
  const parts = {};    // name -> Promise<the module's facade>
  const loaded = [];   // the facades loaded so far (debug.memoryStats counts them)
  function part(fn, name) {
    if (!parts[name]) {
      parts[name] = attentionParts[name]()
        .then(function (module) {
          return module.default();
        })
        .then(function (facade) {
          loaded.push(facade);
          return facade;
        }, function (error) {
          delete parts[name];
          fail(fn, 'could not load the ' + name + ' module (' + (error && error.message ? error.message : String(error)) + ')', 'LOAD_FAILED');
        });
    }
    return parts[name];
  }

  // The pretrained encoder (a model file from web/model/), in
  // attention-encoder.mjs (api-encoder.js). Resolves to an object whose
  // encode(text) returns the pieces, the words, every layer's and head's
  // attention over pieces and over words, and the sentence embedding;
  // embed(text) the embedding alone; delete() frees its weights (about 28 MB).
  // Bytes that are not bytes are refused before the module is loaded.
  api['loadEncoder'] = function loadEncoder(bytes) {
    return new Promise(function (resolve) {
      if (!(bytes instanceof ArrayBuffer || bytes instanceof Uint8Array)) {
        fail('loadEncoder', 'bytes must be a Uint8Array or an ArrayBuffer of a model file, got ' + describe(bytes));
      }
      resolve(part('loadEncoder', 'encoder').then(function (encoders) {
        return encoders.loadEncoder(bytes);
      }));
    });
  };
  // The trainers and the language model, in attention-training.mjs
  // (api-trainer.js, api-language-model.js): an attention model learning a
  // sequence task, the Nadaraya-Watson model learning its width, and a small
  // transformer trained on texts, character by character. Each resolves to an
  // object whose methods answer at once and whose delete() frees it.
  function training(fn, options) {
    return part(fn, 'training').then(function (module) {
      return module[fn](options);
    });
  }
  api['createTrainer'] = function createTrainer(options) {
    return training('createTrainer', options);
  };
  api['createWidthTrainer'] = function createWidthTrainer(options) {
    return training('createWidthTrainer', options);
  };
  api['createLanguageModel'] = function createLanguageModel(options) {
    return training('createLanguageModel', options);
  };
  // the repeats corpus (texts written twice), made where the language model lives
  api['repeatsCorpus'] = function repeatsCorpus(options) {
    return training('repeatsCorpus', options);
  };
  // the reader's own text as a corpus for the language model
  api['ownCorpus'] = function ownCorpus(text, options) {
    return part('ownCorpus', 'training').then(function (module) {
      return module.ownCorpus(text, options);
    });
  };

  // att.debug, for leak checks: memoryStats() the memory of this module and of
  // the modules it has loaded, summed ({ heapBytes: the size of their WASM
  // memories, allocatedBytes: the bytes their mallocs hold now }); handles()
  // their live Embind handles
  const own = checks.debugOf(Module);
  const debugs = function () {
    return [own].concat(loaded.map(function (facade) { return facade.debug; }));
  };
  api['debug'] = Object.freeze({
    memoryStats: function memoryStats() {
      const sum = { heapBytes: 0, allocatedBytes: 0 };
      for (const debug of debugs()) {
        const stats = debug.memoryStats();
        sum.heapBytes += stats.heapBytes;
        sum.allocatedBytes += stats.allocatedBytes;
      }
      return sum;
    },
    handles: function handles() {
      let count = 0;
      for (const debug of debugs()) count += debug.handles();
      return count;
    },
  });
  // the error class every function throws (api-error.js), for instanceof
  api['AttentionError'] = AttentionError;

  // The module resolves to the frozen api once it is ready, not to Module.
  checks.publish(api);
})(Module, attentionChecks);
