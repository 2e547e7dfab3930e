// AttentionError, the one error class of the JS API. Each of the three modules
// bundles this file, and a second copy of the package bundles it again: the
// class is kept on the global object under a registered symbol, so every
// module finds the one made first and all of them throw the same class.
// attention.mjs exports it; the classic scripts define it as a global beside
// their factory (classic.js); every facade holds it as att.AttentionError.
//
//   error.code: what went wrong. The core raises the first five with their
//   code (its list: ATTN_ERROR_CODES in cpp/attention/types.hpp); the
//   facade raises BAD_ARGUMENT for a JS value of the wrong type, DELETED for a
//   handle's method after delete(), and LOAD_FAILED and WORKER_FAILED itself.
//     BAD_ARGUMENT    an argument or option the function refuses (its message says which and why)
//     OUT_OF_MEMORY   the inputs or the model do not fit in the module's memory
//     DIVERGED        training produced a non-finite loss or parameter
//     BAD_MODEL_FILE  bytes that are not a model file this version reads
//     DELETED         a method of an encoder, trainer or language model called after delete()
//     LOAD_FAILED     a module the call needs could not be loaded
//     WORKER_FAILED   a worker training a language model (createLanguageModel({ threads })) failed or died
//   error.message: "function: what is wrong"

const scope = typeof globalThis !== 'undefined' ? globalThis : self;
const key = Symbol.for('attention-wasm.AttentionError');

function defineAttentionError() {
  class AttentionError extends Error {
    constructor(message, code) {
      super(message);
      this.name = 'AttentionError';
      this.code = code;
    }
  }
  Object.defineProperty(scope, key, { value: AttentionError });
  return AttentionError;
}

export const AttentionError = typeof scope[key] === 'function' ? scope[key] : defineAttentionError();

// Throws fn's AttentionError: "fn: message", with code (BAD_ARGUMENT unless given).
export function fail(fn, message, code = 'BAD_ARGUMENT') {
  throw new AttentionError(fn + ': ' + message, code);
}
