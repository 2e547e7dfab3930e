// Browser test of the page against hostile input, and of its memory:
//   1. hostile sentences (markup, </script>, direction marks, zero-width
//      characters, emoji sequences, 10,000 characters), typed into every text
//      box of every widget and given in the URL, stay text: no script runs, no
//      dialog opens, no element is made from them, and a message is visible
//      where a widget cannot use them;
//   2. hostile URL parameters (unknown keys, __proto__ and constructor keys,
//      NaN, ±Infinity, ±1e309, %00, broken percent-encoding, repeated keys, a
//      bad lang or widget, a model on another origin) give the defaults or a
//      visible message, pollute no prototype and request nothing off-origin;
//   3. driving the whole page (every slider over its whole range, every
//      choice, both languages) never puts NaN, Infinity or undefined into the
//      DOM: a MutationObserver installed before the page's scripts records
//      every text and attribute value the page ever writes;
//   4. 10,000 slider moves and 5. 1,000 model encodes leave the WASM heap
//      (the module's memoryStats) and the JS heap (after a forced GC) flat.
//   node --test tests/browser/hostile.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WIDGETS } from '../../web/widgets/index.js';
import { startBrowser, openPage, assertClean, offOriginRequests } from './harness.mjs';

const LOAD = 60000;  // ms: the real-model widget reads 14 MB (from the network once, then the cache)

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
  // every widget's text controls but the model address (tested apart), from the definitions: { name: [{ key, fallback }] }
  textKeys = {};
  for (const [name, load] of Object.entries(WIDGETS)) {
    const def = await load();
    textKeys[name] = def.controls.filter((c) => c.type === 'text' && c.key !== 'model')
      .map((c) => ({ key: c.key, fallback: def.defaults[c.key] }));
  }
});
after(async () => { await browser?.close(); });

// ---- in the page ------------------------------------------------------------

// Installed before the page's own scripts: records every text node and
// attribute value the page writes (also values it overwrote within one task,
// from the old values) that shows NaN, Infinity or undefined. No prose of the
// page uses these words (masked scores read "−∞"): any match is a defect.
function recordBadText() {
  const BAD = /\bNaN\b|Infinity|undefined/;
  const found = [];
  window.__badText = found;
  const note = (where, text) => { if (typeof text === 'string' && BAD.test(text)) found.push(`${where}: ${text.slice(0, 160)}`); };
  const scan = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return note('text', node.data);
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (!BAD.test(node.outerHTML)) return;  // the fast path: one serialisation, searched natively
    for (const a of node.attributes) note(`<${node.localName} ${a.name}>`, a.value);
    for (const child of node.childNodes) scan(child);
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') r.addedNodes.forEach(scan);
      else if (r.type === 'characterData') { note('text', r.target.data); note('text (old)', r.oldValue); }
      else {
        note(`<${r.target.localName} ${r.attributeName}>`, r.target.getAttribute(r.attributeName));
        note(`<${r.target.localName} ${r.attributeName}> (old)`, r.oldValue);
      }
    }
  });
  const options = { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true, characterDataOldValue: true };
  observer.observe(document, options);
  // the script embed puts each widget in a shadow root: watch those too
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function attachShadow(init) {
    const root = attach.call(this, init);
    observer.observe(root, options);
    return root;
  };
}

// Elements that only markup in the text could have made: any <img>, a <script>
// without src, any on* attribute; in the document and in open shadow roots.
function injectedElements() {
  const found = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      const handler = [...el.attributes].some((a) => /^on/i.test(a.name));
      if (el.localName === 'img' || (el.localName === 'script' && !el.src) || handler) found.push(el.outerHTML.slice(0, 120));
    }
  };
  visit(document);
  return found;
}


