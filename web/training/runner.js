// Where a training widget trains: in a Web Worker with its own module when
// one starts, else on the main thread in slices of a few milliseconds (a
// script-tag embed has no module worker; a strict host may refuse workers).
// Both take the same messages and answer with the same snapshots.
//
//   runner = createRunner({ loadAttention, onMessage(message), onMode(mode), startWorker?, startLoop? })
//   runner.reset(options); runner.advance(n); runner.cancel(); runner.view(settings); runner.dispose()
//   await runner.parameters()   the model's tensors (a loop that answers { type: 'parameters', id, parameters })
//   mode: 'starting' | 'worker' | 'main'
// startWorker() -> Worker and startLoop(att, post) -> loop (with receive(message))
// default to the attention trainer's (training-worker.js, engine.js); the
// language model brings its own (lm/).
import { startWorker } from '../workers.js';
import { createEngine, createLoop } from './engine.js';

// a slice on the main thread: short enough that the page keeps its frames
const MAIN_SLICE_MS = 4;

// throws where no worker can start: no Worker, a script embed from file://, a refusing host
const startTrainerWorker = () => startWorker('training');

const startTrainerLoop = (att, post) => createLoop(createEngine(att), { sliceMs: MAIN_SLICE_MS, post });

export function createRunner({ loadAttention, onMessage, onMode, useWorker = true, startWorker: start = startTrainerWorker, startLoop = startTrainerLoop }) {
  let mode = 'starting';
  let worker = null;
  let loop = null;
  let options = null;   // the last reset's, to replay where the worker fails
  let goal = 0;         // the step asked for since that reset (null after a cancel: the next snapshot says)
  let settings = null;  // the last view message (what a snapshot shows besides training), replayed too
  const queue = [];     // messages for a worker that has not loaded its module yet
  let disposed = false;
  let falling = false;
  const asked = new Map();  // id -> resolve, for parameters()
  let nextId = 0;

  const setMode = (next) => { mode = next; onMode(next); };

  function receive(message) {
    if (disposed) return;
    if (message.type === 'parameters') {
      asked.get(message.id)?.(message);
      asked.delete(message.id);
      return;
    }
    if (message.type === 'snapshot' && goal === null) goal = message.snapshot.step;
    onMessage(message);
  }

  async function fallBack() {
    if (disposed || falling) return;
    falling = true;
    worker?.terminate();
    worker = null;
    queue.length = 0;
    const att = await loadAttention();
    if (disposed) return;
    loop = startLoop(att, receive);
    setMode('main');
    if (settings) loop.receive(settings);
    if (options) {
      const target = goal ?? 0;
      loop.receive({ type: 'reset', options });
      if (target > 0) loop.receive({ type: 'advance', n: target });
    }
  }

  function send(message) {
    if (loop) {
      loop.receive(message);
    } else if (worker && mode === 'worker') {
      worker.postMessage(message);
    } else if (worker) {
      queue.push(message);
    }
  }

  if (useWorker) {
    try {
      worker = start();
      worker.addEventListener('message', ({ data }) => {
        if (data.type === 'ready') {
          setMode('worker');
          for (const message of queue.splice(0)) worker.postMessage(message);
        } else if (data.type === 'failed') {
          fallBack();
        } else {
          receive(data);
        }
      });
      // a module that cannot load (refused, missing) or a worker that dies: train here instead
      worker.addEventListener('error', (event) => { event.preventDefault(); fallBack(); });
    } catch {
      worker = null;
    }
  }
  if (!worker) fallBack();

  return {
    get mode() { return mode; },
    reset(next) {
      options = next;
      goal = 0;
      send({ type: 'reset', options: next });
    },
    advance(n) {
      if (goal !== null) goal += n;
      send({ type: 'advance', n });
    },
    cancel() {
      goal = null;
      send({ type: 'cancel' });
    },
    view(next) {
      settings = { type: 'view', settings: next };
      send(settings);
    },
    parameters() {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        asked.set(id, (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer.parameters)));
        send({ type: 'parameters', id });
      });
    },
    dispose() {
      disposed = true;
      worker?.terminate();
      loop?.dispose();
    },
  };
}
