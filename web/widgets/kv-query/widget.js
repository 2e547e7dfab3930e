// Widget "kv-query": the article's height -> weight example as a live soft lookup.
// A query height is compared with every key height; the scores become weights
// (softmax), and the estimate is the weighted sum of the values (body weights).
// The curve shows the estimate for every query: Nadaraya-Watson regression.
import { element } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { linePlot } from '../../render/plot.js';
import { headerCell, headerRow } from '../../render/table.js';
import { inputError, parseNumbers } from '../../runtime/text.js';

// The article's illustrative weights, chosen by hand (they give 64.75 kg).
const ARTICLE_WEIGHTS = [0.1, 0.15, 0.45, 0.3];

export const name = 'kv-query';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'estimates a body weight from a height: query, keys and values over the article\'s table (64.75 kg)';

export const defaults = { keys: '160, 165, 170, 175', values: '55, 60, 65, 70', q: 172, score: 'gaussian', sigma: 2 };

export const controls = [
  { key: 'keys', type: 'text', label: 'keys', maxLength: 200 },
  { key: 'values', type: 'text', label: 'values', maxLength: 200 },
  { key: 'q', type: 'range', label: 'q', unit: 'cm', min: 140, max: 200, step: 0.5, enabled: (s) => s.score !== 'article' },
  { key: 'score', type: 'choice', label: 'score', options: [
    { value: 'gaussian', label: 'gaussian' }, { value: 'dot', label: 'dot' }, { value: 'article', label: 'article' }] },
  { key: 'sigma', type: 'range', label: 'sigma', unit: 'cm', min: 0.5, max: 10, step: 0.1, enabled: (s) => s.score === 'gaussian' },
];

const MODES = {
  gaussian: { sub: 'subGaussian', weight: 'softmax', explain: 'explainGaussian' },
  dot: { sub: 'subDot', weight: 'softmax', explain: 'explainDot' },
  article: { sub: 'subNone', weight: 'byHand', explain: 'explainArticle' },
};

// state -> every number the widget shows, from the core
export function compute(att, state, t) {
  const keys = parseNumbers(state.keys, t('keyList'), t);
  const values = parseNumbers(state.values, t('valueList'), t);
  const scoring = state.score === 'gaussian' ? { score: 'gaussian', sigma: state.sigma } : { score: 'dot' };
  let one;
  if (state.score === 'article') {
    if (keys.length !== ARTICLE_WEIGHTS.length) throw inputError(t('articleNeeds4', { n: keys.length }));
    one = att.kernelRegression({ keys, values, weights: ARTICLE_WEIGHTS });
  } else {
    one = att.kernelRegression({ keys, values, query: state.q, ...scoring });
  }
  const lo = Math.min(...keys, state.q) - 10, hi = Math.max(...keys, state.q) + 10;
  const curve = state.score === 'article' ? null : att.kernelRegression({ keys, values, range: { from: lo, to: hi, count: 141 }, ...scoring });
  // the quiz: raw dot product at q = 150
  const quiz = att.kernelRegression({ keys, values, query: 150, score: 'dot' }).weights;
  // the yardstick: the table's own least-squares line (the article's table lies on weight = height - 105)
  const line = new Set(keys).size >= 2 && keys.length === values.length ? att.fitLine(keys, values) : null;
  // the last key on the plot, where the curve heads beyond it (keys of equal height and different
  // values: to a mix of them, and nothing is said)
  const last = keys.indexOf(Math.max(...keys));
  const alone = keys.every((k, i) => k !== keys[last] || values[i] === values[last]);
  return {
    keys, values,
    scores: one.scores ? Array.from(one.scores.data) : null,
    weights: Array.from(one.weights.data),
    contributions: Array.from(one.contributions.data),
    estimate: one.estimate,
    curve: curve && { queries: Array.from(curve.queries), estimates: Array.from(curve.estimates) },
    line: line && { ...line, from: lo, to: hi, atQuery: line.slope * state.q + line.intercept },
    // the curve at the plot's right end, against the last key's value: has it levelled off there?
    end: curve && alone ? { x: curve.queries.at(-1), estimate: curve.estimates.at(-1), key: keys[last], value: values[last] } : null,
    quiz: Array.from(quiz.data), quizTop: att.argmaxRows(quiz).index[0],
  };
}

