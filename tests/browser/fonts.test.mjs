// The page names the common Chinese faces in its font stacks, so that Chinese
// text finds its glyphs where the system's default sans-serif has none: in
// Chinese, the computed font-family of the page's text, of a widget's text,
// of a drawing's labels (an SVG heatmap) and the monospaced tokens' stack list
// them after the Latin faces; the stylesheet's --font and the drawings'
// FONT_FAMILY (render/svg.js) are one list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FONT_FAMILY } from '../../web/render/svg.js';
import { startBrowser, withPage, whenReady } from './harness.mjs';

const CJK = ['PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei'];
let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const families = (stack) => stack.split(',').map((f) => f.trim().replace(/^"|"$/g, ''));

function assertNamesChinese(stack, what) {
  const list = families(stack);
  for (const face of CJK) assert.ok(list.includes(face), `${what}: "${face}" in ${stack}`);
  assert.ok(list.indexOf(CJK[0]) > list.indexOf('Arial') || list.indexOf(CJK[0]) > 0, `${what}: the Latin faces first`);
  assert.match(list.at(-1), /^(sans-serif|monospace)$/, `${what}: a generic family last`);
}

test('zh: the page\'s text, a widget\'s, a heatmap\'s labels and the tokens name the Chinese faces', () =>
  withPage(browser, '?lang=zh#attention-map', async ({ page }) => {
    await whenReady('main [data-widget="attention-map"]')(page);
    const seen = await page.evaluate(() => {
      const font = (selector) => { const e = document.querySelector(selector); return e ? getComputedStyle(e).fontFamily : null; };
      return {
        lang: document.documentElement.lang, body: font('body'), heading: font('h1'), widget: font('[data-widget="attention-map"] .widget-intro'),
        label: font('[data-widget="attention-map"] svg.heatmap text'),
        mono: getComputedStyle(document.documentElement).getPropertyValue('--mono'),
        variable: getComputedStyle(document.documentElement).getPropertyValue('--font'),
      };
    });
    assert.equal(seen.lang, 'zh-CN');
    for (const what of ['body', 'heading', 'widget', 'label']) assertNamesChinese(seen[what], what);
    assertNamesChinese(seen.mono, 'the monospaced tokens (--mono)');
    assert.deepEqual(families(seen.variable), families(FONT_FAMILY), 'the stylesheet\'s --font is the drawings\' FONT_FAMILY');
  }));

test('zh, one widget in an iframe: its text and its drawing name the Chinese faces', () =>
  withPage(browser, 'embed.html?widget=attention-map&lang=zh', async ({ page }) => {
    await whenReady('[data-widget="attention-map"]')(page);
    const seen = await page.evaluate(() => ({
      intro: getComputedStyle(document.querySelector('.widget-intro')).fontFamily,
      label: getComputedStyle(document.querySelector('svg.heatmap text')).fontFamily,
    }));
    assertNamesChinese(seen.intro, 'the intro');
    assertNamesChinese(seen.label, 'a label of the map');
  }));
