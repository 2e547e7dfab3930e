// Compiled by tsc (strict) in the Node tests: the hand-written types accept
// the documented uses of every function.
import createAttention, { AttentionError, type AttentionModule, type Matrix } from '../../web/wasm/attention.mjs';

const att: AttentionModule = await createAttention();
const X: Matrix = att.initXavier(4, 8, 1);
const r = att.attention({ query: X, key: X, value: X, score: 'additive', params: { seed: 1, hidden: 4 }, causal: true });
const w: Float32Array = r.weights.data;
const s: number = r.scale;
const m: Uint8Array = r.mask.data;
att.attention({ query: X, key: X, value: X, mask: [[1, 0, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1], [1, 1, 1, 0]] });
att.attention({ query: X, key: X, value: X, mask: r.mask });
att.softmax([[1, 2, 3]], { temperature: 2, mask: [1, 0, 1] });
att.softmax(new Float32Array([1, 2]));
const self = att.selfAttention({ input: X, dK: 4, dV: 2, seed: 3, validLength: 2 });
const Wq: Matrix = self.projections.Wq;
att.crossAttention({ input: X, memory: [[1, 2], [3, 4]] });
const mh = att.multiHeadAttention({ input: X, heads: 2, dModel: 8 });
const head0: Matrix = mh.perHead[0].weights;
const gqa = att.multiHeadAttention({ input: X, heads: 4, kvHeads: 2 });
const sharedKey: Matrix = gqa.perHead[1].key;
const group: number = gqa.perHead[3].kvHead + gqa.perHead[3].value.cols;
const windowed: number = att.generationCost({ n: 100, d: 64, heads: 8, kvHeads: 2, window: 32 }).cacheShare;
const cacheBytes: number = att.kvCacheBytes({ layers: 32, kvHeads: 8, headDim: 128, tokens: 8192, bytesPerNumber: 2 });
const projections: number = att.attentionProjectionParameters({ layers: 32, heads: 32, kvHeads: 8, headDim: 128, dModel: 4096 }).total;
const turned: Matrix = att.rotary(X, { base: 10000, offset: 3 });
const turnedToo: Matrix = att.rotary([[1, 0]]);
const slopes: Float32Array = att.alibiSlopes(12);
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
const bytes: number = att.debug.memoryStats().allocatedBytes + att.debug.handles();
const slope: number = att.fitLine([1, 2, 3], new Float32Array([2, 4, 6])).slope + att.fitLine([0, 1], [0, 1]).rSquared;
const lean = att.attention({ query: X, key: X, value: X, causal: true, intermediates: false });
const out: Matrix = lean.output;
// @ts-expect-error: without intermediates there are no weights
lean.weights;
const full: Matrix = att.attention({ query: X, key: X, value: X, intermediates: true }).weights;
// a boolean known only at run time: either result, to tell apart
const wanted: boolean = Math.random() < 0.5;
const either = att.attention({ query: X, key: X, value: X, intermediates: wanted });
const eitherOut: Matrix = either.output;
// the errors: one class, with a code
try {
  att.softmax([]);
} catch (error) {
  if (error instanceof AttentionError && error.code === 'BAD_ARGUMENT') console.log(error.message);
  if (error instanceof att.AttentionError) console.log(error.code);
}
export { eitherOut, out, full, w, s, m, Wq, head0, withPe, gap, fused, e, layer, counts, bytes, slope };
const t = await att.createTrainer({ task: 'reverse', seed: 1, length: 8, vocab: 10, dModel: 32, heads: 1, batch: 32, learningRate: 0.01 });
const stepped: number = t.step(100).loss + t.step().losses[0] + t.step(2).step;
const accuracy: number = t.evaluate().accuracy;
const probe = t.probe();
const firstHead: Matrix = probe.weights[0];
const predicted: Int32Array = probe.prediction;
const Wo: Matrix = t.parameters().Wo;
const checkError: number = t.gradientCheck().maxRelativeError;
const dModel: number = t.info().options.dModel + t.info().parameters + t.info().step;
t.delete();
(await att.createTrainer()).delete();
const nw = await att.createWidthTrainer({ seed: 2, samples: 40, noise: 1, width: 0.05, learningRate: 0.02 });
const width: number = nw.step(10).width + nw.evaluate().loss + nw.evaluate().trainingLoss;
const heights: Float64Array = nw.samples().heights;
const curve: Float32Array = nw.curve([150, 160, 170]);
const pooled: Matrix = nw.weights({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], queries: [172] }).weights;
const landscape: Float64Array = nw.lossCurve(new Float64Array([0.05, 0.1]));
nw.delete();
const lm = await att.createLanguageModel({ texts: ['白日依山盡，黃河入海流。'], heldOut: [], layers: 1, heads: 2, dModel: 16, context: 16 });
const lmLoss: number = lm.step(2).loss + lm.step().losses[0];
const nextToken: string = lm.next('白日').tokens[0];
const along: Float64Array = lm.positionLosses('白日', { cached: false }).losses;
const alongMean: number = lm.positionLosses('白日').mean + lm.positionLosses('白', { cachePositions: 'absolute' }).losses[0];
const nextP: Float32Array = lm.next('').probabilities;
const lmHead: Matrix = lm.attention('白日').weights[0][1];
const lineScore: number = lm.headScores('白日依山盡，', 6).previousLine[0][0] + lm.headScores('白').punctuation[0][0];
const poem: string = lm.generate({ prompt: '白', maxTokens: 10, temperature: 0.8, topK: 20, seed: 3 }) + lm.generate();
const nucleus: string = lm.generate({ topK: 0, topP: 0.9, minP: 0.05 });
const keptP: Float32Array = lm.beginGeneration({ topP: 0.9, minP: 0.1 })[0].kept.probabilities;
const folded: number = lm.vocabulary().unknown + lm.info().parameters + lm.info().options.dModel + lm.info().step;
const Wout: Matrix = lm.parameters()['Wout'];
const form: number = att.quatrainForm([poem]).share;
const decoded = lm.beginGeneration({ prompt: '白' }).at(-1)!;
const attentionCost: number = decoded.attention.uncached - att.generationCost({ n: decoded.position + 1, d: 16 }).tokenUncached;
const repeated: number = (await att.ownCorpus('x')).repeats;
lm.delete();
export { lmLoss, nextToken, nextP, lmHead, lineScore, folded, Wout, form, attentionCost, repeated, nucleus, keptP };

// the online softmax, windows, sinks, bias
const flash = att.flashAttention({ query: X, key: X, value: X, causal: true, window: 2, sinks: 1, blockRows: 2, blockCols: 2, trace: true });
const firstTile: number | undefined = flash.tiles?.[0].rescale[0];
const lse: Float32Array = flash.logSumExp;
const back: Matrix = att.weightsFromLogSumExp({ query: X, key: X, logSumExp: lse, rows: [0, 3], causal: true, window: 2, sinks: 1 }).weights;
const kernelLse: Float32Array | undefined = att.attention({ query: X, key: X, value: X, causal: true, window: 2, intermediates: false, logSumExp: true }).logSumExp;
att.attention({ query: X, key: X, value: X, bias: [[0, -1, -2, -3], [1, 0, -1, -2], [2, 1, 0, -1], [3, 2, 1, 0]] });
void firstTile, back, kernelLse;
