// The quantizers the encoder's file was chosen against (bench/quantize.mjs
// measures each: size against the change of the maps and embeddings):
//   q8:       blocks of 32 int8 values with one float16 scale each, the blocks
//             along the input dimension of a dense layer (down the columns of
//             its (inputs, outputs) matrix) or along a row of the embedding table
//   codebook: 256 float32 values per tensor and one byte per entry
//   GPTQ:     each value's rounding error spread over the values of the same
//             output not yet rounded, weighted by how the inputs co-vary on
//             calibration sentences outside the test set (q8 or uniform steps)
// The converter itself uses scripts/quantize.mjs's uniform steps.
import { toHalf, fromHalf } from '../scripts/quantize.mjs';

// ---- block quantization ---------------------------------------------------------
// q8: a matrix (rows, cols) cut into blocks of `block` entries, down each column
// (axis 'rows': along the input dimension of a dense layer x·W, whose rows are
// its inputs) or along each row (axis 'cols': a row of the embedding table);
// each block has one float16 scale s and int8 values q in -127..127, value = q·s.
// The scale of a block is the one of `clips` (multiples of max |x| / 127) that
// gives the least squared error, weighted per input by `weight` (rows for axis
// 'rows', cols for 'cols') when given. Below 1 the largest value is clipped by
// more than the steps gain (never chosen at 8 bits); around 1 the grid's
// alignment with the values matters: about 10% less error than max / 127.
export const CLIPS = Array.from({ length: 25 }, (_, k) => 0.97 + 0.0025 * k);

// the blocks of each matrix: along the input dimension, a row for the embedding table
export const Q8_FORMAT = (name) => ({ block: 32, axis: name === 'embeddings' ? 'cols' : 'rows' });

export function q8Blocks(rows, cols, axis, block) {
  return axis === 'rows' ? Math.ceil(rows / block) * cols : rows * Math.ceil(cols / block);
}

export function quantizeQ8(t, { block = 32, axis = 'rows', clips = CLIPS, weight = null } = {}) {
  const { rows, cols, data } = t;
  const along = axis === 'rows' ? rows : cols, across = axis === 'rows' ? cols : rows;
  const per = Math.ceil(along / block);
  const scales = new Uint16Array(per * across);  // block b of line a (a column for 'rows', a row for 'cols') at a * per + b
  const q = new Int8Array(rows * cols);
  const at = axis === 'rows' ? (a, i) => i * cols + a : (a, i) => a * cols + i;
  for (let a = 0; a < across; a++)
    for (let b = 0; b < per; b++) {
      const start = b * block, end = Math.min(along, start + block);
      let max = 0;
      for (let i = start; i < end; i++) max = Math.max(max, Math.abs(data[at(a, i)]));
      if (max === 0) continue;
      let best = Infinity, bestScale = 0;
      for (const clip of clips) {
        const half = toHalf((clip * max) / 127);
        const s = fromHalf(half);
        if (!(s > 0)) continue;
        let err = 0;
        for (let i = start; i < end; i++) {
          const x = data[at(a, i)];
          const d = x - Math.max(-127, Math.min(127, Math.round(x / s))) * s;
          err += (weight ? weight[i] : 1) * d * d;
        }
        if (err < best) { best = err; bestScale = half; }
      }
      scales[a * per + b] = bestScale;
      const s = fromHalf(bestScale);
      for (let i = start; i < end; i++) q[at(a, i)] = Math.max(-127, Math.min(127, Math.round(data[at(a, i)] / s)));
    }
  return { block, axis, scales, q };
}

export function dequantizeQ8(rows, cols, { block, axis, scales, q }) {
  const out = new Float32Array(rows * cols);
  const per = Math.ceil((axis === 'rows' ? rows : cols) / block);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const scale = axis === 'rows' ? scales[c * per + Math.floor(r / block)] : scales[r * per + Math.floor(c / block)];
      out[r * cols + c] = q[r * cols + c] * fromHalf(scale);
    }
  return out;
}

