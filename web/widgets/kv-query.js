// Widget "kv-query": the article's height -> weight example as a live soft lookup.
// A query height is compared with four key heights; the scores become weights
// (softmax), and the estimate is the weighted sum of the values (body weights).
// Data flows one way: state -> compute (the core) -> render.
import { kernelLookup } from '../compute.js';
import { buildControls } from '../controls.js';
import { element } from '../dom.js';
import { hbar } from '../render/bars.js';
import { formatNumber, formatWeight } from '../render/format.js';

// The article's table: keys = heights (cm), values = body weights (kg).
const KEYS = [160, 165, 170, 175];
const VALUES = [55, 60, 65, 70];
// The article's illustrative weights, chosen by hand (they give 64.75 kg).
const ARTICLE_WEIGHTS = [0.1, 0.15, 0.45, 0.3];

export const defaults = { q: 172, score: 'gaussian', sigma: 2 };

export const controls = [
  { key: 'q', type: 'range', label: 'Query q: height', unit: 'cm', min: 150, max: 185, step: 0.5,
    enabled: (s) => s.score !== 'article' },
  { key: 'score', type: 'choice', label: 'Score function', options: [
    { value: 'gaussian', label: 'Gaussian kernel' },
    { value: 'dot', label: 'Raw dot product q·k' },
    { value: 'article', label: 'Article’s weights' },
  ] },
  { key: 'sigma', type: 'range', label: 'Kernel width σ', unit: 'cm', min: 0.5, max: 10, step: 0.1,
    enabled: (s) => s.score === 'gaussian' },
];

// Per score mode: the subheadings of the score and weight columns, and one plain sentence.
const MODES = {
  gaussian: {
    score: '−(q−k)²/2σ²',
    weight: 'softmax',
    explain: 'Gaussian kernel (Nadaraya–Watson): keys close to the query score highest, softmax '
      + 'turns the scores into weights, and the estimate follows the nearest heights. '
      + 'A small σ makes the lookup picky; a large σ averages more keys.',
  },
  dot: {
    score: 'q·k',
    weight: 'softmax',
    explain: 'Raw dot product: for single numbers q·k only grows with the key, so whatever the '
      + 'query, the largest key takes all the weight. A good similarity needs a distance, not a product.',
  },
  article: {
    score: 'none',
    weight: 'by hand',
    explain: 'The article’s illustrative weights, picked by hand instead of computed from a score, '
      + 'so the query has no effect. The estimate is still the weighted sum of the values.',
  },
};

// What to ask the core for this state.
function request(state) {
  if (state.score === 'article') return { keys: KEYS, values: VALUES, weights: ARTICLE_WEIGHTS };
  if (state.score === 'dot') return { keys: KEYS, values: VALUES, query: state.q, score: 'dot' };
  return { keys: KEYS, values: VALUES, query: state.q, score: 'gaussian', sigma: state.sigma };
}

