// Types of the language model of the attention module (createLanguageModel,
// quatrainForm in attention.d.mts): re-exported from there.
import type { Handle, Matrix, MatrixLike } from './attention.mjs';
import type { GradientCheck } from './trainer.mjs';

/**
 * A small decoder-only transformer over characters (Unicode code points):
 * token embedding + learned positions, `layers` pre-layer-norm blocks of
 * causal multi-head self-attention and a GELU MLP (hidden 4 dModel), a final
 * layer norm and an untied unembedding; trained by Adam with warm-up and
 * gradient clipping on the next character of each text. Token 0 is the
 * boundary ⏎: each text is read as ⏎ + its characters + ⏎.
 */
export interface LanguageModelOptions {
  /** training texts (any Unicode; at least one character in all) */
  texts: readonly string[];
  /** held-out texts for evaluate() (may be empty) */
  heldOut: readonly string[];
  /** transformer blocks, 1..4 (default 2) */
  layers?: number;
  /** attention heads, dividing dModel (default 4) */
  heads?: number;
  /** model width, 1..256 (default 64) */
  dModel?: number;
  /** positions, 2..128: a text longer than context + 1 tokens is trained on random windows (default 32) */
  context?: number;
  /** seeds the parameters and the batches (default 1) */
  seed?: number;
  /** sequences per step, 1..512 (default 32) */
  batch?: number;
  /** Adam's step size, > 0 (default 3e-3) */
  learningRate?: number;
  /** steps of linear learning-rate warm-up, an integer >= 0 (default 50) */
  warmup?: number;
  /** the largest global gradient norm, >= 0; 0 turns clipping off (default 1) */
  clip?: number;
  /** characters seen fewer times in the texts fold into the unknown token � (default 1: none) */
  minCount?: number;
  /** how the model knows where a token is (default 'learned': a trained table of context rows, added to the
   *  embeddings). 'sinusoidal': the fixed sin/cos table; 'rotary': each head's q and k turned by their
   *  positions (base 10000; dModel / heads must be even); 'alibi': head h adds -m_h (i - j) to its scores
   *  (alibiSlopes(heads)); 'none': only the causal mask. All but 'learned' read past the context
   *  (evaluate({ length }), and generation with a window). */
  position?: PositionScheme;
  /** key/value heads, dividing heads: query head h reads key/value head floor(h kvHeads / heads); heads:
   *  multi-head, 1: multi-query, between: grouped (default 0: heads, info().kvHeads says how many) */
  kvHeads?: number;
  /** a query sees the last `window` keys, itself included, 1..context (default 0: all) */
  window?: number;
  /** and the first `sinks` keys always; they need a window (default 0) */
  sinks?: number;
  /** threads computing each step of train(), 1..16 (default 1: train() steps on this thread alone):
   *  this thread computes a run of each step's chunks and threads - 1 workers the others. Every count
   *  gives step()'s losses and parameters bit for bit: a step's batch is cut into chunks fixed by the
   *  batch (min(batch, 8); more threads than chunks are not used). Node: worker_threads; a browser:
   *  workers loading the training module from where it was loaded. */
  threads?: number;
}

export interface TrainProgress {
  /** steps taken so far, the loss of the one just taken, the steps of this call done and asked */
  step: number;
  loss: number;
  done: number;
  steps: number;
}

export interface TrainOptions {
  /** called after every step */
  onProgress?: (progress: TrainProgress) => void;
}

/** the position schemes of createLanguageModel */
export type PositionScheme = 'learned' | 'sinusoidal' | 'rotary' | 'alibi' | 'none';

export interface LanguageModelStep {
  /** steps taken so far */
  step: number;
  /** mean cross-entropy (nats per token) of the last step's batch, before its update */
  loss: number;
  /** (n) the loss of each of the n steps of this call; the last is `loss` */
  losses: Float64Array;
  /** the characters predicted in the n steps (padding left out): tokens per second = tokens / the call's time */
  tokens: number;
}

export interface LanguageModelEvaluation {
  /** held-out mean cross-entropy per predicted token (nats) */
  loss: number;
  /** the same targets under the training texts' character frequencies, add-one smoothed: the baseline */
  unigramLoss: number;
  /** held-out targets counted (every character and each text's end) */
  tokens: number;
  /** evaluate({ length }): the longest window read, in positions (0 for evaluate()) */
  length: number;
}

export interface EvaluateOptions {
  /** the windows' length in positions: 1..context for learned positions, 1..4 context otherwise */
  length: number;
  /** the texts to read, each ⏎ + text + ⏎, joined into one stream cut into windows (default: heldOut) */
  texts?: readonly string[];
}