// codebook: 256 float32 values chosen for the tensor (1-D k-means, started at
// the quantiles) and one byte per entry, its nearest value.
export function quantizeCodebook(t, { iterations = 30 } = {}) {
  const sorted = Float64Array.from(t.data).sort();
  const n = sorted.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + sorted[i];
  // started where the optimal density of levels (p^(1/3), for a bell-shaped p) puts them: at the
  // quantiles of the values spread out by √3 about their median, within their range
  const median = sorted[n >> 1];
  let centres = Float64Array.from({ length: 256 }, (_, k) => {
    const x = median + Math.sqrt(3) * (sorted[Math.min(n - 1, Math.floor(((k + 0.5) / 256) * n))] - median);
    return Math.min(sorted[n - 1], Math.max(sorted[0], x));
  });
  // the cells of sorted centres are runs of the sorted values: Lloyd's iterations by binary search
  const lowerBound = (x) => { let lo = 0, hi = n; while (lo < hi) { const m = (lo + hi) >> 1; if (sorted[m] < x) lo = m + 1; else hi = m; } return lo; };
  for (let it = 0; it < iterations; it++) {
    centres.sort();
    const next = new Float64Array(256);
    let from = 0;
    for (let k = 0; k < 256; k++) {
      const to = k === 255 ? n : lowerBound((centres[k] + centres[k + 1]) / 2);
      next[k] = to > from ? (prefix[to] - prefix[from]) / (to - from) : centres[k];
      from = to;
    }
    centres = next;
  }
  centres.sort();
  const book = Float32Array.from(centres);
  const index = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const x = t.data[i];
    let lo = 0, hi = 255;
    while (lo < hi) { const m = (lo + hi) >> 1; if (book[m] < x) lo = m + 1; else hi = m; }
    if (lo > 0 && Math.abs(book[lo - 1] - x) <= Math.abs(book[lo] - x)) lo--;
    index[i] = lo;
  }
  return { book, index };
}

// ---- calibration ------------------------------------------------------------------
// Sentences outside the encoder tests' set, of the kinds a learner types.
export const CALIBRATION = [
  'The cat sat on the mat and looked out of the window.',
  'My brother lent me his bicycle because mine was broken.',
  'When the teacher entered the room, the children stopped talking.',
  'She told her friend that the concert had been cancelled.',
  'The engineers tested the bridge before they opened it to traffic.',
  'Rain is expected tomorrow afternoon in most of the northern region.',
  'Can you recommend a good book about the history of mathematics?',
  'The company reported higher profits than analysts had predicted.',
  'After dinner we walked along the river until the sun went down.',
  'He could not lift the suitcase because it was too heavy.',
  'The trophy did not fit into the brown suitcase because it was too big.',
  'A doctor visited the patient and gave him some medicine.',
  'The committee will meet on Thursday to discuss the new budget.',
  'I have never seen such a beautiful garden in my whole life.',
  'Please turn off the lights when you leave the office.',
  'The river flooded the village, and many families lost their homes.',
  'Learning a new language takes patience, practice and curiosity.',
  'The old man gave his granddaughter a small wooden box.',
  'Scientists discovered a new species of frog in the rainforest.',
  'Why do birds fly south for the winter?',
  'The orchestra played the symphony without a conductor.',
  'Our train was delayed by two hours because of the snow.',
  'The programmer fixed the bug that had crashed the server.',
  'Mary asked Susan whether she had finished the report.',
  'Attention lets every word look at every other word in the sentence.',
  'The price of coffee rose by 15% last year.',
  'They built a small house near the lake in 1987.',
  'Is it possible to travel faster than light?',
  'The children played football in the park while their parents watched.',
  'The museum is closed on Mondays and public holidays.',
  'Good morning! How are you feeling today?',
  'The pilot announced that the plane would land shortly.',
  'Water boils at one hundred degrees Celsius at sea level.',
  'The novel tells the story of a girl who runs away from home.',
  'Because the road was icy, the driver slowed down.',
  'The students handed in their essays before the deadline.',
  'Fresh bread, cheese and olives were served with the wine.',
  'The storm knocked down trees and power lines across the city.',
  'Nobody knew where the key had been hidden.',
  'The team celebrated their victory with a big party.',
  'Prices: 4.99, 12.50 and 1,250 dollars; call 555-0199 or write to info@shop.example.',
  'Crème brûlée, jalapeño and smörgåsbord — Ｗｉｄｅ letters, ① and ℃.',
  '日本語の文と English words mixed, plus emoji 🎉🚀 and ✓ marks.',
  // long inputs: every position up to the longest (128 pieces)
  'Once upon a time there was a small village at the edge of a great forest. The people who lived there were farmers, ' +
  'and every morning they went out to their fields while the children stayed at home with their grandparents. One winter ' +
  'the snow fell for many weeks, the roads were closed, and nobody could reach the market in the town beyond the hills. ' +
  'The villagers shared what they had: bread, potatoes, apples and the milk of a few goats. When spring finally came, ' +
  'they held a festival to thank each other, and the oldest woman in the village told stories until long after midnight.',
  'In the morning the researchers collected samples from the lake, measured the temperature of the water at several depths, ' +
  'and recorded the number of fish they caught in each net. In the afternoon they returned to the laboratory, where they ' +
  'analysed the samples under a microscope and compared the results with the data from previous years. They found that ' +
  'the water had become warmer and that some species had moved to deeper parts of the lake, while others had almost ' +
  'disappeared. Their report recommended that the region should reduce the amount of fertiliser that flows into the river.',
  Array.from({ length: 160 }, (_, i) => ['red', 'green', 'blue', 'big', 'small', 'dog', 'house', 'run', 'slowly', 'under'][(i * 3) % 10]).join(' '),
];

