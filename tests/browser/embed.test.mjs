// Embedding: the iframe page reports its height to the parent; the script-tag
// embed works from another origin and from file://, in a shadow root, with
// its state and language from data- attributes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { startBrowser, withPage, openPage, eventually, openWithErrors } from './harness.mjs';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
let browser, other;

before(async () => {
  browser = await startBrowser();
  other = await serve({ root: fixtures.replace(/\/$/, '') });  // the embedding article: another origin
});
after(async () => {
  await browser?.close();
  other?.server.closeAllConnections();
  other?.server.close();
});

const plain = (s) => s.replace(/\u00a0/g, ' ').trim();

test('embed.html shows one widget alone, with bare state keys, and no page chrome', () => withPage(browser, 'embed.html?widget=kv-query&q=165&score=dot', async ({ page }) => {
  await page.locator('[data-widget="kv-query"][data-ready="true"]').waitFor();
  assert.equal(await page.locator('[data-widget]').count(), 1);
  assert.equal(plain(await page.locator('[data-field="estimate"]').textContent()), '70.00 kg');
  assert.equal(await page.locator('.page-header, nav.toc, .page-footer').count(), 0, 'no header, contents or footer');
  assert.deepEqual(await page.locator('h1').evaluateAll((hs) => hs.map((h) => [h.className, h.textContent])),
    [['visually-hidden', 'attention-wasm']], 'the only level-one heading is for screen readers');
  assert.equal(await page.locator('details.embed').count(), 0, 'no embed snippet inside an embed');
  // a change goes to the iframe's own URL, with bare keys
  await page.getByRole('radio', { name: 'Article’s weights' }).check();
  await eventually(async () => new URL(page.url()).searchParams.get('score') === 'article');
}));

test('an unknown widget name shows a visible message', async () => {
  const { page } = await openPage(browser, 'embed.html?widget=nope');
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /unknown widget "nope"/);
  await page.close();
});

test('the iframe embed from another origin reports its height to the parent', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${other.url}host.html?mode=iframe&web=${encodeURIComponent(browser.url)}&widget=kv-query&state=${encodeURIComponent('q=165&score=dot')}`);
  // the first report may come before the widget is drawn; wait for the drawn one
  await eventually(async () => Number(await page.textContent('#height')) > 300, { timeout: 15000, message: 'a height message' });
  const height = Number(await page.textContent('#height'));
  assert.ok(height > 300 && height < 5000, `height ${height}`);
  const frame = page.frameLocator('iframe');
  assert.equal(plain(await frame.locator('[data-field="estimate"]').textContent()), '70.00 kg');
  await page.close();
});

test('the script-tag embed works from another origin, in a shadow root, in Chinese', async () => {
  const { page, errors } = await openWithErrors(browser, `${other.url}host.html?mode=script&web=${encodeURIComponent(browser.url)}&widget=kv-query&lang=zh&state=${encodeURIComponent('q=165&score=article')}`);
  const estimate = page.locator('[data-widget="kv-query"] [data-field="estimate"]');  // pierces the open shadow root
  await eventually(async () => (await estimate.count()) > 0 && plain(await estimate.textContent()) !== '', { timeout: 15000, message: 'the estimate' });
  assert.equal(plain(await estimate.textContent()), '64.75 千克');
  assert.ok(await page.evaluate(() => Boolean(document.querySelector('#slot div[data-widget]').shadowRoot)), 'in a shadow root');
  // the host page's own text is untouched by the widget's styles
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('p')).fontFamily.includes('system-ui')), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the script-tag embed works from file://', async () => {
  const { page, errors } = await openWithErrors(browser, pathToFileURL(fixtures + 'host.html').href + '?mode=script&widget=kv-query&state=' + encodeURIComponent('q=165&score=dot'));
  const estimate = page.locator('[data-widget="kv-query"] [data-field="estimate"]');
  await eventually(async () => (await estimate.count()) > 0 && plain(await estimate.textContent()) !== '', { timeout: 15000, message: 'the estimate' });
  assert.equal(plain(await estimate.textContent()), '70.00 kg');
  assert.deepEqual(errors, []);
  await page.close();
});