export function build(body, { t }) {
  const estimateLabel = element('span', 'estimate-label');
  const estimate = element('output', 'estimate-value');
  estimate.dataset.field = 'estimate';
  const estimateBox = element('div', 'estimate');
  estimateBox.append(estimateLabel, estimate, element('span', 'estimate-formula', t.rich('weightedSum')));
  const explain = element('p', 'kv-explain');
  const table = element('table', 'kv-table');
  table.append(element('caption', 'visually-hidden', t.rich('caption')));
  const heading = (className, label, sub) => headerCell(label, { sub, className });
  // the sub-lines of score and weight name the chosen score function (render sets them)
  const scoreHeading = heading('num', t('colScore'), '');
  scoreHeading.lastChild.classList.add('th-formula');
  const weightHeading = heading('weight-col', t('colWeight'), '');
  const thead = headerRow([heading('num', t('colKey'), t('subKey')), heading('num', t('colValue'), t('subValue')), scoreHeading, weightHeading,
    heading('num', t('colContribution'), t('kg'))]);
  const tbody = element('tbody');
  table.append(thead, tbody);
  const tableBox = element('div', 'table-scroll');
  tableBox.append(table);
  const curve = element('figure', 'kv-curve');
  const curveCaption = element('figcaption', '', t.rich('curve'));
  const curveBox = element('div', 'plot-box');
  const yardstick = element('p', 'note kv-yardstick');
  yardstick.dataset.part = 'yardstick';
  curve.append(curveCaption, curveBox, yardstick);
  const top = element('div', 'kv-top');
  top.append(explain, estimateBox);
  body.append(top, tableBox, curve);
  return { estimateLabel, estimate, explain, tbody, scoreSub: scoreHeading.lastChild, weightSub: weightHeading.lastChild, curveBox, yardstick };
}

export function render(view, data, state, { t }) {
  const mode = MODES[state.score];
  view.explain.replaceChildren(t.rich(mode.explain));
  view.scoreSub.replaceChildren(t.rich(mode.sub));
  view.weightSub.replaceChildren(t.rich(mode.weight));
  view.estimateLabel.textContent = state.score === 'article' ? t('estimate')
    : t('estimateFor', { q: formatNumber(state.q, { digits: 1, unit: t('cm') }) });
  view.estimate.textContent = formatNumber(data.estimate, { unit: t('kg') });
  view.tbody.replaceChildren(...data.keys.map((k, i) => {
    const tr = element('tr');
    const key = headerCell(formatNumber(k, { digits: 2, minDigits: 0 }), { className: 'num', scope: 'row' });
    const score = element('td', 'num', formatNumber(data.scores?.[i], { digits: 3, minDigits: 0 }));
    score.dataset.field = 'score';
    const weight = element('span', 'weight-value', formatWeight(data.weights[i]));
    weight.dataset.field = 'weight';
    const bar = element('span', 'weight-bar');
    bar.append(hbar({ value: data.weights[i], max: 1, label: t('weightOf', { key: k, weight: formatWeight(data.weights[i]) }) }));
    const box = element('div', 'weight');
    box.append(bar, weight);
    const weightCell = element('td', 'weight-col');
    weightCell.append(box);
    const contribution = element('td', 'num', formatNumber(data.contributions[i]));
    contribution.dataset.field = 'contribution';
    tr.append(key, element('td', 'num', formatNumber(data.values[i], { digits: 2, minDigits: 0 })), score, weightCell, contribution);
    return tr;
  }));
  view.curveBox.replaceChildren(data.curve ? curvePlot(data, state, t) : element('p', 'muted', t.rich('noCurve')));
  view.yardstick.hidden = !(data.curve && data.line);
  if (data.curve && data.line) {
    view.yardstick.replaceChildren(t.rich('yardstick', lineTexts(data, state, t)));
    const end = state.score === 'gaussian' && data.end;
    if (end) view.yardstick.append(' ', endSentence(data, state, t));
    view.yardstick.dataset.end = end ? (levelsOff(end) ? 'levels' : 'pulled') : '';
  }
}

