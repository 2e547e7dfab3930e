// Calls into a module's raw functions (cpp/bindings/), and what every module's
// facade has: its memory statistics.
//
// A raw function answers its result, or, when the core refused, a
// CoreFailure carrying the core's failure (cpp/bindings/convert.cpp, guard_call):
//   { code: 'BAD_ARGUMENT', argument: 'd_model', message: 'd_model 32 is not divisible by heads 3' }
// call() throws it as fn's AttentionError with that code, the argument said
// with its JS option's name (JS_NAMES):
//   "createTrainer: dModel 32 is not divisible by heads 3"
// No message text decides a code or a name: the core gave both.
import { fail } from './error.js';
import { own } from './kinds.js';

// The core's names of the arguments whose JS option is spelled otherwise, the
// one table of them (the core: d_model; the JS options: dModel).
export const JS_NAMES = {
  d_k: 'dK', d_v: 'dV', d_model: 'dModel', valid_length: 'validLength', learning_rate: 'learningRate',
  min_count: 'minCount', held_out: 'heldOut', max_tokens: 'maxTokens', top_k: 'topK', top_p: 'topP', min_p: 'minP',
  min_length: 'minLength', max_length: 'maxLength', log_sum_exp: 'logSumExp', block_rows: 'blockRows',
  block_cols: 'blockCols', kv_heads: 'kvHeads', head_dim: 'headDim', bytes_per_number: 'bytesPerNumber',
  cache_positions: 'cachePositions',
};

// Throws the core's failure as fn's AttentionError. aliases: { coreName: jsName } for
// this call's own words (kernelRegression's sigma, the shorthand of params.sigma).
function refused(fn, failure, aliases) {
  const argument = failure.argument;
  const name = (aliases && own(aliases, argument)) || own(JS_NAMES, argument);
  fail(fn, name ? failure.message.split(argument).join(name) : failure.message, failure.code);
}

// What the bindings make of the core's refusal: a plain object of a class of
// its own (no Error: no stack captured twice), which no result can be.
class CoreFailure {
  constructor(code, argument, message) {
    this.code = code;
    this.argument = argument;
    this.message = message;
  }
}

// call(fn, raw, canonical, aliases): Module[raw](canonical)'s result, or fn's AttentionError
export function coreCaller(Module) {
  Module['CoreFailure'] = CoreFailure;  // what guard_call makes (val::module_property)
  return function call(fn, raw, canonical, aliases) {
    const result = Module[raw](canonical);
    if (result instanceof CoreFailure) refused(fn, result, aliases);
    return result;
  };
}

// debug.memoryStats(): { heapBytes: size of this module's WASM memory,
// allocatedBytes: bytes its malloc holds now }; debug.handles(): its live
// Embind handles. What the leak tests compare before and after.
export function debugOf(Module) {
  return Object.freeze({
    memoryStats: function memoryStats() {
      return Module['raw_memory_stats']();
    },
    handles: function handles() {
      return Module['count_emval_handles']();
    },
  });
}
