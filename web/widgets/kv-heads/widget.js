// Widget "kv-heads": grouped keys and values. 8 query heads read 8, 4, 2 or 1
// key/value heads (multi-head, grouped-query, multi-query attention): the
// heads drawn joined to the key/value head they share, their maps over a
// sentence (the heads of a group look differently at the same keys), the
// projections' parameters, the key-value cache and the projections' parameters
// of a model the reader names (presets with published figures), and two language models trained side by
// side in a worker with 4 and 1 key/value heads. Every number is the core's
// (figures.js, engine.js); this file lays them out.
import { element, liveElement } from '../../render/dom.js';
import { composite } from '../../render/compose.js';
import { formatNumber, formatRatio } from '../../render/format.js';
import { actionButton } from '../../render/parts.js';
import { buildControls } from '../../runtime/controls.js';
import { assetUrl } from '../../runtime/assets.js';
import { createController } from '../../live/controller.js';
import { CORPORA } from '../language-model/engine.js';
import { SENTENCE_PRESETS } from '../sentences.js';
import { compute as computeFigures, HEADS, HEAD_DIMS, KV_CHOICES, MODEL_HEADS, MODEL_KV, PRESETS, TOKENS, BYTES_PER_NUMBER } from './figures.js';
import { createEngine, KV_TRAINED, MODEL, STEPS } from './engine.js';
import { GROUP_COLORS, formatBytes, groupDiagram, headMap, lossPlot } from './draw.js';

export const name = 'kv-heads';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'shares 8 query heads\' keys and values among 8, 4, 2 or 1 heads and sees the maps, the parameters and a named model\'s cache and projections shrink';
// its models, corpus and worker load when it comes near, not with the page
export const lazy = true;
// the release's files it loads beside embed.js, besides the core (docs/embedding.md)
export const assets = [CORPORA.names.file];

export const defaults = { kvHeads: '2', sentence: 'i have a dream', seed: 1, preset: 'llama3-8b', layers: 32, modelHeads: '32', modelKv: '8', headDim: '128', tokens: '8192' };

const numbers = (values) => values.map((v) => ({ value: v, label: formatNumber(Number(v), { digits: 0 }) }));
// the named model's fields: in the widget's fourth part (built there), state in the URL
const MODEL_CONTROLS = [
  { key: 'layers', type: 'range', label: 'layers', min: 1, max: 128, step: 1 },
  { key: 'modelHeads', type: 'select', label: 'modelHeads', options: numbers(MODEL_HEADS) },
  { key: 'modelKv', type: 'select', label: 'modelKv', options: numbers(MODEL_KV) },
  { key: 'headDim', type: 'select', label: 'headDim', options: numbers(HEAD_DIMS) },
  { key: 'tokens', type: 'select', label: 'tokens', options: numbers(TOKENS) },
];

export const controls = [
  { key: 'kvHeads', type: 'choice', label: 'kvHeads', options: KV_CHOICES.map((v) => ({ value: v, label: `kv${v}` })) },
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: SENTENCE_PRESETS },
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1 },
  { key: 'preset', type: 'choice', hidden: true, options: PRESETS.map((p) => ({ value: p.id, label: `preset_${p.id}` })) },
  ...MODEL_CONTROLS.map((c) => ({ ...c, hidden: true })),
];

export const compute = computeFigures;

// the mode's name: multi-head, grouped-query or multi-query
const mode = (kv, heads) => (kv === heads ? 'modeMha' : kv === 1 ? 'modeMqa' : 'modeGqa');

function part(body, className, heading) {
  const box = element('section', `kvh-part ${className}`);
  const title = element('h3', 'kvh-heading');
  if (heading) title.append(heading);
  box.append(title);
  body.append(box);
  return { box, title };
}