export interface PositionLossOptions {
  /** true (default): one token at a time through the key-value cache, as generation reads a prompt (with a window,
   *  any length up to 65,536 tokens; without, up to context); false: the full forward (up to 4 context, learned: context) */
  cached?: boolean;
  /** "absolute" (default) or "slot": rotary and alibi read the cached keys at their slots (cached only) */
  cachePositions?: 'absolute' | 'slot';
}

/** The loss of every next token along ⏎ + text + ⏎. */
export interface PositionLosses {
  /** ⏎, the text's characters, ⏎ (m + 1 tokens) */
  tokens: string[];
  /** (m) losses[i]: the cross-entropy (nats) of tokens[i + 1] given tokens[0..i] */
  losses: Float64Array;
  /** the mean of losses */
  mean: number;
}

export interface NextTokens {
  /** the 20 most likely next tokens (fewer if the vocabulary is smaller; in a DecodeStep, the kept ones), most
   *  likely first; ⏎ is the end */
  tokens: string[];
  /** their probabilities, descending */
  probabilities: Float32Array;
}

export interface LanguageModelAttention {
  /** ⏎ and the text's characters */
  tokens: string[];
  /** [layer][head]: (n + 1, n + 1) causal weights, row i is what token i attends to */
  weights: Matrix[][];
}

export interface HeadScores {
  /** [layer][head]: mean over queries i >= period of the weight on key i - period */
  previousLine: number[][];
  /** [layer][head]: mean over queries of the weight on punctuation keys (，。！？、；：,.!?;:) */
  punctuation: number[][];
}

/**
 * What one head attends to: the mean weight its queries put on a named key, over
 * ⏎ + each text (at most context tokens), token i a query. null where no query
 * of the texts has the role.
 */
export interface HeadRole {
  /** A[i][i - 1], queries i >= 2: the character just before */
  previous: number | null;
  /** A[i][i], queries i >= 1: its own position */
  self: number | null;
  /** A[i][0], queries i >= 2: the boundary ⏎ that opens the text (an attention sink) */
  first: number | null;
  /** the sum of A[i][j + 1] over the earlier occurrences j (1 <= j <= i - 2) of token i: the character
   *  that followed where the current one was seen before; queries whose token occurred before (never �) */
  induction: number | null;
  /** A[i][i - p], p the length of the text's first line up to and including its first punctuation
   *  mark: the same place one line back; texts with a second line */
  line: number | null;
  /** the role with the highest score (previous, self, first, induction, line: the first on ties) */
  best: 'previous' | 'self' | 'first' | 'induction' | 'line';
  /** best's score */
  score: number | null;
}

export interface HeadRoles {
  /** [layer][head] */
  heads: HeadRole[][];
  /** texts measured, and their queries (tokens i >= 1) */
  texts: number;
  queries: number;
}

export interface HalfScore {
  /** mean cross-entropy, nats per character */
  loss: number;
  /** share of targets that are the model's most likely next character */
  accuracy: number;
  /** targets counted */
  tokens: number;
}

/** A text of c characters written twice has h = floor(c / 2) in its first half. */
export interface Halves {
  /** targets x0 .. x(h-1): new characters, to be guessed */
  first: HalfScore;
  /** targets x(h+1) .. x(c-1) and the closing ⏎: each can be copied from what followed it the first time */
  second: HalfScore;
}

export interface NgramBaseline {
  /** 1 unigram, 2 bigram, 3 trigram, 4 four-gram */
  order: number;
  /** held-out mean cross-entropy per character (nats), on evaluate()'s targets */
  loss: number;
  /** the add-k smoothing chosen on the last tenth of the training texts (counted on the rest) */
  k: number;
  /** the share of the held-out characters whose context (the order - 1 tokens before them) no training
   *  text has: for those the model can only guess evenly, 1 / vocab (0 for the unigram) */
  unseen: number;
}

export interface Baselines {
  /** orders 1 to 4 */
  ladder: NgramBaseline[];
  /** held-out targets */
  tokens: number;
}

export interface GenerateOptions {
  /** the text to continue (default ''); a character not in the vocabulary is the unknown token if there is one, else an Error */
  prompt?: string;
  /** characters to write at most (default 24); it also stops at ⏎ and when the context is full */
  maxTokens?: number;
  /** softmax temperature, >= 0; 0 always takes the most likely (default 0.8) */
  temperature?: number;
  /** sample among the k most likely; 0: all (default 20). The unknown token � is never written. */
  topK?: number;
  /** then keep the fewest most likely tokens whose probabilities (over the top k) sum to at least topP: the
   *  nucleus, in (0, 1]; 1 keeps all (default 1) */
  topP?: number;
  /** then keep the tokens at least minP times as likely as the most likely one, in [0, 1]; 0 keeps all
   *  (default 0). The kept tokens' probabilities are renormalised to sum to 1; with topP 1 and minP 0 they are
   *  top-k's as they are. */
  minP?: number;
  /** the sampling seed: the same seed, model and options give the same text (default 1) */
  seed?: number;
  /** where rotary and alibi read a cached key: 'absolute', at its token's position (default), or 'slot',
   *  renumbered 0, 1, ... in the cache when read, as StreamingLLM does (rotary and alibi only) */
  cachePositions?: 'absolute' | 'slot';
}

