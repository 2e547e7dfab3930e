// Compiled by tsc (strict) in the Node tests: the hand-written types accept
// the documented uses of every function.
import createAttention, { type AttentionModule, type Matrix } from '../../web/wasm/attention.mjs';

const att: AttentionModule = await createAttention();
const X: Matrix = att.initXavier(4, 8, 1);
const r = att.attention({ query: X, key: X, value: X, score: 'additive', params: { seed: 1, hidden: 4 }, causal: true });
const w: Float32Array = r.weights.data;
const s: number = r.scale;
const m: Uint8Array = r.mask;
att.softmax([[1, 2, 3]], { temperature: 2, mask: [1, 0, 1] });
att.softmax(new Float32Array([1, 2]));
const self = att.selfAttention({ input: X, dK: 4, dV: 2, seed: 3, validLength: 2 });
const Wq: Matrix = self.projections.Wq;
att.crossAttention({ input: X, memory: [[1, 2], [3, 4]] });
const mh = att.multiHeadAttention({ input: X, heads: 2, dModel: 8 });
const head0: Matrix = mh.heads[0].weights;
att.positionalEncoding(10, 16);
const withPe: Matrix = att.addPositionalEncoding(X);
const gap: number = att.maxAbsDifference(att.permuteMap([[1, 2], [3, 4]], [1, 0]), [[4, 3], [2, 1]]);
const c = att.conditionalAttention({ input: X, condition: [1, 0], fusion: 'fc' });
const fused: Matrix = c.fused;
const k = att.kernelRegression({ keys: [160, 165], values: [55, 60], range: { from: 150, to: 180, count: 10 }, sigma: 2 });
const e: number = k.estimate;
const rows = att.costModel({ n: 10, d: 4, k: 3 });
const layer: string = rows[0].layer;
const counts: Int32Array = att.histogram({ values: att.dotProductSamples({ d: 16 }).dots, bins: 20, from: -16, to: 16 }).counts;
const bytes: number = att.memoryStats().allocatedBytes + att.count_emval_handles();
const slope: number = att.fitLine([1, 2, 3], new Float32Array([2, 4, 6])).slope + att.fitLine([0, 1], [0, 1]).rSquared;
const lean = att.attention({ query: X, key: X, value: X, causal: true, intermediates: false });
const out: Matrix = lean.output;
// @ts-expect-error: without intermediates there are no weights
lean.weights;
const full: Matrix = att.attention({ query: X, key: X, value: X, intermediates: true }).weights;
export { out, full, w, s, m, Wq, head0, withPe, gap, fused, e, layer, counts, bytes, slope };
