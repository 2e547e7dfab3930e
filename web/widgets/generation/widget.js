// Widget "generation": a decoder writes one token at a time. Each "Next
// token" feeds the token sampled last through the model at the next position:
// the causal map grows by one row, and only that row is computed, against the
// keys and values of the earlier positions kept in the cache. Counters give
// what the token cost with the cache and without it (every position again),
// and the cache's size, 2 · L · n · d numbers; the two phases, the prefill of
// the prompt and the decode steps, with their costs; the set each token is drawn
// from (temperature, top-k, top-p, min-p). The model is the small names
// model of the transformer-block section (../names-model.js); the core generates
// (lm.beginGeneration, lm.nextToken) and counts. A prompt character the model
// cannot read is left out, and said (parts.js).
import { element, liveElement } from '../../render/dom.js';
import { formatCount, formatNumber } from '../../render/format.js';
import { heatmap } from '../../render/heatmap.js';
import { svg } from '../../render/svg.js';
import { actionButton, statGrid } from '../../render/parts.js';
import { NAMES_MODEL, modelKeeper } from '../names-model.js';
import { keptSet, phases, readablePrompt, showDropped, textNodes } from './parts.js';

export const name = 'generation';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'writes one token at a time: the causal map grows a row, the key-value cache a key and a value, and each token\'s cost is counted with and without the cache; the prefill and the decode steps, and the set each token is drawn from (temperature, top-k, top-p, min-p)';
// it trains a model: its module and its data load when it comes near the screen
export const lazy = true;

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them)
export const assets = ['wasm/attention-training.js', 'data/names.json'];

// the model's blocks; the most tokens a text may be asked to grow by (the context is 16 positions)
const LAYERS = 2;
export const MAX_TOKENS = 15;

export const defaults = { prompt: '', seed: 1, temperature: 0.8, topK: 20, topP: 1, minP: 0, tokens: 3, layer: '1', head: '1' };

export const controls = [
  { key: 'prompt', type: 'text', label: 'prompt', maxLength: 8 },
  { key: 'seed', type: 'range', label: 'seed', min: 1, max: 100, step: 1 },
  { key: 'temperature', type: 'range', label: 'temperature', min: 0, max: 1.5, step: 0.05 },
  { key: 'topK', type: 'range', label: 'topK', min: 0, max: 54, step: 1 },
  { key: 'topP', type: 'range', label: 'topP', min: 0.05, max: 1, step: 0.05 },
  { key: 'minP', type: 'range', label: 'minP', min: 0, max: 0.5, step: 0.01 },
  { key: 'layer', type: 'choice', label: 'layer', options: ['1', '2'].map((v) => ({ value: v, label: v })) },
  { key: 'head', type: 'choice', label: 'head', options: ['1', '2', '3', '4'].map((v) => ({ value: v, label: v })) },
  { key: 'tokens', type: 'range', hidden: true, min: 0, max: MAX_TOKENS, step: 1 },
];

const keeper = modelKeeper();
// the generation in progress: its options and its steps so far. A click on
// "Next token" asks for one more step: the core computes one more row.
let session = null;

// the sampling of the state: temperature, then top-k, top-p and min-p (the core's order)
const samplingOf = (state) => ({ temperature: state.temperature, topK: state.topK, topP: state.topP, minP: state.minP });
const optionsOf = (state, prompt) => ({ prompt, ...samplingOf(state), seed: state.seed });

export async function compute(att, state) {
  const lm = await keeper.model(att, LAYERS);
  const { prompt, dropped } = readablePrompt(lm, state.prompt);
  const key = JSON.stringify(optionsOf(state, prompt));
  const wanted = Math.max(0, Math.min(MAX_TOKENS, state.tokens));
  // the steps read the prompt (⏎ and its characters), then one per written token
  const written = () => session.steps.length - session.prompt;
  if (!session || session.key !== key || session.lm !== lm || written() > wanted) {
    const steps = lm.beginGeneration(optionsOf(state, prompt));
    session = { key, lm, steps, prompt: steps.length };
  }
  while (written() < wanted && !session.steps.at(-1).done) session.steps.push(lm.nextToken());
  const info = lm.info();
  return {
    steps: session.steps.slice(), prompt: session.prompt, written: written(), done: session.steps.at(-1).done,
    promptText: prompt, dropped, sampling: samplingOf(state),
    layers: LAYERS, d: NAMES_MODEL.dModel, heads: NAMES_MODEL.heads, vocab: info.vocab, context: info.options.context,
  };
}

