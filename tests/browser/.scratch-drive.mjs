import { LOAD, openInstrumented, ready, startBrowser, widget } from './harness.mjs';
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


const browser = await startBrowser();
const { page } = await openInstrumented(browser, '?lang=en');
const all = await page.locator('main [data-widget]').evaluateAll((roots) => roots.map((r) => r.dataset.widget));
for (const stops of [7, 0]) for (const name of all) {
  const root = widget(page, name);
  const t0 = Date.now();
  await ready(root);
  const t1 = Date.now();
  const n = await root.evaluate(driveWidget, stops);
  console.log(stops, name, 'ready', t1 - t0, 'drive', Date.now() - t1, 'changes', n);
}
await browser.close();
