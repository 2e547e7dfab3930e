// The language model's training peer of the benchmark (bench/language-model-tfjs.mjs):
// its tokens and batches are the core's kind, and its TF.js model is the
// contract's model: its loss equals a float64 plain-loop reference written
// here, its gradients equal the reference's finite differences, and its Adam
// step follows the warm-up and the clipping. TF.js here is the root's
// tfjs-core with its gradients and the CPU backend, bundled by esbuild (the
// benchmark runs the same code on tfjs-backend-wasm).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  buildVocabulary, encode, generate, initParameters, lmBatches, lmEvaluationBatches, tensorShapes, tfjsLanguageModel,
} from '../../bench/language-model-tfjs.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
let tf, tmp;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'attention-wasm-language-model-tfjs-'));
  const bundled = await build({
    stdin: {
      contents: "export * from '@tensorflow/tfjs-core';\nimport '@tensorflow/tfjs-core/dist/register_all_gradients';\nimport '@tensorflow/tfjs-backend-cpu';\n",
      resolveDir: root, loader: 'js',
    },
    bundle: true, format: 'esm', platform: 'node', mainFields: ['module', 'main'], write: false, logLevel: 'error',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  writeFileSync(join(tmp, 'tf.mjs'), bundled.outputFiles[0].text);
  tf = await import(join(tmp, 'tf.mjs'));
  tf.env().set('IS_NODE', false);  // no advice to install tfjs-node
  await tf.setBackend('cpu');
});

after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// ---- the reference: the contract's model in float64, one loop at a time ------------
function referenceLoss(cfg, P, tokens, targets) {
  const { vocab, context: n, dModel: d, heads: h, layers } = cfg;
  const dh = d / h, rowsCount = tokens.length;
  const at = (name, r, c) => P[name].data[r * P[name].cols + c];
  const layerNorm = (x, g, b) => {
    const mean = x.reduce((a, v) => a + v, 0) / d;
    const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / d;
    return x.map((v, c) => ((v - mean) / Math.sqrt(variance + 1e-5)) * at(g, 0, c) + at(b, 0, c));
  };
  const linear = (x, W, b) => {
    const cols = P[W].cols;
    return Array.from({ length: cols }, (_, c) => x.reduce((a, v, k) => a + v * at(W, k, c), at(b, 0, c)));
  };
  const gelu = (u) => 0.5 * u * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (u + 0.044715 * u ** 3)));
  let X = Array.from({ length: rowsCount }, (_, r) =>
    Array.from({ length: d }, (_, c) => at('embedding', tokens[r], c) + at('positions', r % n, c)));
  for (let l = 1; l <= layers; l++) {
    const p = `layer${l}.`;
    const Y = X.map((x) => layerNorm(x, p + 'ln1.gain', p + 'ln1.bias'));
    const Q = Y.map((y) => linear(y, p + 'Wq', p + 'bq'));
    const K = Y.map((y) => linear(y, p + 'Wk', p + 'bk'));
    const V = Y.map((y) => linear(y, p + 'Wv', p + 'bv'));
    const Z = X.map(() => new Array(d).fill(0));
    for (let r = 0; r < rowsCount; r++) {
      const first = r - (r % n);  // the sequence's first row: keys first..r (causal)
      for (let head = 0; head < h; head++) {
        const s = [];
        for (let j = first; j <= r; j++) {
          let dot = 0;
          for (let k = head * dh; k < (head + 1) * dh; k++) dot += Q[r][k] * K[j][k];
          s.push(dot / Math.sqrt(dh));
        }
        const max = Math.max(...s), e = s.map((v) => Math.exp(v - max)), sum = e.reduce((a, v) => a + v, 0);
        for (let j = first; j <= r; j++)
          for (let k = head * dh; k < (head + 1) * dh; k++) Z[r][k] += (e[j - first] / sum) * V[j][k];
      }
    }
    const H = X.map((x, r) => linear(Z[r], p + 'Wo', p + 'bo').map((v, c) => v + x[c]));
    X = H.map((hr) => {
      const G = linear(layerNorm(hr, p + 'ln2.gain', p + 'ln2.bias'), p + 'W1', p + 'b1').map(gelu);
      return linear(G, p + 'W2', p + 'b2').map((v, c) => v + hr[c]);
    });
  }
  let total = 0, count = 0;
  for (let r = 0; r < rowsCount; r++) {
    if (targets[r] < 0) continue;
    const logits = linear(layerNorm(X[r], 'lnf.gain', 'lnf.bias'), 'Wout', 'bout');
    const max = Math.max(...logits);
    const lse = max + Math.log(logits.reduce((a, v) => a + Math.exp(v - max), 0));
    total += lse - logits[targets[r]];
    count++;
    assert.equal(logits.length, vocab);
  }
  return total / count;
}

