// Browser test of the vectors widget (web/widgets/vectors/widget.js): five word
// vectors and a query; every number in the table is the core's dotAndKernel
// for the query shown (checked against the same module in this process); the
// query moves with the arrow keys on its handle and by dragging on the plane;
// "Keys of equal length" puts the keys on one circle and makes the two
// weightings one (difference: rounding); keys whose weights are equal as shown
// are a tie, all of them "no key is favoured" (q = 0); zh at 375 px fits the screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { startBrowser, withPage, eventually, assertShown, whenReady } from './harness.mjs';

const W = '[data-widget="vectors"]';
// the widget's five word vectors (its input)
const KEYS = [[1.5, 1.0], [0.9, 1.5], [2.4, 0.3], [-1.6, 0.5], [-0.3, -1.4]];
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });
const ready = whenReady(W);

// the table against the core, for query q; returns the core's result
async function assertTable(page, q, equalLength, what) {
  const want = att.dotAndKernel({ query: q, keys: KEYS, equalLength });
  const cells = (field) => page.locator(`${W} [data-field="${field}"]`).allTextContents();
  await eventually(async () => {
    const dots = await cells('dot');
    return dots.length === 5 && dots.every((text, i) => Math.abs(Number(text.replace('−', '-')) - want.dot[i]) <= 0.005 + 1e-9);
  }, { message: `${what}: q·k of q = (${q})` });
  const [lengths, dots, kernels, dw, kw] = await Promise.all(['length', 'dot', 'kernel', 'dotWeight', 'kernelWeight'].map(cells));
  for (let i = 0; i < 5; i++) {
    assertShown(lengths[i], want.lengths[i], 2, `${what}: |k| ${i}`);
    assertShown(dots[i], want.dot[i], 2, `${what}: q·k ${i}`);
    assertShown(kernels[i], want.kernel[i], 2, `${what}: kernel ${i}`);
    assertShown(dw[i], want.dotWeights[i], 3, `${what}: dot weight ${i}`);
    assertShown(kw[i], want.kernelWeights[i], 3, `${what}: kernel weight ${i}`);
  }
  return want;
}

const slider = (page, label) => page.locator(W).getByLabel(label, { exact: true });

test('the table is the core\'s, the verdict names each weighting\'s favourite, and the handle moves with the keyboard', () =>
  withPage(browser, 'embed.html?widget=vectors', async ({ page }) => {
    await ready(page);
    const want = await assertTable(page, [1.2, 0.6], false, 'default');
    // lengths differ: the dot product prefers the long "tiger", the kernel the near "cat"
    const verdict = await page.locator(`${W} .vec-verdict`).textContent();
    assert.ok(want.maxDifference > 0.1);
    assert.match(verdict, /The dot product favours “tiger”, the kernel “cat”/);
    assertShown(verdict.match(/weightings: (\d+\.\d+)/)[1], want.maxDifference, 3, 'difference');
    assert.equal(await page.locator(`${W} .plane-key`).count(), 5);
    assert.deepEqual(await page.locator(`${W} .plane-label`).allTextContents(), ['cat', 'dog', 'tiger', 'car', 'apple']);

    // the handle: three steps left, one up (Shift: five steps)
    const handle = page.locator(`${W} .plane-handle`);
    await handle.focus();
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Shift+ArrowUp');
    await assertTable(page, [0.9, 1.1], false, 'after the keys');
    assert.equal(await slider(page, 'q, first coordinate').inputValue(), '0.9');
    assert.equal(await slider(page, 'q, second coordinate').inputValue(), '1.1');
    assert.equal(await handle.getAttribute('aria-valuetext'), 'query q at (0.9, 1.1); arrow keys move it');
    assert.ok(await handle.evaluate((h) => document.activeElement === h), 'the handle keeps the focus');

    // a drag puts the tip under the pointer: to (−1, −1) in the plane's units
    const box = await page.locator(`${W} svg.plane`).boundingBox();
    const at = (x, y) => [box.x + (box.width * (160 + x * 43.3333)) / 320, box.y + (box.height * (160 - y * 43.3333)) / 320];
    await page.mouse.move(...at(0, 0));
    await page.mouse.down();
    await page.mouse.move(...at(-1, -1), { steps: 4 });
    await page.mouse.up();
    await assertTable(page, [-1, -1], false, 'after the drag');
  }));

test('keys of equal length: on one circle, and the two weightings are one', () =>
  withPage(browser, 'embed.html?widget=vectors', async ({ page }) => {
    await ready(page);
    await page.locator(W).getByLabel('Keys of equal length').check();
    const want = await assertTable(page, [1.2, 0.6], true, 'equal lengths');
    assert.ok(want.maxDifference < 1e-5);
    const [dw, kw] = await Promise.all(['dotWeight', 'kernelWeight'].map((f) => page.locator(`${W} [data-field="${f}"]`).allTextContents()));
    assert.deepEqual(dw, kw, 'the same weights, shown to 3 decimals');
    assert.match(await page.locator(`${W} .vec-verdict`).textContent(), /below 0\.00001 \(rounding\)\. With keys of one length they are the same weights/);
    // the circle's radius is the keys' common length, in the plane's units
    const r = Number(await page.locator(`${W} .plane-circle`).getAttribute('r'));
    assert.ok(Math.abs(r / 43.3333 - want.lengths[0]) < 1e-3, `circle radius ${r}`);
  }));

