// The script embed on a host page of another origin, against what that page's
// markup and scripts could do to it:
//   - markup that shadows the document's and the window's names (<img
//     name="currentScript" src=…>, <a id="attentionWasmBase" href=…>,
//     <form name="createElement">, <div id="attentionWasm"> …: what a forum
//     lets a comment hold) steers nothing: every file still comes from the
//     folder of the real embed.js (or attention.js, the classic module), none
//     from the folder the markup names, and the widgets and the API work;
//   - attentionWasm.mount() takes only a real element of the page, reads only
//     the options' own properties (not an Object.prototype a script extended),
//     and answers a BigInt or a cyclic option with the same clear Error as any
//     bad argument;
//   - a widget mounted on an element not yet in the document (a single-page
//     app's view being built) lives until that element, once attached, leaves it.
//   node --test tests/browser/host-page.test.mjs
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import { WIDGETS as WIDGET_NAMES } from '../../web/widgets/list.js';
import { eventually, startBrowser } from './harness.mjs';

let browser, folder, host, attacker;
before(async () => {
  browser = await startBrowser();  // web/: embed.js and its files, the origin they come from
  folder = mkdtempSync(join(tmpdir(), 'attention-wasm-host-'));
  host = await serve({ root: folder });  // the host pages' origin
  attacker = host.url.replace('127.0.0.1', 'localhost');  // a third origin, whose folder the markup names
});
after(async () => {
  await browser?.close();
  host?.server.closeAllConnections();
  host?.server.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const plain = (s) => s.replace(/\u00a0/g, ' ').trim();

// A page of the host's origin holding body (HTML) and, at its end, the script tag of
// web/embed.js (or of script, a path under web/); every request it makes is recorded
// ({ page, requests, errors }).
let pages = 0;
async function hostPage(body, script = 'embed.js') {
  const name = `page-${++pages}.html`;
  writeFileSync(join(folder, name), `<!doctype html><html lang="en"><meta charset="utf-8"><title>host</title>
<body><main id="host">${body}</main><script src="${browser.url}${script}"></script></body></html>`);
  const page = await browser.context.newPage();
  const requests = [], errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.url}${name}`);
  return { page, requests, errors };
}
const readyWidget = (page, selector, timeout = 30000) => page.locator(`${selector}[data-ready="true"]`).waitFor({ timeout });

// What a forum comment may hold: elements whose names shadow document.currentScript (with the
// attacker's address), document.baseURI, readyState, body, head, documentElement and the methods
// the embed calls, and the window's attentionWasmBase (an <a>: its string is its href) and the
// name of the training module's factory.
const CLOBBERING = `
<img name="currentScript" src="${'ATTACKER'}x.png" alt="">
<a id="attentionWasmBase" href="${'ATTACKER'}folder/">a link</a>
<a id="attentionWasmScript" href="${'ATTACKER'}folder/embed.js">another</a>
<form name="createElement"></form><form name="createElementNS"></form><form name="createDocumentFragment"></form>
<form name="createTextNode"></form><form name="createRange"></form><form name="addEventListener"></form>
<img name="baseURI" alt=""><img name="readyState" alt=""><img name="body" alt=""><img name="documentElement" alt="">
<img name="activeElement" alt=""><img name="defaultView" alt=""><img name="head" alt="">
<embed id="createAttentionTraining" type="text/plain">`;

test('markup named like the document\'s and the window\'s properties steers nothing: every file from the real folder, none from the one it names', async () => {
  const { page, requests, errors } = await hostPage(`${CLOBBERING.replaceAll('ATTACKER', attacker)}
<div id="kv" data-widget="kv-query" data-state="q=165&amp;score=dot"></div>
<div id="lm" data-widget="language-model" data-state="corpus=names"></div>
<div id="training" data-widget="training"></div>`);
  // the markup does shadow them
  assert.deepEqual(await page.evaluate(() => [String(document.currentScript), String(window.attentionWasmBase), String(document.createElement)]),
    ['[object HTMLImageElement]', `${attacker}folder/`, '[object HTMLFormElement]']);
  await readyWidget(page, '#kv div[data-widget="kv-query"]');
  assert.equal(plain(await page.locator('#kv [data-field="estimate"]').textContent()), '70.00 kg');
  await page.locator('#lm').scrollIntoViewIfNeeded();
  await readyWidget(page, '#lm div[data-widget="language-model"]', 60000);
  const training = page.locator('#training');
  await training.scrollIntoViewIfNeeded();
  await readyWidget(page, '#training div[data-widget="training"]', 60000);
  await training.locator('button[data-action="train"]').click();
  await eventually(async () => /Web Worker/.test(await training.locator('[data-field="status"]').textContent()), { timeout: 20000, message: 'training in a worker' });
  await eventually(async () => Number((await training.locator('[data-field="step"]').first().textContent()).replace(/\D/g, '')) >= 50,
    { timeout: 30000, message: '50 steps taken' });
  await training.locator('button[data-action="train"]').click();
  // the corpus and the training module (on the page and in the worker) from web/, beside embed.js
  for (const file of ['data/names.json', 'wasm/attention-training.js']) assert.ok(requests.includes(`${browser.url}${file}`), `${file} from the real folder`);
  // the attacker's origin got the image's own request, nothing else
  assert.deepEqual(requests.filter((url) => url.startsWith(attacker)), [`${attacker}x.png`]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the classic attention.js on such a page loads its training module from beside itself, not from the folder the markup names', async () => {
  const { page, requests, errors } = await hostPage(CLOBBERING.replaceAll('ATTACKER', attacker), 'wasm/attention.js');
  const loss = await page.evaluate(async () => {
    const att = await createAttention();
    const trainer = await att.createTrainer();
    const { loss } = trainer.step(1);
    trainer.delete();
    return loss;
  });
  assert.ok(Number.isFinite(loss) && loss > 0, `the first loss: ${loss}`);
  assert.ok(requests.includes(`${browser.url}wasm/attention-training.js`), 'the training module from beside attention.js');
  assert.deepEqual(requests.filter((url) => url.startsWith(attacker)), [`${attacker}x.png`]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a host element with id="attentionWasm" does not stop the embed: its widgets mount and the API is defined', async () => {
  const { page, errors } = await hostPage('<div id="attentionWasm"></div><div id="kv" data-widget="kv-query" data-state="q=165&amp;score=dot"></div>');
  await readyWidget(page, '#kv div[data-widget="kv-query"]');
  assert.equal(plain(await page.locator('#kv [data-field="estimate"]').textContent()), '70.00 kg');
  assert.deepEqual(await page.evaluate(() => [typeof attentionWasm.mount, Object.keys(attentionWasm).sort()]), ['function', ['mount', 'version']]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('mount: only a real element of the page, own options only, and a clear Error for a BigInt or a cyclic option', async () => {
  const { page, errors } = await hostPage('<div id="slot"></div>');
  await page.waitForFunction(() => typeof window.attentionWasm === 'object');
  const answers = await page.evaluate(() => {
    const div = document.getElementById('slot');
    const attempt = (f) => { try { f(); return null; } catch (e) { return `${e.constructor.name}: ${e.message}`; } };
    const cyclic = [];
    cyclic.push(cyclic);
    const loop = {};
    loop.self = loop;
    const out = {
      fake: attempt(() => attentionWasm.mount({ nodeType: 1, localName: 'div', attachShadow() { return {}; } }, { widget: 'kv-query' })),
      proxy: attempt(() => attentionWasm.mount(new Proxy(div, {}), { widget: 'kv-query' })),
      otherDocument: attempt(() => attentionWasm.mount(document.implementation.createHTMLDocument('').createElement('div'), { widget: 'kv-query' })),
      bigintWidget: attempt(() => attentionWasm.mount(div, { widget: 1n })),
      bigintLang: attempt(() => attentionWasm.mount(div, { widget: 'kv-query', lang: 2n })),
      bigintState: attempt(() => attentionWasm.mount(div, { widget: 'kv-query', state: { q: 165n } })),
      cyclicHide: attempt(() => attentionWasm.mount(div, { widget: 'kv-query', hide: cyclic })),
      cyclicState: attempt(() => attentionWasm.mount(div, { widget: 'kv-query', state: { keys: loop } })),
    };
    // a page's script that extended Object.prototype: the options' own properties are read, nothing inherited
    const polluted = { widget: 'masking', state: { q: 150 }, theme: 'dark', hide: ['title', 'intro'], q: 160, languageDefaults: { zh: { q: 155 } } };
    Object.assign(Object.prototype, polluted);
    try {
      out.inherited = attempt(() => attentionWasm.mount(div, {}));
      window.handle = attentionWasm.mount(div, { widget: 'kv-query', lang: 'zh', state: {} });
    } finally {
      for (const key of Object.keys(polluted)) delete Object.prototype[key];
    }
    out.setStateBigint = attempt(() => window.handle.setState({ q: 170n }));
    return out;
  });
  const notElement = 'Error: attentionWasm.mount: the first argument must be an element of the page';
  const widgets = WIDGET_NAMES.map((name) => `"${name}"`).join(', ');
  assert.deepEqual(answers, {
    fake: notElement,
    proxy: notElement,
    otherDocument: notElement,
    bigintWidget: `Error: attentionWasm.mount: unknown widget 1n; the widgets are ${widgets}`,
    bigintLang: 'Error: attentionWasm.mount: unknown language 2n; the languages are "en", "zh"',
    bigintState: 'Error: attentionWasm.mount: bad value for "q" of "kv-query": 165n (it takes a number from 140 to 200)',
    cyclicHide: 'Error: attentionWasm.mount: hide must be an array of "title", "intro", "quiz", "export", "embed", got [[…]]',
    cyclicState: 'Error: attentionWasm.mount: bad value for "keys" of "kv-query": an object (it takes a string of at most 200 characters)',
    inherited: `Error: attentionWasm.mount: unknown widget undefined; the widgets are ${widgets}`,
    setStateBigint: 'Error: bad value for "q" of "kv-query": 170n (it takes a number from 140 to 200)',
  });
  // the widget mounted while Object.prototype was extended: kv-query with its own defaults (none inherited, in
  // state or per language), its title, the reader's theme
  const slot = page.locator('#slot');
  await readyWidget(page, '#slot div[data-widget="kv-query"]');
  assert.equal(await slot.locator('.widget-title').count(), 1, 'the title not hidden');
  assert.equal(await slot.locator('div[data-widget]').getAttribute('data-theme'), null, 'no theme chosen');
  assert.equal(await page.evaluate(() => window.handle.getState().q), 172, 'the default q');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a widget mounted on an element not yet in the document renders once it is attached, answers setState, and goes when it is removed', async () => {
  const { page, errors } = await hostPage('<div id="app"></div>');
  await page.waitForFunction(() => typeof window.attentionWasm === 'object');
  await page.evaluate(async () => {
    const view = document.createElement('section');
    const figure = Object.assign(document.createElement('div'), { id: 'figure' });
    view.append(figure);
    window.handle = attentionWasm.mount(figure, { widget: 'kv-query', state: { q: 165, score: 'dot' } });
    // meanwhile the app renders something else, and a tick passes
    document.getElementById('app').append(Object.assign(document.createElement('p'), { textContent: 'loading…' }));
    await new Promise((done) => setTimeout(done, 50));
    document.getElementById('app').replaceChildren(view);
  });
  const estimate = page.locator('#figure [data-field="estimate"]');
  await readyWidget(page, '#figure div[data-widget="kv-query"]');
  assert.equal(plain(await estimate.textContent()), '70.00 kg');
  await page.evaluate(() => window.handle.setState({ q: 172, score: 'gaussian' }));
  await eventually(async () => plain(await estimate.textContent()) === '66.73 kg', { message: 'the new state drawn' });
  // once attached, removed: unmounted
  await page.evaluate(() => document.getElementById('app').replaceChildren());
  await eventually(() => page.evaluate(() => {
    try { window.handle.setState({ q: 170 }); return false; } catch (e) { return /was unmounted/.test(e.message); }
  }), { message: 'unmounted once removed' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed.js carries English alone: a widget in Chinese is drawn once embed.zh.js has come (once for all), its handle working meanwhile; a page in English never asks for it', async () => {
  const words = (requests) => requests.filter((url) => /\/embed\.zh\.js$/.test(url));
  const english = await hostPage('<div data-widget="kv-query" data-state="q=165"></div>');
  await readyWidget(english.page, 'div[data-widget="kv-query"]');
  assert.deepEqual(words(english.requests), [], 'an English page: no embed.zh.js');
  await english.page.close();

  const { page, requests, errors } = await hostPage('<div data-widget="kv-query" data-lang="zh" data-state="q=165&score=dot"></div><div id="second"></div><div id="third"></div>');
  await page.waitForFunction(() => typeof window.attentionWasm === 'object');
  // before the words come: the state the widget will be drawn with
  const before = await page.evaluate(() => {
    const handle = attentionWasm.mount(document.getElementById('second'), { widget: 'masking', lang: 'zh', state: { causal: true } });
    handle.setState({ causal: false });
    window.second = handle;
    return handle.getState().causal;
  });
  assert.equal(before, false);
  await readyWidget(page, 'div[data-widget="kv-query"]');
  await readyWidget(page, '#second div[data-widget="masking"]');
  assert.match(plain(await page.locator('#host > div[data-widget="kv-query"] .widget-title').textContent()), /[\u4e00-\u9fff]/, 'the title in Chinese');
  assert.match(plain(await page.locator('#host > div[data-widget="kv-query"] [data-field="estimate"]').textContent()), /^70\.00 千克$/);
  assert.equal(await page.locator('#second input[type="checkbox"]').first().isChecked(), false, 'drawn with the state set before the words came');
  // a third, after: no second request
  await page.evaluate(() => attentionWasm.mount(document.getElementById('third'), { widget: 'softmax-scaling', lang: 'zh' }));
  await readyWidget(page, '#third div[data-widget="softmax-scaling"]');
  assert.equal(words(requests).length, 1, 'embed.zh.js once');
  assert.deepEqual(errors, []);
  await page.close();

  // the words cannot come: the widget says why (in English), and an error event
  const broken = await browser.context.newPage();
  await broken.route('**/embed.zh.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  writeFileSync(join(folder, 'no-words.html'), `<!doctype html><html lang="en"><meta charset="utf-8"><title>host</title>
<body><div data-widget="kv-query" data-lang="zh"></div><script>addEventListener('attention-wasm:error', (e) => { window.said = e.detail.message; });</script><script src="${browser.url}embed.js"></script></body></html>`);
  await broken.goto(`${host.url}no-words.html`);
  await broken.waitForFunction(() => typeof window.said === 'string');
  const alert = plain(await broken.locator('div[data-widget="kv-query"] [role="alert"]').textContent());
  assert.match(alert, /could not load .*embed\.zh\.js/);
  assert.equal(alert, await broken.evaluate(() => window.said));
  await broken.close();
});
