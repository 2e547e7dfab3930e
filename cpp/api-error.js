// AttentionError, the one error class of the JS API, written before each
// module's factory (--extern-pre-js), so that every function of the three
// modules throws the same class: it is kept on the global object under a
// registered symbol, and a second module (or a second copy of this package)
// finds it there. attention.mjs exports it (api-error-export.js); the classic
// scripts define it as a global beside their factory; every facade holds it
// as att.AttentionError.
//
//   error.code: what went wrong, one of
//     BAD_ARGUMENT    an argument or option the function refuses (its message says which and why)
//     DELETED         a method of an encoder, trainer or language model called after delete()
//     DIVERGED        training produced a non-finite loss or parameter
//     BAD_MODEL_FILE  bytes that are not a model file this version reads
//     LOAD_FAILED     a module the call needs could not be loaded
//     OUT_OF_MEMORY   the inputs or the model do not fit in the module's memory
//   error.message: "function: what is wrong", as before the codes existed
var AttentionError = (function defineAttentionError(scope) {
  'use strict';
  const key = Symbol.for('attention-wasm.AttentionError');
  if (typeof scope[key] === 'function') return scope[key];
  class AttentionError extends Error {
    constructor(message, code) {
      super(message);
      this.name = 'AttentionError';
      this.code = code;
    }
  }
  Object.defineProperty(scope, key, { value: AttentionError });
  return AttentionError;
})(typeof globalThis !== 'undefined' ? globalThis : self);
