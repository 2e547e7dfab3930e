// The loop of live training, the same in a Web Worker and on the page: it
// steps an engine in slices of about sliceMs (at least one step: a step of the
// poems' model is longer than a frame) and posts a snapshot after each, as
// protocol.js writes.
//
//   loop = createLoop(engine, { sliceMs, post })
//   loop.receive(message)   any message of protocol.js's TO_LOOP
//   loop.dispose()
//
// The engine (training/engine.js, lm/engine.js, kv-heads/engine.js):
//   await engine.reset(options)   a new model
//   engine.step()                 one training step; a Promise where the step is taken by workers
//                                 (the language model with threads): the loop awaits it
//   engine.snapshot(full)         what the widget draws; full: with the costly
//                                 parts (evaluation, maps, samples)
//   engine.fullEveryMs            (optional) the least time between full snapshots while
//                                 training; 0 (the default): every snapshot is full.
//                                 Where training rests the snapshot is always full
//   engine.setView(settings)      (optional) what snapshots show besides training
//   engine.parameters()           (optional) the model's tensors
//   engine.gradientCheck()        (optional) its gradient check (lm.gradientCheck() and the step)
//   engine.dispose()
import { errorMessage, QUESTIONS, TO_LOOP } from './protocol.js';

export function createLoop(engine, { sliceMs, post, now = () => performance.now() }) {
  // the loop: what the functions below share
  const l = {
    engine, sliceMs, post, now,
    fullEveryMs: engine.fullEveryMs ?? 0,
    remaining: 0,       // steps asked for and not taken
    timer: 0,
    stepping: false,    // a slice awaits a step (engine.step() gave a Promise)
    ready: false,       // a model is there to step
    id: 0,              // the newest reset's: an older reset's end is ignored
    lastFull: -Infinity,
  };
  const act = {
    reset({ options, id: mine = l.id + 1 }) {
      stop(l);
      l.ready = false;
      l.id = mine;
      engine.reset(options).then(() => {
        if (mine !== l.id) return;
        l.ready = true;
        rest(l);
        if (l.remaining > 0 && !l.timer && !l.stepping) l.timer = setTimeout(() => tick(l), 0);
      }, (error) => { if (mine === l.id) fail(l, error); });
    },
    advance({ n }) {
      l.remaining += n;
      if (l.ready && !l.timer && !l.stepping) l.timer = setTimeout(() => tick(l), 0);
    },
    cancel() {
      const was = l.remaining > 0;
      stop(l);
      if (was && l.ready) rest(l);
    },
    view({ settings }) {
      engine.setView?.(settings);
      if (!l.ready) return;
      if (l.timer) l.lastFull = -Infinity;  // training: the next snapshot is a full one
      else rest(l);
    },
    ask({ ask, what }) {
      try {
        if (!QUESTIONS.includes(what) || typeof engine[what] !== 'function') throw new Error(`live training: the engine answers no ${JSON.stringify(what)}`);
        post({ type: 'answer', ask, value: l.ready ? engine[what]() : null });
      } catch (error) {
        post({ type: 'answer', ask, error: errorMessage(error) });
      }
    },
  };

  return {
    receive(message) {
      if (!TO_LOOP.includes(message?.type)) throw new Error(`live training: no message ${JSON.stringify(message?.type)}`);
      act[message.type](message);
    },
    dispose() {
      stop(l);
      l.id += 1;
      engine.dispose();
    },
  };
}

function fail(l, error) {
  l.remaining = 0;
  l.post({ type: 'error', id: l.id, message: errorMessage(error) });
}

function send(l, done) {
  const full = done || l.now() - l.lastFull >= l.fullEveryMs;
  if (full) l.lastFull = l.now();
  l.post({ type: 'snapshot', id: l.id, snapshot: l.engine.snapshot(full), done });
}

// one slice of steps, and its snapshot; a step that is a Promise is awaited, and a
// reset or a cancel meanwhile ends the slice (the cancel has sent its snapshot;
// steps asked since go on in a slice of their own)
async function tick(l) {
  l.timer = 0;
  const id = l.id;
  const later = () => {
    if (l.remaining > 0 && l.ready && !l.timer) l.timer = setTimeout(() => tick(l), 0);
  };
  try {
    const start = l.now();
    do {
      const pending = l.engine.step();
      if (pending) {
        l.stepping = true;
        try {
          await pending;
        } finally {
          l.stepping = false;
        }
        if (id !== l.id || l.remaining <= 0) return later();
      }
      l.remaining -= 1;
    } while (l.remaining > 0 && l.now() - start < l.sliceMs);
    send(l, l.remaining === 0);
  } catch (error) {
    if (id === l.id) fail(l, error);
    return later();
  }
  later();
}

function stop(l) {
  clearTimeout(l.timer);
  l.timer = 0;
  l.remaining = 0;
}

// a snapshot where it rests, or the error that stops it
function rest(l) {
  try { send(l, true); } catch (error) { fail(l, error); }
}
