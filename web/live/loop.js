// The loop of live training, the same in a Web Worker and on the page: it
// steps an engine in slices of about sliceMs (at least one step: a step of the
// poems' model is longer than a frame) and posts a snapshot after each, as
// protocol.js writes.
//
//   loop = createLoop(engine, { sliceMs, post })
//   loop.receive(message)   any message of protocol.js's TO_LOOP
//   loop.dispose()
//
// The engine (training/engine.js, lm/engine.js):
//   await engine.reset(options)   a new model
//   engine.step()                 one training step
//   engine.snapshot(full)         what the widget draws; full: with the costly
//                                 parts (evaluation, maps, samples)
//   engine.fullEveryMs            (optional) the least time between full snapshots while
//                                 training; 0 (the default): every snapshot is full.
//                                 Where training rests the snapshot is always full
//   engine.setView(settings)      (optional) what snapshots show besides training
//   engine.parameters()           (optional) the model's tensors
//   engine.dispose()
import { errorMessage, TO_LOOP } from './protocol.js';

export function createLoop(engine, { sliceMs, post, now = () => performance.now() }) {
  const fullEveryMs = engine.fullEveryMs ?? 0;
  let remaining = 0;      // steps asked for and not taken
  let timer = 0;
  let ready = false;      // a model is there to step
  let id = 0;             // the newest reset's: an older reset's end is ignored
  let lastFull = -Infinity;

  function fail(error) {
    remaining = 0;
    post({ type: 'error', id, message: errorMessage(error) });
  }
  function send(done) {
    const full = done || now() - lastFull >= fullEveryMs;
    if (full) lastFull = now();
    post({ type: 'snapshot', id, snapshot: engine.snapshot(full), done });
  }
  // one slice of steps, and its snapshot
  function tick() {
    timer = 0;
    try {
      const start = now();
      do {
        engine.step();
        remaining -= 1;
      } while (remaining > 0 && now() - start < sliceMs);
      send(remaining === 0);
    } catch (error) {
      fail(error);
      return;
    }
    if (remaining > 0) timer = setTimeout(tick, 0);
  }
  function stop() {
    clearTimeout(timer);
    timer = 0;
    remaining = 0;
  }
  // a snapshot where it rests, or the error that stops it
  function rest() {
    try { send(true); } catch (error) { fail(error); }
  }

  const act = {
    reset({ options, id: mine = id + 1 }) {
      stop();
      ready = false;
      id = mine;
      engine.reset(options).then(() => {
        if (mine !== id) return;
        ready = true;
        rest();
        if (remaining > 0 && !timer) timer = setTimeout(tick, 0);
      }, (error) => { if (mine === id) fail(error); });
    },
    advance({ n }) {
      remaining += n;
      if (ready && !timer) timer = setTimeout(tick, 0);
    },
    cancel() {
      const was = remaining > 0;
      stop();
      if (was && ready) rest();
    },
    view({ settings }) {
      engine.setView?.(settings);
      if (!ready) return;
      if (timer) lastFull = -Infinity;  // training: the next snapshot is a full one
      else rest();
    },
    parameters({ ask }) {
      try {
        post({ type: 'parameters', ask, parameters: ready ? engine.parameters() : null });
      } catch (error) {
        post({ type: 'parameters', ask, error: errorMessage(error) });
      }
    },
  };

  return {
    receive(message) {
      if (!TO_LOOP.includes(message?.type)) throw new Error(`live training: no message ${JSON.stringify(message?.type)}`);
      act[message.type](message);
    },
    dispose() {
      stop();
      id += 1;
      engine.dispose();
    },
  };
}
