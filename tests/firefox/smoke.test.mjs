// Firefox as well as Chromium: the page and every embed open in Debian's
// firefox-esr with no console error, no uncaught error and nothing off-origin;
// every widget shows its numbers, the same numbers Chromium shows for the same
// address (so a widget added later is checked without being named here), with
// the article's golden values where the page has them; the real model loads
// and draws its map; any widget that computes in a worker gets its answers.
//   node --test tests/firefox/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { WIDGETS } from '../../web/widgets/list.js';
import { serve } from '../../scripts/serve.mjs';
import { startBrowser } from '../browser/harness.mjs';
import { startFirefox, openPage, assertClean, workers, workerProblems, VIEWPORT } from './harness.mjs';

const NAMES = [...WIDGETS];
const LOAD = 60000;  // ms: the real model is 8 MB
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

// Widgets that compute only when asked: what to do so that they do. run(page)
// works with both drivers (page.click and page.waitForSelector are in both).
// measured: the fields that are timings of this machine, not results of the
// core: compared as "shows a number", and the timing table is not compared.
const ACTIONS = {
  speed: {
    search: 'maxN=128',
    async run(page) {
      // the button's own click(): a click at the button's coordinates can land
      // elsewhere when the layout moves at that moment (a loaded machine)
      await page.$eval('[data-widget="speed"] [data-part="run"]', (button) => button.click());
      try {
        await page.waitForSelector('[data-widget="speed"] .sp-status[data-status="done"]', { timeout: LOAD });
      } catch (error) {
        const shown = await page.$eval('[data-widget="speed"] .sp-status', (s) => `${s.dataset.status}: ${s.textContent}`);
        throw new Error(`${error.message}; the status shows "${shown}"`);
      }
    },
    measured: /^(headline-ratio|js|kernel|ratio)$/,
  },
  // 6 steps by 2 workers of the language model's own (module workers inside its worker)
  'language-model': {
    search: 'layers=1&heads=2&dModel=32&steps=6&threads=2',
    async run(page) {
      await page.waitForFunction(() => {
        const field = (name) => document.querySelector(`[data-widget="language-model"] [data-field="${name}"]`);
        return field('status')?.dataset.running === 'false' && field('step')?.textContent.trim() === '6' &&
          field('threads')?.textContent.trim() === '2';
      }, { timeout: LOAD });
    },
    measured: /^(rate|stepsRate|status)$/,
  },
};
// Widgets with no number to show (an explanation, no computation): their text is compared instead.
const WORDS_ONLY = new Set(['concepts']);

let firefox, chromium;
before(async () => { [firefox, chromium] = await Promise.all([startFirefox(), startBrowser()]); });
after(async () => { await Promise.all([firefox?.close(), chromium?.close()]); });

// Every number a widget shows, in page order: its [data-field]s, the cells of
// its maps, its <output>s and its table cells. The same function runs in both browsers.
function numbersShown(root) {
  const plain = (node) => node.textContent.replace(/\s+/g, ' ').trim();
  const numeric = (text) => /\d/.test(text);
  const each = (selector) => [...root.querySelectorAll(selector)].map(plain).filter(numeric);
  return {
    fields: [...root.querySelectorAll('[data-field]')].map((node) => [node.dataset.field, plain(node)]).filter(([, text]) => numeric(text)),
    cells: each('.heatmap-values text'),
    outputs: each('output:not([data-field])'),  // (those with a field are among the fields)
    tables: each('td'),
    text: plain(root.querySelector('.widget-body')),
  };
}

function assertSameNumbers(shown, reference, what) {
  if (WORDS_ONLY.has(what)) {
    assert.ok(shown.text.length > 100, `${what}: shows its explanation`);
    assert.equal(shown.text, reference.text, `${what}: the same text as in Chromium`);
    return;
  }
  const count = shown.fields.length + shown.cells.length + shown.outputs.length + shown.tables.length;
  assert.ok(count > 0, `${what}: shows numbers`);
  const machine = ACTIONS[what]?.measured ?? /^$/;
  const core = (fields) => fields.map(([name, text]) => (machine.test(name) ? [name, /\d/.test(text)] : [name, text]));
  assert.deepEqual(core(shown.fields), core(reference.fields), `${what}: the same fields as in Chromium`);
  assert.deepEqual(shown.cells, reference.cells, `${what}: the same map cells as in Chromium`);
  assert.deepEqual(shown.outputs, reference.outputs, `${what}: the same outputs as in Chromium`);
  if (!ACTIONS[what]?.measured) assert.deepEqual(shown.tables, reference.tables, `${what}: the same table cells as in Chromium`);
}

async function noBadText(page) {
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /\bNaN\b|\bInfinity\b|\bundefined\b|\[object /, 'no NaN, Infinity or undefined on screen');
}

async function assertWorkersAnswered(page, what) {
  assert.deepEqual(workerProblems(await workers(page)), [], `${what}: every worker answered, none failed`);
}