export function build(body, ctx) {
  const { t } = ctx;
  const next = actionButton(t, 'next', 'next', () => ctx.setState({ tokens: Math.min(MAX_TOKENS, ctx.state.tokens + 1) }));
  const restart = actionButton(t, 'restart', 'restart', () => ctx.setState({ tokens: 0 }));
  const bar = element('div', 'action-bar');
  bar.append(next, restart);
  const text = element('div', 'gen-text');
  text.setAttribute('role', 'group');
  text.setAttribute('aria-label', t('textLabel'));
  const dropped = element('p', 'gen-dropped');
  dropped.setAttribute('role', 'status');
  const kept = element('div', 'gen-kept');
  const phase = liveElement('p', 'gen-phases');
  const mapBox = element('div', 'gen-map');
  const cache = element('div', 'gen-cache');
  const { grid: stats, fields } = statGrid(t, [['statCached', 'cached'], ['statUncached', 'uncached'], ['statCache', 'cacheNumbers']]);
  const verdict = liveElement('p', 'gen-verdict');
  // one layer's attention of this token: the count the complexity section sums (att.generationCost)
  const attention = element('p', 'gen-attention');
  attention.dataset.part = 'attention';
  const training = element('p', 'note gen-training', t.rich('training'));
  const layout = element('div', 'gen-layout');
  const side = element('div', 'gen-side');
  side.append(stats, cache);
  layout.append(mapBox, side);
  body.append(bar, dropped, text, kept, layout, phase, verdict, attention, training);
  return { next, text, dropped, kept, phase, mapBox, cache, fields, verdict, attention };
}

// the rows so far of one head's causal map: (m, m), row t from step t
function mapOf(data, layer, head) {
  const m = data.steps.length;
  const values = new Float32Array(m * m), allowed = new Uint8Array(m * m);
  data.steps.forEach((s, i) => {
    const row = s.rows[layer][head];
    for (let j = 0; j <= i; j++) {
      values[i * m + j] = row[j];
      allowed[i * m + j] = 1;
    }
  });
  return { m, values, allowed };
}

const tokenLabel = (token, t) => (token === '⏎' ? t('boundary') : token);

