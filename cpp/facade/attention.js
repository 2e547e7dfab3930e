// The attention family of the JS API (attention.mjs): softmax, attention and
// its projected, multi-head and conditional forms, kernel regression.
//
// Each function checks the JS types of its arguments against its schema
// (schema.js), which converts them to one canonical form and fills in the
// defaults, and calls its raw_* twin (cpp/bindings/raw_attention.cpp). The core checks
// shapes and values; its refusal becomes an AttentionError (core.js):
//   "attention: key has 3 columns but query has 4; the dot score needs equal widths"
// Results are plain objects holding copies: nothing aliases the WASM heap and
// nothing needs .delete().
//
// FUNCTIONS: { name: (core) => the function }, core being what
// moduleFacade (module.js) gives each: { call, Module }.
import { fail } from './error.js';
import { checkLength, kinds, keepingFloat32, lengthOf } from './kinds.js';
import { attentionOutputLean } from './lean.js';
import { check } from './schema.js';

const scoreParams = { W: 'matrix', U: 'matrix', v: 'vector', sigma: 'number', seed: 'seed', hidden: 'int' };
const masking = { mask: 'mask', causal: 'boolean', validLength: 'int' };
// a sliding window (with causal), its sinks, an additive bias on the scaled scores
const windowing = { window: 'int', sinks: 'int', bias: 'matrix' };
const scoring = { score: 'string', scale: 'number', params: scoreParams, ...masking, ...windowing };
const dotMasking = { scale: 'number', ...masking, ...windowing };
const projections = { Wq: 'matrix', Wk: 'matrix', Wv: 'matrix' };
const projected = { input: 'matrix!', dK: 'int', dV: 'int', seed: ['seed', 1], projections, ...scoring };

export const schemas = {
  softmax: { temperature: ['number', 1], mask: 'mask' },
  attention: { query: 'matrix!', key: 'matrix!', value: 'matrix!', intermediates: 'boolean', logSumExp: 'boolean', ...scoring },
  flashAttention: {
    query: 'matrix!', key: 'matrix!', value: 'matrix!', blockRows: ['int', 16], blockCols: ['int', 16],
    trace: ['boolean', false], ...dotMasking,
  },
  weightsFromLogSumExp: { query: 'matrix!', key: 'matrix!', logSumExp: 'vector!', rows: 'indices', ...dotMasking },
  selfAttention: projected,
  crossAttention: { memory: 'matrix!', ...projected },
  multiHeadAttention: {
    input: 'matrix!', memory: 'matrix', heads: 'int!', kvHeads: 'int', dModel: 'int', seed: ['seed', 1],
    projections: { Wo: 'matrix', ...projections }, scale: 'number', ...masking,
  },
  conditionalAttention: {
    input: 'matrix!', condition: 'vector!', fusion: ['string', 'concat'], dK: 'int', dV: 'int', seed: ['seed', 1],
    ...scoring,
  },
  kernelRegression: {
    keys: 'vector!', values: 'vector!', query: 'number', queries: 'vector',
    range: { from: 'number!', to: 'number!', count: 'int!' }, weights: 'vector',
    score: 'string', sigma: 'number', scale: 'number', params: scoreParams, mask: 'mask',
  },
};

// The widths that depend on the data (the scale 1/sqrt(d_k) and the additive
// hidden width are the core's): those left out are the projections' given,
// else the input's.
function projectionWidths(o) {
  const W = o.projections || {};
  if (o.dK === undefined) o.dK = (W.Wq || W.Wk || o.input).cols;
  if (o.dV === undefined) o.dV = W.Wv ? W.Wv.cols : o.dK;
  return o;
}

// self- and cross-attention: input (and memory) through Wq, Wk, Wv, then attention
const projectedAttention = (name) => ({ call }) => ({
  [name](options) {
    return call(name, 'raw_projected_attention', projectionWidths(check(name, 'options', options, schemas[name])));
  },
})[name];

export const FUNCTIONS = {
  softmax: ({ call }) => function softmax(x, options) {
    const o = check('softmax', 'options', options, schemas.softmax);
    o.x = kinds.matrix('softmax', 'x', x);
    return call('softmax', 'raw_softmax', o);
  },
  attention: ({ call, Module }) => function attention(options) {
    const fn = 'attention';
    const o = keepingFloat32(() => check(fn, 'options', options, schemas.attention));
    // { output } alone; the dot score runs the fused kernel: no (n_q, n_k) matrix
    if (o.logSumExp && o.intermediates !== false)
      fail(fn, 'logSumExp comes with the output alone: add intermediates: false (the intermediates give rowMax and rowSums instead: logSumExp = rowMax + log rowSums)');
    if (o.intermediates === false && (o.score === undefined || o.score === 'dot') && o.mask === undefined &&
        o.params === undefined && o.window === undefined && o.sinks === undefined && o.bias === undefined &&
        !o.logSumExp) {
      const lean = attentionOutputLean(Module, o);
      if (lean) return lean;
    }
    for (const name of ['query', 'key', 'value']) {  // Embind reads copies, not the caller's arrays
      const m = o[name];
      checkLength(fn, name, m.rows, m.cols, lengthOf(m.data));  // a getter may have moved its buffer
      o[name] = { rows: m.rows, cols: m.cols, data: new Float32Array(m.data) };
    }
    return call(fn, o.intermediates === false ? 'raw_attention_output' : 'raw_attention', o);
  },
  flashAttention: ({ call }) => function flashAttention(options) {
    return call('flashAttention', 'raw_flash_attention', check('flashAttention', 'options', options, schemas.flashAttention));
  },
  weightsFromLogSumExp: ({ call }) => function weightsFromLogSumExp(options) {
    const fn = 'weightsFromLogSumExp';
    const o = check(fn, 'options', options, schemas.weightsFromLogSumExp);
    if (o.rows === undefined) o.rows = Int32Array.from({ length: o.query.rows }, (_, i) => i);  // every row
    return call(fn, 'raw_weights_from_log_sum_exp', o);
  },
  selfAttention: projectedAttention('selfAttention'),
  crossAttention: projectedAttention('crossAttention'),
  multiHeadAttention: ({ call }) => function multiHeadAttention(options) {
    const o = check('multiHeadAttention', 'options', options, schemas.multiHeadAttention);
    if (o.dModel === undefined) o.dModel = o.input.cols;
    if (o.kvHeads === undefined) o.kvHeads = o.heads;  // standard multi-head attention: one key/value head per head
    return call('multiHeadAttention', 'raw_multi_head_attention', o);
  },
  conditionalAttention: ({ call }) => function conditionalAttention(options) {
    const o = projectionWidths(check('conditionalAttention', 'options', options, schemas.conditionalAttention));
    return call('conditionalAttention', 'raw_conditional_attention', o);
  },
  kernelRegression: ({ call }) => function kernelRegression(options) {
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
    if (o.score === undefined) o.score = 'gaussian';  // (not a schema default: with weights, no score is given)
    if (o.sigma === undefined) return call(fn, 'raw_kernel_regression', o);
    // shorthand for params.sigma, and said as the caller wrote it
    if (o.params && o.params.sigma !== undefined) fail(fn, 'give sigma or params.sigma, not both');
    o.params = { ...o.params, sigma: o.sigma };
    return call(fn, 'raw_kernel_regression', o, { 'params.sigma': 'sigma' });
  },
};
