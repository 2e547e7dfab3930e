// The encoder's compact formats, written by scripts/model.mjs (the layout is in
// cpp/attention/io/model_file.hpp): float16, and uniform steps, one per tensor,
// whose integers are Huffman-coded (the frequent small ones take few bits).
// The other quantizers tried on the way (8-bit blocks, codebooks, error
// compensation calibrated on sentences) are in bench/quantizers.mjs, which
// bench/quantize.mjs measures against these.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

// float32 -> IEEE half bits, rounding to nearest even
export function toHalf(x) {
  f32[0] = x;
  const bits = u32[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) throw new Error(`model: ${x} does not fit in float16`);
  let shift = 13;
  let half;
  if (e <= 0) {  // a subnormal half: the implicit 1 becomes explicit
    if (e < -10) return sign;
    mant |= 0x800000;
    shift = 14 - e;
    half = mant >>> shift;
  } else {
    half = (e << 10) | (mant >>> 13);
  }
  const rest = mant & ((1 << shift) - 1);
  const mid = 1 << (shift - 1);
  if (rest > mid || (rest === mid && half & 1)) half++;  // a carry into the exponent is right
  return sign | half;
}

// IEEE half bits -> float32
export function fromHalf(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

// ---- uniform steps, Huffman-coded --------------------------------------------------
// A tensor as integers k (value = k · step, one step per tensor) whose frequent
// small values take few bits: at the same size this is finer than a fixed 8
// bits per value. kOf: the rounded integers, row-major (Int32Array).
export function quantizeUniform(t, step) {
  return Int32Array.from(t.data, (x) => Math.round(x / step));
}

export const MAX_CODE_LENGTH = 24;

// Huffman code lengths (1..limit; 0 for an unused symbol) of symbols 0..counts.length-1
export function huffmanLengths(counts, limit = MAX_CODE_LENGTH) {
  let c = Array.from(counts);
  for (;;) {
    const used = c.map((x, s) => [x, s]).filter(([x]) => x > 0);
    const lengths = new Uint8Array(c.length);
    if (used.length === 1) { lengths[used[0][1]] = 1; return lengths; }
    // two queues: the sorted leaves, and the merged nodes in the order they are made
    const leaves = used.sort((a, b) => a[0] - b[0]).map(([w, s]) => ({ w, s }));
    const nodes = [];
    let li = 0, ni = 0;
    const take = () => (ni >= nodes.length || (li < leaves.length && leaves[li].w <= nodes[ni].w) ? leaves[li++] : nodes[ni++]);
    while (leaves.length - li + nodes.length - ni > 1) {
      const a = take(), b = take();
      nodes.push({ w: a.w + b.w, kids: [a, b] });
    }
    const stack = [[nodes[nodes.length - 1], 0]];
    let longest = 0;
    while (stack.length) {
      const [node, depth] = stack.pop();
      if (node.kids) for (const kid of node.kids) stack.push([kid, depth + 1]);
      else { lengths[node.s] = depth; longest = Math.max(longest, depth); }
    }
    if (longest <= limit) return lengths;
    c = c.map((x) => (x > 0 ? Math.max(1, x >> 1) : 0));  // flatter counts, shorter longest code
  }
}

// canonical codes: by length, then by symbol (as DEFLATE); bits written most significant first
export function huffmanEncode(symbols, lengths) {
  const codes = new Uint32Array(lengths.length);
  const order = Array.from(lengths.keys()).filter((s) => lengths[s] > 0).sort((a, b) => lengths[a] - lengths[b] || a - b);
  let code = 0, length = 0;
  for (const s of order) {
    code <<= lengths[s] - length;
    length = lengths[s];
    codes[s] = code++;
  }
  const out = new Uint8Array(Math.ceil(symbols.reduce((n, s) => n + lengths[s], 0) / 8));
  let at = 0;
  for (const s of symbols) {
    const c = codes[s];
    for (let b = lengths[s] - 1; b >= 0; b--, at++) if ((c >>> b) & 1) out[at >> 3] |= 0x80 >> (at & 7);
  }
  return out;
}

// The stored form of a tensor as integers: { step, lowest, lengths, payload }
export function encodeUniform(k, step) {
  let lo = Infinity, hi = -Infinity;
  for (const v of k) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (hi - lo >= 65536) throw new Error('model: a tensor needs more than 65536 steps');
  const counts = new Float64Array(hi - lo + 1);
  const symbols = Uint32Array.from(k, (v) => v - lo);
  for (const s of symbols) counts[s]++;
  const lengths = huffmanLengths(counts);
  return { step, lowest: lo, lengths, payload: huffmanEncode(symbols, lengths) };
}

export function uniformBytes(u) {
  return 4 + 4 + 4 + u.lengths.length + 4 + u.payload.length;
}
