// Browser test of the page against hostile input:
//   1. hostile sentences (markup, </script>, direction marks, zero-width
//      characters, emoji sequences, 10,000 characters), typed into every text
//      box of every widget and given in the URL, stay text: no script runs, no
//      dialog opens, no element is made from them, and a message is visible
//      where a widget cannot use them;
//   2. hostile URL parameters (unknown keys, __proto__ and constructor keys,
//      NaN, ±Infinity, ±1e309, %00, broken percent-encoding, repeated keys, a
//      bad lang or widget, a model on another origin) give the defaults or a
//      visible message, pollute no prototype and request nothing off-origin.
// The DOM sweep is in hostile-dom.test.mjs, the heaps in hostile-heap.test.mjs.
//   node --test tests/browser/hostile-injection.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { widgets } from '../../web/widgets/list.js';
import { LOAD, assertSafe as assertSafeIn, eachWidget, offOriginRequests, openInstrumented, ready, startBrowser, textKeysOf, widget } from './harness.mjs';

const HOSTILE = {
  img: '<img src=x onerror="window.__pwned=1">',
  script: '<script>window.__pwned=1</script>',
  closeScript: '</script><script>window.__pwned=1</script>',
  svg: '"><svg onload=window.__pwned=1>',
  // right-to-left mark, right-to-left override, zero-width joiner and space
  bidi: 'abc \u200fשלום\u202e reversed\u202c \u200dzero\u200bwidth\u200d end',
  // family, rainbow flag, technologist with a skin tone: joined by U+200D
  emoji: 'family 👩‍👩‍👧‍👦 flag 🏳️‍🌈 coder 🧑🏽‍💻',
  long: 'word '.repeat(2000),  // 10,000 characters
};
// what of each string a widget that uses it shows as text (a label, a message)
const MARKS = { img: 'img', script: 'script', closeScript: 'script', svg: 'svg', bidi: 'abc', emoji: 'family' };
assert.equal(HOSTILE.long.length, 10000);

let browser, textKeys;
before(async () => {
  browser = await startBrowser();
  textKeys = await textKeysOf(widgets);
});
after(async () => { await browser?.close(); });
const open = (path, options) => openInstrumented(browser, path, options);
const assertSafe = (page, log, what) => assertSafeIn(browser, page, log, what);

// Widgets whose text boxes give numbers only (the similarity of sentences):
// the text stays in the boxes (checked), their body shows no label of it.
const NUMBERS_ONLY = new Set(['sentence-similarity']);

// A widget given text shows it among its labels, or says in a visible message
// why it cannot (too many words, not a number); 10,000 characters always need one.
function assertShowsText({ message, body }, kind, what) {
  if (kind === 'long') assert.notEqual(message, '', `${what}: a visible message for 10,000 characters`);
  else assert.ok(message !== '' || body.includes(MARKS[kind]), `${what}: "${MARKS[kind]}" shown as text, or a message`);
}

// ---- 1. hostile sentences ---------------------------------------------------

test('hostile sentences typed into every text box of every widget stay text; 10,000 characters give a message', async () => {
  const { page, log } = await open('?lang=en');
  let boxes = 0;
  for (const name of Object.keys(textKeys)) {
    const root = widget(page, name);
    await ready(root);
    const inputs = root.locator('input[type="text"]');
    for (let b = 0; b < await inputs.count(); b++) {
      const box = inputs.nth(b);
      const { original, maxLength } = await box.evaluate((input) => ({
        original: input.value, maxLength: input.maxLength,
      }));
      const own = !NUMBERS_ONLY.has(name);
      for (const [kind, text] of Object.entries(HOSTILE)) {
        const what = `${name}, box ${b + 1}, ${kind}`;
        await box.fill(text);
        const now = await root.evaluate(async (el) => { await window.__page.idle(el); return window.__page.show(el); });
        // as far as the box takes it; a character cut in half (an emoji's surrogate pair) is not kept
        assert.equal(now.values[b], text.slice(0, maxLength).replace(/[\ud800-\udbff]$/, ''), `${what}: the box shows the text as typed`);
        assert.equal(now.pwned, 'undefined', `${what}: no script ran`);
        if (own) assertShowsText(now, kind, what);
      }
      await box.fill(original);
      await root.evaluate((el) => window.__page.idle(el));
      boxes++;
    }
  }
  assert.equal(boxes, Object.values(textKeys).flat().length, 'a text box per text key');
  await assertSafe(page, log, 'typed');
  await page.close();
});

