// Firefox as well as Chromium: the tutorial of the release (dist/examples/
// tutorial.html), served from another origin than the release (a CDN sending
// Access-Control-Allow-Origin: *), shows its three script-tag widgets and its
// iframe, trains in a Web Worker started from the CDN's script, and its
// workers answer.
//   node --test tests/firefox/release.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeDist } from '../../scripts/dist.mjs';
import { serve } from '../../scripts/serve.mjs';
import { openPage, startFirefox, workerProblems, workers } from './harness.mjs';

let folder, cdn, firefox;
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'attention-wasm-firefox-release-'));
  await writeDist(join(folder, 'dist'));
  cdn = await serve({ root: join(folder, 'dist'), base: '/cdn/attention-wasm/', headers: { 'Access-Control-Allow-Origin': '*' } });
  mkdirSync(join(folder, 'site'));
  const tutorial = readFileSync(join(folder, 'dist', 'examples', 'tutorial.html'), 'utf8')
    .replaceAll('../embed.js', `${cdn.url}embed.js`).replaceAll('../embed.html', `${cdn.url}embed.html`);
  writeFileSync(join(folder, 'site', 'tutorial.html'), tutorial);
  firefox = await startFirefox({ root: join(folder, 'site') });
});
after(async () => {
  await firefox?.close();
  cdn?.server.closeAllConnections();
  cdn?.server.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

// in the page: the text of a field inside a widget's shadow root, true for the widget itself, null before it is drawn
function field(name, selector) {
  const host = document.querySelector(`div[data-widget="${name}"]`);
  const root = host?.shadowRoot?.querySelector('div[data-widget][data-ready="true"]');
  return root ? (selector ? root.querySelector(selector)?.textContent ?? null : true) : null;
}

test('the tutorial from another origin in Firefox: its widgets, training in a worker, the iframe sized', async () => {
  const { page, log } = await openPage(firefox, 'tutorial.html');
  for (const name of ['kv-query', 'attention-map', 'training']) {
    await page.evaluate((n) => document.querySelector(`div[data-widget="${n}"]`).scrollIntoView({ block: 'center' }), name);
    await page.waitForFunction(field, { timeout: 30000 }, name, null);
  }
  assert.match(await page.evaluate(field, 'kv-query', '[data-field="estimate"]'), /^66\.73\s?kg$/);
  // Train: in a worker, from a blob: URL that imports the CDN's script
  await page.evaluate(() => document.querySelector('div[data-widget="training"]').shadowRoot.querySelector('button[data-action="train"]').click());
  await page.waitForFunction(field, { timeout: 20000 }, 'training', '[data-field="status"]');
  await page.waitForFunction(() => /Web Worker/.test(document.querySelector('div[data-widget="training"]').shadowRoot.querySelector('[data-field="status"]').textContent), { timeout: 20000 });
  await page.waitForFunction(() => Number(document.querySelector('div[data-widget="training"]').shadowRoot.querySelector('[data-field="step"]').textContent.replace(/\D/g, '')) > 0, { timeout: 20000 });
  await page.evaluate(() => document.querySelector('div[data-widget="training"]').shadowRoot.querySelector('button[data-action="train"]').click());
  // the iframe, once in view, reports its height
  await page.evaluate(() => document.getElementById('masking-frame').scrollIntoView());
  await page.waitForFunction(() => Number.parseInt(document.getElementById('masking-frame').style.height, 10) > 300, { timeout: 20000 });
  const records = await workers(page);
  assert.ok(records.length >= 1 && records.every((w) => w.url.startsWith('blob:')), JSON.stringify(records));
  assert.deepEqual(workerProblems(records), []);
  assert.deepEqual(log.pageErrors, []);
  const allowed = new Set([new URL(firefox.url).origin, new URL(cdn.url).origin]);
  assert.deepEqual(log.requests.filter((url) => !/^(data|blob):/.test(url) && !allowed.has(new URL(url).origin)), []);
  await page.close();
});
