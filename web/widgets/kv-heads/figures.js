// The "kv-heads" widget's numbers, every one from the core: a sentence's word
// vectors (att.embedTokens) through 8-head attention with the reader's
// key/value heads and with one per head (att.multiHeadAttention: each head's
// map, the key/value head it reads, the projections), the core's largest
// difference between two heads' keys and between their maps, and the
// key-value cache of a named model with its key/value heads, with one per
// head and with one in all (att.kvCacheBytes), and its attention projections'
// parameters with its key/value heads and with one per head
// (att.attentionProjectionParameters, d_model = query heads x head width, no
// biases). JS counts the entries of the toy's matrices the core returned and
// adds the four counts.
import { inputError, sentenceTokens } from '../../runtime/text.js';

// the toy model: 8 query heads over word vectors of width 32 (4 a head)
export const HEADS = 8, D_MODEL = 32;
export const KV_CHOICES = ['8', '4', '2', '1'];
// the named model's choices (select boxes) and the presets' figures, as published
// in each model's configuration (num_hidden_layers, num_attention_heads,
// num_key_value_heads, hidden_size / num_attention_heads)
export const MODEL_HEADS = ['8', '12', '16', '32', '40', '64', '96', '128'];
export const MODEL_KV = ['1', '2', '4', '8', '16', '32', '40', '64', '96', '128'];
export const HEAD_DIMS = ['64', '80', '96', '128', '256'];
export const TOKENS = ['1024', '4096', '8192', '32768', '131072'];
export const PRESETS = [
  { id: 'llama2-7b', layers: 32, modelHeads: '32', modelKv: '32', headDim: '128' },
  { id: 'llama2-70b', layers: 80, modelHeads: '64', modelKv: '8', headDim: '128' },
  { id: 'llama3-8b', layers: 32, modelHeads: '32', modelKv: '8', headDim: '128' },
  { id: 'mistral-7b', layers: 32, modelHeads: '32', modelKv: '8', headDim: '128' },
];
// float16 or bfloat16, as the models are usually run
export const BYTES_PER_NUMBER = 2;

// the number of entries of a matrix the core returned
const entries = (m) => m.data.length;

// W^Q, W^K, W^V, W^O of one multiHeadAttention, counted: { Wq, Wk, Wv, Wo, total }
function projectionCounts(r) {
  const { Wq, Wk, Wv, Wo } = r.projections;
  const counts = { Wq: entries(Wq), Wk: entries(Wk), Wv: entries(Wv), Wo: entries(Wo) };
  return { ...counts, total: counts.Wq + counts.Wk + counts.Wv + counts.Wo, kvWidth: Wk.cols };
}

// The toy model: the reader's key/value heads against one per head.
function toy(att, state, t) {
  const tokens = sentenceTokens(state.sentence, t, 12);
  const kvHeads = Number(state.kvHeads);
  const X = att.embedTokens({ tokens, d: D_MODEL, seed: state.seed });   // (n, 32)
  const r = att.multiHeadAttention({ input: X, heads: HEADS, kvHeads, seed: state.seed });
  const mha = kvHeads === HEADS ? r : att.multiHeadAttention({ input: X, heads: HEADS, kvHeads: HEADS, seed: state.seed });
  // heads 1 and 2: the same key/value head unless there is one per head
  const [a, b] = r.perHead;
  return {
    tokens, n: tokens.length, kvHeads, headWidth: a.key.cols,
    heads: r.perHead.map((h) => ({ kvHead: h.kvHead, weights: h.weights })),
    pair: { sameGroup: a.kvHead === b.kvHead, keys: att.maxAbsDifference(a.key, b.key), values: att.maxAbsDifference(a.value, b.value),
      maps: att.maxAbsDifference(a.weights, b.weights) },
    counts: projectionCounts(r), mha: projectionCounts(mha),
  };
}

// The named model's cache at the tokens chosen, with its key/value heads, one per
// query head (multi-head) and one in all (multi-query), and per token.
function cache(att, state, t) {
  const layers = state.layers, heads = Number(state.modelHeads), kvHeads = Number(state.modelKv);
  const headDim = Number(state.headDim), tokens = Number(state.tokens);
  if (kvHeads > heads || heads % kvHeads !== 0) throw inputError(t('notDivisor', { kv: kvHeads, heads }));
  const bytes = (kv, n = tokens) => att.kvCacheBytes({ layers, kvHeads: kv, headDim, tokens: n, bytesPerNumber: BYTES_PER_NUMBER });
  // the preset these figures are: the one chosen last if they are still its, else the first with them
  const matches = (p) => p.layers === layers && p.modelHeads === state.modelHeads && p.modelKv === state.modelKv && p.headDim === state.headDim;
  const preset = PRESETS.find((p) => p.id === state.preset && matches(p)) ?? PRESETS.find(matches);
  const projections = (kv) => att.attentionProjectionParameters({ layers, heads, kvHeads: kv, headDim });
  return {
    layers, heads, kvHeads, headDim, tokens, preset: preset?.id ?? null,
    rows: [
      { kind: 'model', kv: kvHeads, bytes: bytes(kvHeads), perToken: bytes(kvHeads, 1) },
      { kind: 'mha', kv: heads, bytes: bytes(heads), perToken: bytes(heads, 1) },
      { kind: 'mqa', kv: 1, bytes: bytes(1), perToken: bytes(1, 1) },
    ],
    projections: { model: projections(kvHeads), mha: projections(heads) },
  };
}

export function compute(att, state, t) {
  return { ...toy(att, state, t), cache: cache(att, state, t) };
}
