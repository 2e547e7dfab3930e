// The encoder's worker keeps to its own origin by itself: the page's
// Content-Security-Policy is a <meta> tag, which a module worker does not
// inherit. A model address on another origin is refused in the worker before
// any request, whatever origin the page passes; the model beside it loads; a
// worker started from a blob: URL that imports the worker's module keeps to
// the module's origin. Where the page's own check were to let a foreign
// address through, the widget shows the worker's refusal as its usual message.
// An address of the page's origin is read up to 32 MiB (an endless answer is
// cut there, the widget says why), and its redirects are not followed (the
// origin they lead to gets no request).
//   node --test tests/browser/encoder-origin.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENDLESS_STOP, served } from '../server.mjs';
import { LOAD, openInstrumented, ready, startBrowser, widget } from './harness.mjs';

let browser, foreign;
before(async () => {
  browser = await startBrowser();
  // the same server under another host name: another origin
  foreign = browser.url.replace('127.0.0.1', 'localhost');
});
after(async () => { await browser?.close(); });

// A page of the site's origin without a CSP of its own (a blob: worker needs one that allows it);
// every request off the origin is recorded, then stopped.
async function probePage() {
  const probe = new URL('probe.html', browser.url).href;
  const offOrigin = [];
  const { page, log } = await openInstrumented(browser, probe, {
    record: false,
    route: async (p) => {
      await p.route(probe, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><p>probe</p>' }));
      await p.route((url) => url.origin !== browser.origin, (r) => { offOrigin.push(r.request().url()); return r.abort(); });
    },
  });
  return { page, log, offOrigin };
}

// Starts the encoder's worker (as a module worker of its own file, or from a blob: URL
// importing it), asks it to load url, and gives the types of its answers up to the last one.
function askWorker(page, { url, origin, blob = false }) {
  return page.evaluate(({ url, origin, blob }) => new Promise((resolve) => {
    const file = new URL('encoder/encoder-worker.js', location.href).href;
    const script = blob ? URL.createObjectURL(new Blob([`import ${JSON.stringify(file)};`], { type: 'text/javascript' })) : file;
    const worker = new Worker(script, { type: 'module' });
    const seen = [];
    const done = (answer) => { worker.terminate(); resolve({ ...answer, seen }); };
    worker.addEventListener('message', ({ data }) => {
      seen.push(data.type === 'status' ? data.change.phase : data.type);
      if (data.type === 'failed' || data.type === 'unavailable') done({ type: data.type, message: data.message });
      else if (data.type === 'loaded') done({ type: 'loaded' });
    });
    worker.addEventListener('error', (event) => done({ type: 'error', message: event.message }));
    worker.postMessage({ type: 'load', url, origin });
  }), { url, origin, blob });
}

test('the worker refuses a model on another origin before any request, whatever origin the page passes; the model beside it loads', async () => {
  const { page, log, offOrigin } = await probePage();
  const refusal = `the encoder's worker loads a model only from its own origin, ${browser.origin}`;
  for (const [url, origin] of [
    ['https://example.com/x.bin', undefined],
    ['https://example.com/x.bin', '*'],
    ['https://example.com/x.bin', 'https://example.com'],
    [new URL('model/encoder.q.bin', foreign).href, undefined],
    ['data:application/octet-stream;base64,AAAA', '*'],
  ]) {
    const answer = await askWorker(page, { url, origin });
    assert.deepEqual(answer, { type: 'failed', message: refusal, seen: ['failed'] }, `${url} (the page passes ${origin}): refused, nothing fetched`);
  }
  assert.deepEqual(offOrigin, [], 'no request left the origin');
  const own = await askWorker(page, { url: new URL('model/encoder.q.bin', browser.url).href, origin: browser.origin });
  assert.equal(own.type, 'loaded', `the model on the worker's origin loads: ${JSON.stringify(own)}`);
  assert.deepEqual([own.seen[0], own.seen.at(-1)], ['fetching', 'loaded']);
  assert.deepEqual(log.pageErrors, []);
  await page.close();
});

test('a worker started from a blob: URL that imports the worker keeps to the origin of the worker\'s script', async () => {
  const { page, log, offOrigin } = await probePage();
  const refused = await askWorker(page, { url: 'https://example.com/x.bin', origin: '*', blob: true });
  assert.deepEqual(refused, { type: 'failed', message: `the encoder's worker loads a model only from its own origin, ${browser.origin}`, seen: ['failed'] });
  const own = await askWorker(page, { url: new URL('model/encoder.q.bin', browser.url).href, blob: true });
  assert.equal(own.type, 'loaded', JSON.stringify(own));
  assert.deepEqual(offOrigin, []);
  assert.deepEqual(log.pageErrors, []);
  await page.close();
});

test('were the page\'s check to let a foreign model through, the widget shows the worker\'s refusal as its usual message', async () => {
  const offOrigin = [];
  const model = 'https://example.com/x.bin';
  const { page, log } = await openInstrumented(browser, `embed.html?widget=real-model&model=${encodeURIComponent(model)}`, {
    route: async (p) => {
      // the page's own check (encoder.js: modelAllowed) made to say yes to every address
      await p.route(new URL('encoder/encoder.js', browser.url).href, async (r) => {
        const response = await r.fetch();
        const body = (await response.text()).replace(/export function modelAllowed\(url\) \{/, '$&\n  return true;');
        assert.match(body, /modelAllowed\(url\) \{\n {2}return true;/, 'the page\'s check is replaced');
        await r.fulfill({ response, body });
      });
      await p.route((url) => url.origin !== browser.origin, (r) => { offOrigin.push(r.request().url()); return r.abort(); });
    },
  });
  const root = widget(page, 'real-model', '');
  await ready(root);
  const alert = root.getByRole('alert');
  await alert.filter({ hasText: 'worker' }).waitFor({ timeout: LOAD });
  assert.equal(await alert.textContent(),
    `The model file could not be loaded from ${model}: the encoder's worker loads a model only from its own origin, ${browser.origin}`);
  assert.equal(await root.locator('.model-loader').getAttribute('data-phase'), 'failed');
  assert.deepEqual(offOrigin, [], 'the model was not requested');
  assert.deepEqual(log.pageErrors, []);
  await page.close();
});

// The real-model widget of embed.html at model=address: its alert once it names the model file, and
// the requests that left the origin (recorded, then stopped).
async function modelAlert(address) {
  const offOrigin = [];
  const { page, log } = await openInstrumented(browser, `embed.html?widget=real-model&model=${encodeURIComponent(address)}`, {
    route: (p) => p.route((url) => url.origin !== browser.origin, (r) => { offOrigin.push(r.request().url()); return r.abort(); }),
  });
  const root = widget(page, 'real-model', '');
  await ready(root);
  const alert = root.getByRole('alert').filter({ hasText: 'could not be loaded' });
  await alert.waitFor({ timeout: LOAD });
  const shown = { message: await alert.textContent(), phase: await root.locator('.model-loader').getAttribute('data-phase'), offOrigin };
  assert.deepEqual(log.pageErrors, []);
  await page.close();
  return shown;
}

test('a model address of the page\'s origin that answers for ever is read up to 32 MiB, then stopped, and the widget says why', async () => {
  const streams = served.endless.length;
  const url = new URL('test/endless.bin', browser.url).href;
  const shown = await modelAlert('test/endless.bin');
  assert.deepEqual(shown, {
    message: `The model file could not be loaded from ${url}: the file is longer than 33.6 MB, the most this page reads of a model file`,
    phase: 'failed', offOrigin: [],
  });
  // The server's count of what it wrote before the reader went away: the limit, plus whatever the
  // sockets and the browser's network process held (21 MiB on one loaded machine, so no tighter bound
  // here), and far from the server's own stop. The exact count the reader takes is held in Node
  // (tests/node/model-file.test.mjs: 33 chunks of 1 MiB, then cancelled).
  assert.equal(served.endless.length, streams + 1, 'one endless answer, ended');
  const sent = served.endless.at(-1);
  assert.ok(sent >= 32 * 2 ** 20 && sent <= ENDLESS_STOP / 2, `${sent} bytes sent before the reader stopped`);
});

test('a model address of the page\'s origin that redirects to another origin is refused, and that origin gets no request', async () => {
  const target = new URL('test/target.bin', foreign).href;
  const address = `test/redirect?to=${encodeURIComponent(target)}`;
  const hits = served.target;
  const shown = await modelAlert(address);
  assert.deepEqual(shown, {
    message: `The model file could not be loaded from ${new URL(address, browser.url).href}: the address answers with a redirect, ` +
      'which this page does not follow (it could lead to another site): give the model file’s own address',
    phase: 'failed', offOrigin: [],
  });
  assert.equal(served.target, hits, 'the redirect\'s target was not asked for');
});