// Chromium's numbers for the same embed, with the same action.
async function chromiumNumbers(name, search, lang) {
  const page = await chromium.context.newPage();
  await page.setViewportSize(VIEWPORT);
  await page.goto(new URL(`embed.html?widget=${name}&${search}&lang=${lang}`, chromium.url).href);
  const root = page.locator(`[data-widget="${name}"]`);
  await root.and(page.locator('[data-ready="true"]')).waitFor({ timeout: LOAD });
  await ACTIONS[name]?.run(page);
  const numbers = await root.evaluate(numbersShown);
  await page.close();
  return numbers;
}

test('the harness sees a worker that answers and one that fails', async () => {
  const { server, url } = await serve({ root: fixtures });  // a page of its own, in the same Firefox
  try {
    const { page, log } = await openPage(firefox, new URL('workers.html', url).href);
    await page.waitForFunction(() => document.getElementById('answer').textContent === '42');
    await page.waitForFunction(() => window.__workers.length === 2 && window.__workers[1].errors.length > 0);
    const problems = workerProblems(await workers(page));
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /broken-worker\.js: .*cannot start/);
    assert.deepEqual(log.consoleErrors.length + log.pageErrors.length > 0, true, 'the failing worker is reported');
    await page.close();
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

for (const name of NAMES) {
  test(`embed ${name} in Firefox: the numbers Chromium shows, no error`, async () => {
    const lang = 'en';
    const search = ACTIONS[name]?.search ?? '';
    const { page, log } = await openPage(firefox, `embed.html?widget=${name}&${search}&lang=${lang}`);
    const selector = `[data-widget="${name}"]`;
    await page.waitForSelector(`${selector}[data-ready="true"]`, { timeout: LOAD });
    await ACTIONS[name]?.run(page);
    assert.deepEqual(await page.$$eval('[role="alert"]', (alerts) => alerts.filter((a) => a.checkVisibility()).map((a) => a.textContent)), [], 'no alert');
    await noBadText(page);
    const shown = await page.$eval(selector, numbersShown);
    assertSameNumbers(shown, await chromiumNumbers(name, search, lang), name);
    await assertWorkersAnswered(page, name);
    assertClean(log, firefox.origin);
    await page.close();
  });
}

for (const lang of ['en', 'zh']) {
  test(`the whole page in Firefox, ${lang}: every widget ready, the golden numbers, the real model's map, the contents`, async () => {
    const { page, log } = await openPage(firefox, `?lang=${lang}&kv-query.score=article`);
    for (const name of NAMES) {
      // real-model loads its model once in view
      await page.$eval(`main [data-widget="${name}"]`, (root) => root.scrollIntoView());
      await page.waitForSelector(`main [data-widget="${name}"][data-ready="true"]`, { timeout: LOAD });
    }
    const field = (widget, f) => page.$eval(`main [data-widget="${widget}"] [data-field="${f}"]`, (node) => node.textContent.replace(/\u00a0/g, ' ').trim());
    // the article's weights 0.1, 0.15, 0.45, 0.3 give 64.75 kg
    assert.match(await field('kv-query', 'estimate'), /^64\.75 (kg|千克)$/);
    // "Thinking Machines", d_k = 64: 112, 96 -> 14, 12 -> 0.880797, 0.119203
    assert.deepEqual(await Promise.all(['score-0', 'score-1', 'scaled-0', 'scaled-1', 'weight-0', 'weight-1'].map((f) => field('self-attention', f))),
      ['112', '96', '14', '12', '0.880797', '0.119203']);
    // the real model's map: a weight in every cell, each row summing to 1
    const rows = await page.$$eval('main [data-widget="real-model"] .rm-map .heatmap-values text', (texts) => texts.map((t) => Number(t.textContent)));
    const n = Math.round(Math.sqrt(rows.length));
    assert.ok(n >= 4 && n * n === rows.length, `a square map (${rows.length} cells)`);
    for (let i = 0; i < n; i++) {
      const sum = rows.slice(i * n, i * n + n).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) <= n * 0.005 + 1e-9, `row ${i} sums to 1 (${sum}, to 2 decimals)`);
    }
    // the contents: one link per section, named by the widget's title
    const contents = await page.evaluate(() => ({
      links: [...document.querySelectorAll('nav.toc a')].map((a) => [a.getAttribute('href'), a.textContent]),
      sections: [...document.querySelectorAll('main section[id]')].map((s) => [`#${s.id}`, s.querySelector('.widget-title').textContent.trim()]),
    }));
    assert.deepEqual(contents.links, contents.sections);
    if (lang === 'zh') assert.match(contents.links[1][1], /[\u4e00-\u9fff]/);
    assert.deepEqual(await page.$$eval('[role="alert"]', (alerts) => alerts.filter((a) => a.checkVisibility()).map((a) => a.textContent)), [], 'no alert');
    await noBadText(page);
    await assertWorkersAnswered(page, 'page');
    assertClean(log, firefox.origin);
    await page.close();
  });
}
