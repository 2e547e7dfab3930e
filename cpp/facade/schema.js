// The declarative schemas of the JS API's options. A schema is
//   { key: kind | 'kind!' | [kind, default] | nested schema }
// each key the option's one name, a kind from kinds.js; '!' marks it required,
// [kind, default] gives the default that check() fills in when it is absent
// (written here once; a default of the core's option structs stays the core's).
//   check('softmax', 'options', { temperature: 2 }, { temperature: ['number', 1], mask: 'mask' })
//     -> { temperature: 2 }
// Unknown keys are errors (a typo must not be ignored silently); undefined
// values count as absent; inherited keys are not read. tests/node/types.test.mjs
// checks the types in web/wasm/*.d.mts against these schemas.
import { fail } from './error.js';
import { describe, kinds, own } from './kinds.js';

// a schema as a list of { key, kind, required, fallback, schema }, made once per schema
// (a call of the API reads its schema's kinds without building strings)
const compiledSchemas = new WeakMap();

function field(key, entry) {
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry))
    return { key, kind: null, required: false, fallback: undefined, schema: entry };
  const [name, fallback] = Array.isArray(entry) ? entry : [entry, undefined];
  const kind = kinds[name.replace('!', '')];
  if (!kind) throw new Error('schema: no kind ' + name + ' for ' + key);
  return { key, kind, required: name.endsWith('!'), fallback, schema: null };
}

export function fields(schema) {
  let list = compiledSchemas.get(schema);
  if (!list) {
    list = Object.keys(schema).map((key) => field(key, schema[key]));
    compiledSchemas.set(schema, list);
  }
  return list;
}

// options checked against schema: their canonical form, defaults filled in.
// name: what the message calls the object ('options'; a nested one: 'options.params' is 'params')
export function check(fn, name, options, schema) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail(fn, name + ' must be an object, got ' + describe(options));
  for (const key of Object.keys(options)) {
    if (!Object.prototype.hasOwnProperty.call(schema, key))
      fail(fn, 'unknown option ' + JSON.stringify(key) + ' in ' + name + ' (known: ' + Object.keys(schema).join(', ') + ')');
  }
  const out = {};
  for (const f of fields(schema)) {
    const value = own(options, f.key);
    const label = name === 'options' ? f.key : name + '.' + f.key;
    if (value === undefined) {
      if (f.required) fail(fn, label + ' is required');
      if (f.fallback !== undefined) out[f.key] = f.fallback;
      continue;
    }
    out[f.key] = f.kind ? f.kind(fn, label, value) : check(fn, label, value, f.schema);
  }
  return out;
}
