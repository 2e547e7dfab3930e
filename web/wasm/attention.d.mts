// Types of the attention module: web/wasm/attention.mjs (ES module) and
// web/wasm/attention.js (classic script defining the global createAttention).
//
//   import createAttention from './web/wasm/attention.mjs';
//   const att = await createAttention();
//   const { weights, output } = att.attention({ query, key, value });
//
// Every function checks its arguments and throws an AttentionError whose
// message names the function, the argument and the problem, e.g.
//   "attention: key has 3 columns but query has 4; the dot score needs equal widths",
// and whose code says what kind of failure it is (AttentionErrorCode).
// The module keeps working after an error. Results are plain objects holding
// copies (no view of the WASM heap, nothing to .delete()); only what lives in
// the heap between calls (an encoder, a trainer, a language model) has a delete().

import type { Trainer, TrainerOptions, WidthTrainer, WidthTrainerOptions } from './trainer.mjs';
export type * from './trainer.mjs';
import type { Encoder } from './encoder.mjs';
export type * from './encoder.mjs';
import type { LanguageModel, LanguageModelOptions, QuatrainForm, RepeatsOptions } from './language-model.mjs';
export type * from './language-model.mjs';

/**
 * What went wrong:
 * - BAD_ARGUMENT: an argument or option the function refuses (the message says which and why)
 * - DELETED: a method of an encoder, trainer or language model called after its delete()
 * - DIVERGED: a training step left the model unable to compute finite numbers; every later
 *   step and read of that model throws it too, naming the step that did it
 * - BAD_MODEL_FILE: bytes that are not a model file this version reads
 * - LOAD_FAILED: a module the call needs could not be loaded
 * - WORKER_FAILED: a worker training a language model (createLanguageModel({ threads })) failed or died
 * - OUT_OF_MEMORY: the inputs or the model do not fit in the module's memory
 */
export type AttentionErrorCode = 'BAD_ARGUMENT' | 'DELETED' | 'DIVERGED' | 'BAD_MODEL_FILE' | 'LOAD_FAILED' | 'OUT_OF_MEMORY' | 'WORKER_FAILED';

/** The one error class of the API (the same class for every module and every createAttention()). */
export declare class AttentionError extends Error {
  constructor(message: string, code: AttentionErrorCode);
  readonly name: 'AttentionError';
  readonly code: AttentionErrorCode;
}

/**
 * What lives in the module's heap between calls (an encoder, a trainer, a
 * language model). After delete() every other method throws an AttentionError
 * whose code is DELETED; a second delete() does nothing. Where the runtime
 * defines Symbol.dispose, the handle has [Symbol.dispose]() too (delete()),
 * so `using t = await att.createTrainer()` frees it at the end of the block.
 */
export interface Handle<Info> {
  /** what it is: its options, its parameter count and the steps taken, where they apply */
  info(): Info;
  /** Frees it. */
  delete(): void;
}

/** A row-major float32 matrix: entry (i, j) is data[i * cols + j]. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/**
 * What the functions accept as a matrix: a Matrix (data may also be any
 * numeric typed array or number[]), nested rows `[[1, 2], [3, 4]]`, or one
 * row as a flat array or typed array.
 */
export type NumericArray =
  | number[]
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array;

export type MatrixLike = Matrix | { rows: number; cols: number; data: NumericArray } | number[][] | NumericArray;

export type VectorLike = NumericArray;

/** A mask as results give it: (rows, cols), 1 = may attend. */
export interface MaskMatrix {
  rows: number;
  cols: number;
  data: Uint8Array;
}

/**
 * What the functions accept as a mask, as they accept a matrix: one entry per
 * (query, key), flat row-major or nested rows, or a MaskMatrix (a result's
 * mask); non-zero or true = may attend.
 */
export type MaskLike = NumericArray | boolean[] | number[][] | boolean[][] | MaskMatrix;

export type Score = 'dot' | 'general' | 'concat' | 'additive' | 'gaussian';
export type Fusion = 'concat' | 'add' | 'fc';

