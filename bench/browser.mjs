// A blank page in headless Chromium, for the benches that time the module in
// the browser (encoder.mjs, language-model-vs-tfjs.mjs, trainer-vs-tfjs.mjs): a temporary folder holding
// index.html and attention.mjs, served on localhost and opened in a fresh
// profile.
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/browser/harness.mjs';

// A new temporary folder attention-wasm-<name>-*: index.html (a blank page
// titled `title`) and attention.mjs, a link to `module`, with links to the
// two modules it loads on first use from beside it (attention-encoder.mjs,
// attention-training.mjs, where they are beside `module`). -> its path (the
// caller removes it)
export function blankPageDir(name, title, module) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `attention-wasm-${name}-`));
  symlinkSync(module, path.join(dir, 'attention.mjs'));
  for (const part of ['attention-encoder.mjs', 'attention-training.mjs']) {
    const beside = path.join(path.dirname(module), part);
    if (existsSync(beside)) symlinkSync(beside, path.join(dir, part));
  }
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><title>${title}</title>`);
  return dir;
}

// Serves dir, opens its index.html in headless Chromium and resolves to what
// run(page) resolves to; the browser, the server and the profile are gone
// when it settles.
export async function onBlankPage(dir, run) {
  const { server, url } = await serve({ root: dir });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'attention-wasm-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const page = await context.newPage();
      await page.goto(url);
      return await run(page);
    } finally {
      await context.close();
    }
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