// Beyond the last key the kernel's estimate tends to that key's value: it is
// said to have levelled off only where the curve's right end shows that value
// (to the estimate's 2 decimals); else the sentence says what the end shows (a
// wide σ keeps the other keys' pull there).
const LEVEL = 0.005;
const levelsOff = (end) => Math.abs(end.estimate - end.value) < LEVEL;

function endSentence(data, state, t) {
  const { x, estimate, value } = data.end;
  return t.rich(levelsOff(data.end) ? 'yardstickLevels' : 'yardstickPulled', {
    x: formatNumber(x, { digits: 1, minDigits: 0 }), end: formatNumber(estimate), value: formatNumber(value, { digits: 2, minDigits: 0 }),
    sigma: formatNumber(state.sigma, { digits: 1 }),
  });
}

// "weight = height − 105" for the article's table; "weight = 0.98 × height − 101.2" for another
function lineTexts(data, state, t) {
  const { slope, intercept, rSquared, atQuery } = data.line;
  const slopeText = formatNumber(slope, { digits: 2, minDigits: 0 });
  const scaled = slopeText === '1' ? t('lineX') : `${slopeText} × ${t('lineX')}`;
  const offset = formatNumber(Math.abs(intercept), { digits: 1, minDigits: 0 });
  const equation = `${t('lineY')} = ${scaled} ${intercept < 0 ? '−' : '+'} ${offset}`;
  return { equation, r2: formatNumber(rSquared, { digits: 3 }), q: formatNumber(state.q, { digits: 1 }),
    atQuery: formatNumber(atQuery, { digits: 1, minDigits: 0 }), estimate: formatNumber(data.estimate, { digits: 2, minDigits: 0 }) };
}

function curvePlot(data, state, t) {
  return linePlot({
    title: t('curve'),
    series: [
      { label: t('curveLabel'), x: data.curve.queries, y: data.curve.estimates },
      { label: t('points'), x: data.keys, y: data.values, points: true, line: false },
      { label: t('query'), x: [state.q], y: [data.estimate], points: true, line: false },
      ...(data.line ? [{ label: t('lineLabel', { equation: lineTexts(data, state, t).equation }),
        x: [data.line.from, data.line.to], y: [data.line.from, data.line.to].map((x) => data.line.slope * x + data.line.intercept) }] : []),
    ],
    xLabel: t('xAxis'), yLabel: t('yAxis'),
    markers: [{ x: state.q, label: `q = ${formatNumber(state.q, { digits: 1 })}` }],
  });
}

export const quiz = {
  question: 'quizQuestion',
  options: [0, 1, 2, 3].map((i) => ({ value: String(i), label: ['160', '165', '170', '175'][i] })),
  answer: (data) => String(data.quizTop),
  explain(data, state, t) {
    const i = data.quizTop;
    return t('quizExplain', { key: formatNumber(data.keys[i], { digits: 2, minDigits: 0 }), weight: formatWeight(data.quiz[i]) });
  },
};

export function exports(data, state, t) {
  return {
    visual: data.curve ? () => curvePlot(data, state, t) : null,
    csv: () => ({
      header: ['key', 'value', 'score', 'weight', 'contribution'],
      rows: data.keys.map((k, i) => [k, data.values[i], data.scores ? data.scores[i] : '', data.weights[i], data.contributions[i]]),
    }),
    json: () => ({ keys: data.keys, values: data.values, scores: data.scores, weights: data.weights,
      contributions: data.contributions, estimate: data.estimate, curve: data.curve,
      tableLine: data.line && { slope: data.line.slope, intercept: data.line.intercept, rSquared: data.line.rSquared, atQuery: data.line.atQuery } }),
  };
}
