// The hand-written types (web/wasm/attention.d.mts) agree with the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

test('the interface lists exactly the functions and properties the module defines', () => {
  const dts = readFileSync(root + 'web/wasm/attention.d.mts', 'utf8');
  const body = dts.slice(dts.indexOf('export interface AttentionModule'));
  const members = body.slice(0, body.indexOf('\n}'));
  // functions (an overloaded one once) and the readonly properties (debug, AttentionError)
  const functions = [...new Set([...members.matchAll(/^  (\w+)(?:<[^>]*>)?\(/gm)].map((m) => m[1]))].sort();
  const properties = [...members.matchAll(/^  readonly (\w+):/gm)].map((m) => m[1]).sort();
  assert.deepEqual(properties, ['AttentionError', 'debug']);
  const api = readFileSync(root + 'cpp/api.js', 'utf8');
  const defined = [...api.matchAll(/api\['(\w+)'\] = function/g)].map((m) => m[1]);
  assert.deepEqual(functions, [...defined].sort());
  for (const name of functions) assert.equal(typeof att[name], 'function', name);
  assert.deepEqual(Object.keys(att).sort(), [...functions, ...properties].sort(), 'the module holds exactly what is declared');
  assert.deepEqual(Object.keys(att.debug).sort(), ['handles', 'memoryStats']);
});
