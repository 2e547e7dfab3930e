// Shared set-up of the Firefox tests: the static server of the browser tests
// and Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core.
// Each page records console errors, uncaught errors and requests, and a probe
// installed before the page's scripts watches every Worker the page starts
// (its answers and its errors), so a widget that computes in a worker is
// checked without being named.
//
//   const firefox = await startFirefox();              // in before()
//   const { page, log } = await openPage(firefox, 'embed.html?widget=kv-query');
//   assertClean(log, firefox.origin); assert.deepEqual(workerProblems(await workers(page)), []);
//   await firefox.close();                             // in after()
import puppeteer from 'puppeteer-core';
import { recordLog } from '../browser/harness.mjs';
import { serveWith } from '../server.mjs';

// the same check as the Chromium tests'
export { assertClean } from '../browser/harness.mjs';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const VIEWPORT = { width: 1280, height: 900 };

// Starts the server (root defaults to web/) and a headless Firefox with a fresh profile.
// Resolves to { url, origin, browser, close() }; close() stops both.
export function startFirefox({ root } = {}) {
  return serveWith(async () => {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    return { browser, close: () => browser.close() };
  }, { root });
}

// Runs in the page before its own scripts: every Worker it creates is recorded
// in window.__workers as { url, messages, errors }.
function workerProbe() {
  const Native = window.Worker;
  const records = [];
  Object.defineProperty(window, '__workers', { value: records });
  if (typeof Native !== 'function') return;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      const record = { url: String(url), messages: 0, errors: [] };
      records.push(record);
      this.addEventListener('message', () => { record.messages += 1; });
      this.addEventListener('messageerror', () => record.errors.push('a message could not be read'));
      this.addEventListener('error', (event) => record.errors.push(event.message || 'failed to start'));
    }
  };
}

// Opens path (relative to the server's root) in a new page of the given size.
// log: { consoleErrors, pageErrors, requests }.
export async function openPage(firefox, path = '', { viewport = VIEWPORT } = {}) {
  const page = await firefox.browser.newPage();
  await page.setViewport(viewport);
  await page.evaluateOnNewDocument(workerProbe);
  const log = recordLog(page);
  await page.goto(new URL(path, firefox.url).href);
  return { page, log };
}

// The workers the page started so far, as the probe saw them.
export function workers(page) {
  return page.evaluate(() => window.__workers.map((w) => ({ ...w, errors: [...w.errors] })));
}

// What is wrong with them: a worker that failed, or never answered.
export function workerProblems(records) {
  return records.flatMap((w) => [
    ...w.errors.map((e) => `${w.url}: ${e}`),
    ...(w.messages === 0 && w.errors.length === 0 ? [`${w.url}: never answered`] : []),
  ]);
}
