// Browser test of the masking widget (web/widgets/masking/widget.js): the scaled
// scores with −∞ where masked and the renormalised weights are the core's,
// every row sums to 1 (or is all 0 when every key is masked, with a reason and
// never NaN), the valid-length slider and the causal toggle drive the core's
// mask and the URL, and the quiz reveals the core's causal mask.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { tokenize } from '../../web/runtime/text.js';
import { startBrowser, withPage, openPage, assertClean, eventually, assertShown, assertSentenceAlerts, OVERLONG, whenReady } from './harness.mjs';

const W = '[data-widget="masking"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

// the widget's computation, in this process
function expected(sentence = 'i have a dream PAD PAD', { validLength = 4, causal = false } = {}) {
  const tokens = tokenize(sentence);
  const X = att.embedTokens({ tokens, d: 16, seed: 1 });
  const v = Math.min(validLength, tokens.length);
  return { tokens, validLength: v, ...att.selfAttention({ input: X, dK: 8, seed: 1, causal, validLength: v }) };
}

const ready = whenReady(W);

// the texts of the cells of the two maps: [before softmax, after softmax]
async function maps(page) {
  const map = (k) => page.locator(`${W} .mask-panel`).nth(k).locator('.heatmap-values text').allTextContents();
  return [await map(0), await map(1)];
}

async function assertMaps(page, want, what) {
  await eventually(async () => (await maps(page))[0].length === want.tokens.length ** 2, { message: `${what}: map size` });
  const [before, after] = await maps(page);
  const n = want.tokens.length;
  for (let k = 0; k < n * n; k++) {
    if (want.mask.data[k]) {
      assertShown(before[k], want.masked.data[k], 2, `${what}: score ${k}`);
      assertShown(after[k], want.weights.data[k], 2, `${what}: weight ${k}`);
    } else {
      assert.equal(want.masked.data[k], -Infinity);
      assert.equal(before[k], '−∞', `${what}: masked score ${k}`);
      assert.equal(after[k], '0', `${what}: masked weight ${k}`);
      assert.equal(want.weights.data[k], 0);
    }
  }
  // each row of the core sums to 1, or is all 0 when fully masked; the page says the same
  const sums = await page.locator(`${W} [data-field="row-sum"]`).allTextContents();
  assert.equal(sums.length, n);
  for (let i = 0; i < n; i++) {
    const row = want.weights.data.subarray(i * n, (i + 1) * n).reduce((a, b) => a + b, 0);
    const full = !want.mask.data.subarray(i * n, (i + 1) * n).some(Boolean);
    if (full) {
      assert.equal(row, 0, `${what}: fully masked row ${i} is all 0`);
      assert.match(sums[i], /= 0: every key masked$/);
    } else {
      assert.ok(Math.abs(row - 1) < 1e-6, `${what}: row ${i} sums to 1`);
      assert.match(sums[i], /= 1\.000$/);
    }
  }
}

async function assertNoBadText(page) {
  assert.doesNotMatch(await page.locator(W).innerText(), /NaN|Infinity|undefined|null/);
}

test('the padded sentence: the padding keys are −∞ before softmax and 0 after; rows still sum to 1', () => withPage(browser, 'embed.html?widget=masking', async ({ page }) => {
  await ready(page);
  const want = expected();
  assert.equal(want.tokens.length, 6);
  await assertMaps(page, want, 'default');
  const [before] = await maps(page);
  assert.equal(before.filter((x) => x === '−∞').length, 12, 'two padding columns of 6');
  const slider = page.locator(`${W} .mask-valid input[type="range"]`);
  assert.equal(await slider.getAttribute('max'), '6', 'the slider ends at the sentence length');
  assert.equal(await slider.inputValue(), '4');
  assert.equal(await page.locator(`${W} .mask-valid output`).textContent(), '4 of 6');
  assert.deepEqual(await page.locator(`${W} .mask-token.is-padding`).evaluateAll((n) => n.map((x) => x.firstChild.textContent)), ['PAD', 'PAD']);
  assert.match(await page.locator(`${W} .illustrative`).textContent(), /Illustrative/);
  assert.ok(await page.locator(`${W} .mask-empty`).isHidden(), 'no fully masked row');
  // a focused cell says why it is masked
  await page.locator(`${W} .mask-panel`).nth(1).locator('.heatmap-cell').first().focus();
  await page.keyboard.press('End');
  await eventually(async () => /masked \(padding\)/.test(await page.locator(`${W} .mask-details`).textContent()));
  await assertNoBadText(page);
}));

test('the causal toggle and the valid-length slider change the core\'s mask and the URL', () => withPage(browser, '?masking.sentence=i%20have%20a%20dream%20PAD%20PAD', async ({ page }) => {
  await ready(page);
  const root = page.locator(W);
  await root.getByLabel('Causal mask (no looking ahead)').check();
  await assertMaps(page, expected(undefined, { causal: true }), 'causal');
  const slider = page.locator(`${W} .mask-valid input[type="range"]`);
  await slider.focus();
  await page.keyboard.press('ArrowLeft');  // 4 -> 3
  await eventually(async () => (await page.locator(`${W} .mask-valid output`).textContent()) === '3 of 6');
  await assertMaps(page, expected(undefined, { causal: true, validLength: 3 }), 'causal, 3 valid');
  const params = new URL(page.url()).searchParams;
  assert.deepEqual([params.get('masking.causal'), params.get('masking.validLength')], ['1', '3']);
  await page.reload();
  await ready(page);
  assert.ok(await root.getByLabel('Causal mask (no looking ahead)').isChecked());
  await assertMaps(page, expected(undefined, { causal: true, validLength: 3 }), 'reloaded');
  // a shorter sentence: the slider's end follows, the state is clamped
  await root.getByRole('button', { name: '“Thinking Machines”' }).click();
  await eventually(async () => (await slider.getAttribute('max')) === '2');
  assert.equal(await page.locator(`${W} .mask-valid output`).textContent(), '2 of 2');
  await assertMaps(page, expected('Thinking Machines', { causal: true, validLength: 3 }), 'Thinking Machines');
}));

