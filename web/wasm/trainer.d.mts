// Types of the trainers of the attention module (createTrainer,
// createWidthTrainer in attention.d.mts): re-exported from there.
import type { Handle, Matrix, NumericArray, VectorLike } from './attention.mjs';

export type TrainerTask = 'reverse' | 'shift' | 'date';

/**
 * A one-layer attention model (embedding + sinusoidal positions -> Q, K, V ->
 * multi-head attention -> linear readout, no biases) trained by Adam on a
 * task whose right attention map is known. Every size is an integer.
 */
export interface TrainerOptions {
  /** 'reverse': output i copies input n-1-i (the anti-diagonal); 'shift': input i-1, cyclic; 'date': YYYYMMDD
   *  written DDMMYYYY, length 8 (default 'reverse') */
  task?: TrainerTask;
  /** seeds the parameters, the batches, the held-out set and the probe (default 1) */
  seed?: number;
  /** tokens per sequence, 2..256 (default 8) */
  length?: number;
  /** distinct tokens, 2..4096 (default 10) */
  vocab?: number;
  /** model width, 1..512, a multiple of heads (default 32) */
  dModel?: number;
  /** attention heads, 1..dModel (default 1) */
  heads?: number;
  /** sequences per step, 1..4096 (default 32) */
  batch?: number;
  /** Adam's step size, finite and > 0 (default 0.01) */
  learningRate?: number;
  /** query i sees keys 0..i only (reverse cannot be learned then) (default false) */
  causal?: boolean;
  /** adds the input to the attention output (default false) */
  residual?: boolean;
  /** the queries come from the positions alone, Q = PE Wq: cross-attention from the output's positions to
   *  the input, whose tokens only the keys and values see (default false) */
  cross?: boolean;
}

export interface TrainerStep {
  /** steps taken so far */
  step: number;
  /** mean cross-entropy of the last step's batch, before its update */
  loss: number;
  /** (n) the loss of each of the n steps of this call; the last is `loss` */
  losses: Float64Array;
}

export interface TrainerEvaluation {
  /** mean cross-entropy over the fixed held-out set (256 sequences) */
  loss: number;
  /** fraction of held-out positions whose most likely token is the target, 0..1 */
  accuracy: number;
}

export interface TrainerProbe {
  /** (length) the fixed example's tokens */
  input: Int32Array;
  /** (length) the tokens it should give */
  target: Int32Array;
  /** (length) the most likely token at each position */
  prediction: Int32Array;
  /** per head (length, length): row i is what output position i attends to */
  weights: Matrix[];
  /** (length, length) the map the task needs: 1 where output i reads the input it must copy, else 0 */
  needed: Matrix;
}

export interface TrainerParameters {
  /** (vocab, dModel) */
  embedding: Matrix;
  /** (dModel, dModel) each */
  Wq: Matrix;
  Wk: Matrix;
  Wv: Matrix;
  /** (dModel, vocab) */
  Wo: Matrix;
}

/** gradientCheck() of a Trainer and of a LanguageModel. */
export interface GradientCheck {
  /** the largest relative error of the backpropagated gradient against central differences in double */
  maxRelativeError: number;
  /** parameter entries compared: all of a Trainer's; for a LanguageModel, 3 spread over every tensor on its first training text's first 6 positions */
  checked: number;
  /** where the largest error is, e.g. "Wq(3, 1)", "layer1.Wq(3, 1)" */
  worst: string;
  /** each tensor checked, in the order of parameters(): its entries compared and its own largest error */
  tensors: { name: string; checked: number; maxRelativeError: number }[];
}

/** What info() says of a trainer. */
export interface TrainerInfo<Options> {
  /** the options with every default filled in */
  options: Readonly<Required<Options>>;
  /** trainable numbers */
  parameters: number;
  /** steps taken so far */
  step: number;
}

/** See Handle: after delete() every call throws; delete() again does nothing. */
export interface Trainer extends Handle<TrainerInfo<TrainerOptions>> {
  /** Runs `steps` Adam steps (an integer 1..1000000, default 1). Throws if training diverges. */
  step(steps?: number): TrainerStep;
  /** Loss and accuracy on the held-out set (fixed by the seed); changes nothing. */
  evaluate(): TrainerEvaluation;
  /** The model on one fixed example: its prediction and every head's map. */
  probe(): TrainerProbe;
  /** Copies of the current parameters. */
  parameters(): TrainerParameters;
  /** Backpropagation against finite differences over every parameter (2 held-out sequences); slow: seconds. */
  gradientCheck(): GradientCheck;
}

/**
 * Nadaraya-Watson attention pooling with a learnable width w, trained by Adam
 * on noisy height -> weight samples (heights uniform on 150..195 cm, weight =
 * 22 (height/100)^2 kg plus noise): score(q, k) = -((q - k) w)^2 / 2.
 */
export interface WidthTrainerOptions {
  /** seeds the training and held-out samples (default 1) */
  seed?: number;
  /** training samples, an integer 3..10000 (default 50) */
  samples?: number;
  /** noise of the weights in kg, >= 0 (default 2) */
  noise?: number;
  /** the initial w in 1/cm, > 0 (default 0.02: a wide, nearly flat kernel) */
  width?: number;
  /** Adam's step size, > 0 (default 0.01) */
  learningRate?: number;
}

export interface WidthTrainerStep {
  /** steps taken so far */
  step: number;
  /** the leave-one-out loss (mean squared error, kg²) before the last update */
  loss: number;
  /** w after the last update */
  width: number;
  /** (n) the loss of each of the n steps of this call */
  losses: Float64Array;
}

export interface WidthTrainerEvaluation {
  /** mean squared error of 100 held-out samples estimated from the training samples (kg²): the held-out loss, as a Trainer's */
  loss: number;
  /** leave-one-out mean squared error of the training samples at the current w (kg²): what step() descends */
  trainingLoss: number;
  width: number;
  /** the width as a kernel's sigma, 1 / width (cm) */
  sigma: number;
}

/** See Handle: after delete() every call throws; delete() again does nothing. Its one parameter is w. */
export interface WidthTrainer extends Handle<TrainerInfo<WidthTrainerOptions>> {
  /** Runs `steps` Adam steps on w (an integer 1..1000000, default 1). */
  step(steps?: number): WidthTrainerStep;
  evaluate(): WidthTrainerEvaluation;
  /** The training samples: heights (cm) and weights (kg). */
  samples(): { heights: Float64Array; weights: Float64Array };
  /** The regression curve: the estimate at each query height from the training samples, with the current w. */
  curve(queries: VectorLike): Float32Array;
  /** Attention pooling with the current w over given keys and values (e.g. the article's four people). */
  weights(options: { keys: VectorLike; values: VectorLike; queries: VectorLike }): {
    /** (queries, keys), rows summing to 1 */
    weights: Matrix;
    estimates: Float32Array;
  };
  /** The leave-one-out loss at each width (> 0): the curve L(w) that training descends. */
  lossCurve(widths: NumericArray): Float64Array;
}
