// The message catalogs (web/i18n/<lang>.js: common, page, glossary) and each
// widget's words (web/widgets/<id>/<lang>.js, its section): every language has
// the same sections, keys and {placeholders}, no empty message, and no formula written
// with a bare caret or underscore; every key the code asks for exists (found by
// reading the sources: t('…') calls and the widgets' declarative labels); the
// markup of formulas (^{…}, _{…}) comes out as superscripts and subscripts,
// and a placeholder's value is never read as markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { CATALOGS as OWN } from '../../web/i18n/catalogs.js';
import { LANGUAGES, languageTag, loadLanguage, translator, useStrings } from '../../web/i18n/i18n.js';
import { layout, parseMessage, plainText, typeset } from '../../web/i18n/typeset.js';
import { WIDGETS, loadEveryWidget } from '../../web/widgets/list.js';
import { glossaryEntries, splitDefinition } from '../../web/page/glossary.js';

const WEB = new URL('../../web/', import.meta.url);
// every language's whole catalog: its own sections, then every widget's, from the widget's folder
const { definitions: DEFINITIONS, strings: WORDS } = await loadEveryWidget(LANGUAGES);
const CATALOGS = Object.fromEntries(LANGUAGES.map((lang) => [lang, { ...OWN[lang], ...WORDS[lang] }]));
const en = CATALOGS.en;
for (const lang of LANGUAGES) {
  await loadLanguage(lang);  // translator() and the glossary read a loaded catalog
  for (const id of WIDGETS) useStrings(lang, id, WORDS[lang][id]);
}
const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every language has one catalog file, registered, and one file of words beside every widget', () => {
  // (beside the catalogs: i18n.js, which reads them, catalogs.js, which lists them for the
  // embed's bundle, typeset.js, the formula markup, and every-language.js, the messages every catalog includes)
  const files = readdirSync(new URL('i18n/', WEB)).filter((f) => f.endsWith('.js') && !['i18n.js', 'catalogs.js', 'typeset.js', 'every-language.js'].includes(f))
    .map((f) => f.slice(0, -3)).sort();
  assert.deepEqual([...LANGUAGES].sort(), files);
  assert.deepEqual(Object.keys(OWN).sort(), files, 'catalogs.js lists every one');
  assert.ok(LANGUAGES.includes('en') && LANGUAGES.includes('zh'));
  // a widget's words: <lang>.js in its folder for every language (and no file named like a language that is not one)
  for (const id of WIDGETS) {
    const named = readdirSync(new URL(`widgets/${id}/`, WEB)).filter((f) => /^[a-z]{2,3}(-[A-Z][A-Za-z]+)?\.js$/.test(f)).map((f) => f.slice(0, -3)).sort();
    assert.deepEqual(named, files, `widgets/${id}/: one file of words per language`);
  }
});

test('the catalogs have the same sections: common, page, glossary, and one per widget from its folder', () => {
  for (const lang of LANGUAGES) assert.deepEqual(Object.keys(OWN[lang]), ['common', 'page', 'glossary'], `${lang}: the catalog's own sections`);
  assert.deepEqual(Object.keys(en).sort(), ['common', 'glossary', 'page', ...WIDGETS].sort());
  for (const lang of LANGUAGES) assert.deepEqual(Object.keys(CATALOGS[lang]), Object.keys(en), `${lang}: sections in the same order`);
});

// one test per section, the catalog's own and each widget's: its words in every language
for (const section of Object.keys(en)) {
  const where = WIDGETS.includes(section) ? `widgets/${section}/<lang>.js` : `i18n/<lang>.js, ${section}`;
  test(`${where}: the same keys and placeholders as English, no empty message, no bare ^ or _`, () => {
    for (const lang of LANGUAGES) {
      const messages = CATALOGS[lang][section];
      assert.deepEqual(Object.keys(messages).sort(), Object.keys(en[section]).sort(), `${lang}.${section}: keys`);
      for (const [key, text] of Object.entries(messages)) {
        const where = `${lang}.${section}.${key}`;
        assert.equal(typeof text, 'string', where);
        assert.ok(text.trim().length > 0, `${where} is empty`);
        assert.deepEqual(placeholders(text), placeholders(en[section][key]), `${where}: placeholders`);
        // with its placeholders filled, nothing of the markup is left
        const filled = plainText(layout(text, Object.fromEntries(placeholders(text).map((p) => [p, '7']))));
        assert.doesNotMatch(filled, /[\^_]/, `${where}: "${filled}" still shows markup`);
      }
    }
  });
}

