// The training loop of the training widget, the same in the Web Worker and on
// the main thread (the fallback): a core trainer, the history of its losses,
// and snapshots of everything the widget shows. Every number comes from the
// core (att.createTrainer); this file only keeps them in order.
//
//   engine = createEngine(att)
//   engine.reset(options)   -> Promise: a new trainer at step 0 (options as createTrainer takes them)
//   engine.step()           one Adam step; its batch loss joins the history
//   engine.snapshot()       -> { step, losses, evaluations, evaluation, probe, product, parameters }
//   engine.dispose()
//
//   loop = createLoop(engine, { sliceMs, post })   runs steps in slices of sliceMs
//   loop.reset(options); loop.advance(n); loop.cancel(); loop.receive(message) (any of the three)
//   post(message): { type: 'snapshot', snapshot, done } after each slice, { type: 'error', message }

// The model of the widget: small enough to learn in a second, as the trainer documents.
export const MODEL = { length: 8, vocab: 10, dModel: 32, batch: 32 };

const copyMatrix = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

export function createEngine(att) {
  let trainer = null;
  let losses = [];        // (steps) the batch loss of each step, step k at index k - 1
  let evaluations = [];   // [{ step, loss, accuracy }] on the held-out set, when a snapshot was taken
  let step = 0;

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
    },
    step() {
      const r = trainer.step(1);
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

// Steps in slices of at most sliceMs, a snapshot posted after each: the caller
// stays responsive between slices (a worker reads its messages, the main
// thread paints). `now` is injectable for tests.
export function createLoop(engine, { sliceMs, post, now = () => performance.now() }) {
  let remaining = 0;
  let timer = 0;
  let ready = false;      // a trainer is there to step
  let generation = 0;     // resets started: an older one's end is ignored

  function fail(error) {
    remaining = 0;
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
  function tick() {
    timer = 0;
    try {
      const start = now();
      while (remaining > 0) {
        engine.step();
        remaining -= 1;
        if (now() - start >= sliceMs) break;
      }
      post({ type: 'snapshot', snapshot: engine.snapshot(), done: remaining === 0 });
    } catch (error) {
      fail(error);
      return;
    }
    if (remaining > 0) timer = setTimeout(tick, 0);
  }
  function cancel() {
    clearTimeout(timer);
    timer = 0;
    remaining = 0;
  }
  return {
    reset(options) {
      cancel();
      ready = false;
      const mine = ++generation;
      engine.reset(options).then(() => {
        if (mine !== generation) return;
        ready = true;
        post({ type: 'snapshot', snapshot: engine.snapshot(), done: true });
        if (remaining > 0 && !timer) timer = setTimeout(tick, 0);
      }, (error) => { if (mine === generation) fail(error); });
    },
    advance(n) {
      remaining += n;
      if (ready && !timer) timer = setTimeout(tick, 0);
    },
    // stops; the snapshot of where it stopped follows
    cancel() {
      const was = remaining > 0;
      cancel();
      if (was && ready) {
        try { post({ type: 'snapshot', snapshot: engine.snapshot(), done: true }); } catch (error) { fail(error); }
      }
    },
    // a runner's message: { type: 'reset', options } | { type: 'advance', n } | { type: 'cancel' }
    receive(message) {
      if (message.type === 'reset') this.reset(message.options);
      else if (message.type === 'advance') this.advance(message.n);
      else if (message.type === 'cancel') this.cancel();
    },
    dispose() { cancel(); generation++; engine.dispose(); },
  };
}
