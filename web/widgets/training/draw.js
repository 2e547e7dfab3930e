// The training widget's drawing: a snapshot of the trainer (engine.js) into
// the widget's DOM, and the figures its export puts together. Pure functions
// of their data (the view's elements are only filled in).
import { element } from '../../render/dom.js';
import { heatmap } from '../../render/heatmap.js';
import { formatNumber } from '../../render/format.js';
import { linePlot } from '../../render/plot.js';
import { mapThumbnail } from '../../render/thumbnail.js';

// a small (n, n) map from a rule: the pictures of the quiz's choices
export function pattern(n, rule) {
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = rule(i, j);
  return { rows: n, cols: n, data };
}

export const percent = (x) => formatNumber(100 * x, { digits: 1, unit: '%' }).replace('\u00a0', '');

// a cell's label for screen readers: its query, key, weight and the input at the key
const describeCell = (matrix, t, positions) => (i, j) =>
  t('cellLabel', { i, j, weight: formatNumber(matrix.data[i * matrix.cols + j], { digits: 3 }), input: positions?.[j] ?? '' });

// a probe map: the heatmap (its update() redraws it with a later step's weights)
function probeMap(matrix, { t, title, positions }) {
  const labels = Array.from({ length: matrix.rows }, (_, i) => String(i));
  return heatmap({
    rowLabels: labels, colLabels: Array.from({ length: matrix.cols }, (_, j) => String(j)),
    axes: { rows: t('axisOutputs'), cols: t('axisInputs') },
    values: matrix.data, min: 0, max: 1, digits: 2, title, describe: describeCell(matrix, t, positions),
  });
}

export const mapFigure = (matrix, options) => probeMap(matrix, options).element;

export function lossPlot(snapshot, t) {
  const steps = Array.from(snapshot.losses, (_, k) => k + 1);
  // room above the curve for the legend (log scale: a factor of 5)
  const all = [...snapshot.losses, ...snapshot.evaluations.map((e) => e.loss)].filter((x) => x > 0);
  const yDomain = all.length ? [Math.min(...all) / 1.2, Math.max(...all) * 5] : null;
  return linePlot({
    title: t('lossTitle'),
    series: [
      { label: t('batchLoss'), x: steps, y: Array.from(snapshot.losses) },
      { label: t('heldLoss'), x: snapshot.evaluations.map((e) => e.step), y: snapshot.evaluations.map((e) => e.loss), points: snapshot.evaluations.length < 40 },
    ],
    xLabel: t('stepAxis'), yLabel: t('lossAxis'), yLog: true, width: 420, height: 240, yDomain,
    xDomain: [0, Math.max(1, snapshot.step)],
  });
}

export function accuracyPlot(snapshot, t) {
  return linePlot({
    title: t('accuracyTitle'),
    series: [{ label: t('accuracy'), x: snapshot.evaluations.map((e) => e.step), y: snapshot.evaluations.map((e) => 100 * e.accuracy),
      points: snapshot.evaluations.length < 40, color: '#009e73' }],
    xLabel: t('stepAxis'), yLabel: t('accuracyAxis'), yDomain: [0, 100], width: 420, height: 240,
    xDomain: [0, Math.max(1, snapshot.step)],
  });
}

// the probe's tokens: input, target, and the prediction with each position marked right or wrong
export function tokenTable(probe, t) {
  const table = element('table', 'tr-tokens');
  table.append(element('caption', 'visually-hidden', t.rich('tokensCaption')));
  const row = (label, tokens, field, marks) => {
    const tr = element('tr');
    const th = element('th', '', t.rich(label));
    th.scope = 'row';
    tr.append(th);
    tokens.forEach((token, i) => {
      const td = element('td', 'tr-token', String(token));
      td.dataset.field = field;
      if (marks) {
        const right = token === probe.target[i];
        td.classList.add(right ? 'is-right' : 'is-wrong');
        td.append(element('span', 'tr-mark', right ? '✓' : '✗'));
        td.title = t(right ? 'right' : 'wrong');
      }
      tr.append(td);
    });
    return tr;
  };
  const head = element('tr');
  head.append(element('th', '', t.rich('position')), ...probe.input.map((_, i) => element('th', 'tr-pos', String(i))));
  table.append(head, row('input', probe.input, 'input'), row('target', probe.target, 'target'),
    row('prediction', probe.prediction, 'prediction', true));
  return table;
}

