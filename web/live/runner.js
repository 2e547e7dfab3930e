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
//   await runner.ask(what)      the engine's answer to one of protocol.js's QUESTIONS
//                               ('parameters', 'gradientCheck'): null before a model is there
//   mode: 'starting' | 'worker' | 'main'
import { startWorker } from '../runtime/workers.js';
import { createLoop } from './loop.js';

// a slice on the page: short enough that the page keeps its frames
const MAIN_SLICE_MS = 4;

export function createRunner({ loadAttention, createEngine, worker: kind, onMessage, onMode }) {
  // the runner: what the functions below share
  const r = {
    loadAttention, createEngine, onMessage, onMode,
    mode: 'starting',
    worker: null,
    loop: null,
    options: null,    // the last reset's, to replay where the worker fails
    goal: 0,          // the step asked for since that reset (null after a cancel: the next snapshot says)
    settings: null,   // the last view message (what a snapshot shows besides training), replayed too
    queue: [],        // messages for a worker that has not loaded its module yet
    disposed: false,
    falling: false,
    asked: new Map(), // ask -> resolve, for ask()
    nextAsk: 0,
    resetId: 0,       // the newest reset's id: what the loop sends about an older one is stale
  };
  r.worker = listenTo(r, kind);
  if (!r.worker) fallBack(r);

  return {
    get mode() { return r.mode; },
    reset(next) {
      r.options = next;
      r.goal = 0;
      send(r, { type: 'reset', options: next, id: ++r.resetId });
    },
    advance(n) {
      if (r.goal !== null) r.goal += n;
      send(r, { type: 'advance', n });
    },
    cancel() {
      r.goal = null;
      send(r, { type: 'cancel' });
    },
    view(next) {
      r.settings = { type: 'view', settings: next };
      send(r, r.settings);
    },
    ask(what) {
      const ask = ++r.nextAsk;
      return new Promise((resolve, reject) => {
        r.asked.set(ask, (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer.value)));
        send(r, { type: 'ask', ask, what });
      });
    },
    dispose() {
      r.disposed = true;
      r.worker?.terminate();
      r.loop?.dispose();
    },
  };
}

const setMode = (r, next) => { r.mode = next; r.onMode(next); };

// The worker of kind, started and listened to; null where none can start (no
// Worker, a script embed from file://, a refusing host).
function listenTo(r, kind) {
  let worker;
  try {
    worker = startWorker(kind);
  } catch {
    return null;
  }
  worker.addEventListener('message', ({ data }) => {
    if (data.type === 'ready') {
      setMode(r, 'worker');
      for (const message of r.queue.splice(0)) worker.postMessage(message);
    } else if (data.type === 'failed') {
      fallBack(r);
    } else {
      receive(r, data);
    }
  });
  // a module that cannot load (refused, missing) or a worker that dies: train here instead
  worker.addEventListener('error', (event) => { event.preventDefault(); fallBack(r); });
  return worker;
}

function receive(r, message) {
  if (r.disposed) return;
  if (message.type === 'answer') {
    r.asked.get(message.ask)?.(message);
    r.asked.delete(message.ask);
    return;
  }
  if (message.id !== undefined && message.id !== r.resetId) return;
  if (message.type === 'snapshot' && r.goal === null) r.goal = message.snapshot.step;
  r.onMessage(message);
}

// training on the page, in slices, from where the worker was asked to be
async function fallBack(r) {
  if (r.disposed || r.falling) return;
  r.falling = true;
  r.worker?.terminate();
  r.worker = null;
  r.queue.length = 0;
  const att = await r.loadAttention();
  if (r.disposed) return;
  r.loop = createLoop(r.createEngine(att), { sliceMs: MAIN_SLICE_MS, post: (message) => receive(r, message) });
  setMode(r, 'main');
  if (r.settings) r.loop.receive(r.settings);
  if (r.options) {
    const target = r.goal ?? 0;
    r.loop.receive({ type: 'reset', options: r.options, id: r.resetId });
    if (target > 0) r.loop.receive({ type: 'advance', n: target });
  }
}

function send(r, message) {
  if (r.loop) {
    r.loop.receive(message);
  } else if (r.worker && r.mode === 'worker') {
    r.worker.postMessage(message);
  } else if (r.worker) {
    r.queue.push(message);
  }
}