test('hostile sentences in the URL, for every text key of every widget, stay text', async () => {
  for (const [kind, text] of Object.entries(HOSTILE)) {
    if (kind === 'long') continue;  // the next test
    const params = new URLSearchParams({ lang: 'en' });
    for (const [name, keys] of Object.entries(textKeys)) for (const { key } of keys) params.set(`${name}.${key}`, text);
    const { page, log } = await open(`?${params}`);
    const all = await page.evaluate(eachWidget, 'show');
    for (const [name, keys] of Object.entries(textKeys)) {
      if (keys.length === 0) continue;
      // a text longer than its box takes is refused: the box keeps its default (a name box takes 15 characters)
      const fits = keys.every((k) => text.length <= k.maxLength);
      assert.deepEqual(all[name].values, keys.map((k) => (text.length <= k.maxLength ? text : k.fallback)), `${name}, ${kind}: every box shows the text from the URL`);
      if (!NUMBERS_ONLY.has(name) && fits) assertShowsText(all[name], kind, `${name}, ${kind} (URL)`);
    }
    await assertSafe(page, log, `URL, ${kind}`);
    await page.close();
  }
});

test('10,000 characters in the URL for every text key: longer than any box takes, so every widget shows its default', async () => {
  const params = new URLSearchParams({ lang: 'en' });
  for (const [name, keys] of Object.entries(textKeys)) for (const { key } of keys) params.set(`${name}.${key}`, HOSTILE.long);
  // a 150 KB address: the page is served by the test (the server takes a 16 KB request line), the rest by the server
  const index = new URL('../../web/index.html', import.meta.url);
  const { page, log } = await open(`?${params}`, {
    route: (p) => p.route((url) => url.origin === browser.origin && url.pathname === '/', (r) => r.fulfill({ path: index.pathname })),
  });
  assert.ok(page.url().length > 150000);
  const all = await page.evaluate(eachWidget, 'show');
  for (const [name, keys] of Object.entries(textKeys)) {
    if (keys.length === 0) continue;
    assert.deepEqual(all[name].values, keys.map((k) => k.fallback), `${name}: the default text`);
    assert.equal(all[name].message, '', `${name}: the default view, no message`);
  }
  await assertSafe(page, log, 'URL, 10,000 characters');
  await page.close();
});

