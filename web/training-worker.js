// The training widget's Web Worker: its own instance of the attention module
// and the training loop of web/training/engine.js, so training never holds up
// the page. Messages in:  { type: 'reset', options } | { type: 'advance', n } | { type: 'cancel' }
// Messages out: { type: 'ready' } once the module is loaded, then the loop's
// { type: 'snapshot', snapshot, done } and { type: 'error', message }.
import createAttention from './wasm/attention.mjs';
import { createEngine, createLoop } from './training/engine.js';

// slices of about 12 ms: a pause or a reset waits at most that long
const SLICE_MS = 12;

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
