// The drawing helpers the widgets share, in the page: a heatmap drawn a part
// at a time (render/heatmap.js, inSlices) ends as the one drawn at once, with
// its selection and tab stop on the right cell from the first row it has.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage } from './harness.mjs';

let browser, page;
before(async () => {
  browser = await startBrowser();
  ({ page } = await openPage(browser, 'embed.html?widget=kv-query'));
});
after(async () => { await browser?.close(); });

test('a heatmap drawn in slices: the column labels, then whole rows of about 16 cells each, ending as the map drawn at once', async () => {
  const seen = await page.evaluate(async () => {
    const { heatmap, SLICE_CELLS } = await import('./render/heatmap.js');
    const shapes = {};
    for (const n of [12, 4, 20]) {
      const labels = Array.from({ length: n }, (_, i) => `w${i}`);
      const values = Float32Array.from({ length: n * n }, (_, k) => ((k * 37) % 101) / 100);
      // a masked upper triangle, and a selected cell in the middle
      const allowed = Uint8Array.from({ length: n * n }, (_, k) => Number(k % n <= Math.floor(k / n)));
      const options = { rowLabels: labels, colLabels: labels, values, allowed, selected: [n >> 1, 1], title: 'm' };
      const whole = heatmap(options).element;
      const map = heatmap({ ...options, inSlices: true });
      const count = (selector) => map.element.querySelectorAll(selector).length;
      const steps = [];
      let more;
      do {
        more = map.drawNext();
        steps.push({
          more, cols: count('.heatmap-col'), rows: count('.heatmap-row'), cells: count('.heatmap-cell'),
          numbers: count('.heatmap-values text'), hatches: count('.heatmap-hatch line'),
          selected: [...map.element.querySelectorAll('.heatmap-cell.is-selected')].map((c) => [c.dataset.i, c.dataset.j].join()),
          tabStops: [...map.element.querySelectorAll('.heatmap-cell[tabindex="0"]')].map((c) => [c.dataset.i, c.dataset.j].join()),
        });
      } while (more && steps.length < 100);
      shapes[n] = { steps, same: map.element.outerHTML === whole.outerHTML, slice: SLICE_CELLS, numbers: whole.querySelectorAll('.heatmap-values text').length };
    }
    return shapes;
  });
  for (const [n, { steps, same, slice, numbers }] of Object.entries(seen).map(([k, v]) => [Number(k), v])) {
    const perStep = Math.max(1, Math.floor(slice / n));
    assert.equal(steps.length, 1 + Math.ceil(n / perStep), `${n}×${n}: the column labels, then ${perStep} row(s) at a time`);
    assert.deepEqual(steps[0], { more: true, cols: n, rows: 0, cells: 0, numbers: 0, hatches: 0, selected: [], tabStops: [] }, `${n}×${n}: first the column labels`);
    steps.slice(1).forEach((step, k) => {
      const rows = Math.min(n, (k + 1) * perStep);
      assert.equal(step.rows, rows, `${n}×${n}, step ${k + 2}: rows`);
      assert.equal(step.cells, rows * n, `${n}×${n}, step ${k + 2}: cells`);
      assert.equal(step.numbers, numbers ? rows * n : 0, `${n}×${n}, step ${k + 2}: numbers`);
      assert.equal(step.hatches, rows * n - (rows * (rows + 1)) / 2, `${n}×${n}, step ${k + 2}: the masked cells' hatches`);
      const drawn = rows > n >> 1;
      assert.deepEqual(step.selected, drawn ? [`${n >> 1},1`] : [], `${n}×${n}, step ${k + 2}: the selection, once its row is drawn`);
      assert.deepEqual(step.tabStops, drawn ? [`${n >> 1},1`] : [], `${n}×${n}, step ${k + 2}: the tab stop, once its row is drawn`);
      assert.equal(step.more, rows < n, `${n}×${n}, step ${k + 2}: more to draw`);
    });
    assert.ok(same, `${n}×${n}: the map drawn in slices is the map drawn at once, element for element`);
  }
  assert.ok(seen[12].numbers > 0 && seen[20].numbers === 0, 'the 12×12 map has numbers, the 20×20 one (cells of 21 px) none');
});

