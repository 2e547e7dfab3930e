import { startBrowser, openPage, eventually, LOAD } from './harness.mjs';
const W = '[data-widget="real-model"]';
const browser = await startBrowser();
const cats = process.env.CATS || 'disabled-by-default-devtools.timeline,devtools.timeline,toplevel';
for (let run = 0; run < 3; run++) {
  const { page } = await openPage(browser, 'embed.html?widget=kv-query');
  const cdp = await browser.context.newCDPSession(page);
  await page.evaluate(() => caches.delete('attention-wasm-model-v1'));
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(new URL('embed.html?widget=real-model', browser.url).href);
  const loader = page.locator(`${W} .model-loader`);
  await eventually(async () => ['fetching', 'preparing'].includes(await loader.getAttribute('data-phase')), { timeout: LOAD, interval: 2 });
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.start', { categories: cats, transferMode: 'ReportEvents' });
  await page.locator(`${W}[data-ready="true"] .rm-map .heatmap-cell`).first().waitFor({ timeout: LOAD });
  await eventually(async () => (await page.locator(W).getAttribute('aria-busy')) !== 'true', { timeout: LOAD });
  await page.locator(`${W} .controls input[type="text"]`).first().fill('My father told me his car was broken.');
  await eventually(async () => (await page.locator(`${W} .rm-map .heatmap-row`).allTextContents()).includes('father'), { timeout: LOAD });
  await eventually(async () => (await page.locator(W).getAttribute('aria-busy')) !== 'true', { timeout: LOAD });
  await page.waitForTimeout(300);
  await cdp.send('Tracing.end'); await complete;
  const threads = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}/${e.tid}`, e.args.name);
  const main = events.filter((e) => threads.get(`${e.pid}/${e.tid}`) === 'CrRendererMain');
  const driver = main.filter((e) => e.name === 'Receive mojo message' && e.args?.chrome_mojo_event_info?.mojo_interface_tag?.startsWith('blink.mojom.DevTools'));
  const tasks = main.filter((e) => e.ph === 'X' && e.name === 'RunTask' && !driver.some((d) => d.ts >= e.ts && d.ts <= e.ts + e.dur)).sort((a, b) => b.tdur - a.tdur).slice(0, 4);
  console.log('run', run);
  for (const t of tasks) {
    const inside = main.filter((e) => e.ph === 'X' && e.ts >= t.ts && e.ts + (e.dur || 0) <= t.ts + t.dur && e !== t && (e.tdur || e.dur || 0) > 1000);
    console.log(`  task ${(t.tdur / 1000).toFixed(1)} ms (wall ${(t.dur / 1000).toFixed(1)})`);
    for (const e of inside.slice(0, 16)) console.log(`     ${e.name} ${((e.tdur || 0) / 1000).toFixed(1)} ${e.args?.data?.functionName ?? ''} ${(e.args?.data?.url ?? '').split('/').pop()}:${e.args?.data?.lineNumber ?? ''}`);
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.close();
}
await browser.close();
