// Widget "language-model": a tiny decoder-only transformer trained live on a
// real corpus (Tang five-character quatrains, or English first names) or on
// letters written twice (where an induction head must form), its heads
// watched while they take their roles (one line back, the punctuation, the
// previous character, the induction), its loss beside the n-gram ladder, then
// writing. The core trains it (att.createLanguageModel) in live training
// (live/: a Web Worker, or the page where no worker starts) with its engine
// (lm/engine.js); the widget draws the snapshots (lm/draw.js). As in the training
// widget, the steps trained are in the URL: a shared link retrains to them
// and shows the same numbers, poems included.
import { element } from '../../render/dom.js';
import { assetUrl } from '../../runtime/assets.js';
import { callout } from '../../render/callout.js';
import { composite } from '../../render/compose.js';
import { CORPORA, createEngine } from './engine.js';
import { createController } from '../../live/controller.js';
import { plotFigure, statGrid } from '../../render/parts.js';
import { showStatus, trainingBar } from '../../live/parts.js';
import { drawSnapshot, headName, lossPlot, mapFigure, scorePlot, scoreTitle, unigramOf } from './draw.js';
import { ownTextPanel } from './own-text.js';
import { gradientCheckPanel } from './gradient-check.js';

export const name = 'language-model';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'trains a tiny Transformer on Tang poems, names, letters written twice or your own text; names its heads\' roles (induction), then samples from it';
// it trains: its module, its worker and its data load when it comes near the screen
export const lazy = true;

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them):
// the training module and the chosen corpus
export const assets = ['wasm/attention-training.js', 'data/names.json', 'data/quatrains.json'];

// the steps a link may ask to retrain to: a poem model's step is tens of milliseconds
export const MAX_STEPS = 3000;

// the workers a step is shared by: by default the cores this computer reports less the page's own, 1 to 4
export const THREADS = ['1', '2', '3', '4'];
const CORES = globalThis.navigator?.hardwareConcurrency ?? 1;

export const defaults = {
  corpus: 'names', layers: '2', heads: '4', dModel: '64', seed: 1, threads: String(Math.min(4, Math.max(1, CORES - 1))),
  temperature: 0.8, topK: 20, sample: 1, prefix: '', steps: 0, focus: 0,
};
// the language of the page chooses the corpus
export const languageDefaults = { zh: { corpus: 'poems' } };
// defaults the reader's computer decides: the catalog's words for how (docs/embedding.md)
export const defaultsFrom = { threads: 'threadsDefault' };

const choice = (key, label, values) => ({ key, type: 'choice', label, options: values.map((v) => ({ value: v, label: v })) });

export const controls = [
  { key: 'corpus', type: 'choice', label: 'corpus', options: ['poems', 'names', 'repeats', 'own'].map((value) => ({ value, label: value })) },
  choice('layers', 'layers', ['1', '2', '3', '4']),
  choice('heads', 'heads', ['1', '2', '4']),
  choice('dModel', 'dModel', ['32', '64', '128']),
  choice('threads', 'threads', THREADS),
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 100, step: 1 },
  { key: 'temperature', type: 'range', label: 'temperature', min: 0, max: 1.5, step: 0.05 },
  { key: 'topK', type: 'range', label: 'topK', min: 0, max: 50, step: 1 },
  { key: 'sample', type: 'range', label: 'sample', min: 1, max: 1000, step: 1 },
  { key: 'prefix', type: 'text', label: 'prefix', maxLength: 200, presets: [{ value: 'presetPoem', label: 'labelPoem' }, { value: 'presetName', label: 'labelName' }] },
  { key: 'steps', type: 'range', hidden: true, min: 0, max: MAX_STEPS, step: 1 },
  { key: 'focus', type: 'range', hidden: true, min: 0, max: 15, step: 1 },
];

// steps asked of the loop at a time while training
const SPEED = 4;
const FIGURES_EVERY = 400;  // ms between redrawn figures while training

// the reader's text (corpus=own) is state.ownText: a key no control has, so never in the URL
const modelOptions = (state) => ({
  corpus: state.corpus, url: CORPORA[state.corpus].file ? assetUrl(CORPORA[state.corpus].file) : null,
  ...(CORPORA[state.corpus].own ? { text: state.ownText ?? '' } : {}),
  layers: Number(state.layers), heads: Number(state.heads), dModel: Number(state.dModel), seed: state.seed,
  threads: Number(state.threads),
});
const viewSettings = (state) => ({ temperature: state.temperature, topK: state.topK, sample: state.sample, prefix: state.prefix });

// The options; the numbers come from the loop's snapshots (drawn as they arrive).
export function compute(att, state) {
  return { options: modelOptions(state), settings: viewSettings(state), live: { snapshot: null, full: null } };
}

