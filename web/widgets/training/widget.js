// Widget "training": attention learned live. A one-layer attention model is
// trained by the core (backpropagation and Adam) on a task whose right map is
// known (reverse a sequence: the anti-diagonal; shift it by one: the
// sub-diagonal), and the probe's map moves towards it as the loss falls.
// Training runs in live training (live/: a Web Worker with its own module, or
// the page in short slices where no worker starts) with its engine
// (engine.js); step 0 comes from there too. The state in the
// URL includes the steps trained: the engine is deterministic, so a shared
// link retrains to that step and shows the same numbers.
import { element } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { composite } from '../../render/compose.js';
import { mapThumbnail } from '../../render/thumbnail.js';
import { createEngine } from './engine.js';
import { createController, MAX_STEPS } from '../../live/controller.js';
import { accuracyPlot, drawSnapshot, lossPlot, mapFigure, pattern, percent } from './draw.js';
import { plotFigure, statGrid } from '../../render/parts.js';
import { showStatus, trainingBar } from '../../live/parts.js';

export const name = 'training';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'trains W^Q, W^K, W^V live and watches the map find the anti-diagonal';
// it trains: its module, its worker and its data load when it comes near the screen
export const lazy = true;

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them)
export const assets = ['wasm/attention-training.js'];

export const defaults = { task: 'reverse', seed: 1, heads: '1', lr: 0.01, speed: 2, steps: 0 };

export const controls = [
  { key: 'task', type: 'choice', label: 'task', options: [{ value: 'reverse', label: 'reverse' }, { value: 'shift', label: 'shift' }] },
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 100, step: 1 },
  { key: 'heads', type: 'choice', label: 'heads', options: [{ value: '1', label: '1' }, { value: '2', label: '2' }, { value: '4', label: '4' }] },
  { key: 'lr', type: 'range', label: 'lr', min: 0.001, max: 0.1, step: 0.001 },
  { key: 'speed', type: 'range', label: 'speed', min: 1, max: 50, step: 1 },
  { key: 'steps', type: 'range', hidden: true, min: 0, max: MAX_STEPS, step: 1 },
];

const FIGURES_EVERY = 400;  // ms between redrawn figures while training

const trainerOptions = (state) => ({ task: state.task, seed: state.seed, heads: Number(state.heads), learningRate: state.lr });

// The options; the numbers come from the loop's snapshots. live (one per
// options): { initial: the snapshot of step 0 ("the map at step 0"), snapshot: the newest }
export function compute(att, state) {
  return { options: trainerOptions(state), live: { initial: null, snapshot: null } };
}

const drawLive = (view, t, figures) => {
  const { initial, snapshot } = view.data.live;
  drawSnapshot(view, snapshot, { initial, needed: initial.probe.needed, heads: view.data.options.heads, t, figures });
};

export function build(body, ctx) {
  const { t } = ctx;
  const view = { data: null, state: null, drawn: 0, mapsFor: null };
  const { bar, play, one, reset } = trainingBar(t, () => view.controller);
  const status = element('p', 'tr-status');
  status.dataset.field = 'status';
  const note = element('p', 'tr-note', t.rich('fallbackNote'));
  note.hidden = true;
  const { grid: stats, fields } = statGrid(t, [['step', 'step'], ['batchLoss', 'loss'], ['heldLoss', 'heldLoss'], ['accuracy', 'accuracy'],
    ['threadsShown', 'threads'], ['stepsRate', 'stepsRate']]);
  fields.threads.textContent = formatNumber(1, { digits: 0 });
  // why one (the step's time, once measured)
  const threadsWhy = element('p', 'small-note tr-threads');
  threadsWhy.dataset.field = 'threadsWhy';
  threadsWhy.hidden = true;
  const loss = plotFigure(t.rich('lossTitle')), accuracy = plotFigure(t.rich('accuracyTitle'));
  const plots = element('div', 'plot-grid');
  plots.append(loss.figure, accuracy.figure);
  const maps = element('div', 'tr-maps');
  const tokens = element('div', 'tr-tokens-box table-scroll');
  const productFigure = element('figure', 'tr-product');
  const product = element('div', 'tr-product-map');
  const productScale = element('p', 'tr-product-scale');
  const productAxes = element('p', 'tr-product-axes');
  productAxes.append(element('span', 'tr-product-axis', t.rich('productRows')), element('span', 'tr-product-axis', t.rich('productCols')));
  productFigure.append(element('figcaption', '', t.rich('product')), product, productAxes, productScale, element('p', 'small-note', t.rich('productExplain')));
  const lower = element('div', 'tr-lower');
  lower.append(tokens, productFigure);
  body.append(bar, status, note, stats, threadsWhy, plots, element('h3', 'section-heading', t.rich('mapsHeading')), maps, lower);

  Object.assign(view, { play, one, reset, status, note, fields: { ...fields, threadsWhy }, lossBox: loss.box, accuracyBox: accuracy.box, maps, tokens, product, productScale });
  view.controller = createController({
    loadAttention: ctx.module,
    createEngine,
    worker: 'training',
    onStart(snapshot) {
      if (view.data) view.data.live.initial = snapshot;
    },
    onSnapshot(snapshot) {
      if (!view.data?.live.initial) return;
      view.data.live.snapshot = snapshot;
      // while training, the figures follow a few times a second, the numbers every frame
      drawLive(view, t, !view.controller.status.running || performance.now() - view.drawn > FIGURES_EVERY);
    },
    onStatus: (s) => showStatus(view, s, t),
    onRest: (steps) => { if (ctx.state.steps !== steps) ctx.setState({ steps }, { quiet: true }); },
    onError: (message) => { view.status.textContent = t('trainingError', { message }); },
  });
  return view;
}

