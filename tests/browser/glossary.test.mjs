// Browser test of the glossary (web/i18n/typeset.js: [[id:text]] terms, and
// the page's glossary section, web/page/glossary.js): on the full page, in
// English at 1280 px and in Chinese at 375 px, every marked term is a button
// whose description is its definition from the catalog; the keyboard opens it
// (Enter) as a popover inside the window, Escape closes it, and one term's
// popover at a time is open; its link leads to the term's entry in the
// glossary, the page's last section, which lists every term of the catalog in
// both languages; and every term is marked where the page first uses it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGS } from '../../web/i18n/catalogs.js';
import { LANGUAGES, loadLanguage } from '../../web/i18n/i18n.js';
import { layout, plainText } from '../../web/i18n/typeset.js';
import { glossaryEntries } from '../../web/page/glossary.js';
import { eachWidget, eventually, openInstrumented, startBrowser } from './harness.mjs';
import { TERM_WORDS, firstUses } from './glossary-words.mjs';
for (const lang of LANGUAGES) await loadLanguage(lang);  // glossaryEntries() reads a loaded catalog

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const VIEWPORTS = { en: { width: 1280, height: 900 }, zh: { width: 375, height: 800 } };

for (const [lang, viewport] of Object.entries(VIEWPORTS)) {
  test(`${lang}: every term opens its definition from the keyboard, inside the window, and Escape closes it`, async () => {
    const { page, log } = await openInstrumented(browser, `?lang=${lang}`, { record: false });
    await page.setViewportSize(viewport);
    await page.evaluate(eachWidget, 'show');
    const definitions = Object.fromEntries(Object.entries(CATALOGS[lang].glossary).map(([id, text]) => [id, plainText(layout(text))]));
    const more = CATALOGS[lang].common.glossaryLink;
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
      assert.equal(await open.textContent(), definitions[id] + more, `${id}: the definition shown, and the link to the glossary`);
      assert.equal(await open.locator('a.term-more').getAttribute('href'), `#glossary-${id}`);
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

  test(`${lang}: the glossary, the last section and in the contents, lists every term with an anchor; a popover's link lands on it`, async () => {
    const { page, log } = await openInstrumented(browser, `?lang=${lang}`, { record: false });
    await page.setViewportSize(viewport);
    const glossary = page.locator('main section#glossary');
    await glossary.locator('dt').first().waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('main > section:last-of-type')?.id), 'glossary');
    const entries = await glossary.locator('dt').evaluateAll((dts) => dts.map((dt) => ({ id: dt.id, term: dt.textContent, definition: dt.nextElementSibling.textContent })));
    assert.deepEqual(entries, glossaryEntries(lang).map((e) => ({ id: `glossary-${e.id}`, term: plainText(e.term), definition: plainText(e.definition) })));
    assert.equal(await glossary.getByRole('heading', { level: 2 }).textContent(), CATALOGS[lang].page.glossaryTitle);
    await eventually(async () => (await page.locator('nav.toc a[href="#glossary"]').textContent()) === CATALOGS[lang].page.glossaryTitle,
      { message: 'the contents link to the glossary' });
    // the first term of the page: its popover's link lands on its entry
    const term = page.locator('main .term-button').first();
    const id = await term.getAttribute('data-term');
    await term.scrollIntoViewIfNeeded();
    await term.click();
    await page.locator('main .term-definition:popover-open a.term-more').click();
    await eventually(async () => (await page.evaluate(() => location.hash)) === `#glossary-${id}`, { message: `#glossary-${id}` });
    const top = await page.locator(`#glossary-${id}`).evaluate((dt) => dt.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < viewport.height / 2, `the entry is on the screen (${top} px)`);
    assert.equal(await page.locator('main .term-definition:popover-open').count(), 0, 'the popover closed');
    assert.deepEqual(log.pageErrors, []);
    await page.close();
  });
}

test('en and zh: the same terms, and each is marked where the page first uses it', async () => {
  assert.deepEqual(Object.keys(CATALOGS.zh.glossary).sort(), Object.keys(CATALOGS.en.glossary).sort());
  for (const lang of ['en', 'zh']) {
    assert.deepEqual(Object.keys(TERM_WORDS[lang]).sort(), Object.keys(CATALOGS[lang].glossary).sort(), `${lang}: the words of every term`);
    const { page } = await openInstrumented(browser, `?lang=${lang}`, { record: false });
    await page.evaluate(eachWidget, 'show');
    const words = Object.fromEntries(Object.entries(TERM_WORDS[lang]).map(([id, pattern]) => [id, [pattern.source, pattern.flags]]));
    const found = await page.evaluate(firstUses, words);
    for (const [id, use] of Object.entries(found)) {
      assert.ok(use, `${lang}: "${id}" is used on the page`);
      assert.ok(use.marked, `${lang}: "${id}" is first used unmarked, in ${use.widget} (${use.tag}): "${use.text.slice(0, 120)}"`);
    }
    await page.close();
  }
});
