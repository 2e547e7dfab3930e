// The one deliberate piece of attention arithmetic in JavaScript: the
// baseline the speed widget times the core's kernel against. Every other
// number on the page comes from the C++ core; this loop exists only to be
// timed, and the core checks its output (speed.js: maxAbsDifference).

// softmax(Q Kᵀ / √d) V, one query at a time, as a tutorial writes it.
// Q, K, V: (n, d) row-major Float32Arrays. Returns the output (n, d).
export function attentionLoop(Q, K, V, n, d) {
  const out = new Float32Array(n * d);
  const scores = new Float64Array(n);  // (n) query i against every key
  const row = new Float64Array(d);     // (d) the weighted sum for query i
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    // scores, and their maximum (subtracted before exp, so exp never overflows)
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += Q[i * d + c] * K[j * d + c];
      scores[j] = dot * scale;
      if (scores[j] > max) max = scores[j];
    }
    // exp and sum
    let sum = 0;
    for (let j = 0; j < n; j++) {
      scores[j] = Math.exp(scores[j] - max);
      sum += scores[j];
    }
    // the weighted sum of the values, normalised
    row.fill(0);
    for (let j = 0; j < n; j++) {
      const w = scores[j] / sum;
      for (let c = 0; c < d; c++) row[c] += w * V[j * d + c];
    }
    out.set(row, i * d);
  }
  return out;
}
