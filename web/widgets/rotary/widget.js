// Widget "rotary": rotary position embedding (RoPE). q and k, random, are
// turned by their positions m and n (att.rotary: pair i of dimensions
// (2i, 2i + 1) by (position)·base^(−2i/d) radians). One pair is drawn as a
// plane with both arrows; a shift t moves both positions, and the score
// q·k at shift t and at shift 0 are printed side by side with the core's
// |difference| and a verdict against a stated tolerance. Beside them: the
// rotary score against the distance m − n for the reader's base, and the
// score against t for rotary and for the sinusoidal encoding added
// ((q + PE[m + t])·(k + PE[n + t]), which moves). Every number is the
// core's; this file picks rows and columns of its results.
import { element, liveElement } from '../../render/dom.js';
import { composite } from '../../render/compose.js';
import { compute as computeScores, TOLERANCE, MAX_SHIFT, MAX_POSITION } from './scores.js';
import { distancePlot, formatScore, gapText, planeOf, shiftPlot } from './draw.js';

export const name = 'rotary';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'shifts both positions of a rotated q and k and sees the score stay, while the sinusoidal one moves';

export const defaults = { shift: 10, qPos: 7, kPos: 3, base: '10000', d: 8, seed: 1, pair: 0 };

export const controls = [
  { key: 'shift', type: 'range', label: 'shift', min: 0, max: MAX_SHIFT, step: 1 },
  { key: 'qPos', type: 'range', label: 'qPos', min: 0, max: MAX_POSITION, step: 1 },
  { key: 'kPos', type: 'range', label: 'kPos', min: 0, max: MAX_POSITION, step: 1 },
  { key: 'base', type: 'choice', label: 'base', options: ['100', '10000', '500000'].map((v) => ({ value: v, label: `base${v}` })) },
  { key: 'd', type: 'range', label: 'd', min: 2, max: 64, step: 2 },
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 99, step: 1 },
  // the pair drawn: its slider is in the widget's body, its largest value d/2 − 1
  { key: 'pair', type: 'range', min: 0, max: 31, step: 1, hidden: true },
];

export const compute = computeScores;

function part(body, className) {
  const box = element('section', `rot-part ${className}`);
  const heading = element('h3', 'rot-heading');
  box.append(heading);
  body.append(box);
  return { box, heading };
}

// The slider of the pair drawn (its range follows d), labelled like the frame's controls
function pairSlider(t, ctx) {
  const box = element('div', 'control control-range rot-pair');
  const input = element('input');
  const id = `rot-pair-${Math.random().toString(36).slice(2)}`;
  Object.assign(input, { type: 'range', id, min: 0, step: 1, name: 'pair' });
  const label = element('label', 'control-label', t.rich('pair'));
  label.htmlFor = id;
  const output = element('output', 'control-value');
  output.htmlFor.add(id);
  input.addEventListener('input', () => ctx.setState({ pair: Number(input.value) }));
  box.append(label, output, input);
  return { box, input, output };
}

// one figure: its caption over a box the plot goes in
function figure(className) {
  const box = element('figure', `rot-figure ${className}`);
  const title = element('figcaption', 'rot-figure-title');
  const plot = element('div', 'plot-box');
  const caption = element('p', 'rot-caption');
  box.append(title, plot, caption);
  return { box, title, plot, caption };
}

export function build(body, ctx) {
  const { t } = ctx;
  const one = part(body, 'rot-plane-part');
  one.heading.append(t.rich('planeHeading'));
  const planeText = element('p', 'rot-text');
  const planeBox = element('div', 'rot-plane');
  const side = element('div', 'rot-side');
  const pair = pairSlider(t, ctx);
  const coordinates = element('div', 'rot-coordinates');
  // the pair's part of q·k at shift 0 and at t: the quiz covers it with the scores
  const pairPart = element('div', 'rot-coordinates rot-pair-part');
  side.append(pair.box, coordinates, pairPart);
  const layout = element('div', 'rot-layout');
  layout.append(planeBox, side);
  one.box.append(planeText, layout);

  const two = part(body, 'rot-compare-part');
  const compare = liveElement('div', 'rot-compare');
  two.box.append(compare, element('p', 'note rot-tolerance', t.rich('tolerance', { tol: formatScore(TOLERANCE, 4) })));

  const three = part(body, 'rot-curves-part');
  three.heading.append(t.rich('curvesHeading'));
  const distance = figure('rot-distance'), shift = figure('rot-shift');
  const figures = element('div', 'rot-figures');
  figures.append(distance.box, shift.box);
  const spread = liveElement('p', 'rot-spread');
  three.box.append(figures, spread, element('p', 'illustrative', t.rich('note')));
  return { planeText, planeBox, pair, coordinates, pairPart, compareHeading: two.heading, compare, distance, shift, spread, plane: null };
}

