// Browser test of the page's DOM: driving the whole page (every slider over
// its whole range, every choice, both languages) never puts NaN, Infinity or
// undefined into the DOM: a MutationObserver installed before the page's
// scripts (harness.mjs: recordBadText) records every text and attribute value
// the page ever writes; and every table header cell has text.
//   node --test tests/browser/hostile-dom.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LOAD, assertSafe as assertSafeIn, eachWidget, openInstrumented, ready, startBrowser, widget } from './harness.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });
const open = (path, options) => openInstrumented(browser, path, options);
const assertSafe = (page, log, what) => assertSafeIn(browser, page, log, what);

// ---- 3. no NaN, Infinity or undefined ever reaches the DOM ------------------

// In the page: drives every control of one widget, waiting for each render:
// every enabled slider from end to end (every step, or `stops` evenly spaced
// positions with both ends when it has more: a render of the full page takes
// 20-100 ms here; stops 0: the sliders stay), every choice and drop-down option (after each, a slider
// not yet moved is swept, the others go to their maximum and back), every
// checkbox both ways, every preset and button of the widget, the first and
// last cells of its maps, each quiz guess revealed. Returns the number of changes.
async function driveWidget(root, stops) {
  const { idle } = window.__page;
  const on = (el) => el.isConnected && !el.disabled && !el.closest('fieldset:disabled');
  const swept = new WeakSet();
  let changes = 0;
  const fire = async (el, type) => { el.dispatchEvent(new Event(type, { bubbles: true })); changes++; await idle(root); };
  const click = async (el) => { el.click(); changes++; await idle(root); };
  const sweep = async () => {
    for (const slider of root.querySelectorAll('input[type="range"]')) {
      if (!on(slider)) continue;
      const min = Number(slider.min), max = Number(slider.max), step = Number(slider.step) || 1;
      const n = Math.round((max - min) / step);
      if (stops === 0) continue;
      const at = swept.has(slider) ? [n]
        : n < stops ? [...Array(n + 1).keys()] : [...new Set(Array.from({ length: stops }, (_, k) => Math.round((k * n) / (stops - 1))))];
      swept.add(slider);
      const start = slider.value;
      for (const i of at) {
        slider.value = String(min + i * step);
        await fire(slider, 'input');
      }
      slider.value = start;
      await fire(slider, 'input');
    }
  };
  // elements a render may replace: found again each time
  const each = async (selector, act) => {
    for (let k = 0; k < root.querySelectorAll(selector).length; k++) {
      const el = root.querySelectorAll(selector)[k];
      if (on(el)) await act(el);
    }
  };
  await sweep();
  await each('.controls input[type="radio"]', async (radio) => { if (!radio.checked) { await click(radio); await sweep(); } });
  await each('.controls select', async (select) => {
    for (const option of [...select.options]) {
      select.value = option.value;
      await fire(select, 'change');
      await sweep();
    }
  });
  await each('.controls input[type="checkbox"]', async (box) => { await click(box); await sweep(); await click(box); });
  await each('button.preset:not(.model-retry), .rm-thumb, .sf-word', click);
  const cells = [...root.querySelectorAll('.heatmap-cell')];
  for (const cell of cells.slice(0, 20).concat(cells.slice(-5))) {
    cell.dispatchEvent(new MouseEvent('mouseenter'));
    cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    changes++;
    await idle(root);
  }
  await each('.quiz input[type="radio"]', async (radio) => { radio.click(); await click(root.querySelector('.quiz-reveal')); });
  return changes;
}

test('driving the whole page (every slider over its range, every choice, both languages) never writes NaN, Infinity or undefined', async () => {
  const { page, log } = await open('?lang=en');
  // the recorder sees what it should: a bad text, a bad attribute
  const seen = await page.evaluate(async () => {
    const probe = document.createElement('p');
    probe.textContent = 'x NaN';
    probe.setAttribute('data-x', '1 Infinity');
    document.body.append(probe);
    await null;
    await new Promise(requestAnimationFrame);
    probe.remove();
    return window.__badText.splice(0).length;
  });
  assert.equal(seen, 2, 'the recorder works');

  const all = await page.locator('main [data-widget]').evaluateAll((roots) => roots.map((r) => r.dataset.widget));
  const switchTo = async (lang, titled) => {
    await page.locator(`.language [data-lang="${lang}"]`).click();
    // the widgets mount again, in the new language
    for (const name of all) {
      const root = widget(page, name);
      await root.locator('.widget-title').filter({ hasText: titled }).waitFor({ timeout: LOAD });
      await ready(root);
    }
  };
  let changes = 0;
  for (const name of all) {
    const root = widget(page, name);
    await ready(root);
    changes += await root.evaluate(driveWidget, 7);
  }
  // the speed widget measures only when asked: its smallest run
  const speed = widget(page, 'speed');
  await speed.locator('select').selectOption('256');
  await speed.getByRole('radio', { name: '32' }).check();
  await speed.locator('[data-part="run"]').click();
  await speed.locator('.sp-status[data-status="done"]').waitFor({ timeout: LOAD }).catch(async (error) => {
    // (what the widget said instead, for the report)
    const status = speed.locator('.sp-status');
    throw new Error(`${error.message}\nthe speed widget's status: ${await status.getAttribute('data-status')}: ${await status.textContent()}`);
  });
  // in Chinese: every choice, preset and button again (the sliders moved in English)
  await switchTo('zh', /[\u4e00-\u9fff]/);
  for (const name of all) changes += await widget(page, name).evaluate(driveWidget, 0);
  await switchTo('en', /^[^\u4e00-\u9fff]+$/);
  assert.ok(changes > 800, `${changes} changes`);
  await assertSafe(page, log, 'the whole page');
  await page.close();
});

test('every table header cell of every widget has text (an empty corner is a <td>), in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, log } = await open(`?lang=${lang}`);
    await page.evaluate(eachWidget, 'show');
    const headers = await page.locator('main th').evaluateAll((cells) => cells.map((th) => ({
      widget: th.closest('[data-widget]')?.dataset.widget, text: th.textContent.trim() || th.getAttribute('aria-label') || '',
    })));
    assert.ok(headers.length > 200, `${lang}: ${headers.length} header cells`);
    assert.deepEqual(headers.filter((h) => h.text === ''), [], `${lang}: empty header cells`);
    await assertSafe(page, log, `headers, ${lang}`);
    await page.close();
  }
});