const layerNorm = (x, T, d, scale, bias, eps) => {
  const out = new Float64Array(T * d);
  for (let p = 0; p < T; p++) {
    let mean = 0, variance = 0;
    for (let j = 0; j < d; j++) mean += x[p * d + j] / d;
    for (let j = 0; j < d; j++) variance += (x[p * d + j] - mean) ** 2 / d;
    const inv = 1 / Math.sqrt(variance + eps);
    for (let j = 0; j < d; j++) out[p * d + j] = (x[p * d + j] - mean) * inv * scale[j] + bias[j];
  }
  return out;
};
// (T, n) x (n, m) + b
const dense = (x, T, n, W, m, b) => {
  const out = new Float64Array(T * m);
  for (let p = 0; p < T; p++) {
    const o = out.subarray(p * m, (p + 1) * m);
    if (b) o.set(b);
    for (let k = 0; k < n; k++) {
      const xv = x[p * n + k];
      if (xv === 0) continue;
      for (let c = 0; c < m; c++) o[c] += xv * W[k * m + c];
    }
  }
  return out;
};

// The float64 forward pass of cpp/attention/encoder.cpp on ids, calling
// seen(name, rows, n) with the input rows (T, n) of each dense matrix.
export function forwardInputs(model, ids, seen) {
  const t = model.tensors, T = ids.length, d0 = t.embeddings.cols, half = d0 / 2;
  let x = new Float64Array(T * d0);
  for (let p = 0; p < T; p++)
    for (let j = 0; j < half; j++) {
      const angle = p * t.timing.data[j];
      x[p * d0 + j] = 2 * t.embeddings.data[ids[p] * d0 + j] + Math.sin(angle);
      x[p * d0 + half + j] = 2 * t.embeddings.data[ids[p] * d0 + half + j] + Math.cos(angle);
    }
  let d = d0;
  for (let l = 0; t[`layer${l}.qkv.W`]; l++) {
    const L = (n) => t[`layer${l}.${n}`];
    const dOut = L('out.W').cols, dff = L('ffn1.W').cols, heads = model.heads, dh = d / heads;
    let residual = x;
    if (L('residual.W')) { seen(`layer${l}.residual.W`, x, d); residual = dense(x, T, d, L('residual.W').data, dOut, L('residual.b').data); }
    const h = layerNorm(x, T, d, L('norm1.scale').data, L('norm1.bias').data, model.normEps);
    seen(`layer${l}.qkv.W`, h, d);
    const qkv = dense(h, T, d, L('qkv.W').data, 3 * d, L('qkv.b').data);
    const o = new Float64Array(T * d);
    const row = new Float64Array(T);
    for (let hh = 0; hh < heads; hh++)
      for (let i = 0; i < T; i++) {
        let max = -Infinity;
        for (let j = 0; j < T; j++) {
          let s = 0;
          for (let c = 0; c < dh; c++) s += qkv[i * 3 * d + hh * dh + c] * qkv[j * 3 * d + d + hh * dh + c];
          row[j] = s / Math.sqrt(dh);
          max = Math.max(max, row[j]);
        }
        let total = 0;
        for (let j = 0; j < T; j++) total += (row[j] = Math.exp(row[j] - max));
        for (let j = 0; j < T; j++)
          for (let c = 0; c < dh; c++) o[i * d + hh * dh + c] += (row[j] / total) * qkv[j * 3 * d + 2 * d + hh * dh + c];
      }
    seen(`layer${l}.out.W`, o, d);
    const a = dense(o, T, d, L('out.W').data, dOut, L('out.b').data);
    for (let i = 0; i < a.length; i++) a[i] += residual[i];
    const g = layerNorm(a, T, dOut, L('norm2.scale').data, L('norm2.bias').data, model.normEps);
    seen(`layer${l}.ffn1.W`, g, dOut);
    const f = dense(g, T, dOut, L('ffn1.W').data, dff, L('ffn1.b').data);
    for (let i = 0; i < f.length; i++) f[i] = Math.max(0, f[i]);
    seen(`layer${l}.ffn2.W`, f, dff);
    const y = dense(f, T, dff, L('ffn2.W').data, dOut, L('ffn2.b').data);
    for (let i = 0; i < a.length; i++) a[i] += y[i];
    x = a;
    d = dOut;
  }
  const mean = new Float64Array(d);
  for (let p = 0; p < T; p++) for (let j = 0; j < d; j++) mean[j] += x[p * d + j] / T;
  seen('pool.W', mean, d);
  return x;
}