// unmounted (a language switch mounts it again, an embed removes it): its worker goes
export function dispose(view) {
  view.controller.dispose();
}

export async function render(view, data, state, { t }) {
  const changed = JSON.stringify(view.data?.options) !== JSON.stringify(data.options);
  if (!changed) data.live = view.data.live;
  view.data = data;
  view.mapsFor = null;  // the options may have changed: the maps are drawn anew
  // new options: the widget stays busy (its aria-busy) until the loop's step 0 is drawn
  const drawn = changed ? view.controller.answered() : null;
  view.controller.sync(data.options, state.steps, state.speed);
  await drawn;
  if (view.data === data && data.live.snapshot) drawLive(view, t, true);
  showStatus(view, view.controller.status, t);
}

const CHOICES = {
  anti: (i, j, n) => j === n - 1 - i,
  diagonal: (i, j) => i === j,
  uniform: () => 0.5,
  sub: (i, j, n) => j === (i + n - 1) % n,
};

export const quiz = {
  question: 'quizQuestion',
  options: [
    { value: 'anti', label: 'antiDiagonal' }, { value: 'diagonal', label: 'diagonal' },
    { value: 'uniform', label: 'uniform' }, { value: 'sub', label: 'subDiagonal' },
  ].map((o) => ({ ...o, picture: () => {
    const map = pattern(8, (i, j) => Number(CHOICES[o.value](i, j, 8)));
    return mapThumbnail({ values: map.data, rows: 8, cols: 8 });
  } })),
  answer: (data, state) => (state.task === 'shift' ? 'sub' : 'anti'),
  explain(data, state, t) {
    const snapshot = data.live.snapshot;
    return t(state.task === 'shift' ? 'quizExplainShift' : 'quizExplainReverse', { step: snapshot.step, accuracy: percent(snapshot.evaluation.accuracy) });
  },
};

export function exports(data, state, t) {
  const { snapshot, initial } = data.live;
  return {
    visual: () => composite([
      ...snapshot.probe.weights.map((w, h) => ({ title: t('headAfter', { h: h + 1, step: snapshot.step }), svg: mapFigure(w, { t, title: '' }) })),
      { title: t('needed'), svg: mapFigure(initial.probe.needed, { t, title: '' }) },
      { title: t('atStart'), svg: mapFigure(initial.probe.weights[0], { t, title: '' }) },
      { title: t('lossTitle'), svg: lossPlot(snapshot, t), newRow: true },
      { title: t('accuracyTitle'), svg: accuracyPlot(snapshot, t) },
    ], { title: t('title') }),
    csv: () => {
      const held = new Map(snapshot.evaluations.map((e) => [e.step, e]));
      const rows = [];
      for (let step = 0; step <= snapshot.step; step++) {
        const e = held.get(step);
        if (step > 0 || e) rows.push([step, step > 0 ? snapshot.losses[step - 1] : '', e ? e.loss : '', e ? e.accuracy : '']);
      }
      return { header: ['step', 'batch loss', 'held-out loss', 'held-out accuracy'], rows };
    },
    json: () => ({
      options: { ...data.options }, step: snapshot.step, evaluation: snapshot.evaluation,
      probe: { input: snapshot.probe.input, target: snapshot.probe.target, prediction: snapshot.probe.prediction },
      parameters: snapshot.parameters,
    }),
  };
}
