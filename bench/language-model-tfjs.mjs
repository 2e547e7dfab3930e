// The language model's training peer for bench/language-model-vs-tfjs.mjs: the model of
// cpp/attention/language_model/model.hpp written in TF.js ops (tfjs-core with the
// gradients of @tensorflow/tfjs, any backend), trained by TF.js's Adam with the
// same warm-up and gradient clipping, on batches of the same kind as the
// core's (each sequence a training text drawn at random: [0] + its characters
// + [0], a random window of context + 1 tokens when longer, padded when
// shorter, padding left out of the loss).
//
// d = dModel, n = context, h = heads, rows = B n:
//   X = E[token] + P[position]                  (rows, d)   gather; its gradient a scatter-add
//                                                            (tfjs-backend-wasm has none for gather)
//   per block:
//     Y = LN1(X); Q, K, V = Y Wq + bq, Y Wk + bk, Y Wv + bv      fused matMul + bias
//     A = softmax(Q K^T / sqrt(d / h) + causal mask)   (B h, n, n)
//     H = X + concat_h(A V) Wo + bo
//     X = H + GELU(LN2(H) W1 + b1) W2 + b2       W1: (d, 4d); GELU in its tanh form
//   logits = LN_f(X) Wout + bout                 (k, vocab) for the k rows with a target,
//                                                 as ours; Wout not tied to E
//   loss = mean softmax cross-entropy over those rows
// Layer norm: (x - mean) / sqrt(var + 1e-5) gain + bias. Adam: beta1 0.9,
// beta2 0.999, epsilon 1e-8, learning rate min(1, t / warmup) learningRate,
// gradients scaled by clip / |g| when their global norm |g| exceeds clip.

import { splitMix32 } from '../scripts/corpora.mjs';

// ---- tokens ----------------------------------------------------------------------
export const BOUNDARY = '⏎', UNKNOWN = '�';

// The core's vocabulary: [⏎, (�,) the kept characters in code point order].
// A training character seen fewer than minCount times folds into �, and so
// does a held-out character missing from the training texts; � exists only
// if something folded. -> { tokens: string[], index: Map(char -> id), unknown: id | -1 }
export function buildVocabulary(texts, heldOut = [], minCount = 1) {
  const counts = new Map();
  for (const t of texts) for (const c of t) counts.set(c, (counts.get(c) ?? 0) + 1);
  const kept = [...counts].filter(([, k]) => k >= minCount).map(([c]) => c)
    .sort((a, b) => a.codePointAt(0) - b.codePointAt(0));
  const keptSet = new Set(kept);
  const folds = kept.length < counts.size || heldOut.some((t) => Array.from(t).some((c) => !keptSet.has(c)));
  const tokens = [BOUNDARY, ...(folds ? [UNKNOWN] : []), ...kept];
  return vocabularyOf(tokens);
}

// -> { tokens, index, unknown } of a token list such as lm.vocabulary().tokens
export function vocabularyOf(tokens) {
  const index = new Map(tokens.map((t, i) => [t, i]));
  return { tokens, index, unknown: tokens[1] === UNKNOWN ? 1 : -1 };
}

// the ids of [0] + text + [0]
export function encode(vocabulary, text) {
  const ids = [0];
  for (const c of text) {
    const id = vocabulary.index.get(c) ?? vocabulary.unknown;
    if (id < 0 || c === BOUNDARY) throw new Error(`language-model-tfjs: the character ${c} is not in the vocabulary`);
    ids.push(id);
  }
  ids.push(0);
  return Int32Array.from(ids);
}

// ---- batches ---------------------------------------------------------------------
// SplitMix32: the generator scripts/corpora.mjs draws the held-out split with
export { splitMix32 };

// One sequence into row b of (tokens, targets), each (batch * context): the
// sequence's first context inputs and their next tokens, -1 (no target) and
// input 0 past its end.
function fillRow(seq, start, b, context, tokens, targets) {
  const length = Math.min(context, seq.length - 1 - start);
  for (let i = 0; i < context; i++) {
    tokens[b * context + i] = i < length ? seq[start + i] : 0;
    targets[b * context + i] = i < length ? seq[start + i + 1] : -1;
  }
  return length;
}

// sequences: encoded texts ([0] + ids + [0]). -> () => { tokens, targets: Int32Array(batch * context), count: targets >= 0 }
export function lmBatches({ sequences, context, batch, seed }) {
  const next = splitMix32(seed);
  const below = (k) => Math.floor((next() / 2 ** 32) * k);
  return () => {
    const tokens = new Int32Array(batch * context), targets = new Int32Array(batch * context);
    let count = 0;
    for (let b = 0; b < batch; b++) {
      const seq = sequences[below(sequences.length)];
      const start = seq.length > context + 1 ? below(seq.length - context) : 0;  // a random window
      count += fillRow(seq, start, b, context, tokens, targets);
    }
    return { tokens, targets, count };
  };
}

