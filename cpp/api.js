// The public JS API of the attention module (appended inside the module
// factory with --post-js, so `Module` is the module being built).
//
// Each public function checks the JS types of its arguments against a
// declarative schema, converts them to one canonical form (matrices as
// { rows, cols, data: Float32Array }, masks as Uint8Array; every user value is
// read once, own properties only), fills in the defaults, and calls its raw_*
// twin in bindings.cpp. The core checks shapes and values; a raw function that
// fails returns the message, which becomes an Error here:
//   "attention: key has 3 columns but query has 4; the dot score needs equal widths"
// Results are plain objects holding copies: nothing aliases the WASM heap and
// nothing needs .delete().

(function defineAttentionApi(Module) {
  'use strict';

  const INT32_MAX = 2147483647;
  const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

  function fail(fn, message) {
    throw new Error(fn + ': ' + message);
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

  // Set by attention() while it checks its options: a plain Float32Array is
  // then taken as it is instead of copied (each copy cost 1.5 us, a tenth of a
  // small call). attention() copies it into the heap, or into a new array for
  // Embind, once every option has been read, and checks its length again then.
  let keepFloat32 = false;

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
    mask(fn, name, x) {
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
    const out = {};
    for (const key of Object.keys(options)) {
      if (!Object.prototype.hasOwnProperty.call(schema, key))
        fail(fn, 'unknown option ' + JSON.stringify(key) + ' in ' + name + ' (known: ' + Object.keys(schema).join(', ') + ')');
    }
    for (const key of Object.keys(schema)) {
      const kind = schema[key];
      const value = own(options, key);
      const label = name === 'options' ? key : name + '.' + key;
      if (value === undefined) {
        if (typeof kind === 'string' && kind.endsWith('!')) fail(fn, label + ' is required');
        continue;
      }
      out[key] = typeof kind === 'string' ? kinds[kind.replace('!', '')](fn, label, value) : check(fn, label, value, kind);
    }
    return out;
  }

  function call(fn, raw, canonical) {
    const result = Module[raw](canonical);
    if (typeof result === 'string') fail(fn, result);
    return result;
  }

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
    embedTokens: { tokens: 'strings!', d: 'int!', seed: 'seed' },
    dotProductSamples: { d: 'int!', count: 'int', seed: 'seed' },
    histogram: { values: 'vector!', bins: 'int!', from: 'number!', to: 'number!' },
  };

  // The defaults that depend on nothing but the call; those that depend on the
  // data (the scale 1/sqrt(d_k), the additive hidden width) are the core's.
  function projectionWidths(o) {
    if (o.dK === undefined) o.dK = o.input.cols;
    if (o.dV === undefined) o.dV = o.dK;
    if (o.seed === undefined) o.seed = 0;
    return o;
  }

  Module['softmax'] = function softmax(x, options) {
    const o = check('softmax', 'options', options, schemas.softmax);
    o.x = kinds.matrix('softmax', 'x', x);
    if (o.temperature === undefined) o.temperature = 1;
    return call('softmax', 'raw_softmax', o);
  };
  // attention({ ..., intermediates: false }) for the dot score without an explicit
  // mask: the inputs go straight into the heap and the kernel is called with
  // numbers alone (see raw_attention_output_lean in bindings.cpp). Returns
  // undefined when the core rejects the input, for the general path to say why.
  function attentionOutputLean(o) {
    const q = o.query, k = o.key, v = o.value, size = q.rows * v.cols;
    const qn = lengthOf(q.data), kn = lengthOf(k.data), vn = lengthOf(v.data), total = qn + kn + vn + size;
    // a length changed by a getter since the check: the general path says so
    if (qn !== q.rows * q.cols || kn !== k.rows * k.cols || vn !== v.rows * v.cols) return undefined;
    if (total > INT32_MAX / 4) return undefined;
    const base = Module['_malloc'](4 * total);
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
      Module['_free'](base);
    }
  }

  Module['attention'] = function attention(options) {
    const fn = 'attention', kept = keepFloat32;
    keepFloat32 = true;
    let o;
    try {
      o = check(fn, 'options', options, schemas.attention);
    } finally {
      keepFloat32 = kept;
    }
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
  Module['selfAttention'] = function selfAttention(options) {
    const o = projectionWidths(check('selfAttention', 'options', options, schemas.selfAttention));
    return call('selfAttention', 'raw_projected_attention', o);
  };
  Module['crossAttention'] = function crossAttention(options) {
    const o = projectionWidths(check('crossAttention', 'options', options, schemas.crossAttention));
    return call('crossAttention', 'raw_projected_attention', o);
  };
  Module['multiHeadAttention'] = function multiHeadAttention(options) {
    const o = check('multiHeadAttention', 'options', options, schemas.multiHeadAttention);
    if (o.dModel === undefined) o.dModel = o.input.cols;
    if (o.seed === undefined) o.seed = 0;
    return call('multiHeadAttention', 'raw_multi_head_attention', o);
  };
  Module['conditionalAttention'] = function conditionalAttention(options) {
    const o = projectionWidths(check('conditionalAttention', 'options', options, schemas.conditionalAttention));
    if (o.fusion === undefined) o.fusion = 'concat';
    return call('conditionalAttention', 'raw_conditional_attention', o);
  };
  Module['positionalEncoding'] = function positionalEncoding(n, d) {
    return call('positionalEncoding', 'raw_positional_encoding',
                { n: kinds.int('positionalEncoding', 'n', n), d: kinds.int('positionalEncoding', 'd', d) });
  };
  Module['addPositionalEncoding'] = function addPositionalEncoding(input) {
    return call('addPositionalEncoding', 'raw_add_positional_encoding',
                { input: kinds.matrix('addPositionalEncoding', 'input', input) });
  };
  Module['permuteMap'] = function permuteMap(map, order) {
    const fn = 'permuteMap';
    const m = kinds.matrix(fn, 'map', map);
    if (!isNumericArray(order)) fail(fn, 'order must be an array of indices, got ' + describe(order));
    const indices = new Int32Array(order.length);
    for (let i = 0; i < order.length; i++) indices[i] = kinds.int(fn, 'order[' + i + ']', order[i]);
    return call(fn, 'raw_permute_map', { map: m, order: indices });
  };
  Module['maxAbsDifference'] = function maxAbsDifference(a, b) {
    const fn = 'maxAbsDifference';
    return call(fn, 'raw_max_abs_difference', { a: kinds.matrix(fn, 'a', a), b: kinds.matrix(fn, 'b', b) });
  };
  Module['kernelRegression'] = function kernelRegression(options) {
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
    if (o.sigma !== undefined) {  // shorthand for params.sigma
      if (o.params && o.params.sigma !== undefined) fail(fn, 'give sigma or params.sigma, not both');
      o.params = Object.assign({}, o.params, { sigma: o.sigma });
    }
    return call(fn, 'raw_kernel_regression', o);
  };
  Module['costModel'] = function costModel(options) {
    const o = check('costModel', 'options', options, schemas.costModel);
    if (o.k === undefined) o.k = 3;
    return call('costModel', 'raw_cost_model', o);
  };
  Module['entropy'] = function entropy(weights) {
    return call('entropy', 'raw_entropy', { weights: kinds.matrix('entropy', 'weights', weights) });
  };
  Module['sigmoid'] = function sigmoid(x) {
    return call('sigmoid', 'raw_sigmoid', { x: kinds.matrix('sigmoid', 'x', x) });
  };
  Module['embedTokens'] = function embedTokens(options) {
    const o = check('embedTokens', 'options', options, schemas.embedTokens);
    if (o.seed === undefined) o.seed = 0;
    return call('embedTokens', 'raw_embed_tokens', o);
  };
  Module['dotProductSamples'] = function dotProductSamples(options) {
    const o = check('dotProductSamples', 'options', options, schemas.dotProductSamples);
    if (o.count === undefined) o.count = 2000;
    if (o.seed === undefined) o.seed = 0;
    return call('dotProductSamples', 'raw_dot_product_samples', o);
  };
  Module['histogram'] = function histogram(options) {
    return call('histogram', 'raw_histogram', check('histogram', 'options', options, schemas.histogram));
  };
  // least squares: { slope, intercept, rSquared } of y = slope x + intercept
  Module['fitLine'] = function fitLine(xs, ys) {
    const fn = 'fitLine';
    return call(fn, 'raw_fit_line', { xs: kinds.vector(fn, 'xs', xs), ys: kinds.vector(fn, 'ys', ys) });
  };
  // The pretrained encoder (a model file from web/model/). Resolves to an
  // object whose encode(text) returns the pieces, the words, every layer's
  // and head's attention over pieces and over words, and the sentence
  // embedding; delete() frees its weights (about 28 MB of the heap).
  Module['loadEncoder'] = function loadEncoder(bytes) {
    return new Promise((resolve) => {
      const fn = 'loadEncoder';
      let view = bytes;
      if (view instanceof ArrayBuffer) view = new Uint8Array(view);
      if (!(view instanceof Uint8Array)) fail(fn, 'bytes must be a Uint8Array or an ArrayBuffer of a model file, got ' + describe(bytes));
      const info = call(fn, 'raw_encoder_load', { bytes: view });
      let handle = info.handle;
      delete info.handle;
      resolve(Object.freeze({
        info: Object.freeze(info),
        // text: a sentence; it is NFKC-normalised first, as the tokenizer was trained
        encode(text) {
          if (handle === 0) fail('encode', 'this encoder was deleted');
          const normalized = kinds.string('encode', 'text', text).normalize('NFKC');
          return call('encode', 'raw_encoder_encode', { handle, text: normalized });
        },
        delete() {
          if (handle !== 0) call('delete', 'raw_encoder_delete', { handle });
          handle = 0;
        },
      }));
    });
  };
  Module['initXavier'] = function initXavier(rows, cols, seed, stream) {
    const fn = 'initXavier';
    return call(fn, 'raw_init_xavier', {
      rows: kinds.int(fn, 'rows', rows), cols: kinds.int(fn, 'cols', cols), seed: kinds.seed(fn, 'seed', seed),
      stream: stream === undefined ? 0 : kinds.seed(fn, 'stream', stream),
    });
  };
  // { heapBytes: size of the WASM memory, allocatedBytes: bytes malloc holds now }
  Module['memoryStats'] = function memoryStats() {
    return Module['raw_memory_stats']();
  };
})(Module);