test('in Chinese at 375 px: the words, the verdict, nothing wider than the screen', () =>
  withPage(browser, 'embed.html?widget=vectors&lang=zh&equal=1', { viewport: { width: 375, height: 800 } }, async ({ page }) => {
    await ready(page);
    await assertTable(page, [1.2, 0.6], true, 'zh');
    assert.deepEqual(await page.locator(`${W} .plane-label`).allTextContents(), ['猫', '狗', '老虎', '汽车', '苹果']);
    assert.match(await page.locator(`${W} .vec-verdict`).textContent(), /两种权重的最大差异：小于 0\.00001（舍入误差）/);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal scroll of the page');
  }));

test('at q = (0, 0) every dot-product weight is 0.200: no key is favoured, and the verdict says so in both languages', () =>
  withPage(browser, 'embed.html?widget=vectors&qx=0&qy=0', async ({ page }) => {
    await ready(page);
    const want = await assertTable(page, [0, 0], false, 'q = 0');
    assert.deepEqual(Array.from(want.dotWeights), Array(5).fill(Math.fround(0.2)));
    assert.deepEqual(await page.locator(`${W} [data-field="dotWeight"]`).allTextContents(), Array(5).fill('0.200'));
    const verdict = page.locator(`${W} .vec-verdict`);
    // the kernel still favours the shortest key, apple
    assert.match(await verdict.textContent(), /The dot product favours no key \(every weight is 0\.200\), the kernel “apple”:/);
    assert.doesNotMatch(await verdict.textContent(), /favours “cat”/);
    assert.equal(await verdict.getAttribute('data-dot-top'), 'none');
    // keys of one length: both weightings even, one sentence for both
    await page.locator(W).getByLabel('Keys of equal length').check();
    await eventually(async () => /no key is favoured: every weight is 0\.200\.$/.test(await verdict.textContent()), { message: 'equal lengths at q = 0' });
    await page.goto(new URL('embed.html?widget=vectors&qx=0&qy=0&lang=zh', browser.url).href);
    await ready(page);
    assert.match(await verdict.textContent(), /点积不偏向任何键（每个权重都是 0\.200），高斯核最看重“苹果”/);
  }));

test('at q = (0.8, 1.0) dog and tiger tie for the top (q·k = 2.22 both): named together, not one of them', () =>
  withPage(browser, 'embed.html?widget=vectors&qx=0.8&qy=1', async ({ page }) => {
    await ready(page);
    const want = await assertTable(page, [0.8, 1], false, 'tie');
    assert.equal(want.dotWeights[1].toFixed(3), want.dotWeights[2].toFixed(3));
    assert.ok(want.dotWeights[0] < want.dotWeights[1] - 0.001, 'cat just below');
    const verdict = await page.locator(`${W} .vec-verdict`).textContent();
    assert.match(verdict, new RegExp(`The dot product favours “dog” and “tiger” equally \\(${want.dotWeights[1].toFixed(3)} each\\), the kernel “dog”:`));
    assert.equal(await page.locator(`${W} .vec-verdict`).getAttribute('data-dot-top'), 'tie');
  }));
// In the page: the query's arrowhead, handle and label against the plane's svg,
// and where the head's tip is against the query's point (both in the svg's px)
function queryParts() {
  const svg = document.querySelector('[data-widget="vectors"] svg.plane');
  const s = svg.getBoundingClientRect(), k = s.width / svg.viewBox.baseVal.width;
  const box = (e) => { const b = e.getBoundingClientRect(); return { left: b.left - s.left, top: b.top - s.top, right: b.right - s.left, bottom: b.bottom - s.top }; };
  const head = svg.querySelector('.plane-head-query');
  const handle = svg.querySelector('.plane-handle');
  return {
    size: { width: s.width, height: s.height },
    head: head && box(head), handle: box(handle), label: box(svg.querySelector('.plane-query-label')),
    tip: head && head.getAttribute('d').match(/^M([-\d.]+),([-\d.]+)/).slice(1).map((v) => Number(v) * k),
    point: [Number(handle.getAttribute('cx')) * k, Number(handle.getAttribute('cy')) * k],
  };
}

test('the query\'s arrow at every corner of the plane: its head, its tip on the point, its handle and its label inside the svg', async () => {
  for (const [qx, qy] of [[3, 3], [-3, -3], [3, -3], [-3, 3], [0.1, 0]]) {
    await withPage(browser, `embed.html?widget=vectors&qx=${qx}&qy=${qy}`, {}, async ({ page }) => {
      await ready(page);
      const parts = await page.evaluate(queryParts);
      assert.ok(parts.head, `(${qx}, ${qy}): the arrowhead is drawn`);
      assert.ok(Math.hypot(parts.tip[0] - parts.point[0], parts.tip[1] - parts.point[1]) < 0.5, `(${qx}, ${qy}): the tip is the query's point`);
      for (const part of ['head', 'handle', 'label']) {
        const b = parts[part];
        assert.ok(b.left >= 0 && b.top >= 0 && b.right <= parts.size.width && b.bottom <= parts.size.height,
          `(${qx}, ${qy}): the ${part} inside the plane ${JSON.stringify(b)}`);
      }
    });
  }
});
