// Widget "learned-width": the height -> weight example with a kernel width that
// is learned instead of set by hand. Attention pooling scores a query against
// each key by -((q - k) w)^2 / 2; the core trains w by gradient descent (Adam)
// on the leave-one-out error over noisy samples, and the regression curve and
// the attention weights sharpen as w grows. Training is cheap (50 samples), so
// it runs on the main thread: the steps are in the state (and the URL), and a
// trainer kept per options only steps forward to the asked-for count.
import { element } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { linePlot } from '../../render/plot.js';
import { plotFigure, statGrid } from '../../render/parts.js';

export const name = 'learned-width';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'watches gradient descent learn the width of the kernel that pools the table';
// it trains: its module, its worker and its data load when it comes near the screen
export const lazy = true;

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them)
export const assets = ['wasm/attention-training.js'];

export const MAX_STEPS = 2000;
export const defaults = { seed: 1, noise: 2, lr: 0.01, steps: 0 };

export const controls = [
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 100, step: 1 },
  { key: 'noise', type: 'range', label: 'noise', unit: 'kg', min: 0, max: 8, step: 0.5 },
  { key: 'lr', type: 'range', label: 'lr', min: 0.001, max: 0.05, step: 0.001 },
  { key: 'steps', type: 'range', hidden: true, min: 0, max: MAX_STEPS, step: 1 },
];

// the article's table, pooled with the learned width
const KEYS = [160, 165, 170, 175], VALUES = [55, 60, 65, 70], QUERY = 172;
const STEPS_PER_FRAME = 4;
const QUERIES = Array.from({ length: 121 }, (_, i) => 145 + i * 0.5);
const WIDTHS = Array.from({ length: 81 }, (_, i) => 0.01 * 10 ** (i / 40));  // 0.01 .. 1 per cm, log-spaced

// One trainer per options, stepped forward (the engine is deterministic: n steps
// one by one equal n steps at once), with the history of its losses and widths.
let cache = null;
async function trainerAt(att, state, steps) {
  const key = JSON.stringify([state.seed, state.noise, state.lr]);
  if (!cache || cache.key !== key || cache.step > steps) {
    const trainer = await att.createWidthTrainer({ seed: state.seed, noise: state.noise, learningRate: state.lr });
    cache?.trainer.delete();  // (a compute that overtook this one may have made one meanwhile)
    const start = trainer.evaluate();
    cache = { key, trainer, step: 0, losses: [], widths: [start.width], initialCurve: Array.from(trainer.curve(QUERIES)) };
  }
  while (cache.step < steps) {
    const r = cache.trainer.step(1);
    cache.step = r.step;
    cache.losses.push(r.loss);
    cache.widths.push(r.width);
  }
  return cache;
}

async function dataAt(att, state, steps) {
  const c = await trainerAt(att, state, steps);
  const t = c.trainer;
  const e = t.evaluate();
  const samples = t.samples();
  const pooled = t.weights({ keys: KEYS, values: VALUES, queries: [QUERY] });
  return {
    step: c.step, width: e.width, sigma: e.sigma, loss: e.trainingLoss, heldOutLoss: e.loss,
    samples: { heights: Array.from(samples.heights), weights: Array.from(samples.weights) },
    curve: Array.from(t.curve(QUERIES)), initialCurve: c.initialCurve,
    losses: c.losses.slice(), widths: c.widths.slice(),
    lossCurve: Array.from(t.lossCurve(WIDTHS)),
    weights: Array.from(pooled.weights.data), estimate: pooled.estimates[0],
  };
}

export function compute(att, state) {
  return dataAt(att, state, state.steps);
}

export function build(body, ctx) {
  const { t } = ctx;
  const view = { playing: false, frame: 0 };
  const play = element('button', 'action-button', t.rich('train'));
  play.type = 'button';
  play.dataset.action = 'train';
  const reset = element('button', 'action-button', t.rich('reset'));
  reset.type = 'button';
  reset.dataset.action = 'reset';
  const bar = element('div', 'action-bar');
  bar.append(play, reset);
  const { grid: stats, fields } = statGrid(t, [['step', 'step'], ['width', 'width'], ['sigma', 'sigma'], ['looLoss', 'loss']]);
  const figure = (caption) => plotFigure(t.rich(caption));
  const curve = figure('curveTitle'), history = figure('historyTitle'), landscape = figure('landscapeTitle');
  const plots = element('div', 'plot-grid');
  plots.append(history.figure, landscape.figure);
  const weights = element('div', 'lw-weights');
  const heldOut = element('p', 'small-note');
  body.append(bar, stats, curve.figure, plots, element('h3', 'section-heading', t.rich('weightsHeading', { q: QUERY })), weights, heldOut);
  Object.assign(view, { play, fields, curveBox: curve.box, historyBox: history.box, landscapeBox: landscape.box, weights, heldOut });

  // playing: the trainer steps forward each frame and the view is drawn from it;
  // the state (and the URL) takes the step when it stops
  const stop = () => {
    if (!view.playing) return;
    view.playing = false;
    cancelAnimationFrame(view.frame);
    play.replaceChildren(t.rich('train'));
    play.setAttribute('aria-pressed', 'false');
    ctx.setState({ steps: view.data.step });
  };
  const frame = async () => {
    if (!view.playing) return;
    const att = await ctx.module();
    const steps = Math.min(MAX_STEPS, view.data.step + STEPS_PER_FRAME);
    const data = await dataAt(att, ctx.state, steps);
    if (!view.playing) return;
    render(view, data, ctx.state, ctx);
    if (steps >= MAX_STEPS) stop();
    else view.frame = requestAnimationFrame(frame);
  };
  play.setAttribute('aria-pressed', 'false');
  play.addEventListener('click', () => {
    if (view.playing) { stop(); return; }
    if (!view.data) return;
    view.playing = true;
    play.replaceChildren(t.rich('pause'));
    play.setAttribute('aria-pressed', 'true');
    view.frame = requestAnimationFrame(frame);
  });
  reset.addEventListener('click', () => {
    view.playing = false;
    cancelAnimationFrame(view.frame);
    play.replaceChildren(t.rich('train'));
    play.setAttribute('aria-pressed', 'false');
    ctx.setState({ steps: 0 });
  });
  return view;
}

