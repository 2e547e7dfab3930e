// The page's order (the list of widgets, web/widgets/list.js, from which
// page/app.js builds the sections of web/index.html): no section before one it
// builds on (web/widgets/prerequisites.js); the README's widget table, the
// widgets' reference in docs/embedding.md and the page's sections list the
// widgets in the same order, the glossary last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { BUILDS_ON } from '../../web/widgets/prerequisites.js';
import { WIDGETS } from '../../web/widgets/list.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const widgets = [...WIDGETS];
const page = read('web/index.html');
const sections = [...page.matchAll(/<section class="section[^"]*" id="([\w-]+)"/g)].map((m) => m[1]);

test('every widget is listed once, with its folder, and every name in the list of prerequisites is a widget', () => {
  assert.equal(new Set(widgets).size, widgets.length, 'each widget once');
  for (const name of widgets) assert.ok(existsSync(new URL(`../../web/widgets/${name}/widget.js`, import.meta.url)), `web/widgets/${name}/widget.js`);
  for (const [name, before] of Object.entries(BUILDS_ON)) {
    assert.ok(widgets.includes(name), name);
    for (const other of before) assert.ok(widgets.includes(other) && other !== name, `${name}: ${other}`);
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
  // index.html holds no widget's section (app.js builds them from the list, before the glossary): the glossary is its last
  assert.deepEqual(sections, ['glossary'], 'the sections of index.html: the glossary alone');
  assert.doesNotMatch(page, /data-widget=/, 'no widget named in index.html');
});