// Per dense matrix, the second moment of its inputs over the sentences' pieces
// (idsList: the pieces of each calibration sentence): H = sum x xᵀ / count.
export function calibrate(model, idsList) {
  const acc = {};
  for (const ids of idsList)
    forwardInputs(model, ids, (name, rows, n) => {
      const a = (acc[name] ??= { n, H: new Float64Array(n * n), count: 0 });
      const T = rows.length / n;
      for (let p = 0; p < T; p++) {
        const x = rows.subarray(p * n, (p + 1) * n);
        for (let i = 0; i < n; i++) {
          const xi = x[i];
          if (xi === 0) continue;
          const Hi = a.H.subarray(i * n, (i + 1) * n);
          for (let j = 0; j < n; j++) Hi[j] += xi * x[j];
        }
      }
      a.count += T;
    });
  for (const a of Object.values(acc)) for (let i = 0; i < a.H.length; i++) a.H[i] /= a.count;
  // the embedding table has no input: a row's error reaches the outputs through
  // layer 0's residual projection and, after the layer norm, its QKV matrix.
  // Its "second moment" is that of those maps: M Mᵀ with M = [W_res, diag(γ/σ) W_qkv].
  const t = model.tensors, d = t.embeddings.cols;
  const sigma = Math.sqrt(traceOf(acc['layer0.residual.W'] ?? acc['layer0.qkv.W']) / d);
  const H = new Float64Array(d * d);
  const maps = [];
  if (t['layer0.residual.W']) maps.push({ W: t['layer0.residual.W'], g: () => 1 });
  maps.push({ W: t['layer0.qkv.W'], g: (i) => t['layer0.norm1.scale'].data[i] / sigma });
  for (const { W, g } of maps)
    for (let i = 0; i < d; i++)
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let c = 0; c < W.cols; c++) s += W.data[i * W.cols + c] * W.data[j * W.cols + c];
        s *= g(i) * g(j);
        H[i * d + j] += s;
        if (i !== j) H[j * d + i] += s;
      }
  acc.embeddings = { n: d, H, count: 1 };
  return acc;
}

function traceOf(a) {
  let s = 0;
  for (let i = 0; i < a.n; i++) s += a.H[i * a.n + i];
  return s;
}

// lower Cholesky factor of the symmetric positive definite (n, n) A, in place
function cholesky(A, n) {
  for (let j = 0; j < n; j++) {
    let s = A[j * n + j];
    for (let k = 0; k < j; k++) s -= A[j * n + k] ** 2;
    if (!(s > 0)) throw new Error('model: a calibration matrix is not positive definite');
    const ljj = Math.sqrt(s);
    A[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let v = A[i * n + j];
      for (let k = 0; k < j; k++) v -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = v / ljj;
    }
    for (let k = j + 1; k < n; k++) A[j * n + k] = 0;
  }
  return A;
}