function curvePlot(data, t) {
  return linePlot({
    title: t('curveTitle'),
    series: [
      { label: t('curveNow', { step: data.step }), x: QUERIES, y: data.curve },
      { label: t('curveStart'), x: QUERIES, y: data.initialCurve },
      { label: t('samples'), x: data.samples.heights, y: data.samples.weights, points: true, line: false },
    ],
    xLabel: t('xAxis'), yLabel: t('yAxis'), height: 280,
  });
}

function historyPlot(data, t) {
  const steps = data.losses.map((_, k) => k + 1);
  return linePlot({
    title: t('historyTitle'),
    series: [{ label: t('looLoss'), x: steps, y: data.losses }],
    xLabel: t('stepAxis'), yLabel: t('lossAxis'), width: 420, height: 240, xDomain: [0, Math.max(1, data.step)],
  });
}

// every k-th of the points (and the last), so that at most about `most` remain
function every(x, y, most) {
  const k = Math.max(1, Math.ceil(x.length / most));
  const keep = (_, i) => i % k === 0 || i === x.length - 1;
  return { x: x.filter(keep), y: y.filter(keep) };
}

function landscapePlot(data, t) {
  return linePlot({
    title: t('landscapeTitle'),
    series: [
      { label: t('lossOfWidth'), x: WIDTHS, y: data.lossCurve },
      // step k's loss was measured at the width before its update: widths[k - 1]
      // at most about 40 of them, as dots on the curve they descend
      { label: t('widthPath'), ...every([...data.widths.slice(0, data.losses.length), data.width], [...data.losses, data.loss], 40),
        points: true, line: false },
    ],
    xLabel: t('widthAxis'), yLabel: t('lossAxis'), xLog: true, yLog: true, width: 420, height: 240,
    markers: [{ x: data.width, label: t('widthMarker', { w: formatNumber(data.width, { digits: 3 }) }) }],
  });
}

// unmounted: the frames stop (a frame already asked for finds view.playing false)
export function dispose(view) {
  view.playing = false;
  cancelAnimationFrame(view.frame);
}

export function render(view, data, state, { t }) {
  view.data = data;
  view.fields.step.textContent = formatNumber(data.step, { digits: 0 });
  view.fields.width.textContent = formatNumber(data.width, { digits: 4 });
  view.fields.sigma.textContent = formatNumber(data.sigma, { digits: 2, unit: t('cm') });
  view.fields.loss.textContent = formatNumber(data.loss, { digits: 3 });
  view.curveBox.replaceChildren(curvePlot(data, t));
  view.historyBox.replaceChildren(data.losses.length ? historyPlot(data, t) : element('p', 'muted', t.rich('noSteps')));
  view.landscapeBox.replaceChildren(landscapePlot(data, t));
  view.weights.replaceChildren(...KEYS.map((k, i) => {
    const row = element('div', 'lw-weight');
    const value = element('span', 'weight-value', formatWeight(data.weights[i]));
    value.dataset.field = 'weight';
    row.append(element('span', 'lw-key', `${k} ${t('cm')}`), hbar({ value: data.weights[i], max: 1, label: t('weightOf', { key: k, weight: formatWeight(data.weights[i]) }) }), value);
    return row;
  }));
  view.heldOut.replaceChildren(t.rich('heldOut', { loss: formatNumber(data.heldOutLoss, { digits: 3 }), estimate: formatNumber(data.estimate, { digits: 2 }), q: QUERY }));
}

export function exports(data, state, t) {
  return {
    visual: () => curvePlot(data, t),
    csv: () => ({
      header: ['step', 'leave-one-out loss', 'width w (1/cm)'],
      rows: [[0, '', data.widths[0]], ...data.losses.map((loss, k) => [k + 1, loss, data.widths[k + 1]])],
    }),
    json: () => ({ step: data.step, width: data.width, loss: data.loss, heldOutLoss: data.heldOutLoss, widths: data.widths, losses: data.losses,
      query: QUERY, keys: KEYS, values: VALUES, weights: data.weights, estimate: data.estimate }),
  };
}
