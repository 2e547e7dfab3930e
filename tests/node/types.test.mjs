// The hand-written types (web/wasm/*.d.mts) agree with the module: its
// functions, and the options of each against the facade's schema of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { att } from './module.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = root + 'node_modules/typescript/bin/tsc';

function compile(args) {
  return spawnSync(process.execPath, [tsc, ...args], { cwd: root + 'tests/types', encoding: 'utf8' });
}

test('the documented uses of every function type-check under strict tsc', () => {
  const r = compile(['-p', 'tsconfig.json']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('misuse does not type-check (the types are not any)', () => {
  const r = compile(['--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', 'misuse.mts']);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout, /"cosine"/);
  assert.match(r.stdout, /key/);
  assert.match(r.stdout, /"sort"/);
  assert.match(r.stdout, /misuse\.mts\(8,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);  // width: '0.1'
});

test('the interface lists exactly the functions and properties the module defines', async () => {
  const dts = readFileSync(root + 'web/wasm/attention.d.mts', 'utf8');
  const body = dts.slice(dts.indexOf('export interface AttentionModule'));
  const members = body.slice(0, body.indexOf('\n}'));
  // functions (an overloaded one once) and the readonly properties (debug, AttentionError)
  const functions = [...new Set([...members.matchAll(/^  (\w+)(?:<[^>]*>)?\(/gm)].map((m) => m[1]))].sort();
  const properties = [...members.matchAll(/^  readonly (\w+):/gm)].map((m) => m[1]).sort();
  assert.deepEqual(properties, ['AttentionError', 'debug']);
  // the functions the attention module's facade makes (cpp/facade/attention-module.js: these three tables)
  const defined = [];
  for (const file of ['attention.js', 'figures.js', 'parts.js'])
    defined.push(...Object.keys((await import(pathToFileURL(root + 'cpp/facade/' + file).href)).FUNCTIONS));
  assert.deepEqual(functions, [...defined].sort());
  for (const name of functions) assert.equal(typeof att[name], 'function', name);
  assert.deepEqual(Object.keys(att).sort(), [...functions, ...properties].sort(), 'the module holds exactly what is declared');
  assert.deepEqual(Object.keys(att.debug).sort(), ['handles', 'memoryStats']);
});

// ---- the types against the facade's schemas (cpp/facade/*.js) -------------
// Every schema of the facade, by the name its messages give the function
// ('attention', 'languageModel.generate'): each file's `schemas` (the module
// entries, *-module.js, import the linked factory and hold none).
async function facadeSchemas() {
  const folder = root + 'cpp/facade/';
  const all = {};
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.js') && !f.endsWith('-module.js')).sort()) {
    const { schemas } = await import(pathToFileURL(folder + file).href);
    Object.assign(all, schemas);
  }
  return all;
}

// The declared types of web/wasm/attention.d.mts and the files it re-exports, read by tsc's checker
function declarations() {
  const require = createRequire(import.meta.url);
  const ts = require('typescript');
  const file = root + 'web/wasm/attention.d.mts';
  const program = ts.createProgram([file], {
    strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022, types: [],
  });
  const checker = program.getTypeChecker();
  const exported = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)))
    .map((symbol) => [symbol.name, symbol]));
  const typeOf = (symbol) => checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, symbol.valueDeclaration ?? symbol.declarations[0]));
  // the type of the options of fn: the last parameter of its method ('attention': of AttentionModule's
  // last overload; 'languageModel.generate': of LanguageModel's generate)
  const optionsOf = (fn) => {
    const [owner, method] = fn.includes('.') ? [fn[0].toUpperCase() + fn.slice(1, fn.indexOf('.')), fn.slice(fn.indexOf('.') + 1)]
      : ['AttentionModule', fn];
    const symbol = exported.get(owner);
    assert.ok(symbol, `${fn}: no interface ${owner} in the types`);
    const member = checker.getDeclaredTypeOfSymbol(symbol).getProperty(method);
    assert.ok(member, `${fn}: ${owner} has no ${method}`);
    const signatures = typeOf(member).getCallSignatures();
    const parameters = signatures[signatures.length - 1].getParameters();
    return typeOf(parameters[parameters.length - 1]);
  };
  // { name: { optional, type, text, doc } } of an object type
  const propertiesOf = (type) => Object.fromEntries(checker.getPropertiesOfType(type).map((p) => [p.name, {
    optional: (p.flags & ts.SymbolFlags.Optional) !== 0, type: typeOf(p), text: checker.typeToString(typeOf(p)),
    doc: ts.displayPartsToString(p.getDocumentationComment(checker)),
  }]));
  return { exported, checker, optionsOf, propertiesOf };
}

