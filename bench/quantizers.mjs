// The quantizers the encoder's file was chosen against (bench/quantize.mjs
// measures each: size against the change of the maps and embeddings):
//   q8:       blocks of 32 int8 values with one float16 scale each, the blocks
//             along the input dimension of a dense layer (down the columns of
//             its (inputs, outputs) matrix) or along a row of the embedding table
//   codebook: 256 float32 values per tensor and one byte per entry
//   GPTQ:     each value's rounding error spread over the values of the same
//             output not yet rounded, weighted by how the inputs co-vary on
//             calibration sentences outside the test set (q8 or uniform steps)
// The converter itself uses scripts/quantize.mjs's uniform steps. GPTQ's
// calibration (the sentences, the inputs' second moments) is bench/calibration.mjs's.
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
