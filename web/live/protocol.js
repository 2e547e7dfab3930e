// The messages of live training: a client (runner.js) drives a loop (loop.js)
// that runs in a Web Worker (worker.js) or, where none starts, on the page in
// slices. Both sides use these names; nothing else travels between them.
//
// To the loop:
//   { type: 'reset', options, id }   a new model from the engine's options; a snapshot of step 0 follows.
//                                    id numbers the resets: every message the loop sends after it carries it
//   { type: 'advance', n }           n more steps; snapshots follow as slices end, the last one done
//   { type: 'cancel' }               stop; the snapshot where it stopped follows, done
//   { type: 'view', settings }       what snapshots show besides training (the language model's sampling)
//   { type: 'ask', ask, what }       a question the engine answers once (QUESTIONS: its tensors,
//                                    its gradient check), numbered by ask
//
// From the loop:
//   { type: 'ready' }                        (a worker) its module is loaded: messages may flow
//   { type: 'failed', message }              (a worker) its module could not load: the client trains on the page
//   { type: 'snapshot', id, snapshot, done } the engine's snapshot; done: the loop rests there
//   { type: 'answer', ask, value }   | { type: 'answer', ask, error }
//   { type: 'error', id, message }           the engine failed (a diverged model): training stops
export const TO_LOOP = Object.freeze(['reset', 'advance', 'cancel', 'view', 'ask']);
export const FROM_LOOP = Object.freeze(['ready', 'failed', 'snapshot', 'answer', 'error']);
// what a client may ask: each the name of an (optional) engine method
export const QUESTIONS = Object.freeze(['parameters', 'gradientCheck']);

export const errorMessage = (error) => (error instanceof Error ? error.message : String(error));
