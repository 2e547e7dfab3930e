// Widget "cross-attention": a sentence and its translation. In cross-attention
// the queries come from the target (the translation being written) and the
// keys and values from the source, so the map is rectangular: one row per
// target word, one column per source word. Beside it, self-attention of the
// target, where Q, K and V all come from the target: same queries, other keys.
// The projections there are random (seeded): the map shows how cross-attention
// computes, not what it learns. With projections 'learned', the core trains a
// cross-attention model (att.createTrainer, task 'date', cross: its queries
// know only which output position they write) to write a date YYYYMMDD as
// DDMMYYYY, whose right map is known, and shows its map before training
// (random projections) beside the map it learned.
import { element, liveElement } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { composite } from '../../render/compose.js';
import { sentenceTokens } from '../../runtime/text.js';
import { nextTask } from '../../runtime/timing.js';

export const name = 'cross-attention';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'lets a sentence being written ask and a source sentence answer';

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them):
// the training module, for the learned projections
export const assets = ['wasm/attention-training.js'];

// the learned projections: steps trained (the core's test: 99% held-out accuracy after
// 120 steps for seeds 1-3), a few at a time between tasks
export const DATE_STEPS = 200;
const DATE_SLICE = 20;
const DATE_SOURCE = 'YYYYMMDD', DATE_TARGET = 'DDMMYYYY';

// width of the word vectors (both sentences share them)
const D = 32;

// Example pairs: a source sentence and its translation (string keys).
const PAIRS = [
  { label: 'pairDream', source: 'sourceDream', target: 'targetDream' },
  { label: 'pairThinking', source: 'sourceThinking', target: 'targetThinking' },
  { label: 'pairAttention', source: 'sourceAttention', target: 'targetAttention' },
  { label: 'pairBack', source: 'targetDream', target: 'sourceDream' },
];

export const defaults = { source: 'i have a dream', target: '我有一个梦想', projections: 'random', mode: 'both', dK: '16', seed: 1, map: 'cross', row: 0, col: 0 };

// the sentence controls serve the random projections; the learned ones have their own example
const sentences = (state) => state.projections !== 'learned';

export const controls = [
  { key: 'projections', type: 'choice', label: 'projections', options: [
    { value: 'random', label: 'projectionsRandom' }, { value: 'learned', label: 'projectionsLearned' }] },
  { key: 'source', type: 'text', label: 'source', maxLength: 2000, enabled: sentences },
  { key: 'target', type: 'text', label: 'target', maxLength: 2000, enabled: sentences },
  { key: 'mode', type: 'choice', label: 'mode', enabled: sentences, options: [
    { value: 'both', label: 'both' }, { value: 'cross', label: 'cross' }, { value: 'self', label: 'self' }] },
  { key: 'dK', type: 'choice', label: 'dK', enabled: sentences, options: ['4', '16', '64'].map((v) => ({ value: v, label: v })) },
  // random: the seed of the projections drawn; learned: the training's (its first weights and its batches)
  { key: 'seed', type: 'range', label: 'seed', min: 0, max: 99, step: 1,
    altLabel: { when: (state) => state.projections === 'learned', label: 'seedLearned' } },
  // the focused cell, and in which map
  { key: 'map', type: 'choice', hidden: true, options: [{ value: 'cross', label: 'cross' }, { value: 'self', label: 'self' }] },
  { key: 'row', type: 'range', min: 0, max: 63, step: 1, hidden: true },
  { key: 'col', type: 'range', min: 0, max: 63, step: 1, hidden: true },
];

// One trained date model per seed: its map before training and after.
let learned = null;
function learnedAt(att, seed) {
  if (learned?.seed !== seed) {
    const entry = { seed };
    entry.promise = (async () => {
      const trainer = await att.createTrainer({ task: 'date', cross: true, seed });
      try {
        const before = trainer.probe();
        const accuracyBefore = trainer.evaluate().accuracy;
        for (let done = 0; done < DATE_STEPS; done += DATE_SLICE) {
          trainer.step(DATE_SLICE);
          await nextTask();
        }
        return { before, after: trainer.probe(), accuracyBefore, accuracy: trainer.evaluate().accuracy, steps: trainer.info().step };
      } finally {
        trainer.delete();
      }
    })();
    entry.promise.catch(() => { if (learned === entry) learned = null; });  // a failure is tried again next time
    learned = entry;
  }
  return learned.promise;
}

// Both sentences become word vectors (the same word gets the same vector in
// either); the same seeded projections serve both attentions.
export function compute(att, state, t) {
  if (state.projections === 'learned') return learnedAt(att, state.seed).then((date) => ({ date }));
  const source = sentenceTokens(state.source, t, 32);
  const target = sentenceTokens(state.target, t, 32);
  const dK = Number(state.dK);
  const Xs = att.embedTokens({ tokens: source, d: D, seed: state.seed });
  const Xt = att.embedTokens({ tokens: target, d: D, seed: state.seed });
  const pick = (r) => ({ Q: shapeOf(r.Q), K: shapeOf(r.K), V: shapeOf(r.V), output: shapeOf(r.output),
    scores: r.scores, scaled: r.scaled, weights: r.weights });
  return {
    source, target, dK,
    cross: pick(att.crossAttention({ input: Xt, memory: Xs, dK, seed: state.seed })),
    self: pick(att.selfAttention({ input: Xt, dK, seed: state.seed })),
  };
}