/** Learned score parameters; missing ones are drawn from `seed` (Xavier uniform). */
export interface ScoreParams {
  // A parameter the score does not use (W with 'dot', say) is an error.
  /** general: (d_q, d_k); additive: (hidden, d_q) */
  W?: MatrixLike;
  /** additive: (hidden, d_k) */
  U?: MatrixLike;
  /** concat: d_q + d_k entries; additive: hidden entries */
  v?: VectorLike;
  /** gaussian kernel width, > 0 (default 1) */
  sigma?: number;
  /** seed of the deterministic initialiser (default 1): same numbers in every runtime */
  seed?: number;
  /** additive: width of the hidden layer (default: the rows of a given W, U or v, else d_k) */
  hidden?: number;
}

/** The score parameters that were used. */
export interface UsedScoreParams {
  W?: Matrix;
  U?: Matrix;
  v?: Float32Array;
  sigma?: number;
}

export interface MaskOptions {
  /** rows(query) * rows(key) entries, 1 = may attend */
  mask?: MaskLike;
  /** query i sees keys 0..i only */
  causal?: boolean;
  /** keys at index >= validLength are padding */
  validLength?: number;
}

/** The masks and bias of today's models (attention, flashAttention, weightsFromLogSumExp). */
export interface WindowOptions {
  /**
   * A sliding window (needs causal): query i sees keys i - window + 1 .. i.
   * The fused kernel skips the tiles before it: time grows as n * window.
   */
  window?: number;
  /** with a window: keys 0 .. sinks - 1 stay visible to every query at or after them (default 0) */
  sinks?: number;
  /** (n_q, n_k) added to the scaled scores before the mask (ALiBi's distance penalties, say); not with the kernel */
  bias?: MatrixLike;
}

export interface ScoreOptions extends MaskOptions, WindowOptions {
  /** default 'dot' */
  score?: Score;
  /** multiplies the scores; default 1/sqrt(d_k) for dot and general, else 1 */
  scale?: number;
  params?: ScoreParams;
}

export interface AttentionOptions extends ScoreOptions {
  /** (n_q, d_q) */
  query: MatrixLike;
  /** (n_k, d_k) */
  key: MatrixLike;
  /** (n_k, d_v) */
  value: MatrixLike;
  /**
   * false: return `{ output }` alone. The dot score with causal and
   * validLength (no mask, no params) then runs the fused SIMD kernel, which
   * never forms an (n_q, n_k) matrix, so n_q * n_k may pass the 4096 x 4096
   * map limit (the work limit, 2^34 multiply-adds per product, still holds).
   * Default true: every step of the chain.
   */
  intermediates?: boolean;
  /**
   * With intermediates: false, also each row's log-sum-exp (logSumExp in the
   * result), what weightsFromLogSumExp needs to give rows of weights back.
   */
  logSumExp?: boolean;
}

/** What attention({ ..., intermediates: false }) returns. */
export interface AttentionOutput {
  /** (n_q, d_v) */
  output: Matrix;
  /**
   * (n_q) with logSumExp: true: log of each row's softmax denominator,
   * log sum_j e^(scaled score + bias), natural log; -Infinity for a row that sees no key
   */
  logSumExp?: Float32Array;
}

export interface FlashAttentionOptions extends MaskOptions, WindowOptions {
  /** (n_q, d) */
  query: MatrixLike;
  /** (n_k, d) */
  key: MatrixLike;
  /** (n_k, d_v) */
  value: MatrixLike;
  /** multiplies q.k; default 1/sqrt(d) */
  scale?: number;
  /** queries per tile (default 16) */
  blockRows?: number;
  /** keys per tile (default 16) */
  blockCols?: number;
  /** keep every tile visit (default false); at most 128 queries and 128 keys */
  trace?: boolean;
}

/** One tile visit of flashAttention's trace: queries row0.. against keys col0.. */
export interface FlashTile {
  row0: number;
  rows: number;
  col0: number;
  cols: number;
  /** (rows, cols) scaled scores (+ bias), -Infinity where hidden */
  scores: Matrix;
  /** (rows) running maximum m before the tile (-Infinity: no key seen yet) */
  maxBefore: Float32Array;
  /** (rows) m' = max(m, the tile's largest) */
  maxAfter: Float32Array;
  /** (rows) e^(m - m'), what the running sum and output were multiplied by (1 while no key is seen) */
  rescale: Float32Array;
  /** (rows) running sum l of e^(s - m) before the tile */
  sumBefore: Float32Array;
  /** (rows) l' = rescale * l + sum_j e^(s_j - m') */
  sumAfter: Float32Array;
  /** (rows, d_v) running output, not yet divided by l' */
  outputAfter: Matrix;
}