// the TypeScript types each kind of schema.js accepts
const TYPED_AS = {
  matrix: ['MatrixLike'], vector: ['VectorLike', 'NumericArray'], mask: ['MaskLike'], number: ['number'], int: ['number'], seed: ['number'],
  boolean: ['boolean'], strings: ['string[]', 'readonly string[]'], float64s: ['NumericArray'], indices: ['number[] | Int32Array<ArrayBufferLike>', 'number[] | Int32Array'],
};
const typedAs = (kind, { type, text }) => (kind === 'string'
  ? text === 'string' || (type.isUnion() && type.types.every((t) => t.isStringLiteral()))
  : TYPED_AS[kind].includes(text));
// a default as the types' comments write it: 1, 0.01, 'concat', false
const literal = (value) => (typeof value === 'string' ? `'${value}'` : String(value));
const documents = (doc, value) => new RegExp(`\\bdefault:? ${literal(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.])`).test(doc);

// The differences between a schema and the type of the options it checks (label: where, in messages)
function schemaAgainstType(label, schema, type, d) {
  const problems = [];
  const properties = d.propertiesOf(type);
  const declared = Object.keys(properties).sort(), checked = Object.keys(schema).sort();
  if (declared.join() !== checked.join()) problems.push(`${label}: the schema checks ${checked.join(', ')}; the type declares ${declared.join(', ')}`);
  for (const [key, entry] of Object.entries(schema)) {
    const p = properties[key];
    if (!p) continue;
    if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      problems.push(...schemaAgainstType(`${label}.${key}`, entry, p.type, d));
      continue;
    }
    const [name, fallback] = Array.isArray(entry) ? entry : [entry, undefined];
    const kind = name.replace('!', '');
    if (p.optional !== !name.endsWith('!')) problems.push(`${label}.${key}: ${p.optional ? 'optional' : 'required'} in the type, not in the schema`);
    if (!typedAs(kind, p)) problems.push(`${label}.${key}: a ${kind} in the schema, ${p.text} in the type`);
    if (fallback !== undefined && !documents(p.doc, fallback)) problems.push(`${label}.${key}: its comment does not say "default ${literal(fallback)}"`);
  }
  return problems;
}

test('the types declare every option of every schema of the facade: its name, required or not, its kind, its default', async () => {
  const schemas = await facadeSchemas();
  assert.ok(Object.keys(schemas).length >= 20 && schemas.createTrainer && schemas['languageModel.generate'], Object.keys(schemas).join());
  const d = declarations();
  const problems = Object.entries(schemas).flatMap(([fn, schema]) => schemaAgainstType(fn, schema, d.optionsOf(fn), d));
  assert.deepEqual(problems, []);
  // the check itself sees a drift: an option the types lack, a kind they do not take, a default they do not say
  const softmax = d.optionsOf('softmax');
  assert.deepEqual(schemaAgainstType('softmax', { temperature: ['number', 2], mask: 'mask', axis: 'int' }, softmax, d), [
    'softmax: the schema checks axis, mask, temperature; the type declares mask, temperature',
    'softmax.temperature: its comment does not say "default 2"',
  ]);
  assert.deepEqual(schemaAgainstType('softmax', { temperature: 'string', mask: 'mask!' }, softmax, d),
    ['softmax.temperature: a string in the schema, number in the type', 'softmax.mask: optional in the type, not in the schema']);
});

test('the defaults the types document for the trainers and the language model are the core\'s (info().options)', async () => {
  const d = declarations();
  const created = [
    ['TrainerOptions', await att.createTrainer()], ['WidthTrainerOptions', await att.createWidthTrainer()],
    ['LanguageModelOptions', await att.createLanguageModel({ texts: ['abc'], heldOut: [] })],
  ];
  for (const [name, object] of created) {
    const { options } = object.info();
    object.delete();
    const properties = d.propertiesOf(d.checker.getDeclaredTypeOfSymbol(d.exported.get(name)));
    for (const [key, value] of Object.entries(options)) {
      const said = /\(default ('[^']*'|[\w.+-]+)/.exec(properties[key]?.doc ?? '');
      assert.ok(said, `${name}.${key}: no "(default …)" in its comment`);
      assert.equal(said[1].startsWith("'") ? said[1].slice(1, -1) : said[1] === 'true' || said[1] === 'false' ? said[1] === 'true' : Number(said[1]),
        value, `${name}.${key}`);
    }
  }
});