test('valid length 0: every row is all 0, with the reason, and never NaN', () => withPage(browser, 'embed.html?widget=masking&validLength=0&causal=1', async ({ page }) => {
  await ready(page);
  const want = expected(undefined, { validLength: 0, causal: true });
  assert.ok(Array.from(want.weights.data).every((x) => x === 0));
  await assertMaps(page, want, 'valid length 0');
  const note = page.locator(`${W} .mask-empty`);
  assert.ok(await note.isVisible());
  assert.match(await note.textContent(), /every key of these rows is masked/i);
  assert.match(await note.textContent(), /instead of dividing 0 by 0/);
  assert.equal(await page.locator(`${W} .mask-valid output`).textContent(), '0 of 6');
  await assertNoBadText(page);
}));

test('predict, then reveal: the 3rd word sees 3 keys under the causal mask (Chinese embed too)', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=masking');
  await ready(page);
  const tokens = ['i', 'have', 'a', 'dream'];
  const mask = att.selfAttention({ input: att.embedTokens({ tokens, d: 16, seed: 1 }), dK: 8, seed: 1, causal: true }).mask.data;
  assert.deepEqual(Array.from(mask.subarray(8, 12)), [1, 1, 1, 0]);
  await page.locator(W).getByRole('radio', { name: '3', exact: true }).check();
  await page.locator(W).getByRole('button', { name: 'Reveal' }).click();
  const answer = await page.locator(`${W} .quiz-answer`).textContent();
  assert.match(answer, /Right!/);
  assert.match(answer, /see 3 keys: “i”, “have”, “a”/);
  await page.close();

  const zh = await openPage(browser, 'embed.html?widget=masking&lang=zh');
  await ready(zh.page);
  assert.match(await zh.page.locator(`${W} .widget-title`).textContent(), /掩码/);
  await zh.page.locator(W).getByRole('radio', { name: '4：全部' }).check();
  await zh.page.locator(W).getByRole('button', { name: '揭晓' }).click();
  assert.match(await zh.page.locator(`${W} .quiz-answer`).textContent(), /不完全对/);
  // bad input is a visible message, and the widget recovers
  const box = zh.page.locator(`${W} input[type="text"]`);
  const alert = zh.page.locator(`${W} [role="alert"]`);
  await assertSentenceAlerts(box, alert, [[OVERLONG, /500/], ['', /为空/]], '我有一个梦想');
  await assertMaps(zh.page, expected('我有一个梦想'), 'Chinese sentence');
  assertClean(log, browser.origin);
  assertClean(zh.log, browser.origin);
  await zh.page.close();
});

// In the page at 375 px: the page's overflow, and each map's region: its name,
// its width and scroll width, and its map's width against the map's own size.
function narrowView() {
  const root = document.querySelector('[data-widget="masking"]');
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    regions: [...root.querySelectorAll('.mask-map')].map((region) => {
      const map = region.querySelector('svg.heatmap');
      const box = region.getBoundingClientRect();
      return {
        role: region.getAttribute('role'), name: document.getElementById(region.getAttribute('aria-labelledby'))?.textContent ?? '',
        tabIndex: region.tabIndex, right: box.right, client: region.clientWidth, scroll: region.scrollWidth,
        shown: map.getBoundingClientRect().width, natural: Number(map.getAttribute('width')),
      };
    }),
  };
}

test('at 375 px: the maps fit the screen, scaled down, or scroll inside a region named by their caption', async () => {
  const long = 'The Law will never be perfect, but its application should be just';
  for (const [path, lang] of [['?lang=zh#masking', 'zh'], [`?lang=en&masking.sentence=${encodeURIComponent(long)}#masking`, 'en']]) {
    await withPage(browser, path, { viewport: { width: 375, height: 800 } }, async ({ page }) => {
      await whenReady(`main ${W}`)(page);
      const seen = await page.evaluate(narrowView);
      assert.ok(seen.overflow <= 0, `${lang}: the page scrolls sideways by ${seen.overflow} px`);
      assert.equal(seen.regions.length, 2);
      for (const region of seen.regions) {
        assert.equal(region.role, 'region');
        assert.ok(region.name.length > 10, `${lang}: named by its caption ("${region.name}")`);
        assert.equal(region.tabIndex, 0, 'the keyboard reaches it');
        assert.ok(region.right <= 375, `${lang}: the region ends on the screen (${region.right})`);
        assert.ok(region.shown >= 0.75 * region.natural - 1, `${lang}: the map at ${region.shown} px of its ${region.natural}: readable`);
        if (region.natural * 0.75 <= region.client) assert.ok(region.scroll <= region.client + 1, `${lang}: a map that can fit, fits`);
      }
      if (lang === 'en') {
        // thirteen words do not fit: the region scrolls, and the arrow keys scroll it
        const region = page.locator(`${W} .mask-map`).first();
        assert.ok(seen.regions[0].scroll > seen.regions[0].client, 'the long sentence\'s map scrolls in its region');
        await region.focus();
        await page.keyboard.press('ArrowRight');
        await eventually(async () => (await region.evaluate((r) => r.scrollLeft)) > 0, { message: 'the arrow key scrolls the map' });
      }
    });
  }
});