export function build(body, ctx) {
  const { t } = ctx;
  const view = { t };
  const one = part(body, 'kvh-groups-part');
  view.groupsTitle = one.title;
  view.diagram = element('div', 'kvh-diagram-box');
  view.pair = liveElement('p', 'kvh-pair');
  one.box.append(view.diagram, view.pair);

  const two = part(body, 'kvh-maps-part', t.rich('mapsHeading'));
  view.maps = element('div', 'kvh-maps');
  two.box.append(element('p', 'kvh-text', t.rich('mapsText')), view.maps);

  const three = part(body, 'kvh-params-part', t.rich('paramsHeading'));
  view.params = element('div', 'kvh-table-box');
  view.paramsSentence = liveElement('p', 'kvh-sentence');
  three.box.append(view.params, view.paramsSentence);

  const four = part(body, 'kvh-cache-part', t.rich('cacheHeading'));
  view.presets = element('div', 'kvh-presets');
  view.presets.setAttribute('role', 'group');
  view.presets.setAttribute('aria-label', t('presetsLabel'));
  view.presetButtons = PRESETS.map((p) => {
    const b = actionButton(t, `preset_${p.id}`, `preset-${p.id}`, () => ctx.setState({ preset: p.id, layers: p.layers, modelHeads: p.modelHeads, modelKv: p.modelKv, headDim: p.headDim }));
    b.setAttribute('aria-pressed', 'false');
    view.presets.append(b);
    return { id: p.id, button: b };
  });
  view.modelControls = buildControls(MODEL_CONTROLS, t, (key, value) => ctx.setState({ [key]: value }));
  view.modelControls.element.classList.add('kvh-model-controls');
  view.cache = element('div', 'kvh-table-box');
  view.cacheSentence = liveElement('p', 'kvh-sentence');
  view.projText = element('p', 'kvh-text');
  view.projections = element('div', 'kvh-table-box');
  view.projSentence = liveElement('p', 'kvh-proj-sentence');
  four.box.append(element('p', 'kvh-text', t.rich('cacheText', { bytes: BYTES_PER_NUMBER })), view.presets,
    element('p', 'note kvh-published', t.rich('published')), view.modelControls.element, view.cache, view.cacheSentence,
    view.projText, view.projections, view.projSentence);

  const five = part(body, 'kvh-train-part', t.rich('trainHeading'));
  view.train = actionButton(t, 'train', 'train', () => train(view, ctx));
  view.trainStatus = liveElement('p', 'kvh-train-status', t.rich('trainIdle', { steps: STEPS }));
  view.trainError = element('p', 'error kvh-train-error');
  view.trainError.setAttribute('role', 'alert');
  view.trainError.hidden = true;
  view.lossBox = element('div', 'plot-box kvh-loss');
  view.trained = element('div', 'kvh-table-box');
  view.trainSentence = liveElement('p', 'kvh-sentence');
  const bar = element('div', 'action-bar');
  bar.append(view.train);
  five.box.append(element('p', 'kvh-text', t.rich('trainText', { steps: STEPS, layers: MODEL.layers, heads: MODEL.heads, d: MODEL.dModel, a: KV_TRAINED[0], b: KV_TRAINED[1] })),
    bar, view.trainStatus, view.trainError, view.lossBox, view.trained, view.trainSentence);
  body.append(element('p', 'illustrative', t.rich('note')));
  view.controller = null;
  return view;
}

// The two models, trained from step 0 to STEPS in the worker (or in slices on
// the page where none starts); made on the first press, so the page loads no
// worker for a reader who never asks.
function train(view, ctx) {
  const { t } = ctx;
  if (!view.controller) {
    view.controller = createController({
      loadAttention: ctx.module, createEngine, worker: 'kv-heads', maxSteps: STEPS,
      onSnapshot: (snapshot) => drawTraining(view, snapshot, t),
      onStatus: (s) => trainStatus(view, s, t),
      onRest: () => {},
      onError: (message) => {
        view.trainError.textContent = t('trainingError', { message });
        view.trainError.hidden = false;
      },
    });
    view.controller.sync({ url: assetUrl(CORPORA.names.file) }, 0, 5);
  } else if (view.controller.status.running) {
    view.controller.pause();
    return;
  } else {
    view.controller.reset();
  }
  view.trainError.hidden = true;
  view.controller.train();
}

