// Where a live-training widget trains: in a Web Worker with its own module
// when one starts, else on the page in slices of a few milliseconds (a
// script-tag embed from file:// has no worker; a strict host may refuse
// them). Both take the same messages and answer with the same snapshots
// (protocol.js); a snapshot or an error of a reset that a newer one replaced
// is dropped here.
//
//   runner = createRunner({ loadAttention, createEngine, worker, onMessage(message), onMode(mode) })
//     createEngine(att) -> engine   the widget's engine (loop.js says what it does)
//     worker                        the name of its worker for workers.js ('training', 'lm')
//   runner.reset(options); runner.advance(n); runner.cancel(); runner.view(settings); runner.dispose()
//   await runner.parameters()   the model's tensors (an engine with parameters())
//   mode: 'starting' | 'worker' | 'main'
import { startWorker } from '../workers.js';
import { createLoop } from './loop.js';

// a slice on the page: short enough that the page keeps its frames
const MAIN_SLICE_MS = 4;

export function createRunner({ loadAttention, createEngine, worker: kind, onMessage, onMode }) {
  let mode = 'starting';
  let worker = null;
  let loop = null;
  let options = null;   // the last reset's, to replay where the worker fails
  let goal = 0;         // the step asked for since that reset (null after a cancel: the next snapshot says)
  let settings = null;  // the last view message (what a snapshot shows besides training), replayed too
  const queue = [];     // messages for a worker that has not loaded its module yet
  let disposed = false;
  let falling = false;
  const asked = new Map();  // ask -> resolve, for parameters()
  let nextAsk = 0;
  let resetId = 0;          // the newest reset's id: what the loop sends about an older one is stale

  const setMode = (next) => { mode = next; onMode(next); };

  function receive(message) {
    if (disposed) return;
    if (message.type === 'parameters') {
      asked.get(message.ask)?.(message);
      asked.delete(message.ask);
      return;
    }
    if (message.id !== undefined && message.id !== resetId) return;
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
    loop = createLoop(createEngine(att), { sliceMs: MAIN_SLICE_MS, post: receive });
    setMode('main');
    if (settings) loop.receive(settings);
    if (options) {
      const target = goal ?? 0;
      loop.receive({ type: 'reset', options, id: resetId });
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

  try {
    // throws where no worker can start: no Worker, a script embed from file://, a refusing host
    worker = startWorker(kind);
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
  if (!worker) fallBack();

  return {
    get mode() { return mode; },
    reset(next) {
      options = next;
      goal = 0;
      send({ type: 'reset', options: next, id: ++resetId });
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
      const ask = ++nextAsk;
      return new Promise((resolve, reject) => {
        asked.set(ask, (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer.parameters)));
        send({ type: 'parameters', ask });
      });
    },
    dispose() {
      disposed = true;
      worker?.terminate();
      loop?.dispose();
    },
  };
}
