// The trainers of the JS API, in the training module (training-module.js puts
// them in its facade; the attention module's createTrainer and
// createWidthTrainer call them there).
//
//   const t = await att.createTrainer({ task: 'reverse', seed: 1 });
//   t.step(100);        // { step, loss, losses }
//   t.evaluate();       // { loss, accuracy } on the fixed held-out set
//   t.probe();          // one fixed example: input, target, prediction, a map per head
//   t.delete();
//
// A trainer lives in the WASM heap: JS holds a handle (a number), never a
// pointer, and delete() frees it (handles.js). Options are checked against a
// schema (unknown option, wrong type); their defaults, sizes, ranges and
// memory limits are the core's (TrainerOptions, NwOptions), whose messages
// name the JS options:
//   "createTrainer: dModel 32 is not divisible by heads 3"
//   "trainer.step: steps must be an integer from 1 to 1000000, got -1"
import { fail } from './error.js';
import { handleObject } from './handles.js';
import { describe, kinds } from './kinds.js';
import { check } from './schema.js';

export const schemas = {
  createTrainer: {
    task: 'string', seed: 'seed', length: 'int', vocab: 'int', dModel: 'int', heads: 'int', batch: 'int',
    learningRate: 'number', causal: 'boolean', residual: 'boolean', cross: 'boolean',
  },
  createWidthTrainer: { seed: 'seed', samples: 'int', noise: 'number', width: 'number', learningRate: 'number' },
  'widthTrainer.weights': { keys: 'vector!', values: 'vector!', queries: 'vector!' },
};

// step(steps): the type here, the range (an integer from 1 to 1000000) in the core
export function stepCount(fn, steps) {
  if (steps === undefined) return 1;
  if (typeof steps !== 'number') fail(fn, 'steps must be an integer from 1 to 1000000, got ' + describe(steps));
  return steps;
}

// A trainer's handle object (handleObject) over created ({ handle, options }:
// what raw *_create answers, every option with the core's defaults filled in)
// whose info() says its options, the steps taken (each step() result, and each
// train() result where the methods have one, updates them) and what about(fn, handle)
// adds: at least { parameters }, the parameter count. raw: the function that
// deletes it; ended(): what else delete() ends (the language model's workers).
export function trainerObject(call, kind, created, raw, about, methods, ended = () => {}) {
  const options = Object.freeze(created.options);
  let step = 0;
  const counted = (result) => {
    step = result.step;
    return result;
  };
  const { step: stepping, train } = methods;
  return handleObject(kind, created.handle, (fn, handle) => {
    ended();
    call(fn, raw, { handle });
  }, {
    ...methods,
    step: (fn, handle, steps) => counted(stepping(fn, handle, steps)),
    ...(train ? { train: (fn, handle, ...args) => train(fn, handle, ...args).then(counted) } : {}),
    info: (fn, handle) => ({ options, step, ...about(fn, handle) }),
  });
}

// the number of entries of a result's matrices ({ name: Matrix })
const entries = (tensors) => Object.keys(tensors).reduce((n, key) => n + tensors[key].rows * tensors[key].cols, 0);

export const FUNCTIONS = {
  // the attention model trained on a sequence task (cpp/attention/training/trainer.hpp)
  createTrainer: ({ call }) => function createTrainer(options) {
    const fn = 'createTrainer';
    const created = call(fn, 'raw_trainer_create', check(fn, 'options', options, schemas.createTrainer));
    let count = null;  // the parameters, counted once
    const about = (fn, handle) => {
      if (count === null) count = entries(call(fn, 'raw_trainer_parameters', { handle }));
      return { parameters: count };
    };
    return trainerObject(call, 'trainer', created, 'raw_trainer_delete', about, {
      // n Adam steps: { step: steps so far, loss: the last step's, losses: Float64Array(n) }
      step: (fn, handle, steps) => call(fn, 'raw_trainer_step', { handle, steps: stepCount(fn, steps) }),
      evaluate: (fn, handle) => call(fn, 'raw_trainer_evaluate', { handle }),
      probe: (fn, handle) => call(fn, 'raw_trainer_probe', { handle }),
      parameters: (fn, handle) => call(fn, 'raw_trainer_parameters', { handle }),
      gradientCheck: (fn, handle) => call(fn, 'raw_trainer_gradient_check', { handle }),
    });
  },
  // the learnable-width Nadaraya-Watson model (cpp/attention/training/width_trainer.hpp)
  createWidthTrainer: ({ call }) => function createWidthTrainer(options) {
    const fn = 'createWidthTrainer';
    const created = call(fn, 'raw_width_trainer_create', check(fn, 'options', options, schemas.createWidthTrainer));
    return trainerObject(call, 'widthTrainer', created, 'raw_width_trainer_delete', () => ({ parameters: 1 }), {
      step: (fn, handle, steps) => call(fn, 'raw_width_trainer_step', { handle, steps: stepCount(fn, steps) }),
      // loss: the held-out one, as a Trainer's; trainingLoss: the leave-one-out loss training descends
      evaluate: (fn, handle) => {
        const e = call(fn, 'raw_width_trainer_evaluate', { handle });
        return { loss: e.heldOutLoss, trainingLoss: e.loss, width: e.width, sigma: e.sigma };
      },
      samples: (fn, handle) => call(fn, 'raw_width_trainer_samples', { handle }),
      // the regression curve through the training samples: the estimate at each query
      curve: (fn, handle, queries) =>
        call(fn, 'raw_width_trainer_pool', { handle, queries: kinds.vector(fn, 'queries', queries) }).estimates,
      // attention pooling with the current w over given keys and values
      weights: (fn, handle, pool) =>
        call(fn, 'raw_width_trainer_pool', { handle, ...check(fn, 'options', pool, schemas['widthTrainer.weights']) }),
      // the leave-one-out loss L(w) at each width: the curve training descends
      lossCurve: (fn, handle, widths) =>
        call(fn, 'raw_width_trainer_losses', { handle, widths: kinds.float64s(fn, 'widths', widths) }),
    });
  },
};
