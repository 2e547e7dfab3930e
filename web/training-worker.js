// The training widget's Web Worker: the training loop of
// web/training/engine.js in its own instance of the module (serve-loop.js),
// so training never holds up the page. Messages in: { type: 'reset', options }
// | { type: 'advance', n } | { type: 'cancel' }; out: { type: 'ready' }, the
// loop's { type: 'snapshot', snapshot, done } and { type: 'error', message }.
import { createEngine, createLoop } from './training/engine.js';
import { serveLoop } from './training/serve-loop.js';

serveLoop({ createEngine, createLoop });
