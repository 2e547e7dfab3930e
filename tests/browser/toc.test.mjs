// The table of contents: a link for every section, named by its widget's title
// in English and Chinese; a click lands on the section and the current-section
// mark follows the scrolling; a sticky sidebar on a wide screen; at 375 px a
// menu that the keyboard opens and closes, without horizontal overflow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, withPage, eventually } from './harness.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const NARROW = { width: 375, height: 800 };

// every widget shows its title (the table reads them), and the table is refreshed
async function titled(page) {
  await page.waitForFunction(() => {
    const sections = [...document.querySelectorAll('main section[id]')];
    const links = [...document.querySelectorAll('nav.toc .toc-link')];
    return sections.length > 0 && links.length === sections.length &&
      sections.every((s, k) => s.querySelector('.widget-title') && links[k].textContent === s.querySelector('.widget-title').textContent.trim());
  });
}

// [{ id, title }] of the sections, and [{ href, text }] of the links, in page order
async function sectionsAndLinks(page) {
  return page.evaluate(() => ({
    sections: [...document.querySelectorAll('main section[id]')].map((s) => ({ id: s.id, title: s.querySelector('.widget-title').textContent.trim() })),
    links: [...document.querySelectorAll('nav.toc a')].map((a) => ({ href: a.getAttribute('href'), text: a.textContent })),
  }));
}

const current = (page) => page.locator('nav.toc a[aria-current="location"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));

// the layout has held still for a moment (the sections near the screen have drawn)
async function settled(page) {
  let before = '';
  await eventually(async () => {
    const now = await page.evaluate(() => [window.scrollY, document.scrollingElement.scrollHeight].join());
    const still = now === before;
    before = now;
    return still;
  }, { interval: 500, timeout: 20000, message: 'the layout to hold still' });
}

const overflow = (page) => page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);

test('a link for every section, with its widget\'s title, in English and in Chinese; the language switch renames them', async () => {
  const seen = {};
  for (const lang of ['en', 'zh']) {
    await withPage(browser, `?lang=${lang}`, async ({ page }) => {
      await titled(page);
      const { sections, links } = await sectionsAndLinks(page);
      assert.ok(sections.length >= 14, `every widget has a section (${sections.length})`);
      assert.deepEqual(links.map((l) => l.href), sections.map((s) => `#${s.id}`), 'one link per section, in page order');
      assert.deepEqual(links.map((l) => l.text), sections.map((s) => s.title), 'each named by its widget\'s title');
      for (const { text } of links) {
        if (lang === 'zh') assert.match(text, /[\u4e00-\u9fff]/, `"${text}" is in Chinese`);
        else assert.doesNotMatch(text, /[\u4e00-\u9fff]/, `"${text}" is in English`);
      }
      const name = lang === 'zh' ? '目录' : 'Contents';
      assert.equal(await page.getByRole('navigation', { name }).count(), 1, `a navigation landmark named "${name}"`);
      seen[lang] = links.map((l) => l.text);
    });
  }
  assert.ok(seen.en.every((text, k) => text !== seen.zh[k]), 'the two languages give different names');

  // switching the language on the page renames the links and the menu
  await withPage(browser, '?lang=en', async ({ page }) => {
    await titled(page);
    await page.getByRole('button', { name: '中文', exact: true }).click();
    await page.locator('h1').filter({ hasText: '注意力' }).waitFor();
    await titled(page);
    assert.deepEqual((await sectionsAndLinks(page)).links.map((l) => l.text), seen.zh);
    assert.equal(await page.getByRole('navigation', { name: '目录' }).count(), 1);
  });
});