function shapeOf(m) {
  return { rows: m.rows, cols: m.cols };
}

const columnsOf = (data, kind) => (kind === 'cross' ? data.source : data.target);

function mapOf(data, kind, t, selected, onCell) {
  const cols = columnsOf(data, kind), m = data[kind].weights;
  return heatmap({
    rowLabels: data.target, colLabels: cols, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: m.data, min: 0, max: 1, digits: 2, selected, onCell,
    title: t('mapTitle', { kind: t(kind), target: data.target.join(' '), memory: cols.join(' ') }),
    describe: (i, j) => t('cellLabel', { q: data.target[i], k: cols[j], w: formatNumber(m.data[i * cols.length + j], { digits: 3 }) }),
  });
}

export function build(body, { t, setState }) {
  const pairs = element('div', 'presets ca-pairs');
  pairs.setAttribute('role', 'group');
  pairs.setAttribute('aria-label', t('pairs'));
  pairs.append(element('span', 'ca-pairs-label', t.rich('pairs')));
  for (const pair of PAIRS) {
    const button = element('button', 'preset', t.rich(pair.label));
    button.type = 'button';
    button.addEventListener('click', () => setState({ source: t(pair.source), target: t(pair.target) }));
    pairs.append(button);
  }
  const explain = element('p', 'ca-explain', t.rich('explain'));
  const maps = element('div', 'ca-maps');
  const mapsLegend = element('div', 'ca-legend');
  const same = element('p', 'muted ca-same', t.rich('sameQueries'));
  const details = liveElement('div', 'cell-details');
  const sentencePart = element('div', 'ca-sentences');
  sentencePart.append(pairs, explain, maps, mapsLegend, same, details, element('p', 'illustrative', t.rich('illustrative')));
  const learnedPart = element('div', 'ca-learned');
  learnedPart.append(element('p', 'ca-learned-explain', t.rich('learnedExplain', { steps: DATE_STEPS })));
  const learnedMaps = element('div', 'ca-maps is-pair');
  const learnedVerdict = liveElement('p', 'ca-learned-verdict');
  learnedPart.append(learnedMaps, learnedVerdict);
  body.append(sentencePart, learnedPart);
  return { maps, mapsLegend, same, details, sentencePart, learnedPart, learnedMaps, learnedVerdict };
}

// The date model's map (head 1): rows the output's digits (DDMMYYYY), columns the input's (YYYYMMDD)
function dateMap(probe, kind, t) {
  const w = probe.weights[0], n = w.rows;
  const cols = Array.from(probe.input, (digit, j) => `${DATE_SOURCE[j]} ${digit}`);
  const rows = Array.from(probe.target, (digit, i) => `${DATE_TARGET[i]} ${digit}`);
  return heatmap({
    rowLabels: rows, colLabels: cols, axes: { rows: t('dateRows'), cols: t('dateCols') }, values: w.data, min: 0, max: 1, digits: 2,
    title: t(kind === 'before' ? 'dateBeforeTitle' : 'dateAfterTitle'),
    describe: (i, j) => t('dateCell', { i: rows[i], j: cols[j], w: formatNumber(w.data[i * n + j], { digits: 3 }) }),
  });
}

// the rows whose largest weight is on the input position the output must copy
function rightRows(probe) {
  const w = probe.weights[0], n = w.rows;
  let right = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let j = 1; j < n; j++) if (w.data[i * n + j] > w.data[i * n + best]) best = j;
    right += probe.needed.data[i * n + best] === 1 ? 1 : 0;
  }
  return right;
}

function renderLearned(view, date, t) {
  view.learnedMaps.replaceChildren(...['before', 'after'].map((kind) => {
    const figure = element('figure', `ca-map ca-date-${kind}`);
    const caption = element('figcaption', 'ca-caption');
    caption.append(element('strong', '', t.rich(kind === 'before' ? 'dateBefore' : 'dateAfter', { steps: date.steps })),
      element('span', 'ca-shape', t(kind === 'before' ? 'dateBeforeNote' : 'dateAfterNote')));
    figure.append(caption, dateMap(kind === 'before' ? date.before : date.after, kind, t).element);
    return figure;
  }));
  const percent = (x) => formatNumber(100 * x, { digits: 1 });
  const after = rightRows(date.after), n = date.after.weights[0].rows;
  view.learnedVerdict.replaceChildren(t.rich(after === n ? 'dateVerdict' : 'dateVerdictPartial', {
    before: rightRows(date.before), after, n: date.after.weights[0].rows, steps: date.steps,
    accuracyBefore: percent(date.accuracyBefore), accuracy: percent(date.accuracy),
  }));
}

