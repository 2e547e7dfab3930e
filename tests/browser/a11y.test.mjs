// Accessibility checked by a machine: axe-core (WCAG 2.1 A and AA and axe's
// best practices) over the whole page with every widget rendered and over
// every widget's embed (English and Chinese in turn), in the light and the
// dark colour scheme, and over the table of contents opened at 375 px. No violation.
//
// The dark scheme changes nothing but the colour variables of style.css (the
// one prefers-color-scheme block), so in dark the colour rules run again and
// the structural rules, already run in light on the same DOM, are not repeated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { WIDGETS } from '../../web/widgets/list.js';
import { startBrowser, openPage, assertClean } from './harness.mjs';

const AXE = createRequire(import.meta.url)('axe-core');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
const LOAD = 60000;  // ms: the real model is 8 MB

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

// One violation per line, then each element with what to fix.
function describe(violations) {
  return violations.map((v) => [
    `${v.id} (${v.impact}): ${v.help} — ${v.nodes.length} element(s), ${v.helpUrl}`,
    ...v.nodes.slice(0, 8).map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary.replace(/\n\s*/g, '; ')}`),
    ...(v.nodes.length > 8 ? [`    … and ${v.nodes.length - 8} more`] : []),
  ].join('\n')).join('\n');
}

// Runs axe in page (injected once: evaluated by the driver, so the page's CSP
// does not apply) and asserts no violation. rules: null for every rule of TAGS.
async function assertAccessible(page, what, { rules = null, include = null } = {}) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE.source);
  const result = await page.evaluate(({ tags, rules, include }) => window.axe.run(
    include ? { include } : document,
    { runOnly: rules ? { type: 'rule', values: rules } : { type: 'tag', values: tags }, resultTypes: ['violations'] },
  ), { tags: TAGS, rules, include });
  const violations = result.violations;
  assert.equal(violations.length, 0, `${what}: axe found\n${describe(violations)}`);
}

// Light with every rule, then dark with the colour rules.
async function assertBothSchemes(page, what, options = {}) {
  await page.emulateMedia({ colorScheme: 'light' });
  await assertAccessible(page, `${what}, light`, options);
  await page.emulateMedia({ colorScheme: 'dark' });
  await assertAccessible(page, `${what}, dark`, { ...options, rules: COLOUR_RULES });
}

async function allReady(page, scope) {
  for (const root of await page.locator(`${scope} [data-widget]`).all()) {
    await root.scrollIntoViewIfNeeded();  // real-model loads its model once in view
    await root.and(page.locator('[data-ready="true"]')).waitFor({ timeout: LOAD });
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

for (const lang of ['en', 'zh']) {
  test(`the whole page, every widget rendered, ${lang}: no violation in light or dark`, async () => {
    const { page, log } = await openPage(browser, `?lang=${lang}`);
    await allReady(page, 'main');
    assert.equal(await page.locator('main [data-widget][data-ready="true"]').count(), WIDGETS.length);
    await assertBothSchemes(page, `page ${lang}`);
    assertClean(log, browser.origin);
    await page.close();
  });
}

test('the table of contents opened at 375 px: no violation in light or dark', async () => {
  const { page, log } = await openPage(browser, '?lang=en', { viewport: { width: 375, height: 800 } });
  await page.locator('main [data-widget="kv-query"][data-ready="true"]').waitFor();
  await page.locator('.toc-toggle').click();
  await page.locator('.toc-list').waitFor({ state: 'visible' });
  await assertBothSchemes(page, 'contents menu', { include: [['nav.toc']] });
  assertClean(log, browser.origin);
  await page.close();
});

// Each embed in one language, English and Chinese in turn: what a widget
// shows in both is checked on the whole page above; what an embed adds
// around it (its document, its title, its language) in both, on half of them each.
WIDGETS.forEach((name, k) => {
  const lang = k % 2 ? 'zh' : 'en';
  test(`embed ${name}, ${lang}: no violation in light or dark`, async () => {
    const { page, log } = await openPage(browser, `embed.html?widget=${name}&lang=${lang}`);
    await page.locator(`[data-widget="${name}"][data-ready="true"]`).waitFor({ timeout: LOAD });
    await assertBothSchemes(page, `embed ${name} ${lang}`);
    assertClean(log, browser.origin);
    await page.close();
  });
});