export interface FlashAttentionResult {
  /** (n_q, d_v), attention()'s output */
  output: Matrix;
  /** (n_q) m + log l of each row; -Infinity for a row that sees no key */
  logSumExp: Float32Array;
  /** tiles with a visible key, computed */
  tilesVisited: number;
  /** tiles the masks hide entirely, never computed */
  tilesSkipped: number;
  /** with trace: every visit, in order */
  tiles?: FlashTile[];
}

export interface WeightsFromLogSumExpOptions extends MaskOptions, WindowOptions {
  /** (n_q, d) */
  query: MatrixLike;
  /** (n_k, d) */
  key: MatrixLike;
  /** (n_q) each row's log-sum-exp, as flashAttention or attention({ logSumExp: true }) gave it */
  logSumExp: VectorLike;
  /** the query rows wanted (default: every row) */
  rows?: number[] | Int32Array;
  /** the scale the log-sum-exp was computed with; default 1/sqrt(d) */
  scale?: number;
}

/** The chain scores -> scaled -> masked -> weights -> output. */
export interface AttentionSteps {
  /** (n_q, n_k) F(q_i, k_j) */
  scores: Matrix;
  /** the scale used */
  scale: number;
  /** (n_q, n_k) scores * scale */
  scaled: Matrix;
  /** (n_q, n_k), 1 = may attend (explicit mask AND causal AND padding) */
  mask: MaskMatrix;
  /** (n_q, n_k) scaled (+ bias when given), -Infinity where masked */
  masked: Matrix;
  /** (n_q) largest allowed scaled score of each row (0 when fully masked) */
  rowMax: Float32Array;
  /** (n_q, n_k) exp(masked - rowMax), 0 where masked */
  exps: Matrix;
  /** (n_q) sum of each row of exps: weights = exps / rowSums */
  rowSums: Float32Array;
  /** (n_q, n_k) softmax of each row: rows sum to 1, or are all 0 when fully masked */
  weights: Matrix;
  /** (n_q, d_v) weights * value */
  output: Matrix;
}

export interface AttentionResult extends AttentionSteps {
  params: UsedScoreParams;
}

export interface Projections {
  /** (d_in, d_k) */
  Wq?: MatrixLike;
  /** (d_memory, d_k) */
  Wk?: MatrixLike;
  /** (d_memory, d_v) */
  Wv?: MatrixLike;
}

export interface SelfAttentionOptions extends ScoreOptions {
  /** X: (n, d_in), one row per token */
  input: MatrixLike;
  /** width of Q and K (default: that of projections.Wq or .Wk when given, else d_in) */
  dK?: number;
  /** width of V (default: that of projections.Wv when given, else dK) */
  dV?: number;
  /** seed for the projections not given (default 1) */
  seed?: number;
  projections?: Projections;
}

export interface CrossAttentionOptions extends SelfAttentionOptions {
  /** the sequence K and V come from: (n_memory, d_memory) */
  memory: MatrixLike;
}

export interface ProjectedAttentionResult extends AttentionResult {
  Q: Matrix;
  K: Matrix;
  V: Matrix;
  projections: { Wq: Matrix; Wk: Matrix; Wv: Matrix };
}

export interface MultiHeadOptions extends MaskOptions {
  /** (n, d_in) */
  input: MatrixLike;
  /** K and V source for cross-attention (default: input) */
  memory?: MatrixLike;
  /** number of heads, dividing dModel */
  heads: number;
  /**
   * key/value heads, dividing heads (default: heads, standard multi-head attention): query head h
   * reads key/value head floor(h kvHeads / heads); 1 < kvHeads < heads is grouped-query attention
   * (GQA), 1 multi-query attention (MQA). Wk and Wv are then (d_memory, kvHeads dModel / heads).
   */
  kvHeads?: number;
  /** width of the projections (default d_in) */
  dModel?: number;
  /** seed for the projections not given (default 1) */
  seed?: number;
  /** per-head scale, default 1/sqrt(dModel / heads) */
  scale?: number;
  projections?: Projections & { Wo?: MatrixLike };
}