test('a heatmap drawn in slices: a cell chosen before its row is drawn gets the ring, the selection and the tab stop when it comes', async () => {
  const seen = await page.evaluate(async () => {
    const { heatmap } = await import('./render/heatmap.js');
    const labels = ['a', 'b', 'c', 'd', 'e', 'f'];
    const calls = [];
    const map = heatmap({ rowLabels: labels, colLabels: labels, values: new Float32Array(36).fill(0.5), inSlices: true,
      onCell: (i, j) => calls.push([i, j]) });
    map.drawNext();
    map.drawNext();  // rows 0-1 (16 cells a slice: 2 rows of 6)
    map.select(4, 3);
    map.mark(5, 2, 'partner');
    const before = map.element.querySelectorAll('.is-selected, .is-partner, [tabindex="0"]').length;
    map.drawAll();
    const ring = map.element.querySelector('.heatmap-ring').getAttribute('transform');
    return {
      calls, before, ring, box: map.box(5, 2),
      partner: [...map.element.querySelectorAll('.is-partner')].map((c) => [c.dataset.i, c.dataset.j].join()),
      tabStops: [...map.element.querySelectorAll('.heatmap-cell[tabindex="0"]')].map((c) => [c.dataset.i, c.dataset.j].join()),
      selected: map.element.querySelectorAll('.is-selected').length,
      more: map.drawNext(),
    };
  });
  assert.deepEqual(seen.calls, [[4, 3]], 'select calls onCell');
  assert.equal(seen.before, 0, 'nothing marked while the rows are not drawn');
  assert.deepEqual(seen.partner, ['5,2'], 'the last mark is on its cell');
  assert.equal(seen.selected, 0, 'one mark at a time');
  assert.deepEqual(seen.tabStops, ['4,3'], 'the chosen cell is the tab stop');
  assert.equal(seen.ring, `translate(${seen.box.x} ${seen.box.y})`, 'the ring is on the marked cell');
  assert.equal(seen.more, false, 'nothing left to draw');
});

test('heatmap.update: new values redraw the same cells in place, as a map drawn with them; the focus and the ring stay; a wrong size is an error', async () => {
  const seen = await page.evaluate(async () => {
    const { heatmap } = await import('./render/heatmap.js');
    const labels = ['a', 'b', 'c', 'd'];
    const before = Float32Array.from({ length: 16 }, (_, k) => k / 15);
    const after = Float32Array.from({ length: 16 }, (_, k) => 1 - k / 15);
    const allowed = Uint8Array.from({ length: 16 }, (_, k) => Number(k !== 3));
    const describe = (values) => (i, j) => `${labels[i]}-${labels[j]} ${values[i * 4 + j].toFixed(3)}`;
    const options = { rowLabels: labels, colLabels: labels, allowed, selected: [2, 1], title: 'm' };
    const map = heatmap({ ...options, values: before, describe: describe(before) });
    document.body.append(map.element);
    const cellsBefore = [...map.element.querySelectorAll('.heatmap-cell')];
    const fillBefore = cellsBefore[0].getAttribute('fill');
    map.select(2, 1);
    map.update(after, describe(after));
    const fresh = heatmap({ ...options, values: after, describe: describe(after) }).element;
    const attrs = (root) => [...root.querySelectorAll('.heatmap-cell, .heatmap-values text')]
      .map((e) => [e.getAttribute('fill'), e.getAttribute('aria-label'), e.textContent]);
    let error = '';
    try { map.update(new Float32Array(9)); } catch (e) { error = e.message; }
    const out = {
      same: cellsBefore.every((cell, k) => cell === map.element.querySelectorAll('.heatmap-cell')[k]),
      match: JSON.stringify(attrs(map.element)) === JSON.stringify(attrs(fresh)),
      changed: cellsBefore[0].getAttribute('fill') !== fillBefore,
      focused: document.activeElement?.dataset?.i + ',' + document.activeElement?.dataset?.j,
      ring: map.element.querySelector('.heatmap-cell.is-selected')?.dataset.i + ',' + map.element.querySelector('.heatmap-cell.is-selected')?.dataset.j,
      masked: map.element.querySelectorAll('.heatmap-cell')[3].getAttribute('fill'),
      error,
    };
    map.element.remove();
    return out;
  });
  assert.equal(seen.same, true, 'the same elements');
  assert.equal(seen.match, true, 'colours, labels and numbers as a map drawn with the new values');
  assert.equal(seen.changed, true, 'the first cell changed colour');
  assert.equal(seen.focused, '2,1', 'the focus stays');
  assert.equal(seen.ring, '2,1', 'the ring stays');
  assert.match(seen.error, /heatmap\.update: 9 values for a 4 × 4 map/);
});
