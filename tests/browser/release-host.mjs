// For release.test.mjs: a page of the author's site, its requests recorded; scripts: addresses to load in order, then wait for attentionWasm.
// longTasks: window.longTasks records the page's main-thread tasks over 50 ms (their durations)
export async function hostPage(browser, path = 'blank.html', { scripts = [], viewport, longTasks = false } = {}) {
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  if (longTasks) {
    await page.addInitScript(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration)); })
        .observe({ type: 'longtask', buffered: true });
    });
  }
  const log = { requests: [], pageErrors: [], consoleErrors: [] };
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('pageerror', (e) => log.pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') log.consoleErrors.push(m.text()); });
  await page.goto(new URL(path, browser.url).href);
  for (const src of scripts) {
    await page.evaluate((url) => new Promise((done, fail) => {
      const script = Object.assign(document.createElement('script'), { src: url });
      script.onload = done;
      script.onerror = () => fail(new Error(`could not load ${url}`));
      document.head.append(script);
    }), src);
  }
  return { page, log };
}