/** One head of multiHeadAttention: its chain, and the keys and values it read. */
export interface HeadSteps extends AttentionSteps {
  /** the key/value head it read: floor(h kvHeads / heads); the heads of a group share it */
  kvHead: number;
  /** (n_memory, dModel / heads): the columns of K of its key/value head */
  key: Matrix;
  /** (n_memory, dModel / heads): the columns of V of its key/value head */
  value: Matrix;
}

export interface MultiHeadResult {
  /** (n, dModel); head h uses columns [h*dModel/heads, (h+1)*dModel/heads) */
  Q: Matrix;
  /** (n_memory, kvHeads dModel / heads); key/value head g has columns [g*dModel/heads, (g+1)*dModel/heads) */
  K: Matrix;
  V: Matrix;
  /** one chain per head, in order (options.heads says how many) */
  perHead: HeadSteps[];
  /** (n, dModel) head outputs side by side */
  concat: Matrix;
  /** (n, dModel) concat * Wo */
  output: Matrix;
  projections: { Wq: Matrix; Wk: Matrix; Wv: Matrix; Wo: Matrix };
}

export interface ConditionalOptions extends ScoreOptions {
  /** X: (n, d_in), one row per token */
  input: MatrixLike;
  /** width of Q and K (default d_in) */
  dK?: number;
  /** width of V (default dK) */
  dV?: number;
  /** seed of every parameter: Wq, Wk, Wv and the fusion's P or Wf, bf (default 1) */
  seed?: number;
  /** the condition vector c (a label as one-hot, a style, ...) */
  condition: VectorLike;
  /** how c is fused into the input of Q and K (default 'concat') */
  fusion?: Fusion;
}

export interface ConditionalResult extends ProjectedAttentionResult {
  fusion: Fusion;
  /** F: concat [X | c], add X + cP, fc tanh([X | c] Wf + bf) */
  fused: Matrix;
  P?: Matrix;
  Wf?: Matrix;
  bf?: Float32Array;
}

export interface KernelRegressionOptions {
  /** x_i (n) */
  keys: VectorLike;
  /** y_i (n) */
  values: VectorLike;
  /** give exactly one of query, queries, range, weights */
  query?: number;
  queries?: VectorLike;
  /** count evenly spaced queries on [from, to] (a curve) */
  range?: { from: number; to: number; count: number };
  /** weights chosen by hand: the estimate is sum_i weights_i values_i (no score, sigma, scale, params or mask then) */
  weights?: VectorLike;
  /** default 'gaussian': -(x - x_i)^2 / (2 sigma^2) */
  score?: Score;
  /** gaussian kernel width (default 1); shorthand for params.sigma */
  sigma?: number;
  /** default 1 */
  scale?: number;
  params?: ScoreParams;
  /** rows(queries) * keys entries, 1 = may attend */
  mask?: MaskLike;
}

export interface KernelRegressionResult {
  /** the queries (absent with weights) */
  queries?: Float32Array;
  /** (m, n) F(query_i, key_j) (absent with weights) */
  scores?: Matrix;
  /** (m, n) scores * scale, the input of softmax (absent with weights) */
  scaled?: Matrix;
  /** (m, n): softmax rows summing to 1, or the weights given */
  weights: Matrix;
  /** (m, n) weights(i, j) * values[j]: the terms of each estimate */
  contributions: Matrix;
  /** (m) */
  estimates: Float32Array;
  /** estimates[0] */
  estimate: number;
}