const CFG = { vocab: 7, context: 5, dModel: 8, heads: 2, layers: 2, learningRate: 0.01, warmup: 4, clip: 0.5 };

// the initial parameters with every bias and gain moved off 0 and 1 (so that each term shows)
function parameters(seed) {
  const P = initParameters(CFG, seed);
  let k = 0;
  for (const [name, t] of Object.entries(P))
    if (t.rows === 1) for (let i = 0; i < t.data.length; i++) t.data[i] += 0.1 * Math.sin(++k * 1.7) + (name.endsWith('gain') ? 0.2 : 0);
  return P;
}

// two sequences: one full row of targets, one padded after three (targets -1, inputs 0)
const TOKENS = Int32Array.from([0, 3, 5, 1, 2, 0, 6, 4, 0, 0]);
const TARGETS = Int32Array.from([3, 5, 1, 2, 6, 6, 4, 0, -1, -1]);

test('the TF.js model\'s loss is the float64 reference\'s, padding left out', () => {
  for (const seed of [1, 2]) {
    const P = parameters(seed);
    const m = tfjsLanguageModel(tf, CFG, P);
    const { loss } = m.gradients(TOKENS, TARGETS);
    const ref = referenceLoss(CFG, P, TOKENS, TARGETS);
    assert.ok(Math.abs(loss - ref) < 2e-6 * Math.abs(ref), `seed ${seed}: ${loss} against ${ref}`);
    // a padded position's input does not matter; its target is not counted
    const other = TOKENS.slice();
    other[9] = 5;
    assert.ok(Math.abs(m.gradients(other, TARGETS).loss - loss) < 1e-7);
    assert.notEqual(referenceLoss(CFG, P, TOKENS, Int32Array.from(TARGETS, (t, i) => (i === 8 ? 1 : t))), ref);
    m.dispose();
  }
});

test('its gradients are the reference\'s central differences, entry by entry in every tensor', () => {
  const P = parameters(3);
  const m = tfjsLanguageModel(tf, CFG, P);
  const { grads } = m.gradients(TOKENS, TARGETS);
  m.dispose();
  const eps = 1e-4;
  let worst = 0;
  for (const [name, t] of Object.entries(P)) {
    // three entries a tensor: the first, the middle, the last
    for (const i of [0, t.data.length >> 1, t.data.length - 1]) {
      const keep = t.data[i];
      const Q = Object.fromEntries(Object.entries(P).map(([k, v]) => [k, { ...v, data: Float64Array.from(v.data) }]));
      Q[name].data[i] = keep + eps;
      const up = referenceLoss(CFG, Q, TOKENS, TARGETS);
      Q[name].data[i] = keep - eps;
      const down = referenceLoss(CFG, Q, TOKENS, TARGETS);
      const fd = (up - down) / (2 * eps);
      const error = Math.abs(grads[name][i] - fd) / Math.max(1e-3, Math.abs(fd));
      worst = Math.max(worst, error);
      assert.ok(error < 2e-3, `${name}[${i}]: ${grads[name][i]} against ${fd}`);
    }
  }
  assert.ok(worst > 0);
});

test('Adam: the first step moves every entry by the warmed-up rate; the second uses the clipped gradients', () => {
  const P = parameters(4);
  const m = tfjsLanguageModel(tf, CFG, P);
  const g1 = m.gradients(TOKENS, TARGETS);
  assert.ok(g1.norm > CFG.clip, `norm ${g1.norm}`);  // so that clipping acts
  m.step(TOKENS, TARGETS);
  const p1 = m.parameters();
  // step 1: m_hat = g, v_hat = g^2, so |change| = learningRate / warmup wherever |g| >> epsilon
  const rate1 = CFG.learningRate / CFG.warmup;
  const w = P['layer1.Wq'].data, g = g1.grads['layer1.Wq'];
  for (let i = 0; i < w.length; i++)
    if (Math.abs(g[i]) > 1e-3) assert.ok(Math.abs(w[i] - p1['layer1.Wq'].data[i] - rate1 * Math.sign(g[i])) < 1e-6, `entry ${i}: ${w[i]} -> ${p1['layer1.Wq'].data[i]}, gradient ${g[i]}`);
  // step 2: the moments of the clipped gradients, the rate of step 2
  const g2 = m.gradients(TOKENS, TARGETS);
  m.step(TOKENS, TARGETS);
  const p2 = m.parameters();
  const s1 = Math.min(1, CFG.clip / g1.norm), s2 = Math.min(1, CFG.clip / g2.norm);
  const name = 'Wout';
  let checked = 0;
  for (let i = 0; i < p2[name].data.length; i++) {
    const a = g1.grads[name][i] * s1, b = g2.grads[name][i] * s2;
    const mHat = (0.9 * 0.1 * a + 0.1 * b) / (1 - 0.9 ** 2);
    const vHat = (0.999 * 0.001 * a * a + 0.001 * b * b) / (1 - 0.999 ** 2);
    const expected = p1[name].data[i] - ((2 * CFG.learningRate) / CFG.warmup) * (mHat / (Math.sqrt(vHat) + 1e-8));
    assert.ok(Math.abs(p2[name].data[i] - expected) < 2e-6, `${name}[${i}]: ${p2[name].data[i]} against ${expected}`);
    checked++;
  }
  assert.equal(checked, 8 * 7);
  m.dispose();
});

