// The layout of the line plots (web/render/plot.js) as the browser draws
// them, by their bounding boxes: the n-gram ladder's tags never overlap one
// another or the legend, even when the four rungs are a hair apart; every head
// of the language model's score plots is named (the best in the legend, every
// other one by a tag at its line's end), 16 heads included; the training loss
// chart's legend hides none of the held-out points nor the lines; every label
// lies inside its plot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage } from './harness.mjs';

let browser, page;
before(async () => {
  browser = await startBrowser();
  ({ page } = await openPage(browser, 'embed.html?widget=kv-query'));
});
after(async () => { await browser?.close(); });

// In the page: a plot of `kind` ('ladder', 'heads' or 'training') drawn in the
// document from synthetic training curves; returns the boxes of its tags, its
// legend's swatches and texts, its dots and samples of its lines (every 2 px
// along each polyline), and its own box.
async function layout(kind, { lang = 'en', layers = 2, heads = 4 } = {}) {
  return page.evaluate(async ({ kind, lang, layers, heads }) => {
    const lm = await import('./widgets/language-model/draw.js');
    const training = await import('./widgets/training/draw.js');
    const { loadLanguage, translator, useStrings } = await import('./i18n/i18n.js');
    const { widgets } = await import('./widgets/list.js');
    await loadLanguage(lang);
    for (const id of ['language-model', 'training']) useStrings(lang, id, await widgets.strings(id, lang));
    let svg;
    if (kind === 'ladder') {
      // four rungs a hair apart, the curves ending among them
      const losses = Array.from({ length: 400 }, (_, k) => 2.05 + 1.9 * Math.exp(-k / 60));
      const evaluations = Array.from({ length: 9 }, (_, k) => ({ step: k * 50, loss: 2.04 + 1.9 * Math.exp(-k * 50 / 60) }));
      const baselines = [{ order: 1, loss: 2.07 }, { order: 2, loss: 2.06 }, { order: 3, loss: 2.065 }, { order: 4, loss: 2.055 }];
      svg = lm.lossPlot({ step: 400, losses, evaluations, baselines, roles: [], halves: [] }, translator(lang, 'language-model'));
    } else if (kind === 'heads') {
      // every head's score close to the next one's
      const grid = (value) => Array.from({ length: layers }, (_, l) => Array.from({ length: heads }, (_, h) => value(l, h)));
      const roles = Array.from({ length: 6 }, (_, k) => ({ step: k * 100,
        previous: grid((l, h) => 0.3 + 0.01 * (l * heads + h) + 0.05 * k), self: grid(() => 0.1), first: grid(() => 0.1),
        induction: grid(() => 0.1), line: grid(() => NaN) }));
      svg = lm.scorePlot({ step: 500, roles, scores: [] }, 'previous', translator(lang, 'language-model'));
    } else {
      // as a reversal trains: a short plateau at log 10, then the fall to 1e-4; the first held-out points
      // stand high at the left, where a legend at the top left would sit on them
      const curve = (k) => 2.3 * Math.exp(-((k / 25) ** 2)) + 2e-4 * (1 + Math.exp(-k / 100));
      const losses = Array.from({ length: 300 }, (_, k) => curve(k + 1) * (1 + 0.2 * Math.sin(k)));
      const evaluations = [0, 5, 15, 25, 35, 50, 70, 90, 105, 125, 150, 175, 200, 225, 250, 275, 300]
        .map((step) => ({ step, loss: curve(step) * 1.02, accuracy: 0.1 }));
      svg = training.lossPlot({ step: 300, losses, evaluations }, translator(lang, 'training'));
    }
    document.body.append(svg);
    const box = (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height, text: e.textContent }; };
    const out = {
      svg: box(svg),
      tags: [...svg.querySelectorAll('.plot-tag')].map(box),
      // the swatches, and the text after each one's last
      legend: [...svg.querySelectorAll('.plot-swatch, text')].filter((e) => e.classList.contains('plot-swatch') ||
        e.previousElementSibling?.classList.contains('plot-swatch')).map(box),
      dots: [...svg.querySelectorAll('circle:not(.plot-swatch)')].map(box),
      lines: [...svg.querySelectorAll('polyline.plot-line')].flatMap((line) => {
        const length = line.getTotalLength(), matrix = line.getScreenCTM(), points = [];
        for (let at = 0; at <= length; at += 2) {
          const p = new DOMPoint(line.getPointAtLength(at).x, line.getPointAtLength(at).y).matrixTransform(matrix);
          points.push({ x: p.x, y: p.y });
        }
        return points;
      }),
    };
    svg.remove();
    return out;
  }, { kind, lang, layers, heads });
}

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a, outer) => a.x >= outer.x - 0.5 && a.y >= outer.y - 0.5 && a.x + a.width <= outer.x + outer.width + 0.5 && a.y + a.height <= outer.y + outer.height + 0.5;
const pairs = (boxes) => boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => overlap(a, b)).map((b) => `"${a.text}" × "${b.text}"`));

test('the n-gram ladder: four rungs a hair apart and the curves ending among them, no tag over another or over the legend', async () => {
  for (const lang of ['en', 'zh']) {
    const seen = await layout('ladder', { lang });
    assert.equal(seen.tags.length, 4, `${lang}: a tag per rung`);
    assert.deepEqual(pairs(seen.tags), [], `${lang}: tags over tags`);
    for (const tag of seen.tags) {
      assert.ok(inside(tag, seen.svg), `${lang}: "${tag.text}" inside the plot ${JSON.stringify(tag)}`);
      for (const entry of seen.legend) assert.ok(!overlap(tag, entry), `${lang}: "${tag.text}" over the legend's "${entry.text}"`);
    }
  }
});

test('the heads\' score plots: every head named, 16 heads of near scores included, no name over another', async () => {
  for (const [layers, heads] of [[2, 4], [4, 4]]) {
    const seen = await layout('heads', { layers, heads });
    const names = [...seen.tags.map((tag) => tag.text), ...seen.legend.filter((e) => e.text).map((e) => e.text)];
    assert.equal(seen.tags.length, layers * heads - 1, `${layers} × ${heads}: every other head tagged`);
    assert.equal(new Set(names).size, layers * heads, `${layers} × ${heads}: each head named once: ${names.join(', ')}`);
    assert.ok(names.some((name) => /the highest now/.test(name)), 'the best head in the legend');
    assert.deepEqual(pairs(seen.tags), [], `${layers} × ${heads}: tags over tags`);
    for (const tag of seen.tags) {
      assert.ok(inside(tag, seen.svg), `"${tag.text}" inside the plot`);
      for (const entry of seen.legend) assert.ok(!overlap(tag, entry), `"${tag.text}" over the legend's "${entry.text}"`);
    }
  }
});

test('the training loss chart: the legend hides none of the held-out points nor the lines', async () => {
  for (const lang of ['en', 'zh']) {
    const seen = await layout('training', { lang });
    assert.ok(seen.legend.length >= 4, `${lang}: the legend drawn`);
    assert.ok(seen.dots.length === 17, `${lang}: the held-out points drawn`);
    for (const entry of seen.legend) {
      assert.ok(inside(entry, seen.svg), `${lang}: "${entry.text}" inside the plot`);
      for (const dot of seen.dots) assert.ok(!overlap(entry, dot), `${lang}: the legend's "${entry.text}" over a held-out point ${JSON.stringify(dot)}`);
      const hidden = seen.lines.filter((p) => overlap(entry, { x: p.x - 1, y: p.y - 1, width: 2, height: 2 }));
      assert.deepEqual(hidden, [], `${lang}: the legend's "${entry.text}" over a line`);
    }
  }
});