// The numbers and the curves: the stat grid, the loss plot and the corpus's
// two head scores over training (captions set when drawn), the sentences on
// the ladder, the halves and overfitting, the corpus and its sizes.
function curvesPart(t) {
  const { grid: stats, fields } = statGrid(t, [['step', 'step'], ['batchLoss', 'loss'], ['heldLoss', 'heldLoss'], ['unigram', 'unigram'], ['rate', 'rate'],
    ['threadsShown', 'threads'], ['stepsRate', 'stepsRate']]);
  const loss = plotFigure(t.rich('lossTitle'));
  const scores = [plotFigure(''), plotFigure('')];
  const plots = element('div', 'plot-grid');
  const scoreFigures = element('div', 'lm-score-figures');
  scoreFigures.append(...scores.map((s) => s.figure));
  plots.append(loss.figure, scoreFigures);
  const ladder = element('p', 'lm-ladder');
  ladder.dataset.field = 'ladder';
  const halves = element('p', 'lm-halves');
  halves.dataset.field = 'halves';
  halves.hidden = true;
  const overfit = callout(t.rich('overfitTitle'), { part: 'overfit' });
  overfit.box.hidden = true;
  const source = element('p', 'lm-source small-note');
  const sizes = element('p', 'lm-sizes small-note');
  const threads = element('p', 'small-note lm-threads');
  threads.dataset.field = 'threadsExplain';
  fields.threadsExplain = threads;
  return { stats, fields, loss, scores, plots, ladder, halves, overfit, source, sizes, threads };
}

