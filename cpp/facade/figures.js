// The other figures the page shows (attention.mjs): positional encodings,
// map statistics, costs, entropies, the small arithmetic around the chain
// (sums of rows, a matrix times a number, the top entry of each row, dot
// products, log n), embeddings, samples, histograms, fits and initialisers.
// Every number comes from the core; the checks and the errors as in attention.js.
import { fail } from './error.js';
import { describe, isNumericArray, kinds } from './kinds.js';
import { check } from './schema.js';

export const schemas = {
  selfMapStats: { scores: 'matrix!', weights: 'matrix!' },
  dotAndKernel: { query: 'vector!', keys: 'matrix!', equalLength: ['boolean', false] },
  costModel: { n: 'int!', d: 'int!', k: ['int', 3] },
  generationCost: { n: 'int!', d: 'int!', heads: 'int', kvHeads: 'int', window: 'int' },
  kvCacheBytes: { layers: 'int!', kvHeads: 'int!', headDim: 'int!', tokens: 'int!', bytesPerNumber: 'int' },
  attentionProjectionParameters: { layers: 'int!', heads: 'int!', kvHeads: 'int!', headDim: 'int!', dModel: 'int' },
  rotary: { base: 'number', offset: 'int' },
  embedTokens: { tokens: 'strings!', d: 'int!', seed: ['seed', 1] },
  dotProductSamples: { d: 'int!', count: ['int', 2000], seed: ['seed', 1] },
  histogram: { values: 'vector!', bins: 'int!', from: 'number!', to: 'number!' },
};

// a function of one options object: its schema's, checked, to raw
const withOptions = (name, raw) => ({ call }) => ({
  [name](options) {
    return call(name, raw, check(name, 'options', options, schemas[name]));
  },
})[name];

// a function of one matrix, given as { [key]: matrix } to raw
const ofMatrix = (name, raw, key) => ({ call }) => ({
  [name](m) {
    return call(name, raw, { [key]: kinds.matrix(name, key, m) });
  },
})[name];

// a function of two, each of a kind, given as { [a]: first, [b]: second } to raw
const ofTwo = (name, raw, [a, kindA], [b, kindB]) => ({ call }) => ({
  [name](x, y) {
    return call(name, raw, { [a]: kinds[kindA](name, a, x), [b]: kinds[kindB](name, b, y) });
  },
})[name];

// an optional stream of the initialisers: 0 unless given
const streamOf = (fn, stream) => (stream === undefined ? 0 : kinds.seed(fn, 'stream', stream));

export const FUNCTIONS = {
  positionalEncoding: ofTwo('positionalEncoding', 'raw_positional_encoding', ['n', 'int'], ['d', 'int']),
  addPositionalEncoding: ofMatrix('addPositionalEncoding', 'raw_add_positional_encoding', 'input'),
  permuteMap: ({ call }) => function permuteMap(map, order) {
    const fn = 'permuteMap';
    const m = kinds.matrix(fn, 'map', map);
    if (!isNumericArray(order)) fail(fn, 'order must be an array of indices, got ' + describe(order));
    const indices = new Int32Array(order.length);
    for (let i = 0; i < order.length; i++) indices[i] = kinds.int(fn, 'order[' + i + ']', order[i]);
    return call(fn, 'raw_permute_map', { map: m, order: indices });
  },
  maxAbsDifference: ofTwo('maxAbsDifference', 'raw_max_abs_difference', ['a', 'matrix'], ['b', 'matrix']),
  selfMapStats: withOptions('selfMapStats', 'raw_self_map_stats'),
  dotAndKernel: withOptions('dotAndKernel', 'raw_dot_and_kernel'),
  costModel: withOptions('costModel', 'raw_cost_model'),
  generationCost: withOptions('generationCost', 'raw_generation_cost'),
  kvCacheBytes: withOptions('kvCacheBytes', 'raw_kv_cache_bytes'),
  // { Wq, Wk, Wv, Wo, perLayer, total }: the four projections' weights (no biases) of one layer and of all
  attentionProjectionParameters: withOptions('attentionProjectionParameters', 'raw_attention_projection_parameters'),
  // RoPE: each row's pairs of columns turned by its position (rotary.hpp)
  rotary: ({ call }) => function rotary(matrix, options) {
    const o = check('rotary', 'options', options, schemas.rotary);
    o.matrix = kinds.matrix('rotary', 'matrix', matrix);
    return call('rotary', 'raw_rotary', o);
  },
  alibiSlopes: ({ call }) => function alibiSlopes(heads) {
    return call('alibiSlopes', 'raw_alibi_slopes', { heads: kinds.int('alibiSlopes', 'heads', heads) });
  },
  entropy: ofMatrix('entropy', 'raw_entropy', 'weights'),
  sigmoid: ofMatrix('sigmoid', 'raw_sigmoid', 'x'),
  rowSums: ofMatrix('rowSums', 'raw_row_sums', 'm'),
  scale: ofTwo('scale', 'raw_scale', ['m', 'matrix'], ['factor', 'number']),
  dotProducts: ofTwo('dotProducts', 'raw_dot_products', ['a', 'matrix'], ['b', 'matrix']),
  argmaxRows: ofMatrix('argmaxRows', 'raw_top_rows', 'm'),
  maxEntropy: ({ call }) => function maxEntropy(n) {
    return call('maxEntropy', 'raw_max_entropy', { n: kinds.int('maxEntropy', 'n', n) });
  },
  embedTokens: withOptions('embedTokens', 'raw_embed_tokens'),
  dotProductSamples: withOptions('dotProductSamples', 'raw_dot_product_samples'),
  histogram: withOptions('histogram', 'raw_histogram'),
  // least squares: { slope, intercept, rSquared } of y = slope x + intercept
  fitLine: ofTwo('fitLine', 'raw_fit_line', ['xs', 'vector'], ['ys', 'vector']),
  initXavier: ({ call }) => function initXavier(rows, cols, seed, stream) {
    const fn = 'initXavier';
    return call(fn, 'raw_init_xavier', {
      rows: kinds.int(fn, 'rows', rows), cols: kinds.int(fn, 'cols', cols), seed: kinds.seed(fn, 'seed', seed),
      stream: streamOf(fn, stream),
    });
  },
  initUniform: ({ call }) => function initUniform(rows, cols, seed, limit, stream) {
    const fn = 'initUniform';
    return call(fn, 'raw_init_uniform', {
      rows: kinds.int(fn, 'rows', rows), cols: kinds.int(fn, 'cols', cols), seed: kinds.seed(fn, 'seed', seed),
      limit: kinds.number(fn, 'limit', limit), stream: streamOf(fn, stream),
    });
  },
  // { passed, total, share }: the five-character quatrain form of each text
  // (the language model's poems are checked with it)
  quatrainForm: ({ call }) => function quatrainForm(texts) {
    return call('quatrainForm', 'raw_quatrain_form', { texts: kinds.strings('quatrainForm', 'texts', texts) });
  },
};