// a term and its number: <div class="step"><dt>…</dt><dd data-field>…</dd></div>
function step(term, value, field) {
  const item = element('div', 'step');
  const dd = element('dd', '', value);
  dd.dataset.field = field;
  item.append(element('dt', '', term), dd);
  return item;
}

// the pair's numbers: where its arrows end, and its part of q·k at shift 0 and at t
function renderPairNumbers(view, data, state, t) {
  const xy = (v) => `(${formatScore(v.x, 3)}, ${formatScore(v.y, 3)})`;
  const ends = element('dl', 'steps');
  ends.append(step(t.rich('vectorAt', { name: 'q', p: data.qAt }), xy(data.plane.q), 'q'),
    step(t.rich('vectorAt', { name: 'k', p: data.kAt }), xy(data.plane.k), 'k'));
  view.coordinates.replaceChildren(element('h4', 'steps-title', t.rich('coordinates')), ends);
  const parts = element('dl', 'steps');
  parts.append(step(t.rich('pairPartAt', { t: 0 }), formatScore(data.pairScore.before), 'pairBefore'),
    step(t.rich('pairPartAt', { t: state.shift }), formatScore(data.pairScore.now), 'pairNow'));
  view.pairPart.replaceChildren(element('h4', 'steps-title', t.rich('pairPart', { i: data.pair })), parts);
}

function renderPlane(view, data, state, ctx) {
  const { t } = ctx;
  const { pair, d } = data;
  view.planeText.replaceChildren(t.rich('planeText', { i: pair, pairs: d / 2, a: 2 * pair, b: 2 * pair + 1, e: 2 * pair, d,
    base: state.base, m: state.qPos, n: state.kPos, t: state.shift }));
  const shown = planeOf(data, t);
  if (!view.plane) {
    view.plane = shown;
    view.planeBox.replaceChildren(shown.element);
  } else {
    // the same element, its arrows and its name anew
    view.plane.update(shown.next);
    view.plane.element.setAttribute('aria-label', shown.title);
    view.plane.element.querySelector('title').textContent = shown.title;
  }
  const slider = view.pair;
  slider.input.max = String(d / 2 - 1);
  slider.input.value = String(pair);
  const value = t('pairValue', { i: pair, a: 2 * pair, b: 2 * pair + 1 });
  slider.output.textContent = value;
  slider.input.setAttribute('aria-valuetext', value);
  slider.input.disabled = d === 2;
  slider.box.classList.toggle('is-disabled', d === 2);
  renderPairNumbers(view, data, state, t);
}

// one scheme's row: its name and formula, the score at shift 0 and at t, the difference, the verdict
function compareRow(scheme, scores, state, t) {
  const row = element('div', `rot-row ${scores.same ? 'is-same' : 'is-changed'}`);
  row.dataset.scheme = scheme;
  row.dataset.verdict = scores.same ? 'unchanged' : 'changed';
  const name = element('div', 'rot-name');
  name.append(element('span', 'rot-name-text', t.rich(`${scheme}Name`)), element('span', 'rot-formula', t.rich(`${scheme}Formula`)));
  const cell = (label, value, field) => {
    const box = element('div', 'rot-cell');
    const out = element('output', 'rot-value', value);
    out.dataset.field = field;
    box.append(element('span', 'rot-at', label), out);
    return box;
  };
  const tol = formatScore(TOLERANCE, 4);
  row.append(name, cell(t.rich('atShift', { t: 0 }), formatScore(scores.before), `${scheme}Before`),
    cell(t.rich('atShift', { t: state.shift }), formatScore(scores.now), `${scheme}Now`),
    cell(t.rich('difference'), gapText(scores.gap, t), `${scheme}Gap`),
    element('p', 'rot-verdict', t.rich(scores.same ? 'unchanged' : 'changed', { tol, gap: gapText(scores.gap, t) })));
  return row;
}

