// The language model as attention is run today (createLanguageModel's
// position, kvHeads, window, sinks; evaluate({ length }); generation's
// cachePositions; positionLosses along a text): the held-out loss, and the
// loss of each next token along a text, of every variant against a plain
// double-precision forward of the whole model written here from the
// parameters() it returns (not the core's code), at lengths up to 4x the
// context; trained variants checked by the gradient check; the cache's
// numbers with shared keys and a window; and bad options refused with their
// JS names and codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att, withModel } from './module.mjs';

const base = {
  texts: ['abcab', 'bcabc', 'cabca', 'ab', 'abcabcabc', 'cbacba'], heldOut: ['abca', 'cab', 'bcabcab'],
  layers: 2, heads: 4, dModel: 8, context: 6, batch: 3, warmup: 0, seed: 4,
};

// ---- the reference: plain loops in double -----------------------------------------------------

const at = (m, r, c) => m.data[r * m.cols + c];

function layerNorm(x, gain, bias) {
  const d = x.length;
  const mean = x.reduce((s, v) => s + v, 0) / d;
  const variance = x.reduce((s, v) => s + (v - mean) ** 2, 0) / d;
  const rstd = 1 / Math.sqrt(variance + 1e-5);
  return x.map((v, c) => (v - mean) * rstd * gain.data[c] + bias.data[c]);
}

// x (1 x in) W (in x out) + b
function affine(x, W, b) {
  const out = new Array(W.cols).fill(0);
  for (let o = 0; o < W.cols; o++) {
    let s = b ? b.data[o] : 0;
    for (let i = 0; i < W.rows; i++) s += x[i] * at(W, i, o);
    out[o] = s;
  }
  return out;
}

const gelu = (u) => 0.5 * u * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (u + 0.044715 * u ** 3)));

// the ALiBi slopes of the paper for any head count
function slopesOf(heads) {
  const power = (p) => Array.from({ length: p }, (_, k) => 2 ** (-8 * (k + 1) / p));
  const p = 2 ** Math.floor(Math.log2(heads));
  return [...power(p), ...power(2 * p).filter((_, i) => i % 2 === 0)].slice(0, heads);
}

// pair (2i, 2i + 1) of each head of width dh turned by position p
function turned(v, p, dh) {
  const out = v.slice();
  for (let h = 0; h < v.length; h += dh)
    for (let i = 0; i < dh / 2; i++) {
      const theta = p * 10000 ** (-2 * i / dh), a = v[h + 2 * i], b = v[h + 2 * i + 1];
      out[h + 2 * i] = a * Math.cos(theta) - b * Math.sin(theta);
      out[h + 2 * i + 1] = a * Math.sin(theta) + b * Math.cos(theta);
    }
  return out;
}

