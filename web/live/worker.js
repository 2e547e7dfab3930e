// The body of a live-training Web Worker (training/worker.js, lm/worker.js,
// kv-heads/worker.js):
// its own instance of the attention module and a loop (loop.js) over the
// engine the worker names, fed with the page's messages (protocol.js). It
// posts { type: 'ready' } once the module is loaded, { type: 'failed',
// message } if it cannot load; messages that come before are kept till then.
import createAttention from '../wasm/attention.mjs';
import { createLoop } from './loop.js';
import { errorMessage } from './protocol.js';

// slices of about 12 ms (at least one step): a pause or a reset waits at most a step
const SLICE_MS = 12;

export function serveLoop(createEngine) {
  const pending = [];
  let loop = null;
  const receive = (message) => {
    try {
      loop.receive(message);
    } catch (error) {
      self.postMessage({ type: 'error', message: errorMessage(error) });
    }
  };
  self.addEventListener('message', (event) => {
    if (loop) receive(event.data);
    else pending.push(event.data);
  });
  createAttention().then((att) => {
    loop = createLoop(createEngine(att), { sliceMs: SLICE_MS, post: (message) => self.postMessage(message) });
    self.postMessage({ type: 'ready' });
    for (const message of pending.splice(0)) receive(message);
  }, (error) => {
    self.postMessage({ type: 'failed', message: errorMessage(error) });
  });
}
