// The training widget's engine for the live-training loop (live/loop.js), the
// same in its Web Worker and on the page (the fallback): a core trainer, the
// history of its losses, and snapshots of everything the widget shows. Every
// number comes from the core (att.createTrainer); this file only keeps them in order.
//
//   engine = createEngine(att)
//   engine.reset(options)   -> Promise: a new trainer at step 0 (options as createTrainer takes them)
//   engine.step()           one Adam step; its batch loss joins the history
//   engine.snapshot()       -> { step, stepsPerSecond, losses, evaluations, evaluation, probe, product, parameters }
//                              (every snapshot is full: they are cheap)
//   engine.dispose()

// The model of the widget: small enough to learn in a second, as the trainer documents.
export const MODEL = { length: 8, vocab: 10, dModel: 32, batch: 32 };

const copyMatrix = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

export function createEngine(att) {
  let trainer = null;
  let losses = [];        // (steps) the batch loss of each step, step k at index k - 1
  let evaluations = [];   // [{ step, loss, accuracy }] on the held-out set, when a snapshot was taken
  let step = 0;
  let timed = 0, trainMs = 0;  // steps taken here and the time they took

  function dispose() {
    trainer?.delete();
    trainer = null;
  }

  return {
    async reset(options) {
      const made = await att.createTrainer({ ...MODEL, ...options });
      dispose();  // a reset that overtook this one may have made a trainer meanwhile
      trainer = made;
      losses = [];
      evaluations = [];
      step = 0;
      timed = 0;
      trainMs = 0;
    },
    step() {
      const start = performance.now();
      const r = trainer.step(1);
      trainMs += performance.now() - start;
      timed += 1;
      step = r.step;
      losses.push(r.loss);
    },
    get stepCount() { return step; },
    snapshot() {
      const evaluation = trainer.evaluate();
      if (evaluations.at(-1)?.step !== step) evaluations.push({ step, loss: evaluation.loss, accuracy: evaluation.accuracy });
      const probe = trainer.probe();
      const parameters = trainer.parameters();
      // W^Q W^K^T: the bilinear form of the scores, q_i . k_j = x_i (W^Q W^K^T) x_j^T,
      // from the core: the dot products of the rows of W^Q with those of W^K
      const product = att.dotProducts(parameters.Wq, parameters.Wk);
      return {
        step,
        // one thread: a step of this model is well under a millisecond, less than a worker's round trip
        stepsPerSecond: trainMs > 0 ? (1000 * timed) / trainMs : null,
        losses: Float64Array.from(losses),
        evaluations: evaluations.slice(),
        evaluation: { loss: evaluation.loss, accuracy: evaluation.accuracy },
        probe: {
          input: Array.from(probe.input), target: Array.from(probe.target), prediction: Array.from(probe.prediction),
          weights: probe.weights.map(copyMatrix),
          needed: copyMatrix(probe.needed),
          // the key each query attends to most, per head (the core's argmax of each row)
          argmax: probe.weights.map((w) => Array.from(att.argmaxRows(w).index)),
        },
        product: copyMatrix(product),
        parameters: Object.fromEntries(Object.entries(parameters).map(([k, m]) => [k, copyMatrix(m)])),
      };
    },
    dispose,
  };
}