test('the script embed (shadow roots, a host page without CSP): hostile sentences in data-state stay text', async () => {
  const article = new URL('articles/hostile.html', browser.url).href;
  const attr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const hosts = Object.entries(HOSTILE).filter(([kind]) => kind !== 'long')
    .map(([, text]) => `<div data-widget="attention-map" data-state="${attr(`sentence=${encodeURIComponent(text)}`)}" data-lang="en"></div>`);
  const { page, log } = await open(article, {
    route: (p) => p.route(article, (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><p>An article.</p>
      <script src="../embed.js" defer></script>${hosts.join('\n')}` })),
  });
  const cells = page.locator('[data-widget="attention-map"] .heatmap-row');  // pierces the open shadow roots
  await page.waitForFunction((n) => [...document.querySelectorAll('div[data-widget]')]
    .filter((h) => h.shadowRoot?.querySelector('[data-ready="true"]')).length === n, hosts.length, { timeout: LOAD });
  const labels = await cells.allTextContents();
  for (const mark of Object.values(MARKS)) assert.ok(labels.includes(mark), `"${mark}" is a label`);
  await assertSafe(page, log, 'script embed');
  await page.close();
});

// ---- 2. hostile URL parameters ----------------------------------------------

// every control of every widget but the text ones: { name: [key] }
async function otherKeys() {
  const out = {};
  for (const name of widgets.names) {
    out[name] = (await widgets.definition(name)).controls.filter((c) => c.type !== 'text').map((c) => c.key);
  }
  return out;
}

test('bad numbers and bytes in the URL (NaN, ±Infinity, ±1e309, %00, broken %-encoding, …) give every widget its defaults', async () => {
  const clean = await open('?lang=en');
  const defaults = await clean.page.evaluate(eachWidget, 'snapshot');
  await clean.page.close();
  // raw, as they stand in the address
  const BAD = ['NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '%00', '%E0%A4%A', '', '%20', '0x1p3', '1e', '--1', 'javascript:alert(1)', '%3Cscript%3E'];
  const keys = await otherKeys();
  // every key gets a different bad value in each load, so that over the loads it sees several
  for (let load = 0; load < 3; load++) {
    const params = ['lang=en'];
    let k = 0;
    for (const [name, list] of Object.entries(keys)) for (const key of list) params.push(`${name}.${key}=${BAD[(k++ + 5 * load) % BAD.length]}`);
    const { page, log } = await open(`?${params.join('&')}`);
    const now = await page.evaluate(eachWidget, 'snapshot');
    for (const name of Object.keys(defaults)) assert.deepEqual(now[name], defaults[name], `load ${load + 1}, ${name}: the defaults`);
    await assertSafe(page, log, `bad values, load ${load + 1}`);
    await page.close();
  }
});

test('__proto__ and constructor keys, unknown and repeated keys, lang=<script>, javascript: and broken bytes as text: no pollution, the first of repeated keys counts', async () => {
  const query = [
    '__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '__proto__.polluted=1', 'prototype[polluted]=1',
    'kv-query.__proto__[polluted]=1', 'kv-query.__proto__=1', 'kv-query.constructor=1', 'attention-map.prototype=1',
    'real-model.__proto__.polluted=1', 'toString=1', 'hasOwnProperty=1',
    'foo=bar', 'kv-query.nope=1', '.=1', '=1', 'kv-query.=1', '&&&', '=',
    'kv-query.q=150', 'kv-query.q=NaN', 'kv-query.q=190', 'kv-query.score=dot', 'kv-query.score=%3Cimg%20src%3Dx%3E',
    'lang=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E', 'lang=zh',
  ];
  // text that is odd only as an address: stays text
  const texts = { 'attention-map': 'javascript:alert(1)', 'self-attention': '%00', masking: '%E0%A4%A', conditional: '%', 'multi-head': '%F0%9F%98' };
  for (const [name, raw] of Object.entries(texts)) query.push(`${name}.sentence=${raw}`);
  const { page, log } = await open(`?${query.join('&')}`);
  const all = await page.evaluate(eachWidget, 'show');
  for (const [name, raw] of Object.entries(texts)) {
    assert.deepEqual(all[name].values, [new URLSearchParams(`x=${raw}`).get('x')], `${name}: the box shows ${raw} decoded`);
  }
  assert.equal(await page.locator('html').getAttribute('lang'), 'en', 'an invalid lang: the browser\'s language');
  assert.equal(await page.locator('h1').textContent(), 'Attention, live');
  const kv = widget(page, 'kv-query');
  assert.equal(await kv.locator('input[name="q"]').inputValue(), '150', 'the first q counts');
  assert.ok(await kv.getByRole('radio', { name: 'raw dot product q·k' }).isChecked(), 'the first score counts');
  for (const [name, shown] of Object.entries(all)) assert.equal(shown.message, '', `${name}: no message`);
  assert.deepEqual(await page.evaluate(() => Object.getOwnPropertyNames(Object.prototype).filter((k) => /polluted|^q$|^score$/.test(k))), []);
  await assertSafe(page, log, 'prototype keys');
  await page.close();
});

test('embed.html with a hostile widget name says so in a visible message', async () => {
  for (const name of ['../../etc/passwd', '__proto__', 'constructor', 'toString', '<img src=x onerror="window.__pwned=1">', '']) {
    const { page, log } = await open(`embed.html?widget=${encodeURIComponent(name)}&__proto__[polluted]=1&q=NaN&lang=%3Cscript%3E`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), `This widget could not start: unknown widget "${name}"`);
    await assertSafe(page, log, `widget=${name}`);
    await page.close();
  }
});

test('a model address on another origin is refused with a visible message, before any request', async () => {
  const blocked = [];
  // a safety net: were the page to try, the request would be logged, then stopped here
  const route = (p) => p.route((url) => url.origin !== browser.origin && /^https?:$/.test(url.protocol), (r) => { blocked.push(r.request().url()); return r.abort(); });
  for (const model of ['https://example.com/x.bin', '//example.com/x.bin', 'http://127.0.0.2:1/encoder.f16.bin', 'javascript:alert(1)',
    'data:application/octet-stream;base64,AAAA']) {
    const { page, log } = await open(`embed.html?widget=real-model&model=${encodeURIComponent(model)}`, { route });
    const root = widget(page, 'real-model', '');
    await ready(root);
    const resolved = new URL(model, browser.url).href;
    assert.equal(await root.getByRole('alert').textContent(),
      `This page loads its model only from its own origin, ${browser.origin}: “${resolved}” is elsewhere.`, model);
    assert.equal(await root.locator('.model-loader').getAttribute('data-phase'), 'failed');
    await assertSafe(page, log, `model=${model}`);
    await page.close();
  }
  // the same on the full page, in Chinese
  const { page, log } = await open(`?lang=zh&real-model.model=${encodeURIComponent('https://example.com/x.bin')}`, { route });
  const root = widget(page, 'real-model');
  await ready(root);
  assert.match(await root.getByRole('alert').textContent(), /^本页只从自己的源 http:\/\/127\.0\.0\.1:\d+ 加载模型，而“https:\/\/example\.com\/x\.bin”在别处。$/);
  await assertSafe(page, log, 'full page, model elsewhere');
  await page.close();
  assert.deepEqual(blocked, [], 'no request left the origin');
});

test('a model address whose %-escapes are broken (model=%, %E0%A4%A, %ZZ) is named in a visible message, before any request', async () => {
  // raw in the address -> as the message quotes it (URLSearchParams' reading)
  for (const [raw, shown] of [['%', '%'], ['%E0%A4%A', '\uFFFD%A'], ['model%2Fx%ZZ.bin', 'model/x%ZZ.bin']]) {
    const { page, log } = await open(`embed.html?widget=real-model&model=${raw}`);
    const root = widget(page, 'real-model', '');
    await ready(root);
    assert.equal(await root.getByRole('alert').textContent(), `The model address “${shown}” is not a valid URL.`, raw);
    assert.equal(await root.locator('.model-loader').getAttribute('data-phase'), 'failed');
    assert.deepEqual(log.requests.filter((url) => new URL(url).pathname.includes('%')), [], `model=${raw}: no request for it`);
    await assertSafe(page, log, `model=${raw}`);
    await page.close();
  }
  // the full page, both model widgets, in Chinese
  const { page, log } = await open('?lang=zh&real-model.model=%&sentence-similarity.model=%25%');
  for (const [name, shown] of [['real-model', '%'], ['sentence-similarity', '%%']]) {
    const root = widget(page, name);
    await ready(root);
    assert.equal(await root.getByRole('alert').textContent(), `模型地址“${shown}”不是有效的 URL。`, name);
  }
  await assertSafe(page, log, 'full page, broken escapes');
  await page.close();
});

test('the script embed may take its model from another host (docs/embedding.md): here that host is unreachable, and the widget says so', async () => {
  const article = new URL('articles/model-elsewhere.html', browser.url).href;
  const { page, log } = await open(article, {
    route: async (p) => {
      await p.route(article, (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><p>An article.</p>
        <script src="../embed.js" defer></script><div data-widget="real-model" data-state="model=https://example.com/x.bin"></div>` }));
      await p.route('https://example.com/**', (r) => r.abort());  // never reach the network
    },
  });
  const alert = page.locator('[data-widget="real-model"] [role="alert"]');
  await alert.filter({ hasText: 'example.com' }).waitFor({ timeout: LOAD });
  assert.match(await alert.textContent(), /^The model file could not be loaded from https:\/\/example\.com\/x\.bin: /);
  assert.deepEqual(offOriginRequests(log, browser.origin), ['https://example.com/x.bin'], 'the one request, stopped by the test');
  assert.deepEqual(log.pageErrors, []);
  await page.close();
});
