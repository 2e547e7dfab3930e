// Browser test of the concepts widget (web/widgets/concepts/widget.js): focused vs
// saliency attention and the cocktail-party effect, in both languages, with the
// terms of Hemon's article "注意力机制" (聚焦式注意力, 显著性注意力, 鸡尾酒会效应);
// the scene control changes the picture and round-trips through the URL; the
// exports carry the definitions; compute() never touches the core; the embed
// renders alone.
//   node --test tests/browser/concepts.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import * as concepts from '../../web/widgets/concepts/widget.js';
import en from '../../web/widgets/concepts/en.js';
import zh from '../../web/widgets/concepts/zh.js';
import { eventually, startBrowser, withPage, whenReady } from './harness.mjs';

const WIDGET = '[data-widget="concepts"]';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const ready = whenReady(WIDGET);

const active = (page) => page.locator(`${WIDGET} .cc-card.is-active`).getAttribute('data-concept');

test('compute() needs no core: it never touches the module it is given', () => {
  const untouchable = new Proxy({}, { get(_, key) { throw new Error(`the core was used: ${String(key)}`); } });
  assert.deepEqual(concepts.compute(untouchable, { scene: 'saliency' }), { scene: 'saliency' });
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort(), 'the same keys in both languages');
});

test('the full page shows both kinds of attention and the cocktail party; the scene control and the URL agree', () => withPage(browser, '', async ({ page }) => {
  await ready(page);
  const root = page.locator(WIDGET);
  assert.equal(await root.locator('.cc-term').first().textContent(), 'Focused attention');
  assert.match(await root.locator('[data-concept="focused"] .cc-tag').textContent(), /top-down/);
  assert.match(await root.locator('[data-concept="saliency"] .cc-tag').textContent(), /bottom-up/);
  assert.match(await root.locator('[data-concept="saliency"] .cc-def').textContent(), /fully-connected layer, by max pooling or by a gating mechanism/);
  assert.match(await root.locator('[data-concept="party"]').textContent(), /cocktail-party effect.*your name/s);
  assert.match(await root.locator('[data-concept="qkv"]').textContent(), /query Q.*values V.*key K/s);
  assert.equal(await active(page), 'focused');
  const picture = root.locator('.cc-diagram.is-wide');
  assert.ok(await picture.isVisible());
  assert.match(await picture.getAttribute('aria-label'), /Focused \(top-down\)/);
  assert.equal(await picture.locator('.cc-voice.is-chosen').textContent(), 'k₂friend’s voice');
  assert.match(await root.locator('.cc-caption').textContent(), /^Focused \(top-down\)/);

  await page.getByRole('radio', { name: 'Saliency attention' }).check();
  await eventually(async () => (await active(page)) === 'saliency', { message: 'saliency active' });
  assert.equal(await picture.locator('.cc-voice.is-chosen').textContent(), 'k₄“… Alex …” (your name)');
  assert.match(await root.locator('.cc-caption').textContent(), /^Saliency \(bottom-up\)/);
  assert.equal(new URL(page.url()).searchParams.get('concepts.scene'), 'saliency');
  await page.reload();
  await ready(page);
  assert.equal(await active(page), 'saliency', 'the URL brings the scene back');
  assert.ok(await page.getByRole('radio', { name: 'Saliency attention' }).isChecked());
  assert.equal(await page.getByRole('alert').count(), 0);
}));

test('the embed renders it alone in Chinese with the article\'s terms, and a compact picture on a phone', () => withPage(browser, 'embed.html?widget=concepts&scene=saliency&lang=zh', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
  await ready(page);
  assert.equal(await page.locator('[data-widget]').count(), 1);
  const text = await page.locator(WIDGET).innerText();
  for (const term of ['聚焦式注意力', '显著性注意力', '鸡尾酒会效应', '自上而下', '自下而上', '自主性提示', '非自主性提示', '最大汇聚', '门控机制']) {
    assert.ok(text.includes(term), `the Chinese text has ${term}`);
  }
  assert.equal(await active(page), 'saliency');
  assert.ok(await page.locator(`${WIDGET} .cc-diagram.is-compact`).isVisible(), 'the compact picture on a phone');
  assert.ok(!(await page.locator(`${WIDGET} .cc-diagram.is-wide`).isVisible()));
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
}));

test('the exports: the definitions in both languages as CSV and JSON, the picture as SVG', () => withPage(browser, 'embed.html?widget=concepts', async ({ page }) => {
  await ready(page);
  const download = async (kind) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`${WIDGET} [data-export="${kind}"]`).click()]);
    return readFileSync(await file.path(), 'utf8');
  };
  const csv = (await download('csv')).trim().split(/\r\n/);
  assert.equal(csv.length, 5, 'a header and four concepts');
  assert.match(csv[1], /^focused,Focused attention,.*,聚焦式注意力,/);
  assert.match(csv[2], /^saliency,Saliency attention,.*,显著性注意力,/);
  assert.match(csv[3], /^party,The cocktail-party effect,.*,鸡尾酒会效应,/);
  const json = JSON.parse(await download('json'));
  assert.equal(json.widget, 'concepts');
  assert.deepEqual(json.state, { scene: 'focused' });
  assert.deepEqual(json.concepts.map((c) => c.id), ['focused', 'saliency', 'party', 'qkv']);
  assert.equal(json.concepts[1].zh.term, '显著性注意力');
  const svg = await download('svg');
  assert.match(svg, /^<\?xml[^>]*>\s*<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /friend’s voice/);
}));
