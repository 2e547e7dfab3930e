// Widget "transformer-block": one text through a whole decoder, stage by
// stage, with live tensors: X = E[token] + P[position] → per block LN → multi-
// head attention → + residual → LN → MLP → + residual → final LN → logits →
// softmax with temperature. The model is the language model of the later
// section, small (../names-model.js), trained here on first view; the core runs
// its forward stage by stage (lm.trace). Two toggles remove the residual
// connections or the layer norms of the trained model, and the core measures
// what that does: the residual stream's size (RMS) after every block, and the
// loss on the text.
import { element, liveElement } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { linePlot } from '../../render/plot.js';
import { mapThumbnail } from '../../render/thumbnail.js';
import { plotFigure, statGrid } from '../../render/parts.js';
import { NAMES_MODEL, modelKeeper } from '../names-model.js';
import { inputError } from '../../runtime/text.js';

export const name = 'transformer-block';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'one text through a small trained decoder, stage by stage; switch off the residual connections or the layer norms and measure what changes';
// it trains a model: its module and its data load when it comes near the screen
export const lazy = true;

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them)
export const assets = ['wasm/attention-training.js', 'data/names.json'];

export const defaults = { text: 'Mari', layers: '2', residual: true, layerNorm: true, temperature: 1, block: 1 };

export const controls = [
  { key: 'text', type: 'text', label: 'text', maxLength: 15 },
  { key: 'layers', type: 'choice', label: 'layers', options: ['1', '2', '3', '4'].map((v) => ({ value: v, label: v })) },
  { key: 'residual', type: 'toggle', label: 'residual' },
  { key: 'layerNorm', type: 'toggle', label: 'layerNorm' },
  { key: 'temperature', type: 'range', label: 'temperature', min: 0.1, max: 2, step: 0.05 },
  { key: 'block', type: 'range', hidden: true, min: 1, max: 4, step: 1 },
];

// each stage's catalog key; the stages of a block in order
const BLOCK_STAGES = ['ln1', 'attention', 'residual1', 'ln2', 'hidden', 'mlp', 'residual2'];
// the next tokens listed under the softmax
const NEXT_SHOWN = 6;

const keeper = modelKeeper();

const streamOf = (trace) => trace.stages.filter((s) => s.name === 'embedding' || s.name === 'residual2').map((s) => s.rms);

// The characters of text the model has no token for, each once, in order of
// appearance: the core would refuse them (lm.vocabulary(): ⏎, then the
// characters of the names; with no unknown token, as the names have none).
function unseenCharacters(lm, text) {
  const known = new Set(lm.vocabulary().tokens.slice(1));
  return [...new Set([...text].filter((c) => !known.has(c)))];
}

export async function compute(att, state, t) {
  const layers = Number(state.layers);
  const lm = await keeper.model(att, layers);
  const unseen = unseenCharacters(lm, state.text);
  if (unseen.length) {
    const list = new Intl.ListFormat(t.lang, { type: 'conjunction' }).format(unseen.map((c) => t('quoted', { c })));
    throw inputError(t(unseen.length === 1 ? 'unseenOne' : 'unseenMany', { list }));
  }
  const options = { residual: state.residual, layerNorm: state.layerNorm, temperature: state.temperature };
  const trace = lm.trace(state.text, options);
  const lesioned = !state.residual || !state.layerNorm;
  const intact = lesioned ? lm.trace(state.text, { temperature: state.temperature }) : trace;
  return {
    layers, text: state.text, lesioned, trace,
    stream: streamOf(trace), intactStream: streamOf(intact), intactLoss: intact.loss, intactNext: intact.next,
    model: { ...NAMES_MODEL, parameters: lm.info().parameters, vocab: lm.info().vocab },
  };
}

export function build(body, ctx) {
  const { t } = ctx;
  const pipeline = element('ol', 'tb-pipeline');
  pipeline.setAttribute('aria-label', t('pipelineLabel'));
  const { grid: stats, fields } = statGrid(t, [['statLoss', 'loss'], ['statIntactLoss', 'intactLoss'], ['statEntropy', 'entropy'], ['statLast', 'last']]);
  const plot = plotFigure(t.rich('streamTitle'));
  const verdict = liveElement('p', 'tb-verdict');
  const model = element('p', 'small-note tb-model');
  const side = element('div', 'tb-side');
  side.append(stats, plot.figure, verdict);
  const layout = element('div', 'tb-layout');
  layout.append(pipeline, side);
  body.append(layout, model);
  return { pipeline, fields, plotBox: plot.box, verdict, model, canvases: [] };
}

