// The "flash" widget's Web Worker: the memory measurement (measure.js) with
// modules of its own, so that no call, however long, holds up the page. It
// takes one message, { type: 'run', maxN }, and posts { type: 'run', run }
// after every step and at the end, or { type: 'failed', message }. The page
// ends it (terminate) to stop it.
import createAttention from '../../wasm/attention.mjs';
import { measureMemory } from './measure.js';

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'run') return;
  measureMemory(createAttention, event.data.maxN, (run) => self.postMessage({ type: 'run', run }))
    .catch((error) => self.postMessage({ type: 'failed', message: String(error?.message ?? error) }));
});
