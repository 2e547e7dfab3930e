// Shared set-up of the browser tests: a static server for web/ and a fresh
// headless Chromium (Debian's, driven by playwright-core), plus a page opener
// that records console errors, page errors and every request URL.
//
//   const browser = await startBrowser();            // in before()
//   const { page, log } = await openPage(browser, '?q=165');
//   assertClean(log, browser.origin);                // no error, nothing off-origin
//   await browser.close();                           // in after()
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Starts the server (any free port; root defaults to web/) and the browser.
// Resolves to { url, origin, context, close() }; close() stops both and removes the profile.
export async function startBrowser({ root } = {}) {
  const { server, url } = await serve(root ? { root } : {});
  const profile = mkdtempSync(join(tmpdir(), 'attention-wasm-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
  } catch (error) {
    server.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    origin: new URL(url).origin,
    context,
    async close() {
      await context.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Opens path (relative to the server's root URL) in a new page.
// log: { consoleErrors, pageErrors, requests } filled as the page runs.
export async function openPage(browser, path = '', { viewport } = {}) {
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const log = { consoleErrors: [], pageErrors: [], requests: [] };
  page.on('console', (message) => { if (message.type() === 'error') log.consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => log.pageErrors.push(error.message));
  page.on('request', (request) => log.requests.push(request.url()));
  await page.goto(new URL(path, browser.url).href);
  return { page, log };
}

// The requested URLs that left the page's origin (data: and blob: stay in the page).
export function offOriginRequests(log, origin) {
  return log.requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
}

// No console error, no uncaught error, no request outside origin.
export function assertClean(log, origin) {
  assert.deepEqual(log.consoleErrors, [], 'console errors');
  assert.deepEqual(log.pageErrors, [], 'page errors');
  assert.deepEqual(offOriginRequests(log, origin), [], 'requests outside the page origin');
}

// Retries check() (sync or async) until it returns true; throws after timeout ms.
// For values that a page updates asynchronously; assert the final values afterwards.
export async function eventually(check, { timeout = 5000, interval = 25, message = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${message}`);
    await new Promise((done) => setTimeout(done, interval));
  }
}

// A number as a page shows it ("−6.125", "27,520", "66.73 kg") -> 6.125 etc.;
// "<0.001" -> { below: 0.001 }; anything else (—, NaN) -> NaN.
export function parseShown(text) {
  const t = text.trim().replace(/\u2212/g, '-').replace(/,/g, '').replace(/\s*(kg|cm)$/, '');
  if (t.startsWith('<')) return { below: Number(t.slice(1)) };
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

// Asserts that text shows expected, rounded to `decimals` decimals.
export function assertShown(text, expected, decimals, what = 'value') {
  const shown = parseShown(text);
  if (typeof shown === 'object') {
    assert.ok(expected > 0 && expected < shown.below, `${what}: shows "${text}", expected ${expected}`);
    return;
  }
  const tolerance = 0.5 * 10 ** -decimals + 1e-9;
  assert.ok(Math.abs(shown - expected) <= tolerance, `${what}: shows "${text}", expected ${expected} to ${decimals} decimals`);
}