// Every text once, in batches of at most `batch` rows (from the start; the
// first context inputs of a longer text): for held-out losses.
export function lmEvaluationBatches({ sequences, context, batch }) {
  const out = [];
  for (let s = 0; s < sequences.length; s += batch) {
    const part = sequences.slice(s, s + batch);
    const tokens = new Int32Array(part.length * context), targets = new Int32Array(part.length * context);
    let count = 0;
    part.forEach((seq, b) => { count += fillRow(seq, 0, b, context, tokens, targets); });
    out.push({ tokens, targets, count, rows: part.length });
  }
  return out;
}

// ---- parameters ------------------------------------------------------------------
// The core's tensor names and shapes (lm_tensor_names): embedding (vocab, d),
// positions (context, d), layerL.{ln1.gain, ln1.bias, Wq, bq, Wk, bk, Wv, bv, Wo, bo,
// ln2.gain, ln2.bias, W1, b1, W2, b2}, lnf.gain, lnf.bias, Wout (d, vocab), bout (1, vocab).
export function tensorShapes({ vocab, context, dModel: d, layers }) {
  const shapes = { embedding: [vocab, d], positions: [context, d] };
  for (let l = 1; l <= layers; l++) {
    const p = `layer${l}.`;
    Object.assign(shapes, {
      [p + 'ln1.gain']: [1, d], [p + 'ln1.bias']: [1, d],
      [p + 'Wq']: [d, d], [p + 'bq']: [1, d], [p + 'Wk']: [d, d], [p + 'bk']: [1, d],
      [p + 'Wv']: [d, d], [p + 'bv']: [1, d], [p + 'Wo']: [d, d], [p + 'bo']: [1, d],
      [p + 'ln2.gain']: [1, d], [p + 'ln2.bias']: [1, d],
      [p + 'W1']: [d, 4 * d], [p + 'b1']: [1, 4 * d], [p + 'W2']: [4 * d, d], [p + 'b2']: [1, d],
    });
  }
  Object.assign(shapes, { 'lnf.gain': [1, d], 'lnf.bias': [1, d], Wout: [d, vocab], bout: [1, vocab] });
  return shapes;
}

// The core's initialisation, with this file's generator: E and P uniform on
// [-0.05, 0.05]; Wq, Wk, Wv, W1, Wout Xavier uniform (limit sqrt(6 / (in + out)));
// Wo, W2 the same scaled by 1 / sqrt(2 layers); biases 0; gains 1.
// -> { name: { rows, cols, data: Float32Array } }
export function initParameters(options, seed = 1) {
  const next = splitMix32(seed ^ 0x51ed270b);
  const uniform = (limit) => (next() / 2 ** 32 * 2 - 1) * limit;
  const params = {};
  for (const [name, [rows, cols]] of Object.entries(tensorShapes(options))) {
    const data = new Float32Array(rows * cols);
    const key = name.split('.').slice(name.startsWith('layer') ? 1 : 0).join('.');
    let limit = 0;
    if (name === 'embedding' || name === 'positions') limit = 0.05;
    else if (/^W/.test(key)) limit = Math.sqrt(6 / (rows + cols)) * (key === 'Wo' || key === 'W2' ? 1 / Math.sqrt(2 * options.layers) : 1);
    if (key.endsWith('gain')) data.fill(1);
    else if (limit) for (let i = 0; i < data.length; i++) data[i] = uniform(limit);
    params[name] = { rows, cols, data };
  }
  return params;
}

