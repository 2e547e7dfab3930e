// The training peer of bench/trainer-vs-tfjs.mjs: the default model of cpp/attention/training/trainer.hpp
// written in TF.js (tfjs-core ops, any backend), trained by TF.js's own Adam,
// and the reverse/shift batches the core draws, so that both sides see the
// very same data.
//
//   tokens -> X = oneHot(tokens) E + PE        (B n, d)   tfjs-backend-wasm has no gradient
//                                                         for gather: a one-hot product instead
//          -> Q, K, V = X Wq, X Wk, X Wv       (B n, d)
//          -> per head: A = softmax(Q K^T / sqrt(d_head)), Z = A V   (B h, n, d_head)
//          -> logits = concat_h Z  Wo          (B n, vocab)
//          -> loss = mean softmax cross-entropy over all B n positions

// ---- the core's batches ----------------------------------------------------------
// SplitMix64 as in init.cpp (BigInt: 64-bit wrap-around) and task_fill as in
// cpp/attention/training/tasks.cpp. Batches come from stream 51 of the seed (cpp/attention/training/trainer.cpp); the probe
// example from stream 53, which trainer-vs-tfjs.mjs compares with t.probe().input to
// check that this copy draws what the core draws.
const M64 = (1n << 64n) - 1n;
export const STREAM_BATCHES = 51, STREAM_PROBE = 53;

export function coreRng(seed, stream) {
  let state = ((BigInt(seed) * 0x9e3779b97f4a7c15n) ^ ((BigInt(stream) + 1n) * 0xd1b54a32d192ed03n)) & M64;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & M64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  };
}

// the input position that output position i (of n) copies (cpp/attention/training/tasks.hpp)
const source = { reverse: (i, n) => n - 1 - i, shift: (i, n) => (i + n - 1) % n };

// -> () => { tokens, targets }: Int32Array(batch * length) each, the core's next batch
export function coreBatches({ task, seed, length, vocab, batch }, stream = STREAM_BATCHES) {
  const next = coreRng(seed, stream), V = BigInt(vocab);
  return () => {
    const tokens = new Int32Array(batch * length), targets = new Int32Array(batch * length);
    for (let b = 0; b < batch; b++) {
      const x = tokens.subarray(b * length, (b + 1) * length);
      for (let i = 0; i < length; i++) x[i] = Number(((next() >> 32n) * V) >> 32n);
      for (let i = 0; i < length; i++) targets[b * length + i] = x[source[task](i, length)];
    }
    return { tokens, targets };
  };
}

// ---- the model -------------------------------------------------------------------
// tf: tfjs-core with its backend ready. options: the trainer's (t.options);
// params: t.parameters() (copied into TF variables: the same starting point);
// pe: att.positionalEncoding(length, dModel), the core's fixed encoding.
// -> { step(tokens, targets) -> the batch's loss before the update, dispose() }
export function tfjsTrainer(tf, options, params, pe) {
  const { length: n, vocab, dModel: d, heads: h, batch: B, learningRate } = options;
  const dh = d / h;
  const variable = (m, name) => tf.variable(tf.tensor2d(m.data, [m.rows, m.cols], 'float32'), true, name);
  const E = variable(params.embedding, 'E');
  const Wq = variable(params.Wq, 'Wq'), Wk = variable(params.Wk, 'Wk'), Wv = variable(params.Wv, 'Wv');
  const Wo = variable(params.Wo, 'Wo');
  const PE = tf.keep(tf.tile(tf.tensor2d(pe.data, [n, d]), [B, 1]));  // (B n, d): every sequence's positions
  const scale = tf.keep(tf.scalar(1 / Math.sqrt(dh)));
  const adam = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);       // the core's AdamOptions (cpp/attention/training/trainer.cpp)

  // (B n, d) -> (B h, n, dh) and back; one head needs no transpose
  // (tfjs-core alone registers no chained methods: functions only)
  const split = (M) => (h === 1 ? tf.reshape(M, [B, n, d])
    : tf.reshape(tf.transpose(tf.reshape(M, [B, n, h, dh]), [0, 2, 1, 3]), [B * h, n, dh]));
  const merge = (Z) => (h === 1 ? tf.reshape(Z, [B * n, d])
    : tf.reshape(tf.transpose(tf.reshape(Z, [B, h, n, dh]), [0, 2, 1, 3]), [B * n, d]));

  function lossOf(tokens, targets) {  // int32 (B n) each -> scalar
    const X = tf.add(tf.matMul(tf.cast(tf.oneHot(tokens, vocab), 'float32'), E), PE);  // (B n, d)
    const Q = split(tf.matMul(X, Wq)), K = split(tf.matMul(X, Wk)), V = split(tf.matMul(X, Wv));
    const A = tf.softmax(tf.mul(tf.matMul(Q, K, false, true), scale));  // (B h, n, n)
    const logits = tf.matMul(merge(tf.matMul(A, V)), Wo);                 // (B n, vocab)
    return tf.losses.softmaxCrossEntropy(tf.oneHot(targets, vocab), logits);  // mean over B n
  }
  const ids = (a) => tf.tensor1d(a, 'int32');

  return {
    step(tokens, targets) {
      const cost = tf.tidy(() => {
        const x = ids(tokens), y = ids(targets);
        return adam.minimize(() => lossOf(x, y), true, [E, Wq, Wk, Wv, Wo]);
      });
      const value = cost.dataSync()[0];
      cost.dispose();
      return value;
    },
    dispose() {
      tf.dispose([E, Wq, Wk, Wv, Wo, PE, scale]);
      adam.dispose();
    },
  };
}
