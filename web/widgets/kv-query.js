// Widget "kv-query": the article's height -> weight example as a live soft lookup.
// A query height is compared with every key height; the scores become weights
// (softmax), and the estimate is the weighted sum of the values (body weights).
// The curve shows the estimate for every query: Nadaraya-Watson regression.
import { element } from '../dom.js';
import { hbar } from '../render/bars.js';
import { formatNumber, formatWeight } from '../render/format.js';
import { linePlot } from '../render/plot.js';
import { inputError, parseNumbers } from '../text.js';

// The article's illustrative weights, chosen by hand (they give 64.75 kg).
const ARTICLE_WEIGHTS = [0.1, 0.15, 0.45, 0.3];

export const name = 'kv-query';

export const strings = {
  en: {
    title: 'Query, key, value: guessing a weight from a height',
    intro: 'Four people: their heights are the keys, their body weights the values. Ask for a new height (the query) and attention estimates a body weight from how similar the query is to each key.',
    keys: 'Keys k: heights (cm)', values: 'Values v: weights (kg)', keyList: 'keys', valueList: 'values',
    q: 'Query q: height', cm: 'cm', kg: 'kg',
    score: 'Score function', gaussian: 'Gaussian kernel', dot: 'Raw dot product q·k', article: 'Article’s weights',
    sigma: 'Kernel width σ',
    explainGaussian: 'Gaussian kernel (Nadaraya–Watson): keys close to the query score highest, softmax turns the scores into weights, and the estimate follows the nearest heights. A small σ makes the lookup picky; a large σ averages more keys.',
    explainDot: 'Raw dot product: for single numbers q·k only grows with the key, so whatever the query, the largest key takes all the weight. A good similarity needs a distance, not a product.',
    explainArticle: 'The article’s illustrative weights, picked by hand instead of computed from a score, so the query has no effect. The estimate is still the weighted sum of the values: 0.1·55 + 0.15·60 + 0.45·65 + 0.3·70.',
    estimateFor: 'Estimated body weight for q = {q}', estimate: 'Estimated body weight', weightedSum: 'the weighted sum Σ α·v',
    colKey: 'Key k', colValue: 'Value v', colScore: 'Score', colWeight: 'Weight α', colContribution: 'α × v',
    subKey: 'height (cm)', subValue: 'weight (kg)', subNone: 'none', softmax: 'softmax', byHand: 'by hand',
    caption: 'For each key: its value, its score against the query, its attention weight, and its contribution to the estimate',
    weightOf: 'weight of key {key}: {weight}',
    curve: 'The estimate for every query', curveLabel: 'estimate', points: 'the table', query: 'query',
    xAxis: 'query height (cm)', yAxis: 'body weight (kg)', noCurve: 'With hand-picked weights the estimate does not depend on the query: there is no curve.',
    articleNeeds4: 'The article’s weights are for the 4 rows of its table; this table has {n}.',
    quizQuestion: 'With the raw dot product and q = 150 cm (shorter than everyone), which key gets the most weight?',
    quizExplain: 'The core gives key {key} cm a weight of {weight}: with q·k the largest key always wins, however short the query.',
  },
  zh: {
    title: '查询、键、值：由身高估计体重',
    intro: '四个人：身高是键，体重是值。给出一个新的身高（查询），注意力根据查询与每个键的相似度来估计体重。',
    keys: '键 k：身高（厘米）', values: '值 v：体重（千克）', keyList: '键', valueList: '值',
    q: '查询 q：身高', cm: '厘米', kg: '千克',
    score: '评分函数', gaussian: '高斯核', dot: '原始点积 q·k', article: '文章中的权重',
    sigma: '核宽度 σ',
    explainGaussian: '高斯核（Nadaraya–Watson 核回归）：离查询越近的键得分越高，softmax 把得分变成权重，估计值跟随最接近的身高。σ 小则只看最近的键；σ 大则平均更多的键。',
    explainDot: '原始点积：对单个数字来说 q·k 只随键增大，所以无论查询是多少，最大的键拿走全部权重。好的相似度需要距离，而不是乘积。',
    explainArticle: '文章中手工给出的示意权重，不是由评分函数算出的，所以查询不起作用。估计值仍是值的加权和：0.1·55 + 0.15·60 + 0.45·65 + 0.3·70。',
    estimateFor: '查询 q = {q} 时估计的体重', estimate: '估计的体重', weightedSum: '加权和 Σ α·v',
    colKey: '键 k', colValue: '值 v', colScore: '得分', colWeight: '权重 α', colContribution: 'α × v',
    subKey: '身高（厘米）', subValue: '体重（千克）', subNone: '无', softmax: 'softmax', byHand: '手工给出',
    caption: '每个键：它的值、它与查询的得分、注意力权重，以及它对估计值的贡献',
    weightOf: '键 {key} 的权重：{weight}',
    curve: '每个查询的估计值', curveLabel: '估计值', points: '表中数据', query: '查询',
    xAxis: '查询身高（厘米）', yAxis: '体重（千克）', noCurve: '手工给定权重时，估计值与查询无关：没有曲线。',
    articleNeeds4: '文章中的权重对应表中的 4 行；当前表有 {n} 行。',
    quizQuestion: '用原始点积、q = 150 厘米（比所有人都矮）时，哪个键的权重最大？',
    quizExplain: '核心计算出键 {key} 厘米的权重为 {weight}：用 q·k 时最大的键总是胜出，无论查询多矮。',
  },
};

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
  gaussian: { sub: '−(q−k)²/2σ²', weight: 'softmax', explain: 'explainGaussian' },
  dot: { sub: 'q·k', weight: 'softmax', explain: 'explainDot' },
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
  const quiz = att.kernelRegression({ keys, values, query: 150, score: 'dot' }).weights.data;
  return {
    keys, values,
    scores: one.scores ? Array.from(one.scores.data) : null,
    weights: Array.from(one.weights.data),
    contributions: Array.from(one.contributions.data),
    estimate: one.estimate,
    curve: curve && { queries: Array.from(curve.queries), estimates: Array.from(curve.estimates) },
    quiz: Array.from(quiz),
  };
}