function causalMap(data, state, t) {
  const layer = Number(state.layer) - 1, head = Number(state.head) - 1;
  const { m, values, allowed } = mapOf(data, layer, head);
  const labels = data.steps.map((s, i) => `${i} ${s.token}`);
  const h = heatmap({
    rowLabels: labels, colLabels: labels, axes: { rows: t('axisRows'), cols: t('axisCols') }, values, allowed, min: 0, max: 1,
    digits: 2, maskedText: '0', selected: [m - 1, m - 1], title: t('mapTitle', { layer: state.layer, head: state.head }),
    describe: (i, j) => t('cellLabel', { i, j, query: tokenLabel(data.steps[i].token, t), key: tokenLabel(data.steps[j].token, t),
      weight: formatNumber(values[i * m + j], { digits: 3 }) }),
  });
  // the row this token computed: outlined
  const first = h.box(m - 1, 0);
  h.element.append(svg('rect', { class: 'gen-new-row', x: first.x - 1, y: first.y - 1, width: m * first.size + 2, height: first.size + 2 }));
  return h;
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const last = data.steps.at(-1);
  view.next.disabled = data.done || data.written >= MAX_TOKENS;
  // the text: ⏎ and the prompt read (prefill), the tokens written (decode), the newest marked; what comes next
  const full = data.done && last.position + 1 >= data.context;
  showDropped(view.dropped, { dropped: data.dropped, prompt: data.promptText }, t);
  view.text.replaceChildren(...textNodes(data, t,
    element('span', 'gen-next', !data.done ? t('sampled', { next: last.next }) : full ? t('full', { n: data.context }) : t('ended'))));
  // what the next token was drawn from: ⏎ when the name ended, nothing when the context is full
  keptSet(view.kept, data, t, !data.done ? last.next : full ? null : '⏎');
  view.phase.replaceChildren(phases(data, t));
  const map = causalMap(data, state, t);
  view.mapBox.replaceChildren(map.element);

  // the cache: per layer, the K and V rows kept, the newest just added
  view.cache.replaceChildren(element('h3', 'section-heading', t.rich('cacheHeading')), ...Array.from({ length: data.layers }, (_, l) =>
    ['K', 'V'].map((kv) => {
      const row = element('div', 'gen-cache-row');
      row.append(element('span', 'gen-cache-name', t.rich('cacheRow', { kv, l: l + 1 })));
      data.steps.forEach((s, i) => {
        const cell = element('span', `gen-cache-cell${i === data.steps.length - 1 ? ' gen-cache-new' : ''}`, s.token);
        cell.title = i === data.steps.length - 1 ? t('cellNew', { i }) : t('cellCached', { i });
        row.append(cell);
      });
      return row;
    })).flat());

  const cachedTotal = data.steps.reduce((a, s) => a + s.cachedMultiplyAdds, 0);
  const uncachedTotal = data.steps.reduce((a, s) => a + s.uncachedMultiplyAdds, 0);
  const f = view.fields;
  f.cached.textContent = formatCount(last.cachedMultiplyAdds);
  f.cached.title = formatNumber(last.cachedMultiplyAdds, { digits: 0 });
  f.uncached.textContent = formatCount(last.uncachedMultiplyAdds);
  f.uncached.title = formatNumber(last.uncachedMultiplyAdds, { digits: 0 });
  f.cacheNumbers.textContent = formatNumber(last.cacheNumbers, { digits: 0 });
  view.verdict.replaceChildren(t.rich('verdict', {
    token: tokenLabel(last.token, t), t: last.position, keys: last.position + 1,
    cached: formatNumber(last.cachedMultiplyAdds, { digits: 0 }), uncached: formatNumber(last.uncachedMultiplyAdds, { digits: 0 }),
    ratio: formatNumber(last.uncachedMultiplyAdds / last.cachedMultiplyAdds, { digits: 1 }),
    cachedTotal: formatNumber(cachedTotal, { digits: 0 }), uncachedTotal: formatNumber(uncachedTotal, { digits: 0 }),
    numbers: formatNumber(last.cacheNumbers, { digits: 0 }), L: data.layers, n: last.position + 1, d: data.d,
    kb: formatNumber((4 * last.cacheNumbers) / 1024, { digits: 1 }),
  }));
  view.attention.replaceChildren(t.rich('attention', { n: last.position + 1, d: data.d,
    cached: formatCount(last.attention.cached), uncached: formatCount(last.attention.uncached) }));
}

// unmounted: the model is deleted (a training in progress stops)
export function dispose() {
  session = null;
  keeper.dispose();
}

export function exports(data, state, t) {
  return {
    visual: () => causalMap(data, state, t).element,
    csv: () => ({
      header: ['position', 'token', 'next', 'multiply-adds with cache', 'multiply-adds without cache', 'cache numbers',
        'one layer\'s attention with cache', 'one layer\'s attention without cache'],
      rows: data.steps.map((s) => [s.position, s.token, s.next, s.cachedMultiplyAdds, s.uncachedMultiplyAdds, s.cacheNumbers,
        s.attention.cached, s.attention.uncached]),
    }),
    json: () => ({ prompt: state.prompt, read: data.promptText, dropped: data.dropped, seed: state.seed, ...data.sampling,
      layer: Number(state.layer), head: Number(state.head),
      steps: data.steps.map((s) => ({ position: s.position, token: s.token, next: s.next, done: s.done,
        row: Array.from(s.rows[Number(state.layer) - 1][Number(state.head) - 1]),
        cachedMultiplyAdds: s.cachedMultiplyAdds, uncachedMultiplyAdds: s.uncachedMultiplyAdds, attention: s.attention,
        cacheNumbers: s.cacheNumbers,
        kept: Object.fromEntries(s.kept.tokens.map((token, k) => [token, s.kept.probabilities[k]])) })),
      prefillMultiplyAdds: data.steps.at(-1).prefillMultiplyAdds, decodeMultiplyAdds: data.steps.at(-1).decodeMultiplyAdds }),
  };
}