// In the page, window.__page:
//   idle(root)   resolves once the widget has finished state -> compute -> render
//                (the runtime marks it aria-busy meanwhile), yielding macrotasks
//                (a message: setTimeout would be clamped to 4 ms when chained);
//   ready(root)  scrolls the widget into view (real-model loads its model only
//                then) and waits for its first render;
//   show(root)   what it shows: visible messages (alert, status), the text of
//                its body, the values of its text boxes, typeof window.__pwned;
//   snapshot(root) its controls as shown (slider values, checked boxes, chosen
//                options, text) and the text of its body but the model's
//                loader (it says how long the load took).
function installHelpers() {
  const tick = () => new Promise((done) => { const c = new MessageChannel(); c.port1.onmessage = done; c.port2.postMessage(0); });
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const until = async (check, wait, what) => {
    const end = performance.now() + 60000;
    while (!check()) {
      if (performance.now() > end) throw new Error(`timed out: ${what}`);
      await wait();
    }
  };
  const idle = (root) => until(() => root.getAttribute('aria-busy') !== 'true', tick, `${root.dataset.widget} busy`);
  const ready = async (root) => {
    root.scrollIntoView({ block: 'center' });
    await until(() => root.dataset.ready === 'true', () => sleep(10), `${root.dataset.widget} ready`);
    await idle(root);
  };
  const visible = (n) => !n.hidden && n.checkVisibility() && n.textContent.trim() !== '';
  const show = (root) => ({
    message: [...root.querySelectorAll('[role="alert"], [role="status"]')].filter(visible).map((n) => n.textContent).join(' | '),
    body: root.querySelector('.widget-body')?.textContent ?? '',
    values: [...root.querySelectorAll('input[type="text"]')].map((input) => input.value),
    pwned: typeof window.__pwned,
  });
  const snapshot = (root) => {
    const body = root.querySelector('.widget-body').cloneNode(true);
    body.querySelector('.rm-loader')?.remove();
    return {
      controls: [...root.querySelectorAll('.controls input, .controls select')]
        .map((c) => (c.type === 'radio' || c.type === 'checkbox' ? c.checked : c.value)),
      body: body.textContent,
    };
  };
  window.__page = { tick, idle, ready, show, snapshot };
}

// In the page: every widget of the full page, in order, brought into view;
// what each shows (what: 'show' or 'snapshot').
async function eachWidget(what) {
  const out = {};
  for (const root of document.querySelectorAll('main [data-widget]')) {
    await window.__page.ready(root);
    out[root.dataset.widget] = window.__page[what](root);
  }
  return out;
}

// ---- in Node ----------------------------------------------------------------

// Opens path with the helpers, the dialog log and (record) the NaN recorder installed first.
async function open(path, { record = true, route = null } = {}) {
  const { page, log } = await openPage(browser, 'about:blank');
  log.dialogs = [];
  page.on('dialog', (dialog) => { log.dialogs.push(dialog.message()); dialog.dismiss().catch(() => {}); });
  await page.addInitScript(installHelpers);
  if (record) await page.addInitScript(recordBadText);
  if (route) await route(page);
  await page.goto(new URL(path, browser.url).href);
  return { page, log };
}

const widget = (page, name, scope = 'main ') => page.locator(`${scope}[data-widget="${name}"]`);

async function ready(root) {
  await root.waitFor();
  await root.evaluate((el) => window.__page.ready(el));
}