// the stages a switch removes: their formulas say so
const OFF = { residual: ['residual1', 'residual2'], layerNorm: ['ln1', 'ln2', 'lnf'] };
const isOff = (name, state) => Object.entries(OFF).some(([key, names]) => !state[key] && names.includes(name));

// a stage's row: its name and formula (or what replaced it), its shape, a small picture of its values, its RMS
function stageRow(stage, state, t, { key = stage.name, open = null } = {}) {
  const m = stage.values;
  const row = element('li', `tb-stage tb-${key}`);
  row.dataset.stage = key;
  if (stage.layer) row.dataset.layer = String(stage.layer);
  const label = element('div', 'tb-label');
  label.append(element('span', 'tb-name', t.rich(`stage_${key}`, { l: stage.layer })), element('span', 'tb-formula', t.rich(`formula_${key}${isOff(key, state) ? 'Off' : ''}`)));
  const shape = element('span', 'tb-shape', t('shape', { rows: m.rows, cols: m.cols }));
  shape.dataset.field = 'shape';
  // a diverging scale: 0 in the middle of the colours, ± the largest magnitude at the ends
  let most = 0;
  for (const v of m.data) most = Math.max(most, Math.abs(v));
  const picture = mapThumbnail({ values: m.data, rows: m.rows, cols: m.cols, min: -most || -1, max: most || 1 });
  picture.style.aspectRatio = `${Math.min(m.cols, 64)} / ${m.rows}`;
  const pictureBox = element('div', 'tb-picture');
  pictureBox.append(picture);
  const rms = element('span', 'tb-rms', formatNumber(stage.rms, { digits: stage.rms < 10 ? 2 : 1 }));
  rms.dataset.field = 'rms';
  rms.title = t('rmsOf', { value: formatNumber(stage.rms, { digits: 3 }) });
  row.append(label, shape, pictureBox, rms);
  if (open) row.prepend(open);
  return row;
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  const { trace, layers } = data;
  const block = Math.min(layers, Math.max(1, state.block));
  const stages = trace.stages;
  const rows = [stageRow(stages[0], state, t)];
  for (let l = 1; l <= layers; l++) {
    const own = stages.filter((s) => s.layer === l);
    const output = own.find((s) => s.name === 'residual2');
    const toggle = element('button', 'tb-block-button', t.rich('blockButton', { l }));
    toggle.type = 'button';
    toggle.setAttribute('aria-expanded', String(l === block));
    toggle.addEventListener('click', () => ctx.setState({ block: l }));
    const head = stageRow(output, state, t, { key: 'block', open: toggle });
    head.classList.toggle('tb-open', l === block);
    rows.push(head);
    if (l === block) {
      const inner = element('ol', 'tb-block-stages');
      inner.append(...BLOCK_STAGES.map((name) => stageRow(own.find((s) => s.name === name), state, t)));
      const item = element('li', 'tb-block-item');
      item.append(inner);
      rows.push(item);
    }
  }
  rows.push(stageRow(stages.find((s) => s.name === 'lnf'), state, t), stageRow(stages.find((s) => s.name === 'logits'), state, t));
  rows.push(nextRow(data, state, t));
  view.pipeline.replaceChildren(...rows);

  const f = view.fields;
  // an empty text predicts nothing: no loss to show (the core's 0 is a mean over no characters)
  const empty = data.text === '';
  f.loss.textContent = empty ? '—' : formatNumber(trace.loss, { digits: 2 });
  f.intactLoss.textContent = empty ? '—' : formatNumber(data.intactLoss, { digits: 2 });
  f.entropy.textContent = formatNumber(trace.entropy, { digits: 2 });
  f.last.textContent = formatNumber(data.stream.at(-1), { digits: 2 });
  view.plotBox.replaceChildren(streamPlot(data, t));
  view.verdict.replaceChildren(t.rich(verdictKey(data, state), verdictValues(data, t)));
  view.model.replaceChildren(t.rich('model', { layers, d: data.model.dModel, heads: data.model.heads, steps: data.model.steps,
    parameters: formatNumber(data.model.parameters, { digits: 0 }), vocab: data.model.vocab }));
}