export function build(body, { t }) {
  const estimateLabel = element('span', 'estimate-label');
  const estimate = element('output', 'estimate-value');
  estimate.dataset.field = 'estimate';
  const estimateBox = element('div', 'estimate');
  estimateBox.append(estimateLabel, estimate, element('span', 'estimate-formula', t('weightedSum')));
  const explain = element('p', 'kv-explain');
  const table = element('table', 'kv-table');
  table.append(element('caption', 'visually-hidden', t('caption')));
  const heading = (className, label, sub) => {
    const th = element('th', className);
    th.scope = 'col';
    th.append(element('span', 'th-name', label), element('span', 'th-sub', sub));
    return th;
  };
  const scoreHeading = heading('num', t('colScore'), '');
  scoreHeading.lastChild.classList.add('th-formula');
  const weightHeading = heading('weight-col', t('colWeight'), '');
  const head = element('tr');
  head.append(heading('num', t('colKey'), t('subKey')), heading('num', t('colValue'), t('subValue')), scoreHeading, weightHeading,
    heading('num', t('colContribution'), t('kg')));
  const thead = element('thead');
  thead.append(head);
  const tbody = element('tbody');
  table.append(thead, tbody);
  const tableBox = element('div', 'table-scroll');
  tableBox.append(table);
  const curve = element('figure', 'kv-curve');
  const curveCaption = element('figcaption', '', t('curve'));
  const curveBox = element('div', 'plot-box');
  curve.append(curveCaption, curveBox);
  const top = element('div', 'kv-top');
  top.append(explain, estimateBox);
  body.append(top, tableBox, curve);
  return { estimateLabel, estimate, explain, tbody, scoreSub: scoreHeading.lastChild, weightSub: weightHeading.lastChild, curveBox };
}

export function render(view, data, state, { t }) {
  const mode = MODES[state.score];
  view.explain.textContent = t(mode.explain);
  view.scoreSub.textContent = t(mode.sub);
  view.weightSub.textContent = t(mode.weight);
  view.estimateLabel.textContent = state.score === 'article' ? t('estimate')
    : t('estimateFor', { q: formatNumber(state.q, { digits: 1, unit: t('cm') }) });
  view.estimate.textContent = formatNumber(data.estimate, { unit: t('kg') });
  view.tbody.replaceChildren(...data.keys.map((k, i) => {
    const tr = element('tr');
    const key = element('th', 'num', formatNumber(k, { digits: 2, minDigits: 0 }));
    key.scope = 'row';
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
  view.curveBox.replaceChildren(data.curve ? curvePlot(data, state, t) : element('p', 'muted', t('noCurve')));
}

function curvePlot(data, state, t) {
  return linePlot({
    title: t('curve'),
    series: [
      { label: t('curveLabel'), x: data.curve.queries, y: data.curve.estimates },
      { label: t('points'), x: data.keys, y: data.values, points: true, line: false },
      { label: t('query'), x: [state.q], y: [data.estimate], points: true, line: false },
    ],
    xLabel: t('xAxis'), yLabel: t('yAxis'),
    markers: [{ x: state.q, label: `q = ${formatNumber(state.q, { digits: 1 })}` }],
  });
}

export const quiz = {
  question: 'quizQuestion',
  options: [0, 1, 2, 3].map((i) => ({ value: String(i), label: ['160', '165', '170', '175'][i] })),
  answer: (data) => String(data.quiz.indexOf(Math.max(...data.quiz))),
  explain(data, state, t) {
    const i = data.quiz.indexOf(Math.max(...data.quiz));
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
      contributions: data.contributions, estimate: data.estimate, curve: data.curve }),
  };
}
