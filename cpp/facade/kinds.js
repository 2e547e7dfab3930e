// The kinds of argument the JS API takes: each checks one JS value and returns
// its canonical form (matrices as { rows, cols, data: Float32Array }, masks as
// Uint8Array; every user value read once, own properties only), or throws an
// AttentionError BAD_ARGUMENT naming the function and the argument:
//   kinds.matrix('attention', 'query', [[1, 2], [3]])
//     -> "attention: query row 1 has 1 entries but row 0 has 2"
// schema.js runs them over an options object.
import { fail } from './error.js';

export const INT32_MAX = 2147483647;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// a value as a message shows it: "null", "an array", "a Float64Array", "3", "the string \"x\"", "object"
export function describe(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (ArrayBuffer.isView(x)) return 'a ' + x.constructor.name;
  if (typeof x === 'number') return String(x);
  if (typeof x === 'string') return 'the string ' + JSON.stringify(x.length > 40 ? x.slice(0, 40) + '…' : x);
  return typeof x;
}

export const own = (object, key) => (Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined);

export function isNumericArray(x) {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView) &&
                              !(typeof BigInt64Array !== 'undefined' && x instanceof BigInt64Array) &&
                              !(typeof BigUint64Array !== 'undefined' && x instanceof BigUint64Array));
}

// %TypedArray%.prototype.length: the length a typed array really has (a
// subclass or an own property cannot fake it)
const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;
export const lengthOf = (xs) => (ArrayBuffer.isView(xs) ? typedLength.call(xs) : xs.length);

// Set by attention() while it checks its options (keepingFloat32): a plain
// Float32Array is then taken as it is instead of copied (each copy cost
// 1.5 us, a tenth of a small call). attention() copies it into the heap, or
// into a new array for Embind, once every option has been read, and checks
// its length again then.
let keepFloat32 = false;
export function keepingFloat32(f) {
  const kept = keepFloat32;
  keepFloat32 = true;
  try {
    return f();
  } finally {
    keepFloat32 = kept;
  }
}

// Copies numbers into a new Type (Float32Array or Float64Array), rejecting anything that is not a number.
function toNumbers(fn, name, xs, Type) {
  if (ArrayBuffer.isView(xs)) {  // holds numbers only: one native copy
    if (keepFloat32 && Object.getPrototypeOf(xs) === Float32Array.prototype && Type === Float32Array) return xs;
    return new Type(xs);
  }
  const out = new Type(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (typeof x !== 'number') fail(fn, name + '[' + i + '] must be a number, got ' + describe(x));
    out[i] = x;
  }
  return out;
}

export function checkLength(fn, name, rows, cols, length) {
  if (length !== rows * cols)
    fail(fn, name + '.data has ' + length + ' entries but rows * cols = ' + rows + ' * ' + cols + ' = ' + rows * cols);
}

function checkSize(fn, name, x) {
  if (!Number.isInteger(x) || x < 1) fail(fn, name + ' must be a positive integer, got ' + describe(x));
  if (x > INT32_MAX) fail(fn, name + ' is too large: ' + x);
}

// row i of nested rows, or fn's Error when it is not an array of cols entries
function checkRow(fn, name, row, i, cols) {
  if (!Array.isArray(row) || row.length !== cols)
    fail(fn, name + ' row ' + i + ' has ' + (Array.isArray(row) ? row.length + ' entries' : describe(row)) +
         ' but row 0 has ' + cols);
  return row;
}

const isNested = (x) => Array.isArray(x) && x.length > 0 && Array.isArray(x[0]);