function trainStatus(view, s, t) {
  const busy = s.running || s.stopping;
  view.train.replaceChildren(t.rich(busy ? 'stop' : view.controller.latest?.step ? 'trainAgain' : 'train'));
  view.train.setAttribute('aria-pressed', String(busy));
  const where = s.mode === 'main' ? t('onPage') : '';
  view.trainStatus.replaceChildren(t.rich(busy ? 'trainRunning' : 'trainRest', { step: s.step, steps: STEPS, where }));
  view.trainStatus.dataset.step = String(s.step);
  view.trainStatus.dataset.running = String(busy);
}

// the curves; at a full snapshot the table of held-out loss, parameters and cache
function drawTraining(view, snapshot, t) {
  if (snapshot.step === 0) return;
  view.lossBox.replaceChildren(lossPlot(snapshot.models, t));
  view.lossBox.dataset.step = String(snapshot.step);
  if (!snapshot.full) return;
  // a column per model, a row per measure
  const measures = [['heldOut', (m) => formatNumber(m.heldOut, { digits: 3 })], ['parameters', (m) => formatNumber(m.parameters, { digits: 0 })],
    ['cacheNumbers', (m) => formatNumber(m.cacheNumbers, { digits: 0 })], ['cacheBytes', (m) => formatBytes(m.cacheBytes, t)]];
  const box = table(t, ['trainedModel', ...snapshot.models.map(() => 'trainedRow')], measures.map(([key, show]) => [t.rich(key), ...snapshot.models.map(show)]), 'kvh-trained-table');
  box.querySelectorAll('thead th').forEach((th, k) => { if (k > 0) th.replaceChildren(t.rich('trainedRow', { kv: snapshot.models[k - 1].kvHeads })); });
  box.querySelectorAll('tbody tr').forEach((tr, k) => { tr.dataset.row = measures[k][0]; });
  view.trained.replaceChildren(box);
  const [a, b] = snapshot.models;
  view.trainSentence.replaceChildren(t.rich('trainedSentence', {
    step: snapshot.step, a: a.kvHeads, b: b.kvHeads, la: formatNumber(a.heldOut, { digits: 3 }), lb: formatNumber(b.heldOut, { digits: 3 }),
    na: formatNumber(a.cacheNumbers, { digits: 0 }), nb: formatNumber(b.cacheNumbers, { digits: 0 }), ratio: formatRatio(a.cacheNumbers / b.cacheNumbers),
    context: a.context, layers: MODEL.layers,
  }));
  view.trainSentence.dataset.done = String(snapshot.step === STEPS);
}

// a table: its header keys and its rows of text
function table(t, header, rows, className) {
  const box = element('table', `kvh-table ${className}`);
  const head = element('tr');
  head.append(...header.map((key) => element('th', '', t.rich(key))));
  const thead = element('thead');
  thead.append(head);
  const tbody = element('tbody');
  for (const row of rows) {
    const tr = element('tr');
    tr.append(...row.map((cell, k) => {
      const c = element(k === 0 ? 'th' : 'td', '', cell);
      if (k === 0) c.scope = 'row';
      return c;
    }));
    tbody.append(tr);
  }
  box.append(thead, tbody);
  return box;
}

function renderGroups(view, data, t) {
  view.groupsTitle.replaceChildren(t.rich('groupsHeading', { kv: data.kvHeads, heads: HEADS, mode: t(mode(data.kvHeads, HEADS)) }));
  view.diagram.replaceChildren(groupDiagram(data.heads.map((h) => h.kvHead), data.kvHeads, t));
  view.diagram.dataset.groups = data.heads.map((h) => h.kvHead).join(',');
  const { pair } = data;
  const fields = { keys: formatNumber(pair.keys, { digits: 3 }), values: formatNumber(pair.values, { digits: 3 }), maps: formatNumber(pair.maps, { digits: 3 }),
    width: data.headWidth, per: data.heads.filter((h) => h.kvHead === 0).length };
  view.pair.replaceChildren(t.rich(pair.sameGroup ? 'pairShared' : 'pairOwn', fields));
  view.pair.dataset.keys = String(pair.keys);
  view.pair.dataset.maps = String(pair.maps);
}