// next-token log-losses of one window of tokens: [-log p(tokens[i + 1])] for every i with a target
function windowLosses(P, o, tokens, targets) {
  const { heads, dModel: d, layers } = o, dh = d / heads, kv = o.kvHeads || heads, n = tokens.length;
  let X = tokens.map((t, p) => Array.from({ length: d }, (_, c) => {
    let x = at(P.embedding, t, c);
    if (o.position === 'learned') x += at(P.positions, p, c);
    if (o.position === 'sinusoidal') {
      const angle = p / 10000 ** ((c - (c % 2)) / d);
      x += c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
    return x;
  }));
  const slopes = slopesOf(heads);
  const sees = (i, j) => j <= i && (!o.window || i - j < o.window || j < (o.sinks ?? 0));
  for (let l = 1; l <= layers; l++) {
    const W = (name) => P[`layer${l}.${name}`];
    const Y = X.map((x) => layerNorm(x, W('ln1.gain'), W('ln1.bias')));
    let Q = Y.map((y) => affine(y, W('Wq'), W('bq')));
    let K = Y.map((y) => affine(y, W('Wk'), W('bk')));
    const V = Y.map((y) => affine(y, W('Wv'), W('bv')));
    if (o.position === 'rotary') {
      Q = Q.map((q, p) => turned(q, p, dh));
      K = K.map((k, p) => turned(k, p, dh));
    }
    const Z = X.map(() => new Array(d).fill(0));
    for (let h = 0; h < heads; h++) {
      const g = Math.floor(h * kv / heads);
      for (let i = 0; i < n; i++) {
        const s = [];
        for (let j = 0; j <= i; j++) {
          if (!sees(i, j)) continue;
          let dot = 0;
          for (let c = 0; c < dh; c++) dot += Q[i][h * dh + c] * K[j][g * dh + c];
          s.push([j, dot / Math.sqrt(dh) - (o.position === 'alibi' ? slopes[h] * (i - j) : 0)]);
        }
        const top = Math.max(...s.map(([, v]) => v));
        const sum = s.reduce((acc, [, v]) => acc + Math.exp(v - top), 0);
        for (const [j, v] of s)
          for (let c = 0; c < dh; c++) Z[i][h * dh + c] += Math.exp(v - top) / sum * V[j][g * dh + c];
      }
    }
    const H = X.map((x, i) => affine(Z[i], W('Wo'), W('bo')).map((v, c) => v + x[c]));
    X = H.map((hh) => {
      const u = affine(layerNorm(hh, W('ln2.gain'), W('ln2.bias')), W('W1'), W('b1')).map(gelu);
      return affine(u, W('W2'), W('b2')).map((v, c) => v + hh[c]);
    });
  }
  const losses = [];
  for (let i = 0; i < n; i++) {
    if (targets[i] < 0) continue;
    const logits = affine(layerNorm(X[i], P['lnf.gain'], P['lnf.bias']), P.Wout, P.bout);
    const top = Math.max(...logits);
    const logSum = Math.log(logits.reduce((acc, v) => acc + Math.exp(v - top), 0)) + top;
    losses.push(logSum - logits[targets[i]]);
  }
  return losses;
}

// evaluate({ texts, length }) in the reference: ⏎ text ⏎ joined, windows of length targets
function referenceLoss(lm, o, texts, length) {
  const index = new Map(lm.vocabulary().tokens.map((t, i) => [t, i]));
  const stream = [0];
  for (const t of texts) stream.push(...[...t].map((c) => index.get(c)), 0);
  const P = lm.parameters(), losses = [];
  for (let start = 0; start < stream.length - 1; start += length) {
    const end = Math.min(start + length, stream.length - 1);
    const tokens = stream.slice(start, end), targets = stream.slice(start + 1, end + 1);
    losses.push(...windowLosses(P, o, tokens, targets));
  }
  return { loss: losses.reduce((a, b) => a + b, 0) / losses.length, tokens: losses.length };
}

// ---- the tests --------------------------------------------------------------------------------

const variants = [
  { position: 'learned' }, { position: 'sinusoidal' }, { position: 'rotary' }, { position: 'alibi' }, { position: 'none' },
  { position: 'learned', kvHeads: 2 }, { position: 'rotary', kvHeads: 1 },
  { position: 'learned', window: 2 }, { position: 'alibi', kvHeads: 2, window: 3, sinks: 1 },
];

test('each variant, trained: its held-out loss equals a plain double forward of its parameters, past the context where it can', async () => {
  for (const v of variants) {
    const o = { ...base, ...v };
    await withModel(o, (lm) => {
      lm.step(25);
      const label = JSON.stringify(v);
      assert.ok(lm.gradientCheck().maxRelativeError <= 1e-6, label);
      const lengths = v.position === 'learned' ? [3, 6] : [3, 6, 12, 24];
      for (const length of lengths) {
        const e = lm.evaluate({ length });
        const r = referenceLoss(lm, o, base.heldOut, length);
        assert.equal(e.tokens, r.tokens, label);
        assert.equal(e.length, Math.min(length, r.tokens), label);
        assert.ok(Math.abs(e.loss - r.loss) < 1e-5 * (1 + r.loss), `${label} length ${length}: ${e.loss} vs ${r.loss}`);
      }
      // other texts than the held-out ones
      const texts = ['cbacbacba', 'a'];
      const e = lm.evaluate({ texts, length: 6 });
      assert.ok(Math.abs(e.loss - referenceLoss(lm, o, texts, 6).loss) < 1e-5 * (1 + e.loss), label);
    });
  }
});

test('positionLosses: the loss of each next token along a text, through the cache (past 4 contexts with a window) and at once, equals the plain double forward', async () => {
  const variants = [
    { position: 'rotary' }, { position: 'learned' }, { position: 'alibi', kvHeads: 2, window: 3, sinks: 1 }, { position: 'rotary', window: 2 },
    { position: 'rotary', window: 3, sinks: 2 },
  ];
  for (const v of variants) {
    const o = { ...base, ...v }, label = JSON.stringify(v);
    await withModel(o, (lm) => {
      lm.step(25);
      const index = new Map(lm.vocabulary().tokens.map((t, i) => [t, i]));
      // with a window, 40 characters: 41 positions, past 4 contexts of 6, through the ring
      const text = v.window ? 'abcabcbacbacabcabcbacbacabcabcaabbccabca' : 'abca';
      const ids = [...text].map((c) => index.get(c));
      const want = windowLosses(lm.parameters(), o, [0, ...ids], [...ids, 0]);
      const r = lm.positionLosses(text);
      assert.deepEqual(r.tokens, ['⏎', ...text, '⏎'], label);
      assert.ok(r.losses instanceof Float64Array && r.losses.length === text.length + 1, label);
      r.losses.forEach((l, i) => assert.ok(Math.abs(l - want[i]) < 1e-5 * (1 + want[i]), `${label} position ${i}: ${l} vs ${want[i]}`));
      assert.ok(Math.abs(r.mean - r.losses.reduce((a, b) => a + b, 0) / r.losses.length) < 1e-12, label);
      // at once, where the full forward reaches (4 contexts, learned: 1): the same losses, bit for bit; their
      // mean is evaluate()'s on that text read in one window
      const short = text.slice(0, v.position === 'learned' ? 5 : 23);
      const once = lm.positionLosses(short, { cached: false });
      assert.deepEqual(once.losses.subarray(0, short.length), lm.positionLosses(text, { cached: true }).losses.subarray(0, short.length), label);
      assert.ok(Math.abs(once.mean - lm.evaluate({ texts: [short], length: short.length + 1 }).loss) < 1e-12, label);
    });
  }
  await withModel({ ...base, position: 'rotary', window: 3, sinks: 1 }, (lm) => {
    lm.step(10);
    // slot positions: the first 4 positions read every key at its own position, later ones the sink nearer
    const absolute = lm.positionLosses('abcabcabcabc'), slot = lm.positionLosses('abcabcabcabc', { cachePositions: 'slot' });
    assert.deepEqual(slot.losses.subarray(0, 4), absolute.losses.subarray(0, 4));
    assert.notDeepEqual(slot.losses.subarray(4), absolute.losses.subarray(4));
  });
  await withModel(base, (lm) => {
    const refused = (f, message) => assert.throws(f, (e) => e.name === 'AttentionError' && e.code === 'BAD_ARGUMENT' && message.test(e.message));
    refused(() => lm.positionLosses('abcabc'), /^languageModel\.positionLosses: text has 6 characters; with the boundary token at most 5 fit: context = 6 \(learned positions end there\)$/);
    refused(() => lm.positionLosses('ab', { cachePositions: 'slot' }), /cachePositions "slot" renumbers the cached keys when they are read: it needs cached reading and rotary or alibi positions, not learned/);
    refused(() => lm.positionLosses('ab', { cachePositions: 'ring' }), /cachePositions must be "absolute" or "slot", got "ring"/);
    refused(() => lm.positionLosses('abz'), /text has the character "z" \(U\+007A\) that is not in the vocabulary/);
    assert.throws(() => lm.positionLosses(3), /text must be a string/);
    assert.throws(() => lm.positionLosses('ab', { cached: 'yes' }), /cached must be true or false, got the string "yes"/);
    assert.throws(() => lm.positionLosses('ab', { window: 3 }), /window/);
  });
});

test('info() and parameters() carry the options; shared keys shrink Wk, Wv and the cache', async () => {
  await withModel({ ...base, position: 'rotary', kvHeads: 1, window: 3, sinks: 1 }, async (lm) => {
    const i = lm.info();
    assert.deepEqual([i.position, i.kvHeads, i.window, i.sinks], ['rotary', 1, 3, 1]);
    assert.deepEqual([i.options.position, i.options.kvHeads, i.options.window, i.options.sinks], ['rotary', 1, 3, 1]);
    const p = lm.parameters();
    assert.deepEqual([p.positions.rows, p.positions.cols], [0, 8]);
    assert.deepEqual([p['layer1.Wk'].rows, p['layer1.Wk'].cols, p['layer1.bv'].cols], [8, 2, 2]);
    lm.step(5);
    // a prompt twice the context, read through the ring of the sink and the last 3 positions
    const steps = lm.beginGeneration({ prompt: 'abcabcabcab', temperature: 0 });
    assert.equal(steps.length, 12);
    for (const s of steps) {
      const entries = Math.min(s.position + 1, 4);
      assert.equal(s.cacheEntries, entries);
      assert.equal(s.cacheNumbers, 2 * 2 * entries * 2);  // K and V, 2 layers, one head of width 2
      assert.equal(s.attention.cached, 2 * entries * 8);
      for (const row of s.rows[0]) {
        assert.equal(row.length, s.position + 1);
        row.forEach((w, j) => { if (j !== 0 && s.position - j >= 3) assert.equal(w, 0); });
      }
    }
    // parameters() and setParameters() carry a model without a position table into another
    const before = lm.evaluate({ length: 12 }).loss;
    await withModel({ ...base, position: 'rotary', kvHeads: 1, window: 3, sinks: 1, seed: 9 }, (other) => {
      assert.notEqual(other.evaluate({ length: 12 }).loss, before);
      other.setParameters(lm.parameters());
      assert.equal(other.evaluate({ length: 12 }).loss, before);
      // and through JSON, as the widget's export writes it: the empty table as { rows: 0, cols: 8, data: [] }
      const json = JSON.parse(JSON.stringify(lm.parameters(), (key, x) => (ArrayBuffer.isView(x) ? Array.from(x) : x)));
      assert.deepEqual(json.positions, { rows: 0, cols: 8, data: [] });
      other.setParameters(json);
      assert.equal(other.evaluate({ length: 12 }).loss, before);
    });
    const slot = lm.beginGeneration({ prompt: 'abcabcabcab', temperature: 0, cachePositions: 'slot' });
    assert.deepEqual(slot.slice(0, 4).map((s) => s.rows), steps.slice(0, 4).map((s) => s.rows));
    assert.notDeepEqual(slot.slice(4).map((s) => s.rows), steps.slice(4).map((s) => s.rows));
  });
});

test('bad options are refused with their JS names and codes', async () => {
  const refused = (options, code, message) => assert.rejects(att.createLanguageModel({ ...base, ...options }),
    (e) => e.name === 'AttentionError' && e.code === code && message.test(e.message), JSON.stringify(options));
  await refused({ position: 'rope' }, 'BAD_ARGUMENT', /position must be "learned", "sinusoidal", "rotary", "alibi" or "none", got "rope"/);
  await refused({ kvHeads: 3 }, 'BAD_ARGUMENT', /kvHeads 3 does not divide heads 4/);
  await refused({ window: 7 }, 'BAD_ARGUMENT', /window must be an integer from 0 to 6/);
  await refused({ sinks: 2 }, 'BAD_ARGUMENT', /sinks keep the first keys in view when a window would hide them/);
  await refused({ position: 'rotary', heads: 8 }, 'BAD_ARGUMENT', /rotary positions turn pairs of numbers: each head's width must be even, got 1/);
  await refused({ position: 3 }, 'BAD_ARGUMENT', /position must be a string/);
  await withModel(base, (lm) => {
    assert.throws(() => lm.evaluate({ length: 7 }), (e) => e.code === 'BAD_ARGUMENT' &&
      /learned positions are a table of context = 6 rows: they cannot read 7 positions/.test(e.message));
    assert.throws(() => lm.evaluate({ texts: ['abc'] }), /length is required/);
    assert.throws(() => lm.beginGeneration({ cachePositions: 'slot' }), (e) => e.code === 'BAD_ARGUMENT' &&
      /cachePositions "slot" renumbers the cached keys when they are read/.test(e.message));
    assert.throws(() => lm.generate({ cachePositions: 'ring' }), /cachePositions must be "absolute" or "slot", got "ring"/);
  });
});