// Argument kinds: each checks one value and returns its canonical form. (Each
// its own export, so that a module bundles only the kinds it uses: the
// encoder's takes string alone.)
// { rows, cols, data }, or nested arrays [[...], ...], or one row as a flat array
export function matrix(fn, name, x) {
  if (isNested(x)) {
    const rows = x.length, cols = x[0].length;
    checkSize(fn, name + ' columns', cols);
    const data = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++)  // indexed: a hole in a sparse array is an error, not skipped
      data.set(toNumbers(fn, name + '[' + i + ']', checkRow(fn, name, x[i], i, cols), Float32Array), i * cols);
    return { rows, cols, data };
  }
  if (isNumericArray(x)) {
    if (x.length === 0) fail(fn, name + ' is empty');
    return { rows: 1, cols: x.length, data: toNumbers(fn, name, x, Float32Array) };
  }
  if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x))
    fail(fn, name + ' must be a matrix { rows, cols, data }, got ' + describe(x));
  const rows = own(x, 'rows'), cols = own(x, 'cols'), given = own(x, 'data');  // each read once
  checkSize(fn, name + '.rows', rows);
  checkSize(fn, name + '.cols', cols);
  if (!isNumericArray(given))
    fail(fn, name + '.data must be a Float32Array or an array of numbers, got ' + describe(given));
  const data = toNumbers(fn, name + '.data', given, Float32Array);
  checkLength(fn, name, rows, cols, lengthOf(data));
  return { rows, cols, data };
}

export function vector(fn, name, x) {
  if (!isNumericArray(x)) fail(fn, name + ' must be a Float32Array or an array of numbers, got ' + describe(x));
  if (x.length === 0) fail(fn, name + ' is empty');
  return toNumbers(fn, name, x, Float32Array);
}

// numbers kept in double (the width trainer computes in double)
export function float64s(fn, name, x) {
  if (!isNumericArray(x)) fail(fn, name + ' must be a Float64Array or an array of numbers, got ' + describe(x));
  return toNumbers(fn, name, x, Float64Array);
}

// one entry per (query, key), row-major; non-zero or true = may attend
// like a matrix: flat (row-major), nested rows, or { rows, cols, data } (a result's mask)
export function mask(fn, name, x) {
  if (isNested(x)) {
    for (let i = 0; i < x.length; i++) checkRow(fn, name, x[i], i, x[0].length);
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
}

// a finite number that float32 can hold (the core computes in float32)
export function number(fn, name, x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) fail(fn, name + ' must be a finite number, got ' + describe(x));
  if (!Number.isFinite(Math.fround(x))) fail(fn, name + ' = ' + x + ' is beyond the float32 range');
  if (x !== 0 && Math.fround(x) === 0) fail(fn, name + ' = ' + x + ' is too small for float32');
  return x;
}

export function int(fn, name, x) {
  if (!Number.isInteger(x)) fail(fn, name + ' must be an integer, got ' + describe(x));
  if (Math.abs(x) > INT32_MAX) fail(fn, name + ' is too large: ' + x);
  return x;
}

export function seed(fn, name, x) {
  if (!Number.isSafeInteger(x) || x < 0) fail(fn, name + ' must be a non-negative integer, got ' + describe(x));
  return x;
}

export function boolean(fn, name, x) {
  if (typeof x !== 'boolean') fail(fn, name + ' must be true or false, got ' + describe(x));
  return x;
}

// a string; a lone surrogate becomes U+FFFD (as UTF-8 cannot carry it,
// the conversion to C++ would otherwise fuse it with the next character)
export function string(fn, name, x) {
  if (typeof x !== 'string') fail(fn, name + ' must be a string, got ' + describe(x));
  return x.replace(LONE_SURROGATE, '\ufffd');
}

// an array of strings (tokens), copied
export function strings(fn, name, x) {
  if (!Array.isArray(x)) fail(fn, name + ' must be an array of strings, got ' + describe(x));
  const out = new Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = string(fn, name + '[' + i + ']', x[i]);
  return out;
}

// row indices: an array of integers from 0 (Int32Array)
export function indices(fn, name, x) {
  if (!isNumericArray(x)) fail(fn, name + ' must be an array of row indices, got ' + describe(x));
  const out = new Int32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (!Number.isInteger(v) || v < 0 || v > INT32_MAX) fail(fn, name + '[' + i + '] must be an integer from 0, got ' + describe(v));
    out[i] = v;
  }
  return out;
}

// every kind by its name in a schema (schema.js)
export const kinds = { matrix, vector, float64s, mask, number, int, seed, boolean, string, strings, indices };