test('wide screen: a sticky sidebar; a click lands on the section, and the mark follows the scrolling', () => withPage(browser, '?lang=en', async ({ page }) => {
  await titled(page);
  const nav = page.locator('nav.toc');
  assert.equal(await page.locator('.toc-toggle').isVisible(), false, 'no menu button on a wide screen');
  assert.ok((await nav.boundingBox()).x + (await nav.boundingBox()).width <= (await page.locator('main').boundingBox()).x, 'the list is beside the column');
  assert.deepEqual(await current(page), ['#concepts'], 'at the top, the first section is current');

  for (const id of ['masking', 'multi-head', 'kv-query']) {
    await page.locator(`nav.toc a[href="#${id}"]`).click();
    await eventually(async () => (await page.evaluate(() => location.hash)) === `#${id}`, { message: `#${id} in the address` });
    // held there while the sections near it mount and grow
    await settled(page);
    const top = () => page.locator(`#${id}`).evaluate((s) => s.getBoundingClientRect().top);
    await eventually(async () => Math.abs(await top()) < 40, { timeout: 10000, message: `${id}: the section at the top of the screen` });
    await eventually(async () => (await current(page)).join() === `#${id}`, { message: `${id} marked current` });
    const box = await nav.boundingBox();
    assert.ok(box.y >= -1 && box.y < 5 && await nav.locator(`a[href="#${id}"]`).isVisible(), 'the sidebar stays in view');
  }

  // scrolling by other means moves the mark too, one section at a time (scrolled again once the
  // sections it brought near have drawn: one growing above it moves it off the top)
  for (const id of ['positional-encoding', 'self-attention', 'complexity']) {
    await page.locator(`#${id}`).evaluate((s) => s.scrollIntoView());
    await settled(page);
    await page.locator(`#${id}`).evaluate((s) => s.scrollIntoView());
    await eventually(async () => (await current(page)).join() === `#${id}`, { message: `${id} marked after scrolling` });
  }
}));

test('375 px: a menu bar that the keyboard opens and closes (Escape), links that lead to their section, no horizontal overflow', () => withPage(browser, '?lang=en', { viewport: NARROW }, async ({ page }) => {
  await titled(page);
  const toggle = page.locator('.toc-toggle');
  const list = page.locator('.toc-list');
  assert.equal(await page.locator('.toc-title').isVisible(), false);
  assert.equal(await list.isVisible(), false, 'the menu starts closed');
  assert.equal(await overflow(page), 0, 'closed: no horizontal overflow');

  // Tab from the start of the page reaches the menu button after the language buttons
  let focused = '';
  for (let k = 0; k < 5 && focused !== 'toc-toggle'; k++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement.className);
  }
  assert.equal(focused, 'toc-toggle', 'the menu button is reachable by Tab');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.ok(await list.isVisible(), 'Enter opens the menu');
  assert.equal(await overflow(page), 0, 'open: no horizontal overflow');
  const box = await list.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= NARROW.width, 'the open menu fits the screen');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), '#concepts', 'Tab goes to the first link');
  await page.keyboard.press('Escape');
  assert.equal(await list.isVisible(), false, 'Escape closes the menu');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'toc-toggle', 'and gives the focus back to the button');

  await page.keyboard.press('Space');
  assert.ok(await list.isVisible(), 'Space opens it again');
  // concepts, kv-query, learned-width, vectors, sentence-similarity, score-functions, softmax-scaling
  for (let k = 0; k < 7; k++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), '#softmax-scaling');
  await page.keyboard.press('Enter');
  await eventually(async () => (await page.evaluate(() => location.hash)) === '#softmax-scaling', { message: 'the link followed' });
  assert.equal(await list.isVisible(), false, 'following a link closes the menu');
  await eventually(async () => (await current(page)).join() === '#softmax-scaling', { message: 'softmax-scaling marked' });
  await settled(page);
  // the bar stays at the top, and the section starts below it, not under it
  const bar = await page.locator('nav.toc').boundingBox();
  const top = await page.locator('#softmax-scaling').evaluate((s) => s.getBoundingClientRect().top);
  assert.ok(Math.abs(bar.y) < 1, `the bar is at the top (${bar.y})`);
  assert.ok(top >= bar.y + bar.height - 1 && top < bar.y + bar.height + 40, `the section starts just below the bar (${top})`);
  assert.equal(await page.locator('.toc-current').textContent(), await page.locator('#softmax-scaling .widget-title').textContent(), 'the bar names the current section');

  // Tab past the last link closes the menu; a click outside closes it too
  await toggle.click();
  assert.ok(await list.isVisible());
  await page.locator('.toc-list a').last().focus();
  await page.keyboard.press('Tab');
  assert.equal(await list.isVisible(), false, 'the focus leaving the menu closes it');
  await toggle.click();
  assert.ok(await list.isVisible());
  await page.locator('#softmax-scaling .widget-intro').click();
  assert.equal(await list.isVisible(), false, 'a click outside closes the menu');
  assert.equal(await overflow(page), 0);
}));

