// Every widget speaks both languages: the English and Chinese tables have the
// same keys, and every label its controls and quiz use resolves in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { common, LANGUAGES } from '../../web/i18n.js';
import { page } from '../../web/page-strings.js';
import { WIDGETS } from '../../web/widgets/index.js';

// A label resolves when the table has it, or when it is a literal (a number, a formula).
const literal = (label) => /^[\d\s.,/()·×−+-]+$/.test(label) || /^[^a-zA-Z]*$/.test(label);

test('the page text and the common strings exist in every language', () => {
  for (const table of [page, common]) {
    const en = Object.keys(table.en).sort();
    for (const lang of LANGUAGES) assert.deepEqual(Object.keys(table[lang]).sort(), en, lang);
  }
});

for (const [name, load] of Object.entries(WIDGETS)) {
  test(`widget ${name}: both languages, every label`, async () => {
    const def = await load();
    assert.equal(def.name, name);
    const en = Object.keys(def.strings.en).sort();
    assert.deepEqual(Object.keys(def.strings.zh).sort(), en, 'the same keys in en and zh');
    for (const key of ['title', 'intro']) assert.ok(key in def.strings.en, `has ${key}`);
    for (const lang of LANGUAGES) {
      const has = (label) => label in def.strings[lang] || label in common[lang] || literal(label);
      const labels = def.controls.filter((c) => !c.hidden).flatMap((c) => [c.label, ...(c.options ?? []).map((o) => o.label),
        ...(c.presets ?? []).flatMap((p) => [p.label, p.value]), ...(c.unit ? [c.unit] : [])]);
      if (def.quiz) labels.push(def.quiz.question, ...def.quiz.options.map((o) => o.label));
      for (const label of labels) assert.ok(has(label), `${lang}: "${label}" has no string`);
      for (const key of en) assert.ok(String(def.strings[lang][key]).trim().length > 0, `${lang}: "${key}" is empty`);
    }
    // a default for every control, valid for it
    for (const c of def.controls) assert.ok(c.key in def.defaults, `default for ${c.key}`);
  });
}
