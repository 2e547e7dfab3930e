// Widget "vectors": q·k as geometry. Five word vectors in 2-D and a query the
// reader moves (drag, or the arrow keys); the dot product q·k and the Gaussian
// kernel −|q − k|²/2 score every key, and softmax turns each into weights. A
// toggle rescales the keys to one length: then the two weightings are the
// same, since −|q − k|²/2 = q·k − |q|²/2 − |k|²/2 and softmax cancels the terms
// shared by every key. Every number from the core (dotAndKernel).
import { element, liveElement } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { plane } from '../../render/plane.js';
import { headerCell, headerRow } from '../../render/table.js';

export const name = 'vectors';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'drags a query among five word vectors: q·k as geometry, and the Gaussian kernel it equals when keys have one length';

// the five words (catalog keys) and their vectors: two animals, a big cat, a
// vehicle and a fruit, of different lengths (the input of the lesson)
const WORDS = ['wordCat', 'wordDog', 'wordTiger', 'wordCar', 'wordApple'];
const KEYS = [[1.5, 1.0], [0.9, 1.5], [2.4, 0.3], [-1.6, 0.5], [-0.3, -1.4]];
// the plane shows [−EXTENT, EXTENT]²; a key press moves the query STEP
const EXTENT = 3, STEP = 0.1;
// below this the two weightings are the same numbers (float32 rounding only)
const SAME = 1e-5;

export const defaults = { qx: 1.2, qy: 0.6, equal: false };

export const controls = [
  { key: 'qx', type: 'range', label: 'qx', min: -EXTENT, max: EXTENT, step: STEP },
  { key: 'qy', type: 'range', label: 'qy', min: -EXTENT, max: EXTENT, step: STEP },
  { key: 'equal', type: 'toggle', label: 'equal' },
];

// The keys a weighting favours: those whose weight, as the table shows it,
// equals the top one's. { kind, keys: [index], weight }: kind 'one' (a single
// key), 'tie' (several keys), 'none' (every key: no key is favoured, as at q = 0).
export function favourite(weights) {
  const shown = Array.from(weights, formatWeight);
  const top = shown[Array.from(weights).indexOf(Math.max(...weights))];
  const keys = shown.flatMap((w, i) => (w === top ? [i] : []));
  return { kind: keys.length === shown.length ? 'none' : keys.length > 1 ? 'tie' : 'one', keys, weight: top };
}

export function compute(att, state) {
  const r = att.dotAndKernel({ query: [state.qx, state.qy], keys: KEYS, equalLength: state.equal });
  return { ...r, equal: state.equal, dotTop: favourite(r.dotWeights), kernelTop: favourite(r.kernelWeights) };
}

export function build(body, { t }) {
  const figure = element('figure', 'vec-figure');
  const caption = element('figcaption', 'figure-caption', t.rich('planeCaption'));
  const planeBox = element('div', 'vec-plane');
  figure.append(planeBox, caption);
  const table = element('table', 'vec-table');
  table.append(element('caption', 'visually-hidden', t.rich('tableCaption')));
  const th = (name, sub) => headerCell(t.rich(name), { sub: sub && t.rich(sub), className: 'num' });
  table.append(headerRow([headerCell(t.rich('colWord')), th('colLength', 'subLength'), th('colDot', 'subDot'), th('colKernel', 'subKernel'),
    th('colDotWeight', 'subDotWeight'), th('colKernelWeight', 'subKernelWeight')]));
  const tbody = element('tbody');
  table.append(tbody);
  // a region the keyboard can scroll, where the table is wider than the screen
  const tableBox = element('div', 'table-scroll');
  Object.assign(tableBox, { tabIndex: 0, role: 'region' });
  tableBox.setAttribute('aria-label', t('tableCaption'));
  tableBox.append(table);
  const verdict = liveElement('p', 'vec-verdict');
  const identity = element('p', 'note vec-identity', t.rich('identity'));
  const layout = element('div', 'vec-layout');
  const side = element('div', 'vec-side');
  side.append(tableBox, verdict);
  layout.append(figure, side);
  body.append(layout, identity);
  return { planeBox, tbody, verdict, plane: null };
}

const fixed = (x, digits = 2) => formatNumber(x, { digits });