/** One self-attention layer of a decoder writing n tokens (QKᵀ and AV; the projections left out). */
export interface GenerationCost {
  /** the token at position n with the key-value cache: its row only, 2nd */
  tokenCached: number;
  /** the same token without the cache, every row of the causal map again: n(n + 1)d
   *  (a language model's DecodeStep.attention.uncached at t + 1 = n) */
  tokenUncached: number;
  /** all n tokens with the cache: n(n + 1)d, what a causal training pass over the text counts */
  totalCached: number;
  /** all n tokens without it: n(n + 1)(n + 2)d / 3 */
  totalUncached: number;
  /** the cache after n tokens: n keys and n values of width d, 2nd numbers
   *  (with heads, kvHeads and window: 2 cacheTokens cacheWidth) */
  cacheNumbers: number;
  /** the tokens the cache keeps: min(n, window) */
  cacheTokens: number;
  /** the numbers of one cached key (and again of its value): d kvHeads / heads */
  cacheWidth: number;
  /** cacheNumbers over 2nd, the cache of one key/value head per head and no window */
  cacheShare: number;
}

/** Options of generationCost. */
export interface GenerationCostOptions {
  /** tokens written */
  n: number;
  /** the model's width */
  d: number;
  /** attention heads, dividing d (default 1) */
  heads?: number;
  /** key/value heads, dividing heads (default: heads); the cache keeps d kvHeads / heads numbers a key */
  kvHeads?: number;
  /** sliding window: a token meets at most its last window keys, and the cache keeps window tokens (default 0: none) */
  window?: number;
}

/** Options of kvCacheBytes: one decoder's key-value cache. */
export interface KvCacheOptions {
  /** decoder layers, each with its own cache */
  layers: number;
  /** key/value heads of a layer (as many as its heads without GQA) */
  kvHeads: number;
  /** the width of one head */
  headDim: number;
  /** tokens kept */
  tokens: number;
  /** bytes of one number: 2 for float16 or bfloat16, 4 for float32, 1 for 8-bit (default 2) */
  bytesPerNumber?: number;
}

/** Options of attentionProjectionParameters: one decoder's attention projections. */
export interface ProjectionParameterOptions {
  /** decoder layers */
  layers: number;
  /** query heads of a layer */
  heads: number;
  /** key/value heads of a layer, dividing heads */
  kvHeads: number;
  /** the width of one head */
  headDim: number;
  /** the model's width (default, or 0: heads headDim) */
  dModel?: number;
}

/** The weights of W^Q, W^K, W^V and W^O (no biases): one layer's each, their sum, and that over the layers. */
export interface ProjectionParameters {
  Wq: number;
  Wk: number;
  Wv: number;
  Wo: number;
  perLayer: number;
  total: number;
}

/** Options of rotary. */
export interface RotaryOptions {
  /** above 1: pair i turns base^(-2i/d) radians a position (default 10000) */
  base?: number;
  /** an integer >= 0: the position of row 0, e.g. the tokens already in the cache (default 0) */
  offset?: number;
}

export interface LayerCost {
  layer: 'self-attention' | 'recurrent' | 'convolutional' | 'convolutional (dilated)' | 'fully connected';
  /** big-O of multiply-adds per layer */
  complexity: string;
  /** big-O of sequential operations */
  sequential: string;
  /** big-O of the maximum path length */
  path: string;
  multiplyAdds: number;
  sequentialOps: number;
  maxPathLength: number;
  parameters: number;
  /** multiplyAdds at 2n over multiplyAdds at n (4 for self-attention) */
  doubling: number;
  /** log2(doubling): the exponent of the growth in n (2 for self-attention) */
  doublingExponent: number;
}

export interface DotProductSamples {
  /** q.k for count pairs of random d-vectors (entries: zero mean, unit variance) */
  dots: Float32Array;
  /** dots / sqrt(d) */
  scaled: Float32Array;
  /** of dots: about 0 and d */
  mean: number;
  variance: number;
  /** of scaled: about 0 and 1 */
  scaledMean: number;
  scaledVariance: number;
}

export interface Histogram {
  /** (bins) how many values fall in [edges[b], edges[b + 1]); the last bin also holds `to` */
  counts: Int32Array;
  /** (bins + 1) from, ..., to, evenly spaced */
  edges: Float32Array;
  /** values below from and above to: in no bin */
  below: number;
  above: number;
}

export interface SelfMapStats {
  /** |S − Sᵀ|_F / (2 |S|_F), in [0, 1]: 0 for a symmetric map, 1 for S = −Sᵀ (0 for S = 0) */
  asymmetry: number;
  /** trace(A) / n: the mean weight a word gives its own key */
  diagonalShare: number;
  /** rows whose largest weight is their own key (a tie goes to the first column) */
  rowsOnDiagonal: number;
}