export interface TraceOptions {
  /** false: no residual connections, H = Attn(LN1(X)) and X = MLP(LN2(H)) (default true) */
  residual?: boolean;
  /** false: LN1, LN2 and the final layer norm pass their input through (default true) */
  layerNorm?: boolean;
  /** of the next token's softmax, > 0 (default 1) */
  temperature?: number;
}

export interface TraceStage {
  /** 'embedding' | 'ln1' | 'attention' | 'residual1' | 'ln2' | 'hidden' | 'mlp' | 'residual2' | 'lnf' | 'logits' */
  name: string;
  /** the block, 1..layers; 0 for embedding, lnf and logits */
  layer: number;
  /** (m, dModel); hidden (m, 4 dModel); logits (m, vocab), m = 1 + the text's characters */
  values: Matrix;
  /** the root mean square of values */
  rms: number;
}

export interface LanguageModelTrace {
  /** ⏎ and the text's characters */
  tokens: string[];
  /** embedding, then per block ln1, attention, residual1, ln2, hidden, mlp, residual2, then lnf and logits */
  stages: TraceStage[];
  /** after the last token: softmax(logits / temperature), the 10 most likely */
  next: NextTokens;
  /** of that whole distribution, nats */
  entropy: number;
  /** mean cross-entropy of the text's characters, each predicted from those before it (temperature 1; 0 for '') */
  loss: number;
}

export interface DecodeStep {
  /** the token read at this position: the prompt's, or the one sampled by the step before */
  token: string;
  /** its position t: the query row computed */
  position: number;
  /** [layer][head]: the new row of the causal map, weights on keys 0..t (t + 1 of them) */
  rows: Float32Array[][];
  /** multiply-adds of this token with the cache: layers (12 d² + 2 (t + 1) d) + d vocab. With kvHeads the
   *  12 d² is 10 d² + 2 d kvHeads d / heads; with a window t + 1 is the keys it sees (the sinks and the last
   *  window positions), here and below */
  cachedMultiplyAdds: number;
  /** the same token recomputing positions 0..t: layers (12 d² (t + 1) + (t + 1)(t + 2) d) + d vocab */
  uncachedMultiplyAdds: number;
  /** of these, one layer's attention (scores and weighted sums), the count of generationCost({ n: t + 1, d }):
   *  cached 2 (t + 1) d (tokenCached), uncached (t + 1)(t + 2) d (tokenUncached) */
  attention: { cached: number; uncached: number };
  /** keys and values kept after it: 2 layers cacheEntries kvHeads (d / heads) numbers */
  cacheNumbers: number;
  /** the positions the cache holds after it: t + 1, at most sinks + window with a window */
  cacheEntries: number;
  /** the generation's prefill: ⏎ and the prompt, m positions, in one pass (every row of their causal map,
   *  the logits of the last): layers (12 d² m + m (m + 1) d) + d vocab */
  prefillMultiplyAdds: number;
  /** its decode steps so far, one written token each through the cache (the sum of their
   *  cachedMultiplyAdds; 0 while the prompt is read) */
  decodeMultiplyAdds: number;
  /** the token sampled to follow ('' once done) */
  next: string;
  /** ⏎ was sampled, or the context is full: nextToken() then throws */
  done: boolean;
  /** what `next` was drawn from: the tokens the filters kept (topK, topP, minP), most likely first, with their
   *  renormalised probabilities (summing to 1; temperature 0: the most likely alone, 1). Empty for a prompt
   *  token that is followed by the prompt's next one (nothing was sampled). */
  kept: NextTokens;
}

export interface LanguageModelVocabulary {
  /** every token by index: ⏎, then � if anything folded, then the characters in code point order */
  tokens: string[];
  /** distinct training characters folded into � (seen fewer than minCount times) */
  unknown: number;
  /** the share of training characters kept (not folded), 0..1 */
  coverage: number;
}

export interface LanguageModelInfo {
  /** the sizes and rates with every default filled in (not the texts) */
  options: Readonly<Required<Omit<LanguageModelOptions, 'texts' | 'heldOut'>>>;
  /** trainable numbers */
  parameters: number;
  /** tokens in the vocabulary, ⏎ included */
  vocab: number;
  /** batch * context: the positions of one step at most (step().tokens counts the predicted ones) */
  tokensPerStep: number;
  /** steps taken so far */
  step: number;
  /** the position scheme, key/value heads (heads when not given), window (0: none) and sinks */
  position: PositionScheme;
  kvHeads: number;
  window: number;
  sinks: number;
  /** the threads train() uses, this one among them (1 after a worker failed), and the chunks a step is cut into */
  threads: number;
  chunks: number;
}