export function build(body, ctx) {
  const { t } = ctx;
  const view = { data: null, full: null, drawn: 0, focus: ctx.state.focus, settings: null };
  const { bar, play, one, reset } = trainingBar(t, () => view.controller);
  // corpus=own: the reader's text; a new one retrains from step 0
  const own = ownTextPanel(t, (text) => ctx.setState({ ownText: text }));
  own.panel.hidden = true;
  const status = element('p', 'lm-status');
  status.dataset.field = 'status';
  const note = element('p', 'lm-note', t.rich('fallbackNote'));
  note.hidden = true;
  const error = element('p', 'widget-error lm-error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const { stats, fields, loss, scores, plots, ladder, halves, overfit, source, sizes, threads } = curvesPart(t);
  const check = gradientCheckPanel(t, () => view.controller.ask('gradientCheck'));

  const heads = element('div', 'lm-heads');
  const focusFigure = element('figure', 'lm-focus');
  const focusCaption = element('figcaption', '');
  const focusMap = element('div', 'lm-focus-map table-scroll');
  focusFigure.append(focusCaption, focusMap);
  const form = element('p', 'lm-form');
  const samples = element('div', 'lm-samples-box');
  const next = element('div', 'lm-next-box');
  // what it learns, said of the corpus shown (render sets it)
  const honest = callout(t('honestTitle'), { part: 'honest', texts: [''] });

  // everything but the own text's panel: hidden while corpus=own waits for a text
  const trained = element('div', 'lm-trained');
  trained.append(bar, status, note, error, stats, threads, plots, ladder, halves, element('p', 'small-note', t.rich('ladderExplain')), overfit.box, source, sizes,
    check.panel,
    element('h3', 'section-heading', t.rich('headsHeading')), element('p', 'small-note', t.rich('headsExplain')),
    element('p', 'small-note', t.rich('rolesExplain')), heads, focusFigure,
    element('h3', 'section-heading', t.rich('writesHeading')), form, samples,
    element('h3', 'section-heading', t.rich('nextHeading')), next, honest.box);
  body.append(own.panel, trained);

  Object.assign(view, { own, trained, play, one, reset, status, note, error, fields, lossBox: loss.box, ladder, halves, check,
    scoreCaptions: scores.map((s) => s.figure.querySelector('figcaption')), scoreBoxes: scores.map((s) => s.box),
    overfit: { box: overfit.box, text: overfit.paragraphs[0] },
    source, sizes, heads, focusCaption, focusMap, form, samples, next, honest: honest.paragraphs[0] });
  view.onFocus = (index) => {
    view.focus = index;
    ctx.setState({ focus: index }, { quiet: true });
    redraw(view, t, true);
  };
  view.controller = createController({
    loadAttention: ctx.module,
    createEngine,
    worker: 'lm',
    maxSteps: MAX_STEPS,
    onSnapshot(snapshot) {
      if (!view.data) return;
      view.error.hidden = true;
      if (snapshot.full) view.full = snapshot;
      view.data.live = { snapshot, full: view.full };
      // while training, the figures follow a few times a second, the numbers every frame
      const figures = snapshot.full && (!view.controller.status.running || performance.now() - view.drawn > FIGURES_EVERY);
      drawSnapshot(view, snapshot, { t, corpus: view.data.options.corpus, figures });
    },
    onStatus: (s) => showStatus(view, s, t, { rateDigits: 1 }),
    onRest: (steps) => { if (ctx.state.steps !== steps) ctx.setState({ steps }, { quiet: true }); },
    onError: (message) => {
      // a page opened from file:// may not read the corpus beside it: say so, and what to do
      const url = view.data?.options.url && new URL(view.data.options.url);
      view.error.textContent = url?.protocol === 'file:'
        ? t('fromFile', { file: url.pathname.split('/').pop() }) : t('trainingError', { message });
      view.error.hidden = false;
    },
  });
  return view;
}

// unmounted (a language switch mounts it again, an embed removes it): its worker
// goes, and a render waiting for the loop's answer stops waiting
export function dispose(view) {
  view.controller.dispose();
}

function redraw(view, t, figures) {
  const snapshot = view.data?.live.snapshot;
  if (snapshot) drawSnapshot(view, snapshot, { t, corpus: view.data.options.corpus, figures });
}

// the controller that trains the model whose data this is (exports get data, not the view)
const controllers = new WeakMap();
function controllerOf(data) {
  const controller = controllers.get(data);
  if (!controller) throw new Error('the model is not loaded yet');
  return controller;
}

export async function render(view, data, state, { t }) {
  const changed = JSON.stringify(view.data?.options) !== JSON.stringify(data.options);
  const settingsChanged = JSON.stringify(view.settings) !== JSON.stringify(data.settings);
  view.settings = data.settings;
  if (changed) {
    view.full = null;
    view.data = data;
    view.check.clear();
  } else {
    data.live = view.data.live;
    view.data = data;
  }
  controllers.set(data, view.controller);
  view.focus = state.focus;
  // corpus=own with no text yet (a link records only corpus=own): it asks for one, and trains nothing
  view.honest.replaceChildren(t.rich(`honest_${data.options.corpus}`));
  view.honest.dataset.corpus = data.options.corpus;
  const own = Boolean(CORPORA[data.options.corpus].own);
  view.own.show(own, data.options.text);
  view.trained.hidden = own && !data.options.text;
  if (view.trained.hidden) {
    view.controller.pause();
    return;
  }
  // the figures of new options or settings come from the loop a moment later:
  // until a full snapshot is drawn the widget stays busy (its aria-busy)
  const drawn = changed || settingsChanged ? view.controller.answered((snapshot) => snapshot.full) : null;
  view.controller.sync(data.options, state.steps, SPEED);
  view.controller.view(data.settings);
  if (!changed) redraw(view, t, true);
  showStatus(view, view.controller.status, t, { rateDigits: 1 });
  await drawn;
}

export function exports(data, state, t) {
  const snapshot = data.live.snapshot;
  const full = data.live.full;
  return {
    visual: () => {
      if (!full) throw Object.assign(new Error(t('notYet')), { name: 'InputError' });
      const curves = { ...full, step: snapshot.step, losses: snapshot.losses };
      const maps = full.example.weights.flatMap((layer, l) => layer.map((w, h) => ({
        title: headName(t, l, h), svg: mapFigure(w, full.example.tokens, t, headName(t, l, h)), newRow: h === 0 && l > 0,
      })));
      const plots = [{ title: t('lossTitle'), svg: lossPlot(curves, t), newRow: true },
        ...CORPORA[data.options.corpus].plots.map((field) => ({ title: scoreTitle(field, t), svg: scorePlot(curves, field, t) }))];
      return composite([...maps, ...plots], { title: t('title') });
    },
    csv: () => {
      if (!snapshot) return { header: ['step', 'batch loss', 'held-out loss', 'unigram loss'], rows: [] };
      const held = new Map((full?.evaluations ?? []).map((e) => [e.step, e.loss]));
      const rows = [];
      for (let step = 0; step <= snapshot.step; step++) {
        if (step > 0 || held.has(step)) rows.push([step, step > 0 ? snapshot.losses[step - 1] : '', held.get(step) ?? '', unigramOf(full) ?? '']);
      }
      return { header: ['step', 'batch loss', 'held-out loss', 'unigram loss'], rows };
    },
    json: async () => ({
      options: { ...data.options, url: undefined, text: undefined }, step: snapshot?.step ?? 0,
      samples: full?.samples.texts ?? [],
      // the n-gram ladder, and every head's roles and (repeats) the halves at each full
      // snapshot: [{ step, previous, self, first, induction, line: [layer][head] }] (lm.baselines, lm.headRoles)
      ladder: full?.baselines ?? [],
      roles: full?.roles ?? [],
      halves: full?.halves ?? [],
      parameters: await controllerOf(data).ask('parameters'),
    }),
  };
}