test('a link to a section lands there after the widgets near it have drawn; those far above wait', () => withPage(browser, '?lang=en#masking', async ({ page }) => {
  await titled(page);
  await page.locator('[data-widget="masking"][data-ready="true"]').waitFor();
  await settled(page);
  // the section above it, near, mounted; the first ones, far above, did not load
  const above = await page.evaluate(() => [...document.querySelectorAll('main [data-widget]')].map((r) => [r.dataset.widget, r.dataset.mount ?? 'drawn']));
  const at = above.findIndex(([id]) => id === 'masking');
  assert.deepEqual(above[0], ['concepts', 'waiting'], 'the first section, far above, keeps its placeholder');
  assert.notEqual(above[at - 1][1], 'waiting', 'the section just above, near, has mounted');
  const top = await page.locator('#masking').evaluate((s) => s.getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `the section is at the top (${top}px)`);
  await eventually(async () => (await current(page)).join() === '#masking', { message: 'masking marked' });
}));

test('a fragment whose escapes are malformed (#%E0%A4%A) names no section: no error, no jump, the links still lead to their sections', () => withPage(browser, '?lang=en#%E0%A4%A', async ({ page, log }) => {
  await titled(page);  // every section titled: the page has tried to land on the fragment
  await page.locator('[data-widget="concepts"][data-ready="true"]').waitFor();
  assert.equal(await page.evaluate(() => location.hash), '#%E0%A4%A', 'the address keeps its fragment');
  assert.ok(Math.abs(await page.evaluate(() => window.scrollY)) < 40, 'no jump: the page stays at its top');
  assert.deepEqual(await current(page), ['#concepts'], 'the first section is current, as at the top');
  // land() itself, on a table of its own, with the malformed fragment in the address
  const landed = await page.evaluate(async () => {
    const { createToc } = await import('./page/toc.js');
    const root = document.createElement('div');
    root.innerHTML = '<nav class="toc"><button class="toc-toggle" aria-expanded="false"></button><span class="toc-current"></span><ol class="toc-list"></ol></nav>' +
      '<main><section id="one"><h2 class="widget-title">One</h2></section></main>';
    document.body.append(root);
    const toc = createToc(root.querySelector('nav'), { root });
    try {
      toc.land();
      return { error: null };
    } catch (error) {
      return { error: `${error.name}: ${error.message}` };
    } finally {
      root.remove();
    }
  });
  assert.deepEqual(landed, { error: null }, 'land() throws nothing');
  await page.locator('nav.toc a[href="#masking"]').click();
  await eventually(async () => (await page.evaluate(() => location.hash)) === '#masking', { message: '#masking in the address' });
  await eventually(async () => (await current(page)).join() === '#masking', { message: 'masking marked current' });
  assert.deepEqual(log.pageErrors, [], 'no uncaught error');
}));

test('the list is built from the sections present: a section added later gets its link', () => withPage(browser, '?lang=en', async ({ page }) => {
  await titled(page);
  const result = await page.evaluate(async () => {
    const { createToc } = await import('./page/toc.js');
    const root = document.createElement('div');
    root.innerHTML = '<nav class="toc"><button class="toc-toggle" aria-expanded="false"></button><span class="toc-current"></span><ol class="toc-list"></ol></nav>' +
      '<main><section id="one"><h2 class="widget-title">One</h2></section><section id="two-words"><p>no widget yet</p></section></main>';
    document.body.append(root);
    const toc = createToc(root.querySelector('nav'), { root });
    const links = () => [...root.querySelectorAll('nav a')].map((a) => [a.getAttribute('href'), a.textContent]);
    const before = links();
    const added = document.createElement('section');
    added.id = 'training';
    added.innerHTML = '<h2 class="widget-title">Training</h2>';
    root.querySelector('main').append(added);
    root.querySelector('#two-words').innerHTML = '<h2 class="widget-title">Two</h2>';
    toc.refresh();
    const after = links();
    root.remove();
    return { before, after };
  });
  assert.deepEqual(result.before, [['#one', 'One'], ['#two-words', 'two words']], 'a section without its title yet is named by its id');
  assert.deepEqual(result.after, [['#one', 'One'], ['#two-words', 'Two'], ['#training', 'Training']]);
}));