// softmax(logits / T) of the last position: the most likely next characters
function nextRow(data, state, t) {
  const { next } = data.trace;
  const row = element('li', 'tb-stage tb-softmax');
  row.dataset.stage = 'softmax';
  const label = element('div', 'tb-label');
  label.append(element('span', 'tb-name', t.rich('stage_softmax')),
    element('span', 'tb-formula', t.rich('formula_softmax', { t: formatNumber(state.temperature, { digits: 2 }) })));
  const list = element('ol', 'tb-next');
  list.setAttribute('aria-label', t('nextLabel', { text: data.text }));
  for (let i = 0; i < Math.min(NEXT_SHOWN, next.tokens.length); i++) {
    const p = next.probabilities[i];
    const item = element('li', 'tb-next-item');
    const token = element('span', 'tb-token', next.tokens[i]);
    token.dataset.field = 'token';
    const value = element('span', 'weight-value', formatWeight(p));
    value.dataset.field = 'probability';
    item.append(token, hbar({ value: p, max: 1, label: t('probabilityOf', { token: next.tokens[i], p: formatWeight(p) }) }), value);
    list.append(item);
  }
  row.append(label, list);
  return row;
}

function streamPlot(data, t) {
  const x = data.stream.map((_, l) => l);
  const series = [{ label: data.lesioned ? t('seriesNow') : t('seriesIntact'), x, y: data.stream, points: true }];
  if (data.lesioned) series.push({ label: t('seriesIntact'), x, y: data.intactStream, points: true });
  return linePlot({
    title: t('streamTitle'), series, xLabel: t('streamX'), yLabel: t('streamY'), yLog: true, width: 420, height: 240,
    xTicks: x, xDomain: [0, Math.max(1, data.layers)],
  });
}

function verdictKey(data, state) {
  if (!data.lesioned) return 'verdictIntact';
  if (!state.residual && !state.layerNorm) return 'verdictNeither';
  return state.residual ? 'verdictNoNorm' : 'verdictNoResidual';
}

function verdictValues(data, t) {
  const two = (x) => formatNumber(x, { digits: x < 10 ? 2 : 1 });
  const last = data.stream.at(-1), intactLast = data.intactStream.at(-1);
  const loss = { text: data.text, loss: two(data.trace.loss), intactLoss: two(data.intactLoss) };
  return {
    first: two(data.stream[0]), last: two(last), intact: two(intactLast), layers: data.layers,
    ratio: formatNumber(last / intactLast, { digits: last / intactLast < 10 ? 2 : 1 }),
    lossText: t(data.text === '' ? 'lossNone' : data.lesioned ? 'lossOnLesioned' : 'lossOn', loss),
    top: data.trace.next.tokens[0], p: formatWeight(data.trace.next.probabilities[0]),
    intactTop: data.intactNext.tokens[0], intactP: formatWeight(data.intactNext.probabilities[0]),
  };
}

// unmounted: the model is deleted (a training in progress stops)
export function dispose() {
  keeper.dispose();
}

export function exports(data, state, t) {
  return {
    visual: () => streamPlot(data, t),
    csv: () => ({
      header: ['stage', 'layer', 'rows', 'cols', 'rms'],
      rows: data.trace.stages.map((s) => [s.name, s.layer, s.values.rows, s.values.cols, s.rms]),
    }),
    json: () => ({ text: data.text, tokens: data.trace.tokens, residual: state.residual, layerNorm: state.layerNorm, temperature: state.temperature,
      stages: data.trace.stages.map((s) => ({ name: s.name, layer: s.layer, rows: s.values.rows, cols: s.values.cols, rms: s.rms, values: Array.from(s.values.data) })),
      next: { tokens: data.trace.next.tokens, probabilities: Array.from(data.trace.next.probabilities) }, entropy: data.trace.entropy, loss: data.trace.loss,
      intact: { stream: data.intactStream, loss: data.intactLoss } }),
  };
}
