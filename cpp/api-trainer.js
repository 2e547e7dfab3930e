// The trainers of the JS API, in the training module (appended inside its
// factory with --post-js, after api-checks.js; api-training-module.js puts them in
// the module's facade, and the attention module's createTrainer and
// createWidthTrainer call them).
//
//   const t = await att.createTrainer({ task: 'reverse', seed: 1 });
//   t.step(100);        // { step, loss, losses }
//   t.evaluate();       // { loss, accuracy } on the fixed held-out set
//   t.probe();          // one fixed example: input, target, prediction, a map per head
//   t.delete();
//
// A trainer lives in the WASM heap: JS holds a handle (a number), never a
// pointer, and delete() frees it. Every call after delete() throws, but
// delete() again does nothing (checks.handleObject). Options are checked against a schema as api.js does (unknown
// option, wrong type); sizes, ranges and memory limits are the core's checks,
// whose messages are said here with the JS option names:
//   "createTrainer: dModel 32 is not divisible by heads 3"
//   "trainer.step: steps must be an integer from 1 to 1000000, got -1"

var attentionTrainers = (function defineAttentionTrainers(Module, checks) {
  'use strict';

  const fail = checks.fail, describe = checks.describe, kinds = checks.kinds, check = checks.check;
  const isNumericArray = checks.isNumericArray;

  // the core's argument names -> the JS option names
  const renames = [[/\bd_model\b/g, 'dModel'], [/\blearning_rate\b/g, 'learningRate']];
  const call = checks.coreCaller(Module, renames);

  // step(steps): the type here, the range (an integer from 1 to 1000000) in the core
  function stepCount(fn, steps) {
    if (steps === undefined) return 1;
    if (typeof steps !== 'number') fail(fn, 'steps must be an integer from 1 to 1000000, got ' + describe(steps));
    return steps;
  }

  // numbers kept in double (the width trainer computes in double)
  function float64s(fn, name, xs) {
    if (!isNumericArray(xs)) fail(fn, name + ' must be a Float64Array or an array of numbers, got ' + describe(xs));
    const out = new Float64Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (typeof x !== 'number') fail(fn, name + '[' + i + '] must be a number, got ' + describe(x));
      out[i] = x;
    }
    return out;
  }

  // A trainer's handle object (checks.handleObject) whose info() says its
  // options, the steps taken (each step() result updates them) and what
  // describe(fn, handle) adds: at least { parameters }, the parameter count.
  function trainerObject(kind, handle, raw, options, describe, methods) {
    let step = 0;
    const stepping = methods.step;
    return checks.handleObject(kind, handle, (fn, handle) => call(fn, raw, { handle }), Object.assign({}, methods, {
      step: (fn, handle, steps) => {
        const result = stepping(fn, handle, steps);
        step = result.step;
        return result;
      },
      info: (fn, handle) => Object.assign({ options: options, step: step }, describe(fn, handle)),
    }));
  }

  // the number of entries of a result's matrices ({ name: Matrix })
  const entries = (tensors) => Object.keys(tensors).reduce((n, key) => n + tensors[key].rows * tensors[key].cols, 0);

  // ---- the attention model trained on a sequence task (cpp/attention/training/trainer.hpp) --------
  const trainerSchema = {
    task: 'string', seed: 'seed', length: 'int', vocab: 'int', dModel: 'int', heads: 'int', batch: 'int',
    learningRate: 'number', causal: 'boolean', residual: 'boolean', cross: 'boolean',
  };
  const trainerDefaults = {
    task: 'reverse', seed: 1, length: 8, vocab: 10, dModel: 32, heads: 1, batch: 32, learningRate: 0.01,
    causal: false, residual: false, cross: false,
  };

  function createTrainer(options) {
    const fn = 'createTrainer';
    const o = Object.assign({}, trainerDefaults, check(fn, 'options', options, trainerSchema));
    const handle = call(fn, 'raw_trainer_create', o).handle;
    let count = null;  // the parameters, counted once
    const describe = (fn, handle) => {
      if (count === null) count = entries(call(fn, 'raw_trainer_parameters', { handle }));
      return { parameters: count };
    };
    return trainerObject('trainer', handle, 'raw_trainer_delete', Object.freeze(o), describe, {
      // n Adam steps: { step: steps so far, loss: the last step's, losses: Float64Array(n) }
      step: (fn, handle, steps) => call(fn, 'raw_trainer_step', { handle, steps: stepCount(fn, steps) }),
      evaluate: (fn, handle) => call(fn, 'raw_trainer_evaluate', { handle }),
      probe: (fn, handle) => call(fn, 'raw_trainer_probe', { handle }),
      parameters: (fn, handle) => call(fn, 'raw_trainer_parameters', { handle }),
      gradientCheck: (fn, handle) => call(fn, 'raw_trainer_gradient_check', { handle }),
    });
  }

  // ---- the learnable-width Nadaraya-Watson model (cpp/attention/training/width_trainer.hpp) -----------
  const widthSchema = { seed: 'seed', samples: 'int', noise: 'number', width: 'number', learningRate: 'number' };
  const widthDefaults = { seed: 1, samples: 50, noise: 2, width: 0.02, learningRate: 0.01 };
  const poolSchema = { keys: 'vector!', values: 'vector!', queries: 'vector!' };

  function createWidthTrainer(options) {
    const fn = 'createWidthTrainer';
    const o = Object.assign({}, widthDefaults, check(fn, 'options', options, widthSchema));
    const handle = call(fn, 'raw_width_trainer_create', o).handle;
    return trainerObject('widthTrainer', handle, 'raw_width_trainer_delete', Object.freeze(o), () => ({ parameters: 1 }), {
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
        call(fn, 'raw_width_trainer_pool', Object.assign({ handle }, check(fn, 'options', pool, poolSchema))),
      // the leave-one-out loss L(w) at each width: the curve training descends
      lossCurve: (fn, handle, widths) =>
        call(fn, 'raw_width_trainer_losses', { handle, widths: float64s(fn, 'widths', widths) }),
    });
  }

  // trainerObject and stepCount serve the language model too (api-language-model.js)
  return { createTrainer, createWidthTrainer, trainerObject, stepCount };
})(Module, attentionChecks);