function renderMaps(view, data, t) {
  view.maps.replaceChildren(...data.heads.map((head, h) => {
    const figure = element('figure', 'kvh-head');
    figure.dataset.head = String(h);
    figure.dataset.group = String(head.kvHead);
    figure.style.setProperty('--group-color', GROUP_COLORS[head.kvHead]);
    const caption = element('figcaption', 'kvh-caption');
    caption.append(element('span', 'kvh-swatch'), element('span', '', t.rich('mapCaption', { h: h + 1, g: head.kvHead + 1 })));
    const scroll = element('div', 'map-figure');
    scroll.append(headMap(data, h, t).element);
    figure.append(caption, scroll);
    return figure;
  }));
}

function renderParams(view, data, t) {
  const c = data.counts, m = data.mha;
  const fmt = (x) => formatNumber(x, { digits: 0 });
  const rows = [['Wq', 'rowWq'], ['Wk', 'rowWk'], ['Wv', 'rowWv'], ['Wo', 'rowWo'], ['total', 'rowTotal']].map(([k, label]) => [t.rich(label), fmt(c[k]), fmt(m[k])]);
  const box = table(t, ['matrix', 'withKv', 'withMha'], rows, 'kvh-params-table');
  box.querySelector('thead th:nth-child(2)').replaceChildren(t.rich('withKv', { kv: data.kvHeads }));
  box.querySelector('thead th:nth-child(3)').replaceChildren(t.rich('withMha', { heads: HEADS }));
  box.querySelectorAll('tbody tr').forEach((tr, k) => { tr.dataset.row = ['Wq', 'Wk', 'Wv', 'Wo', 'total'][k]; });
  view.params.replaceChildren(box);
  view.paramsSentence.replaceChildren(t.rich(data.kvHeads === HEADS ? 'paramsSame' : 'paramsSentence', {
    kv: data.kvHeads, heads: HEADS, total: fmt(c.total), mha: fmt(m.total),
    saved: fmt(m.total - c.total), share: formatNumber((100 * c.total) / m.total, { digits: 0 }), width: c.kvWidth, mhaWidth: m.kvWidth,
  }));
}

function renderCache(view, data, state, t) {
  const k = data.cache;
  for (const { id, button } of view.presetButtons) button.setAttribute('aria-pressed', String(k.preset === id));
  view.modelControls.sync(state);
  const rows = k.rows.map((r) => [t.rich(`cache_${r.kind}`, { kv: r.kv }), formatNumber(r.kv, { digits: 0 }), formatBytes(r.perToken, t), formatBytes(r.bytes, t)]);
  const box = table(t, ['cacheRow', 'kvColumn', 'perToken', 'cacheAt'], rows, 'kvh-cache-table');
  box.querySelector('thead th:nth-child(4)').replaceChildren(t.rich('cacheAt', { tokens: formatNumber(k.tokens, { digits: 0 }) }));
  box.querySelectorAll('tbody tr').forEach((tr, i) => {
    tr.dataset.kind = k.rows[i].kind;
    tr.dataset.bytes = String(k.rows[i].bytes);
    tr.dataset.perToken = String(k.rows[i].perToken);
  });
  view.cache.replaceChildren(box);
  const [model, mha, mqa] = k.rows;
  const name = k.preset ? t(`preset_${k.preset}`) : t('yourModel');
  const key = model.kv === k.heads ? 'cacheSentenceMha' : 'cacheSentence';
  view.cacheSentence.replaceChildren(t.rich(key, {
    name, layers: k.layers, heads: k.heads, kv: model.kv, dim: k.headDim, tokens: formatNumber(k.tokens, { digits: 0 }),
    model: formatBytes(model.bytes, t), mha: formatBytes(mha.bytes, t), mqa: formatBytes(mqa.bytes, t),
    ratio: formatRatio(mha.bytes / model.bytes), mqaRatio: formatRatio(model.bytes / mqa.bytes),
  }));
}

