// The "rotary" widget's numbers, every one from the core: q and k, turned by
// their positions (att.rotary), their scores at shift t and at shift 0 and
// the core's |difference| of the two; the score against the distance and
// against the shift, rotary and with the sinusoidal encoding added. JS only
// copies a row into a stack, picks rows and reads a diagonal.

// Below this a |difference| of two scores is float32 rounding, not a change.
// The core turns in float32 with each angle's cosine and sine in double: over
// the controls' range (d ≤ 64, positions ≤ 383, every base) the rotary
// differences stay under 10⁻⁵ (tests/browser/rotary.test.mjs checks a grid of them).
export const TOLERANCE = 1e-4;
// the shifts drawn, 0 … MAX_SHIFT, and the largest position of q or of k
export const MAX_SHIFT = 256, MAX_POSITION = 127;
// entries of q and k uniform on [−√3, √3]: mean 0, variance 1
const LIMIT = Math.sqrt(3);

// n copies of the row v (1, d): (n, d)
function copies(v, n) {
  const data = new Float32Array(n * v.cols);
  for (let r = 0; r < n; r++) data.set(v.data, r * v.cols);
  return { rows: n, cols: v.cols, data };
}

// rows from … from + n − 1 of m: (n, m.cols)
function rowsOf(m, from, n) {
  return { rows: n, cols: m.cols, data: m.data.subarray(from * m.cols, (from + n) * m.cols) };
}

// the diagonal of a square matrix: entry r is row r's dot product with row r
function diagonal(m) {
  return Float32Array.from({ length: m.rows }, (_, r) => m.data[r * m.cols + r]);
}

// columns 2i and 2i + 1 of a row (1, d): the pair's plane, (1, 2)
function pairOf(row, pair) {
  return { rows: 1, cols: 2, data: row.data.slice(2 * pair, 2 * pair + 2) };
}

// a score now and before, the core's |difference| and whether it is below the tolerance
function compared(att, now, before) {
  const gap = att.maxAbsDifference([[now]], [[before]]);
  return { now, before, gap, same: gap < TOLERANCE };
}

// The score at every shift 0 … MAX_SHIFT, rotary and sinusoidal: entry t is
// the score with q at m + t and k at n + t.
function overShifts(att, q, k, state, base) {
  const count = MAX_SHIFT + 1;
  // rotary: row r of a stack turned from offset m sits at position m + r
  const Q = att.rotary(copies(q, count), { base, offset: state.qPos });   // (count, d)
  const K = att.rotary(copies(k, count), { base, offset: state.kPos });   // (count, d)
  const rotary = diagonal(att.dotProducts(Q, K));
  // sinusoidal: row r of the stack plus PE is q + PE[r]; the rows from m on
  const Qs = rowsOf(att.addPositionalEncoding(copies(q, state.qPos + count)), state.qPos, count);
  const Ks = rowsOf(att.addPositionalEncoding(copies(k, state.kPos + count)), state.kPos, count);
  const sinusoidal = diagonal(att.dotProducts(Qs, Ks));
  // the largest change from shift 0, by the core
  const from = (series) => att.maxAbsDifference({ rows: 1, cols: count, data: series }, { rows: 1, cols: count, data: new Float32Array(count).fill(series[0]) });
  return {
    shifts: Float32Array.from({ length: count }, (_, t) => t), rotary, sinusoidal,
    spread: { rotary: from(rotary), sinusoidal: from(sinusoidal) },
  };
}

// The rotary score at every distance −MAX_POSITION … MAX_POSITION: copies of q
// turned from offset 0 (row r at position r), against k at position MAX_POSITION.
function overDistances(att, q, k, base) {
  const count = 2 * MAX_POSITION + 1;
  const scores = att.dotProducts(att.rotary(copies(q, count), { base }), att.rotary(k, { base, offset: MAX_POSITION }));  // (count, 1)
  return { distances: Float32Array.from({ length: count }, (_, r) => r - MAX_POSITION), scores: scores.data };
}

export function compute(att, state) {
  const d = state.d, base = Number(state.base), pair = Math.min(state.pair, d / 2 - 1);
  const q = att.initUniform(1, d, state.seed, LIMIT, 0);   // (1, d)
  const k = att.initUniform(1, d, state.seed, LIMIT, 1);   // (1, d)
  const at = (shift) => {
    const Q = att.rotary(q, { base, offset: state.qPos + shift }), K = att.rotary(k, { base, offset: state.kPos + shift });
    return { Q, K, score: att.dotProducts(Q, K).data[0], pair: att.dotProducts(pairOf(Q, pair), pairOf(K, pair)).data[0] };
  };
  const now = at(state.shift), before = at(0);
  const point = (m) => ({ x: m.data[2 * pair], y: m.data[2 * pair + 1] });
  const shifts = overShifts(att, q, k, state, base);
  const distances = overDistances(att, q, k, base);
  return {
    d, base, pair, q, k, qAt: state.qPos + state.shift, kAt: state.kPos + state.shift,
    turned: { q: now.Q, k: now.K },
    plane: { q: point(now.Q), k: point(now.K), q0: point(before.Q), k0: point(before.K) },
    pairScore: { now: now.pair, before: before.pair },
    rotary: compared(att, now.score, before.score),
    sinusoidal: compared(att, shifts.sinusoidal[state.shift], shifts.sinusoidal[0]),
    shifts: shifts.shifts, byShift: { rotary: shifts.rotary, sinusoidal: shifts.sinusoidal }, spread: shifts.spread,
    distances: distances.distances, byDistance: distances.scores,
  };
}
