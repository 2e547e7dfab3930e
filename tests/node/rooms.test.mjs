// The shape of the core and its bindings (ARCHITECTURE.md, "The core"): the
// rooms of cpp/attention/ include only the rooms below them and the shared
// files at the top, the top knows no room, each module's Embind declarations
// are one file with no #if choosing the module, and no file stands beside a
// folder of the same name in cpp/ and bench/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '../../scripts/code-sizes.mjs';

const top = fileURLToPath(new URL('../..', import.meta.url));
const read = (path) => readFileSync(resolve(top, path), 'utf8');
const CORE = 'cpp/attention/';
// each room's level: a room includes only rooms of a lower level (ARCHITECTURE.md's drawing)
const LEVEL = { kernels: 0, mechanism: 1, measures: 2, training: 3, io: 3, encoder: 4, language_model: 4 };
const UMBRELLA = 'cpp/attention/attention_all.hpp';  // every room's headers, for the bindings and the tests

const roomOf = (path) => {  // 'top' for cpp/attention/x.hpp, else the folder under cpp/attention/
  const rest = path.slice(CORE.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : 'top';
};
const coreIncludes = (path) => [...read(path).matchAll(/#include "attention\/([\w/]+\.hpp)"/g)].map((m) => CORE + m[1]);
const coreFiles = () => sourceFiles().filter((path) => path.startsWith(CORE) && /\.(c|h)pp$/.test(path));

test('every file of the core is in a room it names, or at the top, shared', () => {
  const files = coreFiles();
  assert.ok(files.length > 80, `${files.length} core files read`);
  assert.deepEqual(files.map(roomOf).filter((room) => room !== 'top' && !(room in LEVEL)), [], 'rooms the drawing has not');
  // a file at the top is there because rooms below and above need it: at least one room includes it
  const included = new Set(files.filter((path) => roomOf(path) !== 'top').flatMap(coreIncludes));
  const unshared = files.filter((path) => roomOf(path) === 'top' && path !== UMBRELLA && path.endsWith('.hpp') &&
    !included.has(path));
  assert.deepEqual(unshared, [], 'headers at the top that no room includes');
});

test('a room includes the top and the rooms below it, never one beside or above it', () => {
  const wrong = [];
  for (const path of coreFiles().filter((p) => p !== UMBRELLA)) {
    const from = roomOf(path);
    for (const header of coreIncludes(path)) {
      const to = roomOf(header);
      const ok = to === 'top' ? true : from === 'top' ? false : to === from || LEVEL[to] < LEVEL[from];
      if (!ok) wrong.push(`${path} -> ${header}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('each module is declared by one file of cpp/bindings/, with no #if choosing the module', () => {
  const declaring = sourceFiles().filter((path) => path.startsWith('cpp/') && path.endsWith('.cpp') &&
    read(path).includes('EMSCRIPTEN_BINDINGS('));
  const blocks = Object.fromEntries(declaring.map((path) =>
    [path, [...read(path).matchAll(/EMSCRIPTEN_BINDINGS\((\w+)\)/g)].map((m) => m[1])]));
  assert.deepEqual(blocks, {
    'cpp/bindings/attention.cpp': ['attention'],
    'cpp/bindings/encoder.cpp': ['attention_encoder'],
    'cpp/bindings/memory_stats.cpp': ['memory_stats'],
    'cpp/bindings/training.cpp': ['attention_training'],
  });
  for (const path of declaring) assert.doesNotMatch(read(path), /^\s*#\s*(if|elif|ifdef)\b/m, path);
});

test('no file stands beside a folder of the same name in cpp/ and bench/', () => {
  const files = execFileSync('git', ['ls-files', 'cpp', 'bench'], { cwd: top, encoding: 'utf8' }).split('\n').filter(Boolean);
  const folders = new Set(files.map((path) => dirname(path)));
  const pairs = files.filter((path) => folders.has(path.replace(/\.[^/.]+$/, '')));
  assert.deepEqual(pairs, []);
});