// The widget's DOM, built once; render() only changes text and bars.
function build(root, controlsView) {
  const explain = element('p', 'kv-explain');
  const estimateLabel = element('span', 'estimate-label');
  const estimate = element('output', 'estimate-value');
  estimate.dataset.field = 'estimate';
  const estimateBox = element('div', 'estimate');
  estimateBox.append(estimateLabel, estimate, element('span', 'estimate-formula', 'the weighted sum Σ α·v'));

  const table = element('table', 'kv-table');
  const caption = element('caption', 'visually-hidden',
    'For each key (height, cm): its value (body weight, kg), its score against the query, '
    + 'its attention weight, and its contribution weight × value (kg) to the estimate');
  // column headings: a name and, below it, the unit or formula
  const heading = (className, name, sub) => {
    const th = element('th', className);
    th.scope = 'col';
    th.append(element('span', 'th-name', name), element('span', 'th-sub', sub));
    return th;
  };
  const scoreHeading = heading('num', 'Score', '');
  scoreHeading.lastChild.classList.add('th-formula');
  const weightHeading = heading('weight-col', 'Weight α', '');
  const head = element('tr');
  head.append(
    heading('num', 'Key k', 'height (cm)'), heading('num', 'Value v', 'weight (kg)'), scoreHeading,
    weightHeading, heading('num', 'α × v', 'kg'),
  );
  const body = element('tbody');
  const rows = KEYS.map((k, i) => {
    const tr = element('tr');
    const key = element('th', 'num', formatNumber(k, { digits: 0 }));
    key.scope = 'row';
    const score = element('td', 'num');
    const bar = element('span', 'weight-bar');
    const weight = element('span', 'weight-value');
    const weightCell = element('td', 'weight-col');
    const weightBox = element('div', 'weight');
    weightBox.append(bar, weight);
    weightCell.append(weightBox);
    const contribution = element('td', 'num');
    score.dataset.field = 'score';
    weight.dataset.field = 'weight';
    contribution.dataset.field = 'contribution';
    tr.append(key, element('td', 'num', formatNumber(VALUES[i], { digits: 0 })), score, weightCell, contribution);
    body.append(tr);
    return { key: k, score, bar, weight, contribution };
  });
  const thead = element('thead');
  thead.append(head);
  table.append(caption, thead, body);
  const tableBox = element('div', 'table-scroll');
  tableBox.append(table);

  const alert = element('p', 'widget-error');
  alert.setAttribute('role', 'alert');
  alert.hidden = true;

  const top = element('div', 'kv-top');
  top.append(controlsView.element, estimateBox);
  root.replaceChildren(top, explain, tableBox, alert);
  return { explain, estimateLabel, estimate, scoreSub: scoreHeading.lastChild, weightSub: weightHeading.lastChild, rows, alert };
}

// Shows one result (or an error) for one state.
function render(view, state, result, error) {
  const mode = MODES[state.score];
  view.explain.textContent = mode.explain;
  view.scoreSub.textContent = mode.score;
  view.weightSub.textContent = mode.weight;
  view.estimateLabel.textContent = state.score === 'article'
    ? 'Estimated body weight'
    : `Estimated body weight for q\u00a0=\u00a0${formatNumber(state.q, { digits: 1, unit: 'cm' })}`;
  view.alert.hidden = !error;
  view.alert.textContent = error ? `The attention core reported a problem: ${error.message}` : '';
  view.estimate.textContent = result ? formatNumber(result.estimate, { unit: 'kg' }) : '—';
  view.rows.forEach((row, i) => {
    const score = result?.scores?.[i];
    const weight = result?.weights[i];
    row.score.textContent = formatNumber(score, { digits: 3, minDigits: 0 });
    row.weight.textContent = result ? formatWeight(weight) : '—';
    row.bar.replaceChildren(hbar({ value: weight, max: 1, label: `weight of key ${row.key} cm: ${formatWeight(weight)}` }));
    row.contribution.textContent = formatNumber(result?.contributions[i]);
  });
}

// Mounts the widget in root. state: the initial state (see defaults);
// onChange(state) is called after each user change (the page writes it to the URL).
export function mount(root, { state: initial = defaults, onChange = () => {} } = {}) {
  let state = { ...defaults, ...initial };
  let latest = 0;  // token of the newest update: a slower, older one must not overwrite it
  const controlsView = buildControls(controls, (key, value) => {
    state = { ...state, [key]: value };
    onChange(state);
    update();
  });
  const view = build(root, controlsView);
  root.setAttribute('aria-busy', 'true');

  async function update() {
    const token = ++latest;
    controlsView.sync(state);
    let result = null;
    let error = null;
    try {
      result = await kernelLookup(request(state));
    } catch (e) {
      error = e instanceof Error ? e : new Error(String(e));
    }
    if (token !== latest) return;
    render(view, state, result, error);
    root.removeAttribute('aria-busy');
    root.dataset.ready = 'true';
  }

  update();
  return {
    update,
    get state() { return state; },
    setState(next) { state = { ...state, ...next }; return update(); },
  };
}