export interface DotKernelOptions {
  /** (d) the query */
  query: VectorLike;
  /** (n, d) the keys, n >= 1 */
  keys: MatrixLike;
  /** first rescale every key to the keys' mean length (a zero key stays zero); default false */
  equalLength?: boolean;
}

/** One query scored against keys two ways: q·k and the Gaussian kernel −|q − k|²/2 (σ = 1). */
export interface DotKernel {
  /** (n, d) the keys scored: as given, or rescaled to one length */
  keys: Matrix;
  /** (n) |k| */
  lengths: Float32Array;
  /** |q| */
  queryLength: number;
  /** (n) q·k */
  dot: Float32Array;
  /** (n) −|q − k|²/2 = q·k − |q|²/2 − |k|²/2 */
  kernel: Float32Array;
  /** (n) softmax(q·k) */
  dotWeights: Float32Array;
  /** (n) softmax(−|q − k|²/2) */
  kernelWeights: Float32Array;
  /** max |dotWeights − kernelWeights|: float rounding only when the keys have one length */
  maxDifference: number;
}

export interface LineFit {
  slope: number;
  intercept: number;
  /** the share of the variance of y the line explains, 0..1 (1 when every y is equal) */
  rSquared: number;
}

/** The largest entry of each row and its column (the first on a tie). */
export interface RowArgmax {
  /** (rows) column of the largest entry: for weights, the key each query looks at most */
  index: Int32Array;
  /** (rows) the largest entry */
  value: Float32Array;
}

export interface MemoryStats {
  /** size of the WASM memory */
  heapBytes: number;
  /** bytes currently allocated by malloc */
  allocatedBytes: number;
}

