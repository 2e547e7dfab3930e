// Browser test of the glossary (web/i18n/typeset.js: [[id:text]] terms): on
// the full page, in English at 1280 px and in Chinese at 375 px, every marked
// term is a button whose description is its definition from the catalog; the
// keyboard opens it (Enter) as a popover inside the window, Escape closes it,
// and one term's popover at a time is open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGS } from '../../web/i18n/i18n.js';
import { layout, plainText } from '../../web/i18n/typeset.js';
import { eachWidget, openInstrumented, startBrowser } from './harness.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

for (const [lang, viewport] of [['en', { width: 1280, height: 900 }], ['zh', { width: 375, height: 800 }]]) {
  test(`${lang}: every term opens its definition from the keyboard, inside the window, and Escape closes it`, async () => {
    const { page, log } = await openInstrumented(browser, `?lang=${lang}`, { record: false });
    await page.setViewportSize(viewport);
    await page.evaluate(eachWidget, 'show');
    const definitions = Object.fromEntries(Object.entries(CATALOGS[lang].glossary).map(([id, text]) => [id, plainText(layout(text))]));
    const terms = page.locator('main .term-button');
    const count = await terms.count();
    const seen = new Set();
    for (let k = 0; k < count; k++) {
      const term = terms.nth(k);
      const id = await term.getAttribute('data-term');
      seen.add(id);
      // its description, for a screen reader: the definition
      const described = await term.evaluate((button) => button.getRootNode().getElementById(button.getAttribute('aria-describedby'))?.textContent);
      assert.equal(described, definitions[id], `${id}: the description`);
      await term.scrollIntoViewIfNeeded();
      await term.focus();
      await page.keyboard.press('Enter');
      const open = page.locator('main .term-definition:popover-open');
      await open.waitFor({ timeout: 3000 });
      assert.equal(await open.count(), 1, `${id}: one popover open`);
      assert.equal(await open.textContent(), definitions[id], `${id}: the definition shown`);
      const box = await open.boundingBox();
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5,
        `${id}: inside the window (${JSON.stringify(box)})`);
      await page.keyboard.press('Escape');
      await page.locator('main .term-definition:popover-open').waitFor({ state: 'detached', timeout: 3000 }).catch(() => {});
      assert.equal(await page.locator('main .term-definition:popover-open').count(), 0, `${id}: Escape closes it`);
    }
    assert.deepEqual([...seen].sort(), Object.keys(definitions).sort(), 'every term of the glossary is on the page');
    assert.deepEqual(log.pageErrors, []);
    await page.close();
  });
}
