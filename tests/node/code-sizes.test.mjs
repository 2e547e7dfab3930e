// The sizes the hand-written code keeps to (scripts/code-sizes.mjs): no source
// file over 400 lines, no function of the core (cpp/), the facade (cpp/facade/)
// or the page (web/) over 80. The measure itself is checked on the functions it must find.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileLines, functionLines } from '../../scripts/code-sizes.mjs';

test('no hand-written source file is over 400 lines', () => {
  const files = fileLines();
  assert.ok(files.length > 100 && files.some((f) => f.path === 'cpp/attention/language_model/model.cpp'), `${files.length} files read`);
  assert.deepEqual(files.filter((f) => f.lines > 400).map((f) => `${f.path}: ${f.lines}`), []);
});

test('no function of the core, the facade or the page is over 80 lines', () => {
  const functions = functionLines();
  // the measure sees C++ member functions and JS functions alike
  assert.ok(functions.some((f) => f.path === 'cpp/attention/language_model/training.cpp' && f.name === 'LanguageModel::forward' && f.lines > 40));
  assert.ok(functions.some((f) => f.path === 'web/widgets/language-model/widget.js' && f.name === 'build' && f.lines > 40));
  // and the facade's, each file of cpp/facade/
  assert.ok(functions.some((f) => f.path === 'cpp/facade/kinds.js' && f.name === 'matrix' && f.lines > 10));
  assert.deepEqual(functions.filter((f) => f.lines > 80).map((f) => `${f.path}:${f.start} ${f.name}: ${f.lines}`), []);
});
