// The language-model widget's Web Worker: its own instance of the attention
// module and the loop of web/lm/engine.js, so training never holds up the
// page. Messages in: { type: 'reset', options } | { type: 'advance', n } |
// { type: 'cancel' } | { type: 'view', settings } | { type: 'parameters', id }.
// Messages out: { type: 'ready' } once the module is loaded, then the loop's
// { type: 'snapshot', snapshot, done }, { type: 'parameters', id, parameters }
// and { type: 'error', message }; { type: 'failed', message } if the module cannot load.
import createAttention from './wasm/attention.mjs';
import { createEngine, createLoop } from './lm/engine.js';

// slices of about 12 ms (at least one step): a pause or a reset waits at most a step
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
