// Writes the README's picture, docs/screenshot.png: the training section of
// the page in headless Chromium at 1280 px, replayed from a link to step 150,
// where the learned map has found the anti-diagonal; cut below the maps.
// Needs the build and npm test's packages (Chromium, playwright-core):
//   node scripts/screenshot.mjs [out.png]
import { startBrowser, openPage, scrollToWidget } from '../tests/browser/harness.mjs';

const STEPS = 150;
const HEIGHT = 1130;  // px of the section: its controls, curves and maps
const out = process.argv[2] ?? new URL('../docs/screenshot.png', import.meta.url).pathname;
const browser = await startBrowser();
try {
  const { page } = await openPage(browser, `?lang=en&training.steps=${STEPS}#training`, { viewport: { width: 1280, height: 900 } });
  const root = 'main [data-widget="training"]';
  await scrollToWidget(page, root);
  await page.locator(`${root} [data-field="status"][data-running="false"][data-replaying="false"]`)
    .filter({ hasText: new RegExp(`\\b${STEPS}\\b`) }).waitFor({ timeout: 60000 });
  await page.evaluate(() => document.fonts.ready);
  const box = await page.locator('section#training').boundingBox();
  await page.screenshot({ path: out, fullPage: true, animations: 'disabled',
    clip: { x: box.x, y: box.y + (await page.evaluate(() => scrollY)), width: box.width, height: Math.min(HEIGHT, box.height) } });
  console.log(`screenshot: ${out}`);
} finally {
  await browser.close();
}