// the largest change over every shift, with "rounding" when it is below the tolerance
function spreadText(x, t) {
  return x < TOLERANCE ? t('rounding', { value: gapText(x, t), tol: formatScore(TOLERANCE, 4) }) : formatScore(x);
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  renderPlane(view, data, state, ctx);
  view.compareHeading.replaceChildren(t.rich('compareHeading', { t: state.shift }));
  view.compare.replaceChildren(compareRow('rotary', data.rotary, state, t), compareRow('sinusoidal', data.sinusoidal, state, t));

  const { distance, shift } = view;
  distance.title.replaceChildren(t.rich('distanceTitle', { base: t(`base${state.base}`), d: data.d }));
  distance.plot.replaceChildren(distancePlot(data, state, t));
  distance.caption.replaceChildren(t.rich('distanceCaption', { max: MAX_POSITION }));
  shift.title.replaceChildren(t.rich('shiftTitle', { m: state.qPos, n: state.kPos }));
  shift.plot.replaceChildren(shiftPlot(data, state, t));
  shift.caption.replaceChildren(t.rich('shiftCaption', { max: MAX_SHIFT }));
  view.spread.replaceChildren(t.rich('spread', { max: MAX_SHIFT, rotary: spreadText(data.spread.rotary, t), sinusoidal: spreadText(data.spread.sinusoidal, t) }));
  view.spread.dataset.rotary = String(data.spread.rotary);
  view.spread.dataset.sinusoidal = String(data.spread.sinusoidal);
}

// The quiz: which score does the shift change? Answered from the two verdicts.
const ANSWERS = { 'true,true': 'neither', 'true,false': 'sinusoidal', 'false,true': 'rotary', 'false,false': 'both' };

function explain(data, state, t) {
  const numbers = t('quizNumbers', { r0: formatScore(data.rotary.before), rt: formatScore(data.rotary.now), t: state.shift,
    s0: formatScore(data.sinusoidal.before), st: formatScore(data.sinusoidal.now) });
  const tol = formatScore(TOLERANCE, 4);
  const answer = quiz.answer(data);
  const why = answer === 'sinusoidal' ? t('quizWhySinusoidal')
    : answer === 'neither' ? (state.shift === 0 ? t('quizWhyZero') : t('quizWhyNeither', { tol, max: MAX_SHIFT, spread: formatScore(data.spread.sinusoidal) }))
      : t('quizWhyRotary', { gap: gapText(data.rotary.gap, t), tol });
  return `${numbers} ${why}`;
}

export const quiz = {
  question: 'quizQuestion',
  options: [{ value: 'neither', label: 'quizNeither' }, { value: 'sinusoidal', label: 'quizSinusoidal' },
    { value: 'rotary', label: 'quizRotary' }, { value: 'both', label: 'quizBoth' }],
  conceals: (view) => [view.pairPart, view.compare, view.shift.box, view.spread],
  answer: (data) => ANSWERS[`${data.rotary.same},${data.sinusoidal.same}`],
  explain,
};

export function exports(data, state, t) {
  const rows = (label, xs, ys) => Array.from(ys, (y, k) => [label, xs[k], y]);
  return {
    visual: () => composite([
      { title: t('planeTitle', { i: data.pair, m: data.qAt, n: data.kAt }), svg: planeOf(data, t).element },
      { title: t('distanceTitle', { base: t(`base${state.base}`), d: data.d }), svg: distancePlot(data, state, t) },
      { title: t('shiftTitle', { m: state.qPos, n: state.kPos }), svg: shiftPlot(data, state, t) },
    ]),
    csv: () => ({
      header: [t('csvSeries'), t('csvX'), t('csvScore')],
      rows: [...rows(t('csvDistance'), data.distances, data.byDistance), ...rows(t('csvShiftRotary'), data.shifts, data.byShift.rotary),
        ...rows(t('csvShiftSinusoidal'), data.shifts, data.byShift.sinusoidal)],
    }),
    json: () => ({
      d: data.d, base: data.base, q: Array.from(data.q.data), k: Array.from(data.k.data), pair: data.pair, tolerance: TOLERANCE,
      rotary: { ...data.rotary }, sinusoidal: { ...data.sinusoidal },
      turned: { q: Array.from(data.turned.q.data), k: Array.from(data.turned.k.data) },
      byDistance: { distance: Array.from(data.distances), score: Array.from(data.byDistance) },
      byShift: { shift: Array.from(data.shifts), rotary: Array.from(data.byShift.rotary), sinusoidal: Array.from(data.byShift.sinusoidal) },
      largestChangeOverShifts: { ...data.spread },
    }),
  };
}