// W^Q W^K^T as a small picture, scaled to its largest magnitude (symmetric range)
export function productPicture(product) {
  let top = 0;
  for (const x of product.data) top = Math.max(top, Math.abs(x));
  return { canvas: mapThumbnail({ values: product.data, rows: product.rows, cols: product.cols, min: -top, max: top }), top };
}

// Fills the live parts of the view from a snapshot: the numbers always, the
// figures when `figures` (drawn anew, or updated in place when they exist).
export function drawSnapshot(view, snapshot, { initial, needed, heads, t, figures = true }) {
  const last = snapshot.losses.length ? snapshot.losses[snapshot.losses.length - 1] : NaN;
  view.fields.step.textContent = formatNumber(snapshot.step, { digits: 0 });
  view.fields.loss.textContent = formatNumber(last, { digits: 4 });
  view.fields.heldLoss.textContent = formatNumber(snapshot.evaluation.loss, { digits: 4 });
  view.fields.accuracy.textContent = percent(snapshot.evaluation.accuracy);
  view.fields.stepsRate.textContent = snapshot.stepsPerSecond === null ? '—' : formatNumber(snapshot.stepsPerSecond, { digits: 0 });
  const why = view.fields.threadsWhy;
  why.hidden = snapshot.stepsPerSecond === null;
  if (!why.hidden) why.textContent = t('threadsWhy', { ms: formatNumber(1000 / snapshot.stepsPerSecond, { digits: 2 }) });
  if (!figures) return;
  view.drawn = performance.now();
  view.lossBox.replaceChildren(lossPlot(snapshot, t));
  view.accuracyBox.replaceChildren(accuracyPlot(snapshot, t));

  const positions = snapshot.probe.input;
  const title = (h) => (heads > 1 ? t('headAfter', { h: h + 1, step: snapshot.step }) : t('mapAfter', { step: snapshot.step }));
  // the maps drawn are this model's, one per head of this snapshot (a snapshot
  // of the options before may have drawn them while the new model started)
  if (view.mapsFor === initial && view.headMaps?.length === snapshot.probe.weights.length) {
    // the same maps: new weights, captions and argmax in place
    snapshot.probe.weights.forEach((w, h) => {
      const { figure, caption, map } = view.headMaps[h];
      figure.dataset.argmax = snapshot.probe.argmax[h].join(',');
      caption.textContent = title(h);
      map.update(w.data, describeCell(w, t, positions));
    });
  } else {
    view.headMaps = snapshot.probe.weights.map((w, h) => {
      const figure = element('figure', 'tr-map');
      figure.dataset.head = String(h);
      figure.dataset.argmax = snapshot.probe.argmax[h].join(',');
      const caption = element('figcaption', '', title(h));
      const map = probeMap(w, { t, title: title(h), positions });
      figure.append(caption, map.element);
      return { figure, caption, map };
    });
    const maps = view.headMaps.map((m) => m.figure);
    const neededFigure = element('figure', 'tr-map tr-needed');
    neededFigure.append(element('figcaption', '', t.rich('needed')), mapFigure(needed, { t, title: t('needed'), positions }));
    const startFigure = element('figure', 'tr-map tr-start');
    startFigure.append(element('figcaption', '', t.rich('atStart')), mapFigure(initial.probe.weights[0], { t, title: t('atStart'), positions }));
    view.maps.replaceChildren(...maps, neededFigure, startFigure);
    view.mapsFor = initial;
  }

  view.tokens.replaceChildren(tokenTable(snapshot.probe, t));
  const { canvas, top } = productPicture(snapshot.product);
  canvas.setAttribute('role', 'img');
  canvas.removeAttribute('aria-hidden');
  canvas.setAttribute('aria-label', t('productLabel', { top: formatNumber(top, { digits: 3 }) }));
  view.product.replaceChildren(canvas);
  view.productScale.replaceChildren(t.rich('productScale', { top: formatNumber(top, { digits: 3 }) }));
}
