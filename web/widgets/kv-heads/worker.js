// The "kv-heads" widget's Web Worker: its engine (engine.js, two models side
// by side) in the live-training worker (live/worker.js), so training never
// holds up the page.
import { createEngine } from './engine.js';
import { serveLoop } from '../../live/worker.js';

serveLoop(createEngine);
