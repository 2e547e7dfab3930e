// The argument checks of the JS API (appended inside each module's factory
// with --post-js, first: the other api files use them as attentionChecks),
// and what every module's facade has: memory statistics and the publication
// of the facade itself.
//
// Each kind checks one JS value and returns its canonical form (matrices as
// { rows, cols, data: Float32Array }, masks as Uint8Array; every user value is
// read once, own properties only); check() runs a declarative schema of kinds
// over an options object. Failures throw an AttentionError (api-error.js)
// naming the function and the argument, "attention: query row 1 has 1 entries
// but row 0 has 2", with a code (BAD_ARGUMENT unless said otherwise).

var attentionChecks = (function defineAttentionChecks() {
  'use strict';
  const INT32_MAX = 2147483647;
  const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

  function fail(fn, message, code) {
    throw new AttentionError(fn + ': ' + message, code || 'BAD_ARGUMENT');
  }

  // The code of a message the core answered with (its words are the contract:
  // tests/node/errors.test.mjs checks one message of each kind)
  function codeOf(message) {
    if (/^out of memory\b|MB of buffers, more than the limit\b/.test(message)) return 'OUT_OF_MEMORY';
    if (/^training diverged\b/.test(message)) return 'DIVERGED';
    if (/^model file: /.test(message)) return 'BAD_MODEL_FILE';
    return 'BAD_ARGUMENT';
  }

  function describe(x) {
    if (x === null) return 'null';
    if (Array.isArray(x)) return 'an array';
    if (ArrayBuffer.isView(x)) return 'a ' + x.constructor.name;
    if (typeof x === 'number') return String(x);
    if (typeof x === 'string') return 'the string ' + JSON.stringify(x.length > 40 ? x.slice(0, 40) + '…' : x);
    return typeof x;
  }

  const own = (object, key) => (Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined);

  function isNumericArray(x) {
    return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView) &&
                                !(typeof BigInt64Array !== 'undefined' && x instanceof BigInt64Array) &&
                                !(typeof BigUint64Array !== 'undefined' && x instanceof BigUint64Array));
  }

  // %TypedArray%.prototype.length: the length a typed array really has (a
  // subclass or an own property cannot fake it)
  const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;
  const lengthOf = (xs) => (ArrayBuffer.isView(xs) ? typedLength.call(xs) : xs.length);

  // Set by attention() while it checks its options (keepingFloat32): a plain
  // Float32Array is then taken as it is instead of copied (each copy cost
  // 1.5 us, a tenth of a small call). attention() copies it into the heap, or
  // into a new array for Embind, once every option has been read, and checks
  // its length again then.
  let keepFloat32 = false;
  function keepingFloat32(f) {
    const kept = keepFloat32;
    keepFloat32 = true;
    try {
      return f();
    } finally {
      keepFloat32 = kept;
    }
  }

  // Copies numbers into a new Float32Array, rejecting anything that is not a number.
  function toFloat32(fn, name, xs) {
    if (ArrayBuffer.isView(xs)) {  // holds numbers only: one native copy
      if (keepFloat32 && Object.getPrototypeOf(xs) === Float32Array.prototype) return xs;
      return new Float32Array(xs);
    }
    const out = new Float32Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (typeof x !== 'number') fail(fn, name + '[' + i + '] must be a number, got ' + describe(x));
      out[i] = x;
    }
    return out;
  }

  function checkLength(fn, name, rows, cols, length) {
    if (length !== rows * cols)
      fail(fn, name + '.data has ' + length + ' entries but rows * cols = ' + rows + ' * ' + cols + ' = ' + rows * cols);
  }

  function checkSize(fn, name, x) {
    if (!Number.isInteger(x) || x < 1) fail(fn, name + ' must be a positive integer, got ' + describe(x));
    if (x > INT32_MAX) fail(fn, name + ' is too large: ' + x);
  }

  // Argument kinds: each checks one value and returns its canonical form.
  const kinds = {
    // { rows, cols, data }, or nested arrays [[...], ...], or one row as a flat array
    matrix(fn, name, x) {
      if (Array.isArray(x) && x.length > 0 && Array.isArray(x[0])) {
        const rows = x.length, cols = x[0].length;
        checkSize(fn, name + ' columns', cols);
        const data = new Float32Array(rows * cols);
        for (let i = 0; i < rows; i++) {  // indexed: a hole in a sparse array is an error, not skipped
          const row = x[i];
          if (!Array.isArray(row) || row.length !== cols)
            fail(fn, name + ' row ' + i + ' has ' + (Array.isArray(row) ? row.length + ' entries' : describe(row)) +
                 ' but row 0 has ' + cols);
          data.set(toFloat32(fn, name + '[' + i + ']', row), i * cols);
        }
        return { rows, cols, data };
      }
      if (isNumericArray(x)) {
        if (x.length === 0) fail(fn, name + ' is empty');
        return { rows: 1, cols: x.length, data: toFloat32(fn, name, x) };
      }
      if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x))
        fail(fn, name + ' must be a matrix { rows, cols, data }, got ' + describe(x));
      const rows = own(x, 'rows'), cols = own(x, 'cols'), given = own(x, 'data');  // each read once
      checkSize(fn, name + '.rows', rows);
      checkSize(fn, name + '.cols', cols);
      if (!isNumericArray(given))
        fail(fn, name + '.data must be a Float32Array or an array of numbers, got ' + describe(given));
      const data = toFloat32(fn, name + '.data', given);
      checkLength(fn, name, rows, cols, lengthOf(data));
      return { rows, cols, data };
    },
    vector(fn, name, x) {
      if (!isNumericArray(x)) fail(fn, name + ' must be a Float32Array or an array of numbers, got ' + describe(x));
      if (x.length === 0) fail(fn, name + ' is empty');
      return toFloat32(fn, name, x);
    },
    // one entry per (query, key), row-major; non-zero or true = may attend
    // like a matrix: flat (row-major), nested rows, or { rows, cols, data } (a result's mask)
    mask(fn, name, x) {
      if (Array.isArray(x) && x.length > 0 && Array.isArray(x[0])) {
        const cols = x[0].length;
        for (let r = 0; r < x.length; r++) {
          if (!Array.isArray(x[r]) || x[r].length !== cols)
            fail(fn, name + ' row ' + r + ' has ' + (Array.isArray(x[r]) ? x[r].length + ' entries' : describe(x[r])) + ' but row 0 has ' + cols);
        }
        x = [].concat.apply([], x);
      } else if (x !== null && typeof x === 'object' && !isNumericArray(x)) {
        const data = own(x, 'data');
        if (!isNumericArray(data)) fail(fn, name + ' must be a Uint8Array, an array or a mask { rows, cols, data }, got ' + describe(x));
        x = data;
      }
      if (!isNumericArray(x)) fail(fn, name + ' must be a Uint8Array or an array, got ' + describe(x));
      const out = new Uint8Array(x.length);
      for (let i = 0; i < x.length; i++) {
        const v = x[i];
        if (typeof v !== 'number' && typeof v !== 'boolean')
          fail(fn, name + '[' + i + '] must be 0/1 or a boolean, got ' + describe(v));
        out[i] = v ? 1 : 0;
      }
      return out;
    },
    // a finite number that float32 can hold (the core computes in float32)
    number(fn, name, x) {
      if (typeof x !== 'number' || !Number.isFinite(x)) fail(fn, name + ' must be a finite number, got ' + describe(x));
      if (!Number.isFinite(Math.fround(x))) fail(fn, name + ' = ' + x + ' is beyond the float32 range');
      if (x !== 0 && Math.fround(x) === 0) fail(fn, name + ' = ' + x + ' is too small for float32');
      return x;
    },
    int(fn, name, x) {
      if (!Number.isInteger(x)) fail(fn, name + ' must be an integer, got ' + describe(x));
      if (Math.abs(x) > INT32_MAX) fail(fn, name + ' is too large: ' + x);
      return x;
    },
    seed(fn, name, x) {
      if (!Number.isSafeInteger(x) || x < 0) fail(fn, name + ' must be a non-negative integer, got ' + describe(x));
      return x;
    },
    boolean(fn, name, x) {
      if (typeof x !== 'boolean') fail(fn, name + ' must be true or false, got ' + describe(x));
      return x;
    },
    // a string; a lone surrogate becomes U+FFFD (as UTF-8 cannot carry it,
    // the conversion to C++ would otherwise fuse it with the next character)
    string(fn, name, x) {
      if (typeof x !== 'string') fail(fn, name + ' must be a string, got ' + describe(x));
      return x.replace(LONE_SURROGATE, '\ufffd');
    },
    // an array of strings (tokens), copied
    strings(fn, name, x) {
      if (!Array.isArray(x)) fail(fn, name + ' must be an array of strings, got ' + describe(x));
      const out = new Array(x.length);
      for (let i = 0; i < x.length; i++) out[i] = kinds.string(fn, name + '[' + i + ']', x[i]);
      return out;
    },
  };

  // Checks an options object against a schema { key: kind | nested schema };
  // a kind ending in '!' is required. Unknown keys are errors (a typo must not
  // be ignored silently); undefined values count as absent; inherited keys are
  // not read.
  function check(fn, name, options, schema) {
    if (options === undefined) options = {};
    if (options === null || typeof options !== 'object' || Array.isArray(options))
      fail(fn, name + ' must be an object, got ' + describe(options));
    for (const key of Object.keys(options)) {
      if (!Object.prototype.hasOwnProperty.call(schema, key))
        fail(fn, 'unknown option ' + JSON.stringify(key) + ' in ' + name + ' (known: ' + Object.keys(schema).join(', ') + ')');
    }
    const out = {};
    const fields = compiled(schema);
    for (let f = 0; f < fields.length; f++) {
      const field = fields[f], key = field.key;
      const value = own(options, key);
      const label = name === 'options' ? key : name + '.' + key;
      if (value === undefined) {
        if (field.required) fail(fn, label + ' is required');
        continue;
      }
      out[key] = field.kind ? field.kind(fn, label, value) : check(fn, label, value, field.schema);
    }
    return out;
  }

  // a schema as a list of { key, kind, required, schema }, made once per schema
  // (a call of the API reads its schema's kinds without building strings)
  const compiledSchemas = new WeakMap();
  function compiled(schema) {
    let fields = compiledSchemas.get(schema);
    if (!fields) {
      fields = Object.keys(schema).map(function (key) {
        const kind = schema[key];
        if (typeof kind !== 'string') return { key: key, kind: null, required: false, schema: kind };
        const known = kinds[kind.replace('!', '')];
        if (!known) throw new Error('schema: no kind ' + kind + ' for ' + key);
        return { key: key, kind: known, required: kind.endsWith('!'), schema: null };
      });
      compiledSchemas.set(schema, fields);
    }
    return fields;
  }

  // A caller of the core's raw functions that answer a string when they
  // refuse: call(fn, raw, canonical) throws it as fn's Error, the core's
  // argument names said as the JS options (renames: [[pattern, name]]; plain
  // loops: this Emscripten's optimizer cannot parse destructuring or spread)
  function coreCaller(Module, renames) {
    return function call(fn, raw, canonical) {
      const result = Module[raw](canonical);
      if (typeof result === 'string') {
        let message = result;
        for (const rename of renames) message = message.replace(rename[0], rename[1]);
        fail(fn, message, codeOf(result));
      }
      return result;
    };
  }

  // A frozen object of methods over one handle of the core (an encoder, a
  // trainer, a language model): methods { name: (fn, handle, ...args) => result },
  // fn being prefix + name for messages (prefix: 'kind.' unless given);
  // release(fn, handle) frees it. After
  // delete(), every method throws an AttentionError DELETED, and delete() again
  // does nothing; [Symbol.dispose] is delete() where the runtime defines the
  // symbol (`using t = await att.createTrainer()`).
  function handleObject(kind, handle, release, methods, prefix) {
    const object = {};
    if (prefix === undefined) prefix = kind + '.';
    const live = (fn) => {
      if (handle === 0) fail(fn, 'this ' + kind + ' was deleted', 'DELETED');
      return handle;
    };
    for (const name of Object.keys(methods)) {
      const fn = prefix + name, method = methods[name];
      object[name] = function () {
        return method.apply(null, [fn, live(fn)].concat(Array.prototype.slice.call(arguments)));
      };
    }
    object['delete'] = function () {
      if (handle === 0) return;
      const freed = handle;
      handle = 0;
      release(prefix + 'delete', freed);
    };
    if (typeof Symbol.dispose === 'symbol') object[Symbol.dispose] = object['delete'];
    return Object.freeze(object);
  }

  // Makes the module factory resolve to `facade`, frozen, instead of the
  // Emscripten module (whose heap views, malloc and unchecked raw_* bindings
  // would bypass every check). readyPromiseResolve is the factory's own
  // resolver (src/shell.js of Emscripten), still unresolved here: the
  // WebAssembly instance is created asynchronously, after this code has run.
  function publish(facade) {
    const frozen = Object.freeze(facade);
    const resolveModule = readyPromiseResolve;
    readyPromiseResolve = function resolveFacade() {
      resolveModule(frozen);
    };
    return frozen;
  }

  // debug.memoryStats(): { heapBytes: size of this module's WASM memory,
  // allocatedBytes: bytes its malloc holds now }; debug.handles(): its live
  // Embind handles. What the leak tests compare before and after.
  function debugOf(Module) {
    return {
      memoryStats: function memoryStats() {
        return Module['raw_memory_stats']();
      },
      handles: function handles() {
        return Module['count_emval_handles']();
      },
    };
  }

  return {
    INT32_MAX, fail, describe, isNumericArray, lengthOf, keepingFloat32, checkLength, kinds, check, coreCaller,
    codeOf, handleObject, publish, debugOf,
  };
})();
