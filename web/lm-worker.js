// The language-model widget's Web Worker: the loop of web/lm/engine.js in its
// own instance of the module (training/serve-loop.js), so training never
// holds up the page. Messages in: { type: 'reset', options } | { type:
// 'advance', n } | { type: 'cancel' } | { type: 'view', settings } | { type:
// 'parameters', id }; out: { type: 'ready' }, the loop's { type: 'snapshot',
// snapshot, done }, { type: 'parameters', id, parameters } and { type: 'error', message }.
import { createEngine, createLoop } from './lm/engine.js';
import { serveLoop } from './training/serve-loop.js';

serveLoop({ createEngine, createLoop });