// No script ran, no dialog, no element made from text, nothing bad written,
// no prototype polluted, no error, nothing off-origin.
async function assertSafe(page, log, what) {
  assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined', `${what}: no script ran`);
  assert.deepEqual(log.dialogs, [], `${what}: no dialog`);
  assert.deepEqual(await page.evaluate(injectedElements), [], `${what}: no element made from the text`);
  assert.deepEqual(await page.evaluate(() => window.__badText ?? []), [], `${what}: NaN, Infinity or undefined written into the DOM`);
  assert.deepEqual(await page.evaluate(() => [({}).polluted, [].polluted, Object.prototype.polluted]), [undefined, undefined, undefined],
    `${what}: Object.prototype not polluted`);
  assertClean(log, browser.origin);
}

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
      const { original, maxLength, own } = await box.evaluate((input) => ({
        original: input.value, maxLength: input.maxLength,
        own: input.closest('.rm-sim-input') === null,  // real-model's similarity boxes give a number only
      }));
      for (const [kind, text] of Object.entries(HOSTILE)) {
        const what = `${name}, box ${b + 1}, ${kind}`;
        await box.fill(text);
        const now = await root.evaluate(async (el) => { await window.__page.idle(el); return window.__page.show(el); });
        assert.equal(now.values[b], text.slice(0, maxLength), `${what}: the box shows the text as typed`);
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
      assert.deepEqual(all[name].values, keys.map(() => text), `${name}, ${kind}: every box shows the text from the URL`);
      assertShowsText(all[name], kind, `${name}, ${kind} (URL)`);
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
  for (const [name, load] of Object.entries(WIDGETS)) {
    out[name] = (await load()).controls.filter((c) => c.type !== 'text').map((c) => c.key);
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
    assert.equal(await root.locator('.rm-loader').getAttribute('data-phase'), 'failed');
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

test('the script embed may take its model from another host (README): here that host is unreachable, and the widget says so', async () => {
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

// ---- 3. no NaN, Infinity or undefined ever reaches the DOM ------------------

// In the page: drives every control of one widget, waiting for each render:
// every enabled slider from end to end (every step, or `stops` evenly spaced
// positions with both ends when it has more: a render of the full page takes
// 20-100 ms here; stops 0: the sliders stay), every choice and drop-down option (after each, a slider
// not yet moved is swept, the others go to their maximum and back), every
// checkbox both ways, every preset and button of the widget, the first and
// last cells of its maps, each quiz guess revealed. Returns the number of changes.
async function driveWidget(root, stops) {
  const { idle } = window.__page;
  const on = (el) => el.isConnected && !el.disabled && !el.closest('fieldset:disabled');
  const swept = new WeakSet();
  let changes = 0;
  const fire = async (el, type) => { el.dispatchEvent(new Event(type, { bubbles: true })); changes++; await idle(root); };
  const click = async (el) => { el.click(); changes++; await idle(root); };
  const sweep = async () => {
    for (const slider of root.querySelectorAll('input[type="range"]')) {
      if (!on(slider)) continue;
      const min = Number(slider.min), max = Number(slider.max), step = Number(slider.step) || 1;
      const n = Math.round((max - min) / step);
      if (stops === 0) continue;
      const at = swept.has(slider) ? [n]
        : n < stops ? [...Array(n + 1).keys()] : [...new Set(Array.from({ length: stops }, (_, k) => Math.round((k * n) / (stops - 1))))];
      swept.add(slider);
      const start = slider.value;
      for (const i of at) {
        slider.value = String(min + i * step);
        await fire(slider, 'input');
      }
      slider.value = start;
      await fire(slider, 'input');
    }
  };
  // elements a render may replace: found again each time
  const each = async (selector, act) => {
    for (let k = 0; k < root.querySelectorAll(selector).length; k++) {
      const el = root.querySelectorAll(selector)[k];
      if (on(el)) await act(el);
    }
  };
  await sweep();
  await each('.controls input[type="radio"]', async (radio) => { if (!radio.checked) { await click(radio); await sweep(); } });
  await each('.controls select', async (select) => {
    for (const option of [...select.options]) {
      select.value = option.value;
      await fire(select, 'change');
      await sweep();
    }
  });
  await each('.controls input[type="checkbox"]', async (box) => { await click(box); await sweep(); await click(box); });
  await each('button.preset:not(.rm-retry), .rm-thumb, .sf-word', click);
  const cells = [...root.querySelectorAll('.heatmap-cell')];
  for (const cell of cells.slice(0, 20).concat(cells.slice(-5))) {
    cell.dispatchEvent(new MouseEvent('mouseenter'));
    cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    changes++;
    await idle(root);
  }
  await each('.quiz input[type="radio"]', async (radio) => { radio.click(); await click(root.querySelector('.quiz-reveal')); });
  return changes;
}

test('driving the whole page (every slider over its range, every choice, both languages) never writes NaN, Infinity or undefined', async () => {
  const { page, log } = await open('?lang=en');
  // the recorder sees what it should: a bad text, a bad attribute
  const seen = await page.evaluate(async () => {
    const probe = document.createElement('p');
    probe.textContent = 'x NaN';
    probe.setAttribute('data-x', '1 Infinity');
    document.body.append(probe);
    await null;
    await new Promise(requestAnimationFrame);
    probe.remove();
    return window.__badText.splice(0).length;
  });
  assert.equal(seen, 2, 'the recorder works');

  const all = await page.locator('main [data-widget]').evaluateAll((roots) => roots.map((r) => r.dataset.widget));
  const switchTo = async (lang, titled) => {
    await page.locator(`.language [data-lang="${lang}"]`).click();
    // the widgets mount again, in the new language
    for (const name of all) {
      const root = widget(page, name);
      await root.locator('.widget-title').filter({ hasText: titled }).waitFor({ timeout: LOAD });
      await ready(root);
    }
  };
  let changes = 0;
  for (const name of all) {
    const root = widget(page, name);
    await ready(root);
    changes += await root.evaluate(driveWidget, 15);
  }
  // the speed widget measures only when asked: its smallest run
  const speed = widget(page, 'speed');
  await speed.locator('select').selectOption('256');
  await speed.getByRole('radio', { name: '32' }).check();
  await speed.locator('[data-part="run"]').click();
  await speed.locator('.sp-status[data-status="done"]').waitFor({ timeout: LOAD });
  // in Chinese: every choice, preset and button again (the sliders moved in English)
  await switchTo('zh', /[\u4e00-\u9fff]/);
  for (const name of all) changes += await widget(page, name).evaluate(driveWidget, 0);
  await switchTo('en', /^[^\u4e00-\u9fff]+$/);
  assert.ok(changes > 800, `${changes} changes`);
  await assertSafe(page, log, 'the whole page');
  await page.close();
});

// ---- 4, 5. the heaps stay flat ----------------------------------------------

// The WASM heap (the module's memoryStats: its memory's size, and the bytes
// malloc holds) and the JS heap after a full garbage collection (V8's used
// size; the DOM's, Oilpan's, beside it).
async function heaps(page, cdp) {
  const wasm = await page.evaluate(async () => {
    const { loadAttention } = await import(new URL('compute.js', document.baseURI).href);
    return (await loadAttention()).memoryStats();
  });
  for (let k = 0; k < 3; k++) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, embedderHeapUsedSize } = await cdp.send('Runtime.getHeapUsage');
  return { ...wasm, js: usedSize, dom: embedderHeapUsedSize };
}

const MB = 1024 * 1024;
function assertFlat(before, now, what) {
  const shown = (h) => `malloc ${h.allocatedBytes} B, WASM memory ${h.heapBytes} B, JS ${(h.js / MB).toFixed(2)} MB, DOM ${(h.dom / MB).toFixed(2)} MB`;
  console.log(`${what}: before ${shown(before)}; after ${shown(now)}`);
  assert.equal(now.allocatedBytes, before.allocatedBytes, `${what}: the bytes malloc holds`);
  assert.equal(now.heapBytes, before.heapBytes, `${what}: the WASM memory did not grow`);
  assert.ok(now.js - before.js < MB, `${what}: the JS heap grew by ${((now.js - before.js) / MB).toFixed(2)} MB`);
  assert.ok(now.dom - before.dom < MB, `${what}: the DOM heap grew by ${((now.dom - before.dom) / MB).toFixed(2)} MB`);
}

// In the page: counts the calls to one function of the module (the object every widget's compute receives).
async function countCalls(name) {
  const { loadAttention } = await import(new URL('compute.js', document.baseURI).href);
  const att = await loadAttention();
  if (!window.__calls) {
    window.__calls = 0;
    const f = att[name];
    att[name] = function counted(...args) { window.__calls++; return f.apply(this, args); };
  }
}

// In the page: `moves` input events on the slider, end to end and back one
// step at a time, in chunks: every event runs the widget's compute (the
// runtime drops a stale result only after computing it), the last of each
// chunk is also drawn; a frame every 10 chunks. Returns the module calls made.
async function moveSlider(slider, { moves, chunk }) {
  const root = slider.closest('[data-widget]');
  const min = Number(slider.min), step = Number(slider.step), n = Math.round((Number(slider.max) - min) / step);
  let i = Math.round((Number(slider.value) - min) / step), direction = 1;
  const calls = window.__calls;
  for (let m = 0; m < moves; m++) {
    if (i + direction < 0 || i + direction > n) direction = -direction;
    i += direction;
    slider.value = String(min + i * step);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    if (m % chunk === chunk - 1 || m === moves - 1) await window.__page.idle(root);
    if (m % (10 * chunk) === 10 * chunk - 1) await new Promise(requestAnimationFrame);
  }
  return window.__calls - calls;
}

test('10,000 moves of a slider that calls the core on every move leave the WASM and JS heaps flat; the URL keeps up', async () => {
  const { page, log } = await open('embed.html?widget=kv-query', {
    record: false,
    // counts the page's writes into its address
    route: (p) => p.addInitScript(() => {
      const replace = history.replaceState;
      window.__writes = 0;
      history.replaceState = function counted(...args) { window.__writes++; return replace.apply(this, args); };
    }),
  });
  const cdp = await page.context().newCDPSession(page);
  const root = widget(page, 'kv-query', '');
  await ready(root);
  await page.evaluate(countCalls, 'kernelRegression');
  // three kernel regressions per move: the estimate, the curve, the quiz's
  const slider = root.locator('input[name="q"]');
  assert.equal(await slider.evaluate(moveSlider, { moves: 1000, chunk: 20 }), 3000, 'warm-up: the core on every move');
  const before = await heaps(page, cdp);
  const writes = await page.evaluate(() => window.__writes);
  const start = Date.now();
  assert.equal(await slider.evaluate(moveSlider, { moves: 10000, chunk: 20 }), 30000, 'the core on every move');
  const seconds = (Date.now() - start) / 1000;
  const now = await heaps(page, cdp);
  console.log(`10,000 moves (500 drawn) in ${seconds.toFixed(1)} s`);
  const q = await slider.inputValue();
  assert.equal(await root.locator('output[for^="control-q"]').textContent(), `${Number(q).toFixed(1)}\u00a0cm`, 'the last move is drawn');
  assertFlat(before, now, '10,000 slider moves');
  // Chromium ignores history writes beyond 200 in 10 s: the page stays well below, and its URL ends on the last state
  await page.waitForFunction((value) => new URLSearchParams(location.search).get('q') === value, q, { timeout: 1000 });
  const written = await page.evaluate(() => window.__writes) - writes;
  assert.ok(written <= 20 + 10 * (seconds + 1), `${written} URL writes in ${seconds.toFixed(1)} s`);
  assertClean(log, browser.origin);
  await page.close();
});

// In the page: `count` different sentences (none from the widget's cache) typed
// into the real-model widget; each is encoded, the last of each chunk drawn.
// Returns the computes that got past the encoder (each then scores the
// similarities with one call of att.attention).
async function typeMany(root, { count, chunk, from }) {
  const box = root.querySelector('.controls input[type="text"]');
  const calls = window.__calls;
  for (let k = from; k < from + count; k++) {
    box.value = `My father told me his car ${k} was broken.`;
    box.dispatchEvent(new Event('input', { bubbles: true }));
    if ((k - from) % chunk === chunk - 1) await window.__page.idle(root);
  }
  await window.__page.idle(root);
  return window.__calls - calls;
}

test('1,000 sentences typed into the real-model widget, each encoded, leave the WASM and JS heaps flat', async () => {
  const { page, log } = await open('embed.html?widget=real-model', { record: false });
  const cdp = await page.context().newCDPSession(page);
  const root = widget(page, 'real-model', '');
  await ready(root);
  await page.evaluate(countCalls, 'attention');
  assert.equal(await root.evaluate(typeMany, { count: 100, chunk: 10, from: 0 }), 100, 'warm-up: every sentence encoded');
  const before = await heaps(page, cdp);
  const start = Date.now();
  assert.equal(await root.evaluate(typeMany, { count: 1000, chunk: 10, from: 100 }), 1000, 'every sentence encoded');
  console.log(`1,000 encodes (100 drawn) in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  const now = await heaps(page, cdp);
  assert.match(await root.locator('.rm-map').textContent(), /car 1099 was broken/, 'the last sentence is drawn');
  assertFlat(before, now, '1,000 encodes');
  assertClean(log, browser.origin);
  await page.close();
});
