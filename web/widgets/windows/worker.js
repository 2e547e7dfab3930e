// The "windows" widget's Web Worker: its generation experiment (experiment.js)
// with a module of its own, so that training two models never holds up the
// page. It takes one message, { type: 'run', url, steps } (url: the names
// corpus), and posts { type: 'run', run } after every slice of steps and at
// the end, or { type: 'failed', message }. The page ends it (terminate) to stop it.
import createAttention from '../../wasm/attention.mjs';
import { runGeneration } from './experiment.js';

self.addEventListener('message', (event) => {
  const m = event.data;
  if (m?.type !== 'run') return;
  runGeneration(createAttention, m.url, { steps: m.steps }, (run) => self.postMessage({ type: 'run', run }))
    .catch((error) => self.postMessage({ type: 'failed', message: String(error?.message ?? error) }));
});
