// The body of a training Web Worker (training-worker.js, lm-worker.js): its
// own instance of the attention module and a loop made by createLoop(engine)
// from an engine of createEngine(att), fed with the page's messages. Messages
// out: { type: 'ready' } once the module is loaded, then whatever the loop
// posts; { type: 'failed', message } if the module cannot load.
import createAttention from '../wasm/attention.mjs';

// slices of about 12 ms (at least one step): a pause or a reset waits at most a step
const SLICE_MS = 12;

export function serveLoop({ createEngine, createLoop }) {
  const pending = [];
  let loop = null;
  self.addEventListener('message', (event) => {
    if (loop) loop.receive(event.data);
    else pending.push(event.data);
  });
  createAttention().then((att) => {
    loop = createLoop(createEngine(att), { sliceMs: SLICE_MS, post: (message) => self.postMessage(message) });
    self.postMessage({ type: 'ready' });
    for (const message of pending.splice(0)) loop.receive(message);
  }, (error) => {
    self.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
}
