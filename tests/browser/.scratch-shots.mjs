import { startBrowser } from './harness.mjs';
const browser = await startBrowser();
const shots = [
  ['vectors', '', 1280], ['vectors', '&lang=zh&equal=true', 375],
  ['transformer-block', '', 1280], ['transformer-block', '&lang=zh&residual=false', 375],
  ['generation', '&tokens=3', 1280], ['generation', '&lang=zh&tokens=5', 375],
  ['cross-attention', '&projections=learned', 1280], ['cross-attention', '&lang=zh&projections=learned', 375],
];
for (const [name, extra, width] of shots) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(new URL(`embed.html?widget=${name}${extra}`, browser.url).href);
  await page.locator(`[data-widget="${name}"][data-ready="true"]`).waitFor({ timeout: 60000 });
  await page.waitForTimeout(1500);
  const file = `/tmp/shot-${name}-${width}.png`;
  await page.screenshot({ path: file, fullPage: true });
  console.log(file, await page.evaluate(() => document.documentElement.scrollWidth));
  await page.close();
}
await browser.close();