export interface AttentionModule {
  /** Row-wise softmax of x / temperature; masked entries get 0, a fully masked row is all 0. */
  softmax(x: MatrixLike, options?: {
    /** divides x before the softmax (default 1) */
    temperature?: number;
    /** one entry per entry of x, 1 = may attend */
    mask?: MaskLike;
  }): Matrix;
  /** The output alone, by the fused kernel (dot score; causal and validLength allowed, no mask). */
  attention(options: AttentionOptions & { intermediates: false }): AttentionOutput;
  /** Every step of the chain (the default). */
  attention(options: AttentionOptions & { intermediates?: true }): AttentionResult;
  /** Either, when intermediates is a boolean known only at run time. */
  attention(options: AttentionOptions): AttentionResult | AttentionOutput;
  /**
   * Attention by the online softmax, tile by tile, as FlashAttention runs it
   * (dot score): attention()'s output, each row's log-sum-exp, and with
   * trace every tile visit's running maximum, rescale, sum and output.
   */
  flashAttention(options: FlashAttentionOptions): FlashAttentionResult;
  /** Rows of the weights from each row's log-sum-exp, without the (n_q, n_k) matrix: e^(s_ij - lse_i). */
  weightsFromLogSumExp(options: WeightsFromLogSumExpOptions): { rows: Int32Array; weights: Matrix };
  /** Q = X Wq, K = X Wk, V = X Wv, then attention. */
  selfAttention(options: SelfAttentionOptions): ProjectedAttentionResult;
  /** Q = X Wq, K = M Wk, V = M Wv, then attention. */
  crossAttention(options: CrossAttentionOptions): ProjectedAttentionResult;
  multiHeadAttention(options: MultiHeadOptions): MultiHeadResult;
  /** Sinusoidal encoding: (n, d), sin on even columns, cos on odd. */
  positionalEncoding(n: number, d: number): Matrix;
  /** input + positionalEncoding(rows, cols): word vectors (n, d) that carry their positions. */
  addPositionalEncoding(input: MatrixLike): Matrix;
  /**
   * B(i, j) = map(order[i], order[j]): a square (n, n) map with its rows and columns
   * moved; order is a permutation of 0..n-1. Without positional encoding,
   * the map of the words read in that order is exactly this.
   */
  permuteMap(map: MatrixLike, order: number[] | Int32Array): Matrix;
  /** max |a - b| over every entry of two matrices of the same shape (equal infinities count as 0). */
  maxAbsDifference(a: MatrixLike, b: MatrixLike): number;
  /**
   * What separate W^Q and W^K buy, measured on a self-attention map (both
   * (n, n); scores before any mask): asymmetry |S − Sᵀ| / (2|S|) in [0, 1]
   * (0 when W^K = W^Q), the mean weight a word gives its own key, and the rows
   * whose largest weight is their own key.
   */
  selfMapStats(options: { scores: MatrixLike; weights: MatrixLike }): SelfMapStats;
  /**
   * q·k as geometry: the dot product and the Gaussian kernel of one query and
   * each key, with each one's softmax weights. Softmax cancels the |q|² term,
   * so with keys of one length (equalLength) the two weightings agree.
   */
  dotAndKernel(options: DotKernelOptions): DotKernel;
  conditionalAttention(options: ConditionalOptions): ConditionalResult;
  /** Nadaraya-Watson: attention with scalar queries, keys and values. */
  kernelRegression(options: KernelRegressionOptions): KernelRegressionResult;
  /** Self-attention, recurrent, convolutional and fully connected layers compared. */
  costModel(options: {
    n: number;
    d: number;
    /** the convolution's kernel width (default 3) */
    k?: number;
  }): LayerCost[];
  /** A decoder writing n tokens one at a time, one self-attention layer (QKᵀ and AV, as costModel counts). */
  generationCost(options: GenerationCostOptions): GenerationCost;
  /** 2 layers kvHeads headDim tokens bytesPerNumber: the bytes of a decoder's key-value cache (keys and values). */
  kvCacheBytes(options: KvCacheOptions): number;
  /** W^Q (dModel, heads headDim), W^K and W^V (dModel, kvHeads headDim), W^O (heads headDim, dModel) counted. */
  attentionProjectionParameters(options: ProjectionParameterOptions): ProjectionParameters;
  /**
   * Rotary position embedding (RoPE): row r's pairs of columns (2i, 2i + 1) turned by
   * (r + offset) base^(-2i/d) radians; the width must be even. q·k of two turned rows
   * then depends on their positions' difference only, and every row keeps its length.
   */
  rotary(matrix: MatrixLike, options?: RotaryOptions): Matrix;
  /**
   * ALiBi's slope of each head (Press et al. 2022): 2^(-8(h+1)/heads) for a power of two
   * (8 heads: 1/2 ... 1/256); otherwise those of the power of two p below, then every other
   * slope of 2p. Head h adds -slope (i - j) to the score of query i and key j.
   */
  alibiSlopes(heads: number): Float32Array;
  /** Entropy -sum w log w (nats) of each row of weights. */
  entropy(weights: MatrixLike): Float32Array;
  /** log n (nats): the entropy of n even weights, the most a row of n weights can have (n >= 1). */
  maxEntropy(n: number): number;
  /** 1 / (1 + exp(-x)) entry by entry (contrast with softmax). */
  sigmoid(x: MatrixLike): Matrix;
  /** The sum of each row (accumulated in double): of weights, 1 or 0 per row. */
  rowSums(m: MatrixLike): Float32Array;
  /** factor * m entry by entry (a score times its scale, a weight times a value). */
  scale(m: MatrixLike, factor: number): Matrix;
  /** a bᵀ: the dot product of every row of a with every row of b (summed in double), (a.rows, b.rows). */
  dotProducts(a: MatrixLike, b: MatrixLike): Matrix;
  /** The largest entry of each row and its column; -Infinity entries are allowed, NaN is an error. */
  argmaxRows(m: MatrixLike): RowArgmax;
  /**
   * One vector per token (the same word, case-insensitively, gets the same
   * vector): entries with zero mean and unit variance. Illustrative: they carry no meaning.
   */
  embedTokens(options: {
    tokens: string[];
    d: number;
    /** seeds the vectors (default 1) */
    seed?: number;
  }): Matrix;
  /** Random q.k samples showing that the variance grows like d, and 1/sqrt(d) fixes it. */
  dotProductSamples(options: {
    d: number;
    /** pairs drawn (default 2000) */
    count?: number;
    /** seeds the draws (default 1) */
    seed?: number;
  }): DotProductSamples;
  /** Counts of values in `bins` equal-width bins on [from, to] (bins: 1..10000, from < to). */
  histogram(options: { values: VectorLike; bins: number; from: number; to: number }): Histogram;
  /**
   * The least-squares line y = slope x + intercept through (xs[i], ys[i]): at least
   * 2 points, as many ys as xs, not every x equal. Fitted to log time against
   * log n, its slope is the exponent of the growth.
   */
  fitLine(xs: VectorLike, ys: VectorLike): LineFit;
  /** The deterministic initialiser: Xavier uniform (rows, cols) for (seed, stream). */
  initXavier(rows: number, cols: number, seed: number, stream?: number): Matrix;
  /** The same generator with entries uniform on [-limit, limit] (limit >= 0; ±√3 gives variance 1). */
  initUniform(rows: number, cols: number, seed: number, limit: number, stream?: number): Matrix;
  /**
   * The pretrained sentence encoder (Universal Sentence Encoder Lite: 2 layers,
   * 4 heads) from a model file such as web/model/encoder.q.bin. Rejects a
   * file that is truncated, corrupt or of another format with an Error. The
   * encoder's code is a second module (attention-encoder.mjs, beside this
   * one), imported on the first call.
   */
  loadEncoder(bytes: Uint8Array | ArrayBuffer): Promise<Encoder>;
  /**
   * An attention model to train live on a sequence task (reverse, shift, date); see Trainer.
   * The trainers' code is a third module (attention-training.mjs, beside this one), imported
   * on the first call of createTrainer, createWidthTrainer or createLanguageModel; bad
   * options reject with an Error. The object's own methods answer at once.
   */
  createTrainer(options?: TrainerOptions): Promise<Trainer>;
  /** The height -> weight Nadaraya-Watson model learning its kernel width; see WidthTrainer. */
  createWidthTrainer(options?: WidthTrainerOptions): Promise<WidthTrainer>;
  /** A small character-level transformer trained on texts, which then writes; see LanguageModel. */
  createLanguageModel(options: LanguageModelOptions): Promise<LanguageModel>;
  /** The five-character quatrain form of each text: 24 characters, punctuation exactly at 6, 12, 18, 24. */
  quatrainForm(texts: readonly string[]): QuatrainForm;
  /** The repeats corpus: each text a random string of distinct characters written twice ("qfzkqfzk").
   *  Made in the training module, which it loads on first use (as createLanguageModel). */
  repeatsCorpus(options?: RepeatsOptions): Promise<{ train: string[]; heldOut: string[] }>;
  /** Any text as a corpus: its lines, trimmed (a line longer than context - 1 characters in windows of
   *  that many), blank lines dropped, a text equal to an earlier one dropped (`repeats` counts them, so
   *  that no held-out text is also a training text), every tenth text held out. Rejects, with a message
   *  saying why, an empty text, a binary one, one under 2,000 characters besides spaces and line breaks
   *  (in all, or once the repeats are dropped), one over 2,000,000 bytes, and one with more than 4,000
   *  distinct characters seen minCount times or more in its training texts. Made in the training module
   *  (as createLanguageModel). */
  ownCorpus(text: string, options?: { context?: number; minCount?: number }): Promise<{ train: string[]; heldOut: string[]; repeats: number }>;
  /** For leak checks, not for computing. */
  readonly debug: {
    /**
     * The WASM memory's size and the bytes malloc holds, summed over this module
     * and the modules it has loaded (the encoder's, the trainers').
     */
    memoryStats(): MemoryStats;
    /** live Embind handles, summed likewise */
    handles(): number;
  };
  /** The class every function throws (also a named export of the module). */
  readonly AttentionError: typeof AttentionError;
}

export interface ModuleOptions {
  /** the WebAssembly is inlined (the two modules loaded on first use are found beside this one): only for custom loaders */
  locateFile?: (path: string, prefix: string) => string;
}

/** Resolves to a frozen object holding exactly the functions of AttentionModule. */
declare function createAttention(options?: ModuleOptions): Promise<Readonly<AttentionModule>>;
export default createAttention;
