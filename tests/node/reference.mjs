// A float64 reference of the attention maths, written from the formulas with
// plain loops and nothing shared with the C++ core. Matrices are { rows, cols, data }.

const at = (m, i, j) => m.data[i * m.cols + j];

export function zeros(rows, cols) {
  return { rows, cols, data: new Float64Array(rows * cols) };
}

export function matmul(a, b) {
  const c = zeros(a.rows, b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let j = 0; j < b.cols; j++) {
      let s = 0;
      for (let k = 0; k < a.cols; k++) s += at(a, i, k) * at(b, k, j);
      c.data[i * c.cols + j] = s;
    }
  return c;
}

// columns [from, from + count)
export function columns(m, from, count) {
  const out = zeros(m.rows, count);
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < count; j++) out.data[i * count + j] = at(m, i, from + j);
  return out;
}

export function scores(Q, K, score, p = {}) {
  const S = zeros(Q.rows, K.rows);
  for (let i = 0; i < Q.rows; i++)
    for (let j = 0; j < K.rows; j++) {
      let s = 0;
      if (score === 'dot') for (let c = 0; c < Q.cols; c++) s += at(Q, i, c) * at(K, j, c);
      else if (score === 'general')
        for (let a = 0; a < Q.cols; a++) for (let b = 0; b < K.cols; b++) s += at(Q, i, a) * at(p.W, a, b) * at(K, j, b);
      else if (score === 'concat') {
        for (let a = 0; a < Q.cols; a++) s += p.v[a] * at(Q, i, a);
        for (let b = 0; b < K.cols; b++) s += p.v[Q.cols + b] * at(K, j, b);
      } else if (score === 'additive')
        for (let h = 0; h < p.v.length; h++) {
          let z = 0;
          for (let a = 0; a < Q.cols; a++) z += at(p.W, h, a) * at(Q, i, a);
          for (let b = 0; b < K.cols; b++) z += at(p.U, h, b) * at(K, j, b);
          s += p.v[h] * Math.tanh(z);
        }
      else if (score === 'gaussian') {
        for (let c = 0; c < Q.cols; c++) s -= (at(Q, i, c) - at(K, j, c)) ** 2;
        s /= 2 * (p.sigma ?? 1) ** 2;
      } else throw new Error('unknown score ' + score);
      S.data[i * S.cols + j] = s;
    }
  return S;
}

// mask[i * n_k + j] = 1 when query i may attend to key j
export function combinedMask(nq, nk, { mask, causal, validLength } = {}) {
  const m = new Uint8Array(nq * nk);
  for (let i = 0; i < nq; i++)
    for (let j = 0; j < nk; j++)
      m[i * nk + j] = (!mask || mask[i * nk + j] ? 1 : 0) && (!causal || j <= i ? 1 : 0) &&
                      (validLength === undefined || j < validLength ? 1 : 0);
  return m;
}

export function softmaxRows(x, mask, temperature = 1) {
  const w = zeros(x.rows, x.cols);
  for (let i = 0; i < x.rows; i++) {
    let top = -Infinity;
    for (let j = 0; j < x.cols; j++) if (!mask || mask[i * x.cols + j]) top = Math.max(top, at(x, i, j));
    if (top === -Infinity) continue;
    let sum = 0;
    for (let j = 0; j < x.cols; j++)
      if (!mask || mask[i * x.cols + j]) sum += w.data[i * x.cols + j] = Math.exp((at(x, i, j) - top) / temperature);
    for (let j = 0; j < x.cols; j++) w.data[i * x.cols + j] /= sum;
  }
  return w;
}

export function attention({ query, key, value, score = 'dot', scale, params = {}, mask, causal, validLength }) {
  const S = scores(query, key, score, params);
  const s = scale ?? (score === 'dot' || score === 'general' ? 1 / Math.sqrt(key.cols) : 1);
  const scaled = { rows: S.rows, cols: S.cols, data: S.data.map((x) => x * s) };
  const m = combinedMask(query.rows, key.rows, { mask, causal, validLength });
  const masked = { rows: S.rows, cols: S.cols, data: scaled.data.map((x, i) => (m[i] ? x : -Infinity)) };
  const weights = softmaxRows(scaled, m);
  return { scores: S, scale: s, scaled, mask: { rows: query.rows, cols: key.rows, data: m }, masked, weights, output: matmul(weights, value) };
}

export function positionalEncoding(n, d) {
  const pe = zeros(n, d);
  for (let p = 0; p < n; p++)
    for (let c = 0; c < d; c++) {
      const angle = p / 10000 ** ((2 * Math.floor(c / 2)) / d);
      pe.data[p * d + c] = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  return pe;
}