// ---- the model -------------------------------------------------------------------
// tf: @tensorflow/tfjs with its backend ready. options: { vocab, context, dModel,
// heads, layers, learningRate, warmup, clip }. params: { name: { rows, cols, data } }
// (initParameters, or the core's lm.parameters() for the same start).
// -> { step(tokens, targets) -> the batch's loss before the update, gradients(tokens, targets)
//      -> { loss, grads, norm } without an update, loss(batches) -> per-token loss,
//      logits(ids) -> Float32Array of the last position's, parameters(), dispose() }
let instances = 0;  // each model's variables get their own names
export function tfjsLanguageModel(tf, options, params) {
  const { vocab, context: n, dModel: d, heads: h, layers, learningRate, warmup = 0, clip = 0 } = options;
  if (d % h) throw new Error(`language-model-tfjs: dModel ${d} is not a multiple of heads ${h}`);
  const dh = d / h, instance = ++instances;
  const shapes = tensorShapes(options);
  const vars = {};
  for (const [name, [rows, cols]] of Object.entries(shapes)) {
    const p = params[name];
    if (!p || p.rows !== rows || p.cols !== cols) throw new Error(`language-model-tfjs: parameter ${name} is not (${rows}, ${cols})`);
    // vectors (biases, gains) as rank 1: the fused product takes only such a bias
    const value = rows === 1 ? tf.tensor1d(p.data, 'float32') : tf.tensor2d(p.data, [rows, cols], 'float32');
    vars[name] = tf.variable(value, true, `lm${instance}.${name}`);
  }
  const names = Object.keys(vars), list = names.map((k) => vars[k]);
  const grad = (g, k) => g[list[names.indexOf(k)].name];
  // the causal mask: 0 on and below the diagonal, -1e9 above
  const mask = tf.keep(tf.tensor2d(Float32Array.from({ length: n * n }, (_, k) => ((k % n) > Math.floor(k / n) ? -1e9 : 0)), [n, n]));
  const scale = 1 / Math.sqrt(dh);
  const c = Math.sqrt(2 / Math.PI);
  const adam = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  let t = 0;

  // E[ids], whose gradient adds each row of dy into its token's row of dE
  // (the ids are kept for the backward pass with save: the forward's scope disposes them)
  const embed = (E, ids) => tf.customGrad((Ev, save) => {
    save([tf.reshape(ids, [-1, 1])]);
    return { value: tf.gather(Ev, ids), gradFunc: (dy, [rows]) => tf.scatterND(rows, dy, [vocab, d]) };
  })(E);
  // the rows of X (r, d) listed in index (k), whose gradient scatters back (as ours,
  // only the rows with a target go through the unembedding)
  const pick = (X, index) => tf.customGrad((Xv, save) => {
    save([tf.reshape(index, [-1, 1])]);
    return { value: tf.gather(Xv, index), gradFunc: (dy, [rows]) => tf.scatterND(rows, dy, Xv.shape) };
  })(X);
  const layerNorm = (X, gain, bias) => {
    const { mean, variance } = tf.moments(X, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(X, mean), tf.rsqrt(tf.add(variance, 1e-5))), gain), bias);
  };
  // X W + b, whose backward multiplies by explicitly transposed operands:
  // tfjs-backend-wasm's product with a transposed operand (what the built-in
  // gradient of matMul asks for) is 5-10x slower than its plain one
  const linear = (X, W, b) => tf.customGrad((Xv, Wv, bv, save) => {
    save([Xv, Wv]);
    return {
      value: tf.fused.matMul({ a: Xv, b: Wv, bias: bv }),
      gradFunc: (dy, [Xs, Ws]) => [tf.matMul(dy, tf.transpose(Ws)), tf.matMul(tf.transpose(Xs), dy), tf.sum(dy, 0)],
    };
  })(X, W, b);
  const gelu = (U) => tf.mul(tf.mul(U, 0.5), tf.add(1, tf.tanh(tf.mul(tf.add(U, tf.mul(tf.mul(tf.mul(U, U), U), 0.044715)), c))));

  // ids: int32 (B m) -> logits (B m, vocab), or (k, vocab) of the rows listed in `rows` (int32 k)
  function forward(ids, B, m, rows = null) {
    const split = (M) => tf.reshape(tf.transpose(tf.reshape(M, [B, m, h, dh]), [0, 2, 1, 3]), [B * h, m, dh]);
    const merge = (Z) => tf.reshape(tf.transpose(tf.reshape(Z, [B, h, m, dh]), [0, 2, 1, 3]), [B * m, d]);
    const positions = m === n ? vars.positions : tf.slice(vars.positions, [0, 0], [m, d]);
    const causal = m === n ? mask : tf.slice(mask, [0, 0], [m, m]);
    let X = tf.reshape(tf.add(tf.reshape(embed(vars.embedding, ids), [B, m, d]), positions), [B * m, d]);
    for (let l = 1; l <= layers; l++) {
      const v = (k) => vars[`layer${l}.${k}`];
      const Y = layerNorm(X, v('ln1.gain'), v('ln1.bias'));
      const Q = split(linear(Y, v('Wq'), v('bq'))), K = split(linear(Y, v('Wk'), v('bk'))), V = split(linear(Y, v('Wv'), v('bv')));
      const A = tf.softmax(tf.add(tf.mul(tf.matMul(Q, K, false, true), scale), causal));  // (B h, m, m)
      const H = tf.add(X, linear(merge(tf.matMul(A, V)), v('Wo'), v('bo')));
      X = tf.add(H, linear(gelu(linear(layerNorm(H, v('ln2.gain'), v('ln2.bias')), v('W1'), v('b1'))), v('W2'), v('b2')));
    }
    if (rows) X = pick(X, rows);
    return linear(layerNorm(X, vars['lnf.gain'], vars['lnf.bias']), vars.Wout, vars.bout);
  }

  // -> the mean cross-entropy over the rows with a target (a scalar tensor)
  function lossOf(tokens, targets, B) {
    const rows = [];
    targets.forEach((x, i) => { if (x >= 0) rows.push(i); });
    const labels = tf.oneHot(tf.tensor1d(Int32Array.from(rows, (i) => targets[i]), 'int32'), vocab);
    const logits = forward(tf.tensor1d(tokens, 'int32'), B, tokens.length / B, tf.tensor1d(rows, 'int32'));
    return tf.losses.softmaxCrossEntropy(labels, logits);
  }

  return {
    step(tokens, targets) {
      t++;
      adam.learningRate = learningRate * (warmup > 0 ? Math.min(1, t / warmup) : 1);
      const cost = tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => lossOf(tokens, targets, tokens.length / n), list);
        let g = grads;
        if (clip > 0) {
          const norm = tf.sqrt(tf.addN(names.map((k) => tf.sum(tf.square(grad(grads, k))))));
          const factor = tf.minimum(1, tf.div(clip, norm));
          g = Object.fromEntries(Object.entries(grads).map(([k, x]) => [k, tf.mul(x, factor)]));
        }
        adam.applyGradients(g);
        return value;
      });
      const value = cost.dataSync()[0];
      cost.dispose();
      return value;
    },
    // the batch's loss and every gradient, unclipped, and their global norm; no update
    gradients(tokens, targets) {
      return tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => lossOf(tokens, targets, tokens.length / n), list);
        const out = Object.fromEntries(names.map((k) => [k, grad(grads, k).dataSync()]));
        let sq = 0;
        for (const g of Object.values(out)) for (const x of g) sq += x * x;
        return { loss: value.dataSync()[0], grads: out, norm: Math.sqrt(sq) };
      });
    },
    // the mean loss per target over batches ({ tokens, targets, count, rows })
    loss(batches) {
      let sum = 0, count = 0;
      for (const b of batches) {
        const x = tf.tidy(() => lossOf(b.tokens, b.targets, b.rows));
        sum += x.dataSync()[0] * b.count;
        count += b.count;
        x.dispose();
      }
      return sum / count;
    },
    // the logits of the next token after ids (1 <= length <= context)
    logits(ids) {
      const m = ids.length;
      const out = tf.tidy(() => tf.slice(forward(tf.tensor1d(Int32Array.from(ids), 'int32'), 1, m), [m - 1, 0], [1, vocab]));
      const values = out.dataSync();
      out.dispose();
      return values;
    },
    parameters() {
      return Object.fromEntries(names.map((k) => [k, { rows: shapes[k][0], cols: shapes[k][1], data: vars[k].dataSync() }]));
    },
    dispose() {
      tf.dispose(list);
      mask.dispose();
      adam.dispose();
    },
  };
}

// Samples up to maxTokens characters after [0] + prompt, one full forward per
// token (TF.js has no key-value cache): temperature, top-k, a seeded draw.
// -> the prompt + what it wrote (stops at the boundary or a full context)
export function generate(model, vocabulary, context, { prompt = '', maxTokens = 24, temperature = 0.8, topK = 20, seed = 3 } = {}) {
  const next = splitMix32(seed);
  const ids = Array.from(encode(vocabulary, prompt).subarray(0, -1));
  let text = prompt;
  for (let k = 0; k < maxTokens && ids.length < context; k++) {
    const logits = model.logits(ids);
    const order = Array.from(logits.keys()).sort((a, b) => logits[b] - logits[a]).slice(0, topK > 0 ? topK : logits.length);
    let id = order[0];
    if (temperature > 0) {
      const w = order.map((i) => Math.exp((logits[i] - logits[order[0]]) / temperature));
      let r = (next() / 2 ** 32) * w.reduce((a, b) => a + b, 0);
      for (let j = 0; j < w.length; j++) if ((r -= w[j]) < 0 || j === w.length - 1) { id = order[j]; break; }
    }
    if (id === 0) break;
    ids.push(id);
    text += vocabulary.tokens[id];
  }
  return text;
}