// the plane's fixed options: its extent, its step, its title, the handle's label
const planeFrame = (t) => ({ extent: EXTENT, step: STEP, title: t('planeTitle'), describe: (x, y) => t('queryAt', { x: fixed(x, 1), y: fixed(y, 1) }) });

function planeData(data, state, t) {
  return {
    vectors: WORDS.map((w, i) => ({ x: data.keys.data[2 * i], y: data.keys.data[2 * i + 1], label: t(w), weight: data.dotWeights[i] })),
    query: { x: state.qx, y: state.qy, label: 'q' },
    circle: data.equal ? data.lengths[0] : null,
  };
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const shown = planeData(data, state, t);
  if (!view.plane) {
    view.plane = plane({ ...shown, ...planeFrame(t), onMove: (x, y) => ctx.setState({ qx: x, qy: y }) });
    view.planeBox.replaceChildren(view.plane.element);
  } else {
    view.plane.update(shown);
  }
  view.tbody.replaceChildren(...WORDS.map((w, i) => {
    const row = element('tr');
    const cell = (text, field) => {
      const td = element('td', 'num', text);
      td.dataset.field = field;
      return td;
    };
    const weight = (value, field, label) => {
      const td = element('td', 'num vec-weight');
      const number = element('span', 'weight-value', formatWeight(value));
      number.dataset.field = field;
      td.append(hbar({ value, max: 1, label: t(label, { word: t(w), weight: formatWeight(value) }) }), number);
      return td;
    };
    row.append(headerCell(t(w), { scope: 'row' }), cell(fixed(data.lengths[i]), 'length'), cell(fixed(data.dot[i]), 'dot'),
      cell(fixed(data.kernel[i]), 'kernel'), weight(data.dotWeights[i], 'dotWeight', 'dotWeightOf'),
      weight(data.kernelWeights[i], 'kernelWeight', 'kernelWeightOf'));
    return row;
  }));
  view.verdict.replaceChildren(t.rich(verdictKey(data), verdictValues(data, t, ctx.lang)));
  view.verdict.dataset.dotTop = data.dotTop.kind;
  view.verdict.dataset.kernelTop = data.kernelTop.kind;
}

function verdictKey(data) {
  const top = data.dotTop;
  if (data.maxDifference < SAME) return top.kind === 'none' ? 'sameNone' : 'same';
  const alike = top.kind === 'one' && data.kernelTop.kind === 'one' && top.keys[0] === data.kernelTop.keys[0];
  return alike ? 'differSameTop' : 'differ';
}

// a weighting's favourite in words: "“cat”", "“cat” and “dog” equally (0.412 each)", "no key (every weight is 0.200)"
function favouriteText(top, t, lang) {
  const words = new Intl.ListFormat(lang, { type: 'conjunction' }).format(top.keys.map((i) => t('quoted', { word: t(WORDS[i]) })));
  return t(`favour_${top.kind}`, { words, weight: top.weight });
}

// the numbers of the verdict: the difference, and each weighting's favourite word(s)
function verdictValues(data, t, lang) {
  const difference = data.maxDifference < SAME ? t('rounding') : formatNumber(data.maxDifference, { digits: 3 });
  return { difference, weight: data.dotTop.weight, dotTop: favouriteText(data.dotTop, t, lang), kernelTop: favouriteText(data.kernelTop, t, lang) };
}

export function exports(data, state, t) {
  return {
    visual: () => plane({ ...planeData(data, state, t), ...planeFrame(t), onMove: () => {} }).element,
    csv: () => ({
      header: ['word', 'x', 'y', 'length', 'dot', 'kernel', 'dot_weight', 'kernel_weight'],
      rows: WORDS.map((w, i) => [t(w), data.keys.data[2 * i], data.keys.data[2 * i + 1], data.lengths[i], data.dot[i], data.kernel[i],
        data.dotWeights[i], data.kernelWeights[i]]),
    }),
    json: () => ({ query: [state.qx, state.qy], equalLength: data.equal, words: WORDS.map((w) => t(w)), keys: Array.from(data.keys.data),
      lengths: Array.from(data.lengths), dot: Array.from(data.dot), kernel: Array.from(data.kernel),
      dotWeights: Array.from(data.dotWeights), kernelWeights: Array.from(data.kernelWeights), maxDifference: data.maxDifference }),
  };
}