test('the vocabulary is the core\'s: boundary, unknown only when something folds, characters by code point', () => {
  const v = buildVocabulary(['ba', 'ca'], []);
  assert.deepEqual(v.tokens, ['⏎', 'a', 'b', 'c']);
  assert.equal(v.unknown, -1);
  assert.deepEqual(Array.from(encode(v, 'cab')), [0, 3, 1, 2, 0]);
  assert.throws(() => encode(v, 'd'), /the character d is not in the vocabulary/);
  const held = buildVocabulary(['ba', 'ca'], ['xa']);  // a held-out character folds
  assert.deepEqual(held.tokens, ['⏎', '�', 'a', 'b', 'c']);
  assert.deepEqual(Array.from(encode(held, 'xa')), [0, 1, 2, 0]);
  const rare = buildVocabulary(['aab', '😀a'], [], 2);  // b and 😀 seen once: folded
  assert.deepEqual(rare.tokens, ['⏎', '�', 'a']);
  assert.deepEqual(buildVocabulary(['z😀a'], []).tokens, ['⏎', 'a', 'z', '😀']);
});

test('batches: [0] + text + [0], padded (targets -1) when shorter, a random window when longer', () => {
  const v = buildVocabulary(['abc', 'abcdefghij'], []);
  const sequences = ['abc', 'abcdefghij'].map((t) => encode(v, t));
  const next = lmBatches({ sequences, context: 6, batch: 64, seed: 5 });
  const { tokens, targets, count } = next();
  assert.equal(tokens.length, 64 * 6);
  let short = 0, counted = 0;
  const windows = new Set();
  for (let b = 0; b < 64; b++) {
    const x = Array.from(tokens.subarray(b * 6, b * 6 + 6)), y = Array.from(targets.subarray(b * 6, b * 6 + 6));
    counted += y.filter((t) => t >= 0).length;
    if (y.includes(-1)) {
      short++;
      assert.deepEqual(x, [0, 1, 2, 3, 0, 0]);
      assert.deepEqual(y, [1, 2, 3, 0, -1, -1]);
    } else {
      const full = Array.from(sequences[1]);  // [0, 1, ..., 10, 0]: windows of 7 start at 0..5
      const start = x[0];                       // token s stands at index s
      assert.deepEqual(x, full.slice(start, start + 6));
      assert.deepEqual(y, full.slice(start + 1, start + 7));
      windows.add(start);
    }
  }
  assert.equal(count, counted);
  assert.ok(short > 16 && short < 48, `${short} short ones`);
  assert.equal(windows.size, 6);
  assert.notDeepEqual(Array.from(next().tokens), Array.from(tokens));
  assert.deepEqual(Array.from(lmBatches({ sequences, context: 6, batch: 64, seed: 5 })().tokens), Array.from(tokens));
  const evaluation = lmEvaluationBatches({ sequences, context: 6, batch: 1 });
  assert.deepEqual(evaluation.map((e) => e.count), [4, 6]);
});

test('a few hundred steps on a tiny corpus learn it; generation is seeded and ends at the boundary', () => {
  const texts = ['abcab', 'bcabc', 'cabca'];
  const v = buildVocabulary(texts, []);
  const cfg = { vocab: v.tokens.length, context: 8, dModel: 16, heads: 2, layers: 1, learningRate: 0.01, warmup: 10, clip: 1 };
  assert.deepEqual(Object.keys(tensorShapes(cfg)).length, 2 + 16 + 4);
  const m = tfjsLanguageModel(tf, cfg, initParameters(cfg, 7));
  const next = lmBatches({ sequences: texts.map((t) => encode(v, t)), context: 8, batch: 8, seed: 1 });
  const first = m.step(...Object.values(next()).slice(0, 2));
  assert.ok(first > 1, `first loss ${first}`);  // ln 4 = 1.39 for a uniform guess
  let last;
  for (let s = 0; s < 200; s++) {
    const b = next();
    last = m.step(b.tokens, b.targets);
  }
  // the first character is a guess among three; after it every text is determined
  assert.ok(last < 0.35, `loss ${last} after 201 steps`);
  const a = generate(m, v, 8, { seed: 2, temperature: 0.5 }), b = generate(m, v, 8, { seed: 2, temperature: 0.5 });
  assert.equal(a, b);
  assert.ok(texts.includes(a), a);
  assert.ok(texts.includes(generate(m, v, 8, { prompt: 'b', temperature: 0 })));
  m.dispose();
});
