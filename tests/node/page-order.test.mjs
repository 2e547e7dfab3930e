// The page's order (web/index.html): no section before one it builds on
// (web/widgets/prerequisites.js); the README's widget table, the widgets'
// reference in docs/embedding.md and the page's sections list the widgets in
// the same order, the glossary last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BUILDS_ON } from '../../web/widgets/prerequisites.js';
import { WIDGETS } from '../../web/widgets/index.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const sections = [...read('web/index.html').matchAll(/<section class="section[^"]*" id="([\w-]+)"/g)].map((m) => m[1]);
const widgets = sections.filter((id) => id in WIDGETS);

test('every widget has one section, and every name in the list of prerequisites is a widget', () => {
  assert.deepEqual([...widgets].sort(), Object.keys(WIDGETS).sort());
  for (const [name, before] of Object.entries(BUILDS_ON)) {
    assert.ok(name in WIDGETS, name);
    for (const other of before) assert.ok(other in WIDGETS && other !== name, `${name}: ${other}`);
  }
});

test('no section comes before a section it builds on', () => {
  const at = (name) => widgets.indexOf(name);
  const late = Object.entries(BUILDS_ON).flatMap(([name, before]) => before.filter((other) => at(other) > at(name))
    .map((other) => `${name} (section ${at(name) + 1}) uses what ${other} (section ${at(other) + 1}) teaches`));
  assert.deepEqual(late, []);
});

test('the README\'s widget table and the reference in docs/embedding.md follow the page\'s order; the glossary ends the page', () => {
  const rows = [...read('README.md').matchAll(/^\| \[`([\w-]+)`\]\(docs\/embedding\.md#[\w-]+\) \|/gm)].map((m) => m[1]);
  assert.deepEqual(rows, widgets, 'README.md');
  const reference = [...read('docs/embedding.md').matchAll(/^### `([\w-]+)`$/gm)].map((m) => m[1]);
  assert.deepEqual(reference, widgets, 'docs/embedding.md');
  assert.equal(sections.at(-1), 'glossary', 'the glossary is the last section');
});
