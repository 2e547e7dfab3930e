// Browser test of the page's first view: opened without scrolling, index.html
// downloads at most 400 KB (gzipped, as a host would send it), each file once,
// starts no worker and fetches no corpus and no model; the widgets that train
// (training, language-model, learned-width) load their module, worker and data
// when they come near the screen.
//   node --test tests/browser/first-view.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { eventually, startBrowser } from './harness.mjs';
import { LANGUAGES } from '../../web/i18n/i18n.js';

const BUDGET = 400 * 1024;  // bytes, gzipped
let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

test('the first view: at most 400 KB gzipped, each file once, no worker, no corpus, no model; a training widget starts near the screen', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const bodies = [];  // [url, gzipped bytes]
  const pending = [];
  page.on('response', (response) => {
    if (response.status() !== 200) return;
    pending.push(response.body().then((body) => bodies.push([response.url(), gzipSync(body, { level: 9 }).length]), () => {}));
  });
  await page.goto(browser.url);
  for (const name of ['concepts', 'kv-query']) await page.locator(`main [data-widget="${name}"][data-ready="true"]`).waitFor({ timeout: 20000 });
  await page.waitForTimeout(1500);  // what a first view loads a moment later, too
  await Promise.all(pending);
  const urls = bodies.map(([url]) => url.replace(browser.url, ''));
  const total = bodies.reduce((sum, [, bytes]) => sum + bytes, 0);
  assert.ok(total <= BUDGET, `first view: ${total} bytes gzipped in ${bodies.length} files`);
  assert.deepEqual(urls.filter((url, i) => urls.indexOf(url) !== i), [], 'no file twice');
  assert.equal(page.workers().length, 0, 'no worker');
  assert.deepEqual(urls.filter((url) => /^(data|model)\/|attention-(training|encoder)/.test(url)), [], 'no corpus, model or training module');
  assert.ok(urls.includes('wasm/attention.mjs'), 'the core, for the first widgets');
  // only the reader's language: another catalog, and another language's words of a widget, load when chosen
  const otherWords = new RegExp(`^widgets/[\\w-]+/(${LANGUAGES.filter((lang) => lang !== 'en').join('|')})\\.js$`);
  assert.deepEqual(urls.filter((url) => /^i18n\/(?!(en|i18n|typeset)\.js)\w+\.js$/.test(url) || otherWords.test(url)), [], 'only the reader\'s language');
  for (const name of ['concepts', 'kv-query']) assert.ok(urls.includes(`widgets/${name}/en.js`), `${name}'s English words`);
  // the guide gives this weight (docs/embedding.md, Sizes): within 15% of this view's
  const guide = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  const [, files, kb] = /^\| `index\.html`, opened without scrolling .* \| (\d+) \| (\d+) KB \|$/m.exec(guide);
  assert.ok(Math.abs(Number(kb) * 1024 - total) / total <= 0.15, `the guide says ${kb} KB, this view took ${(total / 1024).toFixed(0)} KB`);
  assert.ok(Math.abs(Number(files) - bodies.length) / bodies.length <= 0.15, `the guide says ${files} files, this view took ${bodies.length}`);
  // the training widget, brought near: its module and worker come then
  await page.locator('main [data-widget="training"]').scrollIntoViewIfNeeded();
  await page.locator('main [data-widget="training"][data-ready="true"]').waitFor({ timeout: 30000 });
  await eventually(() => page.workers().length >= 1, { timeout: 20000, message: 'the training worker' });
  await page.close();
});