test('every widget has a title and an intro; each language has a tag', () => {
  for (const lang of LANGUAGES) {
    for (const name of WIDGETS) for (const key of ['title', 'intro']) assert.ok(key in CATALOGS[lang][name], `${lang}.${name}.${key}`);
    assert.match(languageTag(lang), /^[a-z]{2,3}(-[A-Z][a-zA-Z]+)?$/);
  }
});

// --- every key the code uses exists ---

// The keys a source file asks for: t('key'), t.rich('key'), t.svg('key'), and
// the declarative keys of a widget: label:, question:, unit:, explain:, sub:,
// weight: and preset value: 'key'.
export function keysUsed(source) {
  const keys = new Set();
  for (const m of source.matchAll(/(?<![\w.])t(?:\.rich|\.svg)?\(\s*'([^'\\]+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\b(?:label|question|unit|explain|sub|weight|title):\s*'([^'\\]+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\bexportError\('([^'\\]+)'/g)) keys.add(m[1]);
  for (const m of source.matchAll(/\{\s*value:\s*'(preset\w+)'/g)) keys.add(m[1]);
  // both branches of t(cond ? 'a' : 'b')
  for (const m of source.matchAll(/(?<![\w.])t(?:\.rich|\.svg)?\([^()'`]*\?\s*'([^'\\]+)'\s*:\s*'([^'\\]+)'/g)) keys.add(m[1]).add(m[2]);
  return keys;
}

// A label that is not a key but shown as it is: a number or a symbol, no word.
const literal = (label) => !/\p{L}{2,}/u.test(label);

// file -> the catalog sections its keys come from
function sources() {
  const out = [];
  // the modules beside the widgets (the list, the preset sentences, the names model): common words only
  for (const file of readdirSync(new URL('widgets/', WEB))) if (file.endsWith('.js')) out.push({ file: `widgets/${file}`, sections: ['common'] });
  // each widget's modules (its definition, and its engine, drawing or parts), but its words themselves
  for (const id of WIDGETS) {
    for (const file of readdirSync(new URL(`widgets/${id}/`, WEB))) {
      if (file.endsWith('.js') && !LANGUAGES.includes(file.slice(0, -3))) out.push({ file: `widgets/${id}/${file}`, sections: [id, 'common'] });
    }
  }
  // the frame of every widget: its keys in common, or in the section of every widget (title, intro)
  out.push({ file: 'runtime/runtime.js', sections: ['common', EVERY_WIDGET] });
  for (const file of ['runtime/controls.js', 'runtime/text.js', 'runtime/mount.js', 'encoder/encoder.js', 'encoder/model-widgets.js', 'runtime/export.js'])
    out.push({ file, sections: ['common'] });
  out.push({ file: 'page/app.js', sections: ['page', 'common'] });
  for (const file of readdirSync(new URL('render/', WEB))) out.push({ file: `render/${file}`, sections: ['common'] });
  return out;
}

const EVERY_WIDGET = Symbol('every widget');

export function missingKeys(source, sections, lang = 'en') {
  const in_ = (section, key) => Object.prototype.hasOwnProperty.call(CATALOGS[lang][section] ?? {}, key);
  const has = (key) => sections.some((s) => (s === EVERY_WIDGET ? WIDGETS.every((w) => in_(w, key)) : in_(s, key)));
  return [...keysUsed(source)].filter((key) => !has(key) && !literal(key));
}

test('the scan finds the keys of a source, and a missing key fails it', () => {
  const source = "t('title'); t.rich('intro', { n }); t.svg(\"x\"); { key: 'q', label: 'sigma', unit: 'cm' }; t(ok ? 'thisKeyIsMissing' : 'title'); { label: '160' }";
  assert.deepEqual([...keysUsed(source)].sort(), ['160', 'cm', 'intro', 'sigma', 'thisKeyIsMissing', 'title'].sort());
  assert.deepEqual(missingKeys(source, ['kv-query', 'common']), ['thisKeyIsMissing']);
});

for (const { file, sections } of sources()) {
  test(`every key ${file} uses exists in every language`, () => {
    const source = readFileSync(new URL(file, WEB), 'utf8');
    for (const lang of LANGUAGES) assert.deepEqual(missingKeys(source, sections, lang), [], `${lang}: missing in ${sections.map(String).join(' or ')}`);
  });
}

for (const [name, def] of Object.entries(DEFINITIONS)) {
  test(`widget ${name}: every control, preset and quiz label is a key (or a number)`, () => {
    assert.equal(def.name, name);
    assert.equal(def.strings, undefined, 'no strings of its own');
    const labels = def.controls.filter((c) => !c.hidden).flatMap((c) => [c.label, ...(c.altLabel ? [c.altLabel.label] : []), ...(c.options ?? []).map((o) => o.label),
      ...(c.presets ?? []).flatMap((p) => [p.label, p.value]), ...(c.unit ? [c.unit] : [])]);
    if (def.quiz) labels.push(def.quiz.question, ...def.quiz.options.map((o) => o.label));
    for (const lang of LANGUAGES) {
      for (const label of labels) {
        assert.ok(label in CATALOGS[lang][name] || label in CATALOGS[lang].common || literal(label), `${lang}: "${label}" is not in the catalog`);
      }
    }
    for (const c of def.controls) assert.ok(c.key in def.defaults, `default for ${c.key}`);
  });
}

// --- the markup of formulas ---

// just enough of a document for typeset(): elements with children and text
const fakeDocument = {
  createDocumentFragment: () => fakeNode('#fragment'),
  createTextNode: (text) => ({ name: '#text', text }),
  createElement: (tag) => fakeNode(tag),
  createElementNS: (ns, tag) => fakeNode(tag, ns),
};
function fakeNode(name, ns = null) {
  const node = { name, ns, attributes: {}, children: [], text: '', dataset: {}, addEventListener() {} };
  node.append = (...kids) => node.children.push(...kids);
  node.setAttribute = (k, v) => { node.attributes[k] = v; };
  Object.defineProperty(node, 'textContent', { set(v) { node.text = v; } });
  return node;
}
const shape = (fragment) => fragment.children.map((c) => (c.name === '#text' ? c.text : `<${c.name}>${c.text}`));

test('markup: ^{…} and _{…} become <sup>/<sub> (or <tspan> in SVG); placeholders, also inside them, are filled', () => {
  assert.deepEqual(layout('Q = XW^{Q}, d_{k} = {d}', { d: 64 }),
    [{ shift: null, text: 'Q = XW' }, { shift: 'sup', text: 'Q' }, { shift: null, text: ', d' }, { shift: 'sub', text: 'k' }, { shift: null, text: ' = 64' }]);
  assert.deepEqual(shape(typeset(layout('Z_{{h}} and 10000^{{e}/{d}}', { h: 2, e: 4, d: 8 }), { doc: fakeDocument })),
    ['Z', '<sub>2', ' and 10000', '<sup>4/8']);
  const svg = typeset(layout('W^{O}'), { svg: true, doc: fakeDocument });
  assert.equal(svg.children[1].name, 'tspan');
  assert.equal(svg.children[1].attributes['baseline-shift'], 'super');
  assert.equal(plainText(layout('QK^{T}/√d_{k}, W^{Q}, d_{model}')), 'QKᵀ/√dₖ, WQ, dₘₒdₑₗ');
});

test('markup: a placeholder\'s value is text, never markup; a bare caret stays as it is', () => {
  const runs = layout('row “{q}”: W^{O}', { q: 'x^{evil}_{y} <b>' });
  assert.deepEqual(runs, [{ shift: null, text: 'row “x^{evil}_{y} <b>”: W' }, { shift: 'sup', text: 'O' }]);
  assert.deepEqual(parseMessage('a ^ b_c'), [{ shift: null, pieces: [{ text: 'a ^ b_c' }] }]);
  assert.equal(plainText(layout('{missing} stays')), '{missing} stays');
});

test('t(): the section, then common, then English, then the key; t.rich builds nodes', () => {
  const t = translator('zh', 'kv-query');
  assert.equal(t('cm'), '厘米');
  assert.equal(t('copy'), '复制');
  assert.equal(t('noSuchKey'), 'noSuchKey');
  assert.equal(translator('en', 'self-attention')('matrixScaled'), 'S/√dₖ');
  assert.equal(t.lang, 'zh');
  assert.equal(typeof t.rich, 'function');
});

test('t() of a widget whose words were not given is an Error naming them, not keys on screen; the catalog\'s own sections are not a widget\'s', () => {
  assert.throws(() => translator('en', 'no-such-widget'), /the en words of "no-such-widget" are not loaded: give them with useStrings/);
  assert.throws(() => useStrings('en', 'common', {}), /"common" is a section of the catalog itself/);
  assert.throws(() => useStrings('fr', 'kv-query', {}), /unknown language "fr"/);
  assert.equal(translator('en', 'page')('contents'), 'Contents');
});

// --- the glossary ---

const marked = (text) => [...String(text).matchAll(/\[\[([a-z][\w-]*):([^\]]+)\]\]/g)].map((m) => m[1]);

test('glossary: every marked term is defined, every defined term is used, each at most once per section, and the languages mark the same', () => {
  const used = new Set();
  for (const lang of LANGUAGES) {
    for (const [section, messages] of Object.entries(CATALOGS[lang])) {
      if (section === 'glossary') continue;
      const inSection = [];
      for (const [key, text] of Object.entries(messages)) {
        const ids = marked(text);
        for (const id of ids) assert.ok(Object.hasOwn(CATALOGS[lang].glossary, id), `${lang}.${section}.${key}: [[${id}:…]] is not in the glossary`);
        assert.deepEqual(ids, marked(en[section][key]), `${lang}.${section}.${key}: the same terms as English`);
        inSection.push(...ids);
        ids.forEach((id) => used.add(id));
      }
      assert.equal(new Set(inSection).size, inSection.length, `${lang}.${section}: a term marked more than once`);
    }
    assert.deepEqual(Object.keys(CATALOGS[lang].glossary), Object.keys(en.glossary), `${lang}: the glossary's terms`);
  }
  assert.deepEqual([...used].sort(), Object.keys(en.glossary).sort(), 'every term is used');
  // terms used before they are explained, and the words of the later sections
  for (const id of ['entropy', 'nats', 'adam', 'heldOut', 'leaveOneOut', 'decoder', 'temperature', 'topK', 'token', 'gelu',
    'unembedding', 'backprop', 'logits', 'nadarayaWatson', 'prefill', 'decode', 'topP', 'minP']) assert.ok(used.has(id), id);
});

test('glossary: every definition starts with its headword, and the page\'s list has every term once, in each language\'s order', () => {
  for (const lang of LANGUAGES) {
    for (const [id, text] of Object.entries(CATALOGS[lang].glossary)) {
      const parts = splitDefinition(text);
      assert.ok(parts, `${lang}.glossary.${id}: "Headword: definition"`);
      assert.ok(parts[0].length >= 1 && parts[0].length <= 48 && parts[1].length > 20, `${lang}.glossary.${id}: "${parts[0]}"`);
    }
    const entries = glossaryEntries(lang);
    assert.deepEqual(entries.map((e) => e.id).sort(), Object.keys(en.glossary).sort(), `${lang}: every term once`);
    const names = entries.map((e) => plainText(e.term));
    assert.deepEqual(names, [...names].sort(new Intl.Collator(languageTag(lang)).compare), `${lang}: alphabetical`);
  }
  assert.equal(plainText(glossaryEntries('en').find((e) => e.id === 'prefill').term), 'Prefill');
  assert.equal(plainText(glossaryEntries('zh').find((e) => e.id === 'token').term), '词元（token）');
  assert.match(plainText(glossaryEntries('en').find((e) => e.id === 'gelu').definition), /^x times the probability/);
});

test('glossary: a marked term is a button that opens its definition in a popover and names it as its description', (context) => {
  globalThis.document = fakeDocument;  // t.rich builds in the page's document
  context.after(() => { delete globalThis.document; });
  const t = translator('en', 'softmax-scaling');
  const fragment = t.rich('explainD', { n: 8, d: 64, max: '2.079' });
  const wrap = fragment.children.find((c) => c.name === 'span');
  const [button, box] = wrap.children;
  assert.equal(button.name, 'button');
  assert.equal(button.text, 'entropy');
  assert.equal(button.dataset.term, 'entropy');
  assert.equal(button.attributes.popovertarget, box.id);
  assert.equal(box.attributes.popover, '');
  // its description: the definition alone; below it, the link to the glossary's entry (shown where the page has one)
  const [words, link] = box.children;
  assert.equal(button.attributes['aria-describedby'], words.id);
  assert.match(words.children[0].children.map((c) => c.text).join(''), /^Entropy: of a row of weights, −Σ w log w/);
  assert.equal(link.name, 'a');
  assert.equal(link.href, '#glossary-entropy');
  assert.equal(link.text, 'In the glossary');
  // each use its own ids; in plain text, in SVG and in other languages' plain text the term is its word
  assert.notEqual(translator('en', 'softmax-scaling').rich('explainD', {}).children.find((c) => c.name === 'span').children[1].id, box.id);
  assert.match(t('explainD', { n: 8, d: 64, max: '2.079' }), /\(entropy near 0\)/);
  assert.equal(translator('zh', 'language-model')('topK'), 'Top-k（0：全部）');
});
