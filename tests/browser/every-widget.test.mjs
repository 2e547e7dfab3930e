// What every widget owes its users, checked for all of them: it renders alone
// (embed.html) in both languages with no error, no NaN and nothing off-origin;
// its exports are valid files; the full page mounts them all, fits 375 px and
// shows its formulas typeset (superscripts and subscripts, no ^ or _ markup).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WIDGETS } from '../../web/widgets/list.js';
import { startBrowser, withPage } from './harness.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const NAMES = [...WIDGETS];

async function ready(page, name) {
  await page.locator(`[data-widget="${name}"][data-ready="true"]`).waitFor({ timeout: 20000 });
}

async function assertNoBadText(page, what) {
  const text = await page.locator('body').innerText();
  assert.doesNotMatch(text, /\bNaN\b|\bInfinity\b|\bundefined\b|\[object /, `${what}: no NaN, Infinity or undefined on screen`);
}

// Formulas are typeset: no W^Q, QK^T or d_k markup anywhere in the visible text
// (HTML and SVG), and real superscripts and subscripts on the page.
async function assertTypeset(page, what) {
  const shown = await page.evaluate(() => [document.body.innerText, document.title,
    ...[...document.querySelectorAll('main svg text')].map((node) => node.textContent)].join('\n'));
  const markup = shown.split('\n').filter((line) => /\w\^|\b[dW]_\w|[\^_]\{/.test(line));
  assert.deepEqual(markup, [], `${what}: formula markup on screen`);
  const count = (selector) => page.locator(`main ${selector}`).count();
  assert.ok(await count('sup') >= 10, `${what}: superscripts (W^Q and the like) as <sup>`);
  assert.ok(await count('sub') >= 10, `${what}: subscripts (d_k and the like) as <sub>`);
  assert.ok(await page.locator('main label sub').count() >= 1, `${what}: a control's label typeset (d_k)`);
}

// Clicks an export button and returns the downloaded file's name and bytes.
async function download(page, name, kind) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 15000 }),
    page.locator(`[data-widget="${name}"] [data-export="${kind}"]`).click(),
  ]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

for (const name of NAMES) {
  test(`${name}: renders alone in English and Chinese; exports valid PNG, SVG, CSV and JSON`, async () => {
    for (const lang of ['en', 'zh']) {
      await withPage(browser, `embed.html?widget=${name}&lang=${lang}`, async ({ page }) => {
        await ready(page, name);
        assert.equal(await page.getByRole('alert').count(), 0, `${lang}: no alert with the default state`);
        assert.equal(await page.locator('html').getAttribute('lang'), 'en');  // the frame's own; the widget sets its own lang:
        assert.equal(await page.locator(`[data-widget="${name}"]`).getAttribute('lang'), lang === 'zh' ? 'zh-CN' : 'en');
        await assertNoBadText(page, `${name} ${lang}`);
        if (lang === 'zh') {
          const title = await page.locator('.widget-title').textContent();
          assert.match(title, /[\u4e00-\u9fff]/, 'the title is in Chinese');
        }
        if (lang === 'en') {
          const csv = await download(page, name, 'csv');
          assert.equal(csv.name, `${name}.csv`);
          const lines = csv.bytes.toString('utf8').trim().split(/\r\n/);
          assert.ok(lines.length >= 2, 'a header and at least one row');
          assert.doesNotMatch(csv.bytes.toString('utf8'), /NaN|undefined/);
          const json = JSON.parse((await download(page, name, 'json')).bytes.toString('utf8'));
          assert.equal(json.widget, name);
          assert.ok(json.state && typeof json.state === 'object');
          if (await page.locator(`[data-widget="${name}"] [data-export="svg"]`).isVisible()) {
            const svg = (await download(page, name, 'svg')).bytes.toString('utf8');
            assert.match(svg, /^<\?xml[^>]*>\s*<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
            assert.doesNotMatch(svg, /NaN|undefined/);
            const valid = await page.evaluate((text) => !new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('parsererror'), svg);
            assert.ok(valid, 'the SVG parses');
            const png = (await download(page, name, 'png')).bytes;
            assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
            assert.ok(png.length > 1000);
          }
        }
      });
    }
  });
}

test('the full page mounts every widget, in both languages, and fits a 375 px screen', async () => {
  for (const lang of ['en', 'zh']) {
    await withPage(browser, `?lang=${lang}`, { viewport: { width: 375, height: 800 } }, async ({ page }) => {
      for (const name of NAMES) {
        // a widget may wait until it is in view (real-model loads its model then)
        await page.locator(`main [data-widget="${name}"]`).scrollIntoViewIfNeeded();
        await ready(page, name);
      }
      assert.equal(await page.locator('main [data-widget]').count(), NAMES.length, 'a section for every widget');
      // one section per widget, in the list's order (web/widgets/list.js), then the glossary
      assert.deepEqual(await page.locator('main > section').evaluateAll((all) => all.map((s) => s.id)), [...NAMES, 'glossary'], 'the sections in the list\'s order');
      assert.equal(await page.getByRole('alert').count(), 0, 'no alert');
      const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${lang}: the page is ${overflow}px wider than the screen`);
      await assertNoBadText(page, `page ${lang}`);
      await assertTypeset(page, `page ${lang}`);
      await assertAxesTitled(page, lang);
    });
  }
});

// Every heatmap on the page says what its rows and its columns are: two axis
// titles, in the page's language, placed beside the labels they title.
async function assertAxesTitled(page, lang) {
  const maps = await page.locator('main svg.heatmap').evaluateAll((svgs) => svgs.map((svg) => ({
    widget: svg.closest('[data-widget]').dataset.widget,
    rows: svg.querySelector('.heatmap-axis-rows')?.textContent ?? null,
    cols: svg.querySelector('.heatmap-axis-cols')?.textContent ?? null,
    // the row title left of every row label, the column title above every column label
    placed: (() => {
      const r = svg.querySelector('.heatmap-axis-rows')?.getBoundingClientRect(), c = svg.querySelector('.heatmap-axis-cols')?.getBoundingClientRect();
      if (!r || !c) return false;
      return [...svg.querySelectorAll('.heatmap-row')].every((l) => l.getBoundingClientRect().left >= r.right - 0.5)
        && [...svg.querySelectorAll('.heatmap-col')].every((l) => l.getBoundingClientRect().top >= c.bottom - 2);
    })(),
  })));
  assert.ok(maps.length >= 10, `${lang}: heatmaps on the page (${maps.length})`);
  for (const m of maps) {
    assert.ok(m.rows && m.cols, `${lang}: the ${m.widget} heatmap has both axis titles (${m.rows} / ${m.cols})`);
    assert.ok(m.placed, `${lang}: the ${m.widget} heatmap's axis titles sit beside its labels`);
    if (lang === 'zh') assert.match(m.rows + m.cols, /[\u4e00-\u9fff]/, `zh: the ${m.widget} heatmap's axis titles are Chinese`);
  }
}

test('the language switch re-renders the page and keeps each widget\'s state', () => withPage(browser, '?lang=en&kv-query.score=dot', async ({ page }) => {
  await ready(page, 'kv-query');
  await page.getByRole('button', { name: '中文', exact: true }).click();
  await page.locator('h1').filter({ hasText: '注意力' }).waitFor();
  await ready(page, 'kv-query');
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.ok(await page.getByRole('radio', { name: '原始点积 q·k' }).isChecked(), 'the state survived the switch');
  assert.equal(new URL(page.url()).searchParams.get('lang'), 'zh');
}));