// U upper with (H + damp)⁻¹ = Uᵀ U: the factor GPTQ rounds with
function inverseFactor(H, n, damping) {
  const A = Float64Array.from(H);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += A[i * n + i] / n;
  for (let i = 0; i < n; i++) A[i * n + i] += damping * mean + 1e-12;
  const L = cholesky(A, n);
  // L⁻¹ (lower), then H⁻¹ = L⁻ᵀ L⁻¹
  const Li = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    Li[i * n + i] = 1 / L[i * n + i];
    for (let j = 0; j < i; j++) {
      let s = 0;
      for (let k = j; k < i; k++) s += L[i * n + k] * Li[k * n + j];
      Li[i * n + j] = -s / L[i * n + i];
    }
  }
  const Hi = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = i; k < n; k++) s += Li[k * n + i] * Li[k * n + j];
      Hi[i * n + j] = s;
      Hi[j * n + i] = s;
    }
  const L2 = cholesky(Hi, n);
  const U = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) U[i * n + j] = L2[j * n + i];
  return U;
}

// q8 blocks rounded with error compensation: H (n, n) is the second moment of
// the inputs along the block axis.
export function quantizeQ8Gptq(t, H, { block = 32, axis = 'rows', damping = 0.01 } = {}) {
  const { rows, cols, data } = t;
  const n = axis === 'rows' ? rows : cols, m = axis === 'rows' ? cols : rows;
  const W = new Float64Array(n * m);  // (inputs, outputs)
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) W[axis === 'rows' ? r * m + c : c * m + r] = data[r * cols + c];
  const U = inverseFactor(H, n, damping);
  const per = Math.ceil(n / block);
  const scales = new Uint16Array(per * m);
  const q = new Int8Array(rows * cols);
  const s = new Float64Array(m), err = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    if (i % block === 0)
      for (let a = 0; a < m; a++) {
        let max = 0;
        for (let k = i; k < Math.min(n, i + block); k++) max = Math.max(max, Math.abs(W[k * m + a]));
        const half = toHalf(max / 127);
        scales[a * per + i / block] = half;
        s[a] = fromHalf(half);
      }
    const Wi = W.subarray(i * m, (i + 1) * m);
    for (let a = 0; a < m; a++) {
      const v = s[a] > 0 ? Math.max(-127, Math.min(127, Math.round(Wi[a] / s[a]))) : 0;
      q[axis === 'rows' ? i * cols + a : a * cols + i] = v;
      err[a] = (Wi[a] - v * s[a]) / U[i * n + i];
    }
    for (let j = i + 1; j < n; j++) {
      const u = U[i * n + j];
      if (u === 0) continue;
      const Wj = W.subarray(j * m, (j + 1) * m);
      for (let a = 0; a < m; a++) Wj[a] -= u * err[a];
    }
  }
  return { block, axis, scales, q };
}

// the same grid, rounded with error compensation (H along axis, as for q8)
export function quantizeUniformGptq(t, H, step, { axis = 'rows', damping = 0.01 } = {}) {
  const { rows, cols, data } = t;
  const n = axis === 'rows' ? rows : cols, m = axis === 'rows' ? cols : rows;
  const W = new Float64Array(n * m);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) W[axis === 'rows' ? r * m + c : c * m + r] = data[r * cols + c];
  const U = inverseFactor(H, n, damping);
  const k = new Int32Array(rows * cols);
  const err = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    const Wi = W.subarray(i * m, (i + 1) * m);
    for (let a = 0; a < m; a++) {
      const v = Math.round(Wi[a] / step);
      k[axis === 'rows' ? i * cols + a : a * cols + i] = v;
      err[a] = (Wi[a] - v * step) / U[i * n + i];
    }
    for (let j = i + 1; j < n; j++) {
      const u = U[i * n + j];
      if (u === 0) continue;
      const Wj = W.subarray(j * m, (j + 1) * m);
      for (let a = 0; a < m; a++) Wj[a] -= u * err[a];
    }
  }
  return k;
}
