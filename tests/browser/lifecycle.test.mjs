// Browser test of the widget lifecycle (web/runtime/runtime.js: dispose(view),
// unmount()): the page's language switch unmounts the widgets it mounts again,
// and what they started stops at once (their workers close, no interval is
// left ticking); no widget polls whether it is still on the page, nor reaches into a heatmap.
//   node --test tests/browser/lifecycle.test.mjs
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { eventually, openPage, scrollToWidget, startBrowser } from './harness.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

test('the language switch unmounts the widgets: the training and language-model workers of the former language close at once', async () => {
  const { page, log } = await openPage(browser, '?language-model.corpus=names');
  const workers = [];
  page.on('worker', (worker) => {
    const entry = { url: worker.url(), closed: false };
    worker.on('close', () => { entry.closed = true; });
    workers.push(entry);
  });
  // (widgets that train start when they come near the screen)
  for (const name of ['training', 'language-model']) {
    await scrollToWidget(page, `main [data-widget="${name}"]`);
    await page.locator(`main [data-widget="${name}"][data-ready="true"]`).waitFor({ timeout: 30000 });
  }
  await page.locator('main [data-widget="training"] button[data-action="train"]').click();
  await eventually(() => workers.length >= 2, { timeout: 20000, message: 'the two training workers' });
  const before = workers.slice();
  assert.ok(before.every((w) => !w.closed));
  await page.locator('.language button[data-lang="zh"]').first().click();
  await scrollToWidget(page, 'main [data-widget="training"]');
  await page.locator('main [data-widget="training"][data-ready="true"] .widget-title').filter({ hasText: /训练/ }).waitFor({ timeout: 30000 });
  // closed within a second (a poll every 2 s closed them up to 2 s later)
  await eventually(() => before.every((w) => w.closed), { timeout: 1000, message: 'the former workers closed' });
  assert.deepEqual(log.pageErrors, []);
  await page.close();
});

// the page's own JavaScript (not the built modules and bundle)
function webSources() {
  const sources = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) { if (entry.name !== 'wasm') walk(path); } else if (/\.js$/.test(entry.name) && entry.name !== 'embed.js') sources.push(path);
    }
  };
  walk(new URL('../../web', import.meta.url).pathname);
  return sources;
}

test('no widget reaches into a heatmap\'s own elements: it redraws one with update() (render/heatmap.js)', () => {
  const reaching = webSources().filter((path) => !path.includes('/render/') && !path.endsWith('/export.js')
    && /\.heatmap-(cell|values|row|col|hatch)\b/.test(readFileSync(path, 'utf8')));
  assert.deepEqual(reaching, []);
});

test('no widget polls whether it is on the page: no isConnected check, no setInterval in web/', () => {
  const sources = webSources();
  // (the embed's MutationObserver asks isConnected of the elements a mutation removed: an event, not a poll)
  const polling = sources.filter((path) => !path.endsWith('/embed-api.js') && /\.isConnected\b|setInterval\(/.test(readFileSync(path, 'utf8')));
  assert.deepEqual(polling, []);
});