/** See Handle: after delete() every call throws; delete() again does nothing. */
export interface LanguageModel extends Handle<LanguageModelInfo> {
  /** Runs `steps` Adam steps (an integer 1..1000000, default 1). Throws if training diverges. */
  step(steps?: number): LanguageModelStep;
  /** The same steps as step(), by this thread and the model's `threads` - 1 workers, or on this thread
   *  alone in slices of about a frame (threads 1), resolving to the same result. While it runs, step(), setParameters() and train()
   *  throw. A worker that fails rejects it with WORKER_FAILED: the step it was on is not taken, and the
   *  model goes on at threads 1; delete() rejects it with DELETED and ends the workers. */
  train(steps: number, options?: TrainOptions): Promise<LanguageModelStep>;
  /** The held-out loss and the unigram baseline; changes nothing. Throws when heldOut is empty. With
   *  { length }: the texts read in windows of that many positions, past the context for the schemes that can
   *  (learned positions past context: BAD_ARGUMENT). */
  evaluate(options?: EvaluateOptions): LanguageModelEvaluation;
  /** The loss of every next token along ⏎ + text + ⏎, as a decoder reading it token by token meets them. */
  positionLosses(text: string, options?: PositionLossOptions): PositionLosses;
  /** The most likely next tokens after ⏎ + prefix (its last context tokens). */
  next(prefix: string): NextTokens;
  /** Every layer's and head's weights over ⏎ + text (at most context - 1 characters). */
  attention(text: string): LanguageModelAttention;
  /** How much each head looks one line back (period characters) and at punctuation (default period 6). */
  headScores(text: string, period?: number): HeadScores;
  /** The prompt + what the model writes, sampled through a key-value cache. */
  generate(options?: GenerateOptions): string;
  /** What each head attends to (HeadRole), over the texts given or, by default, the held-out texts
   *  (up to 256 of their characters). */
  headRoles(texts?: readonly string[]): HeadRoles;
  /** For texts written twice (att.repeatsCorpus): the loss and accuracy over each half; by default the
   *  held-out texts. Each text must fit in context - 1 characters. */
  halves(texts?: readonly string[]): Halves;
  /** The n-gram ladder: add-k count models of orders 1-4 on the same tokens and split, computed once. */
  baselines(): Baselines;
  /** The forward on ⏎ + text stage by stage (at most context - 1 characters), with the residual connections
   *  or the layer norms removed if asked; with both on, the logits are the training forward's. */
  trace(text: string, options?: TraceOptions): LanguageModelTrace;
  /** generate() one token at a time: reads ⏎ and the prompt through the cache (one step each, the last one
   *  with the first sampled token in `next`). maxTokens is not an option: call nextToken() until done. */
  beginGeneration(options?: Omit<GenerateOptions, 'maxTokens'>): DecodeStep[];
  /** Reads the token sampled last and samples the next. Throws when no generation is in progress: none began,
   *  it is done, or step(), generate() or another beginGeneration() reused the cache. */
  nextToken(): DecodeStep;
  /** Backpropagation against finite differences in double on a slice of every tensor. */
  gradientCheck(): GradientCheck;
  vocabulary(): LanguageModelVocabulary;
  /** Copies of every tensor by name: embedding, positions, layer1.ln1.gain, …, layer1.Wq, …, lnf.gain, Wout, bout. */
  parameters(): Record<string, Matrix>;
  /**
   * Sets the tensors named, as parameters() names them (the others keep theirs): a model trained
   * elsewhere (another model's parameters(), or a widget's JSON export) for the same texts and
   * options. Every name, shape and value is checked before any is written; the optimiser's state
   * and the step count stay. Throws for an unknown name, a wrong shape or a value that is not finite.
   */
  setParameters(tensors: Record<string, MatrixLike>): void;
}

/** att.repeatsCorpus's options; lengths are drawn uniformly, characters without replacement. */
export interface RepeatsOptions {
  /** training texts, 1 to 100000 (default 4000) */
  train?: number;
  /** held-out texts, 0 to 100000, drawn after the training ones (default 200) */
  heldOut?: number;
  /** characters of the string written twice, at least 1 (default 4) */
  minLength?: number;
  /** at most the alphabet's size and 60 (default 10) */
  maxLength?: number;
  /** distinct characters to draw from (default a-z) */
  alphabet?: string;
  /** (default 1) */
  seed?: number;
}

export interface QuatrainForm {
  /** texts with exactly 24 characters and punctuation at positions 6, 12, 18, 24 and nowhere else */
  passed: number;
  total: number;
  /** passed / total (0 for no texts) */
  share: number;
}