function showCell(view, data, kind, i, j, t) {
  const r = data[kind], n = columnsOf(data, kind).length;
  const at = (m) => m.data[i * n + j];
  const list = element('dl', 'steps');
  for (const [key, value] of [['dot', formatNumber(at(r.scores), { digits: 3 })], ['scaled', formatNumber(at(r.scaled), { digits: 3 })],
    ['weight', formatNumber(at(r.weights), { digits: 4 })]]) {
    const item = element('div', `step step-${key}`);
    const dd = element('dd', '', value);
    dd.dataset.field = key;
    item.append(element('dt', '', t.rich(key, { d: data.dK })), dd);
    list.append(item);
  }
  view.details.replaceChildren(element('h3', 'steps-title', t.rich('selected', { kind: t(kind), q: data.target[i], k: columnsOf(data, kind)[j] })), list);
}

function shapeText(r, kind, t) {
  return t(kind === 'cross' ? 'crossShape' : 'selfShape', { qr: r.Q.rows, qc: r.Q.cols, kr: r.K.rows, kc: r.K.cols,
    vr: r.V.rows, vc: r.V.cols, ar: r.weights.rows, ac: r.weights.cols, or: r.output.rows, oc: r.output.cols });
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  view.sentencePart.hidden = Boolean(data.date);
  view.learnedPart.hidden = !data.date;
  if (data.date) {
    renderLearned(view, data.date, t);
    return;
  }
  const kinds = state.mode === 'both' ? ['cross', 'self'] : [state.mode];
  const active = kinds.includes(state.map) ? state.map : kinds[0];
  const clamp = (kind) => [Math.min(state.row, data.target.length - 1), Math.min(state.col, columnsOf(data, kind).length - 1)];
  const drawn = [];
  view.maps.classList.toggle('is-pair', kinds.length > 1);
  view.maps.replaceChildren(...kinds.map((kind) => {
    const map = mapOf(data, kind, t, kind === active ? clamp(kind) : [0, 0], (i, j) => {
      for (const other of drawn) if (other.kind !== kind) other.element.querySelector('.is-selected')?.classList.remove('is-selected');
      showCell(view, data, kind, i, j, t);
      const s = ctx.state;
      if (s.map !== kind || s.row !== i || s.col !== j) ctx.setState({ map: kind, row: i, col: j }, { quiet: true });
    });
    if (kind !== active) map.element.querySelector('.is-selected')?.classList.remove('is-selected');
    drawn.push({ kind, element: map.element });
    const figure = element('figure', `ca-map ca-${kind}`);
    const caption = element('figcaption', 'ca-caption');
    caption.append(element('strong', '', t.rich(`${kind}Title`)), element('span', 'ca-shape', shapeText(data[kind], kind, t)));
    figure.append(caption, map.element);
    return figure;
  }));
  view.mapsLegend.replaceChildren(legend({ min: 0, max: 1, label: t('weights') }));
  view.same.hidden = kinds.length < 2;
  showCell(view, data, active, ...clamp(active), t);
}


export function exports(data, state, t) {
  if (data.date) {
    const probes = [['before', data.date.before], ['after', data.date.after]];
    return {
      visual: () => composite(probes.map(([kind, probe]) => ({ title: t(kind === 'before' ? 'dateBeforeTitle' : 'dateAfterTitle'), svg: dateMap(probe, kind, t).element }))),
      csv: () => ({
        header: ['map', 'output position', ...Array.from(DATE_SOURCE, (c, j) => `${c}${j + 1}`)],
        rows: probes.flatMap(([kind, probe]) => Array.from({ length: 8 }, (_, i) => [kind, DATE_TARGET[i], ...Array.from(probe.weights[0].data.subarray(i * 8, (i + 1) * 8))])),
      }),
      json: () => ({ task: 'date', steps: data.date.steps, accuracyBefore: data.date.accuracyBefore, accuracy: data.date.accuracy,
        input: Array.from(data.date.after.input), target: Array.from(data.date.after.target),
        before: Array.from(data.date.before.weights[0].data), after: Array.from(data.date.after.weights[0].data), needed: Array.from(data.date.after.needed.data) }),
    };
  }
  const kinds = state.mode === 'both' ? ['cross', 'self'] : [state.mode];
  return {
    visual: () => composite(kinds.map((kind) => ({ title: t(kind), svg: mapOf(data, kind, t, null, () => {}).element }))),
    csv: () => {
      const width = Math.max(...kinds.map((kind) => columnsOf(data, kind).length));
      return {
        header: [t('csvMap'), t('csvQuery'), ...Array.from({ length: width }, (_, j) => String(j + 1))],
        rows: kinds.flatMap((kind) => {
          const cols = columnsOf(data, kind), m = data[kind].weights;
          return [[t(kind), '', ...cols], ...data.target.map((q, i) => [t(kind), q, ...Array.from(m.data.subarray(i * cols.length, (i + 1) * cols.length))])];
        }),
      };
    },
    json: () => ({
      source: data.source, target: data.target, dK: data.dK,
      cross: { scores: data.cross.scores, scaled: data.cross.scaled, weights: data.cross.weights },
      self: { scores: data.self.scores, scaled: data.self.scaled, weights: data.self.weights },
    }),
  };
}