// the named model's W^Q, W^K, W^V, W^O, a layer's four and all layers', with its key/value heads and one per query head
function renderProjections(view, data, name, t) {
  const k = data.cache, { model, mha } = k.projections;
  const fmt = (x) => formatNumber(x, { digits: 0 });
  const keys = [['Wq', 'rowWq'], ['Wk', 'rowWk'], ['Wv', 'rowWv'], ['Wo', 'rowWo'], ['perLayer', 'projLayer'], ['total', 'projAll']];
  const box = table(t, ['matrix', 'withKv', 'withMha'], keys.map(([key, label]) => [t.rich(label, { layers: k.layers }), fmt(model[key]), fmt(mha[key])]), 'kvh-proj-table');
  box.querySelector('thead th:nth-child(2)').replaceChildren(t.rich('withKv', { kv: k.kvHeads }));
  box.querySelector('thead th:nth-child(3)').replaceChildren(t.rich('withMha', { heads: k.heads }));
  box.querySelectorAll('tbody tr').forEach((tr, i) => {
    tr.dataset.row = keys[i][0];
    tr.dataset.model = String(model[keys[i][0]]);
    tr.dataset.mha = String(mha[keys[i][0]]);
  });
  view.projText.replaceChildren(t.rich('projText', { d: fmt(k.heads * k.headDim) }));
  view.projections.replaceChildren(box);
  view.projSentence.replaceChildren(t.rich(k.kvHeads === k.heads ? 'projSentenceMha' : 'projSentence', {
    name, layers: k.layers, perLayer: fmt(model.perLayer), total: fmt(model.total), mha: fmt(mha.total), saved: fmt(mha.total - model.total),
    share: formatNumber((100 * model.total) / mha.total, { digits: 0 }), ratio: formatRatio(mha.Wk / model.Wk),
  }));
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  renderGroups(view, data, t);
  renderMaps(view, data, t);
  renderParams(view, data, t);
  renderCache(view, data, state, t);
  renderProjections(view, data, data.cache.preset ? t(`preset_${data.cache.preset}`) : t('yourModel'), t);
}

// unmounted (a language switch mounts it again, an embed removes it): its worker goes
export function dispose(view) {
  view.controller?.dispose();
}

export function exports(data, state, t) {
  return {
    visual: () => composite([
      { title: t('diagramTitle', { heads: HEADS, kv: data.kvHeads }), svg: groupDiagram(data.heads.map((h) => h.kvHead), data.kvHeads, t) },
      ...data.heads.map((head, h) => ({ title: t('mapTitle', { h: h + 1, g: head.kvHead + 1 }), svg: headMap(data, h, t).element, newRow: h % 4 === 0 })),
    ]),
    csv: () => ({
      header: [t('csvWhat'), t('csvKv'), t('csvValue')],
      rows: [
        ...['Wq', 'Wk', 'Wv', 'Wo'].map((k) => [t('csvParameters', { matrix: k }), data.kvHeads, data.counts[k]]),
        [t('csvParametersAll'), data.kvHeads, data.counts.total],
        ...data.cache.rows.map((r) => [t('csvCache', { tokens: data.cache.tokens }), r.kv, r.bytes]),
        ...[[data.cache.kvHeads, data.cache.projections.model], [data.cache.heads, data.cache.projections.mha]].flatMap(([kv, p]) => [
          [t('csvProjLayer'), kv, p.perLayer], [t('csvProjAll', { layers: data.cache.layers }), kv, p.total]]),
      ],
    }),
    json: () => ({
      tokens: data.tokens, heads: HEADS, kvHeads: data.kvHeads, kvHeadOfHead: data.heads.map((h) => h.kvHead),
      weights: data.heads.map((h) => Array.from(h.weights.data)), parameters: { ...data.counts }, parametersMultiHead: { ...data.mha },
      cache: { ...data.cache, bytesPerNumber: BYTES_PER_NUMBER },
    }),
  };
}
