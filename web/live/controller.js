// A live-training widget's controller (training, language-model, kv-heads): it owns the
// runner (worker or page), plays and pauses, and hands each new snapshot to the
// widget's drawing, at most once per animation frame. The widget's state
// (options, steps trained) stays in the URL: the controller reports the step
// where training rests.
//
//   c = createController({ loadAttention, createEngine, worker, onSnapshot(snapshot), onStatus(status),
//                          onRest(step), onError(message), onStart?(snapshot), maxSteps? })
//     loadAttention, createEngine, worker: the runner's (runner.js)
//     onStart: each reset's snapshot of step 0, as it comes (a frame may draw a later one)
//   c.sync(options, steps, speed)   from render: new options retrain (to `steps` the first time: a shared link)
//   c.view(settings)                what the snapshots show besides training (the language model's generation)
//   await c.answered(test?)         until a snapshot that passes test is drawn, an error is told or the
//                                   controller goes; at most ANSWER_MS (a render that asked for new numbers waits)
//   await c.ask(what)               the engine's answer to one of protocol.js's QUESTIONS (runner.js)
//   c.train(); c.pause(); c.stepOnce(); c.reset(); c.dispose()
//   status: { mode, running, replaying, stopping, step, stepsPerSecond }
//     stopping: paused, the snapshot where it stopped not come yet (the step shown changes once more)
import { createRunner } from './runner.js';

export const MAX_STEPS = 20000;
const ANSWER_MS = 20000;

export function createController({ loadAttention, createEngine, worker, onSnapshot, onStatus, onRest, onError, onStart = () => {}, maxSteps = MAX_STEPS }) {
  // the controller: what the functions below share
  const c = {
    onSnapshot, onStatus, onRest, onError, onStart, maxSteps,
    key: null,          // the options trained now, as JSON
    options: null,
    speed: 1,
    running: false,
    inflight: false,    // an advance not answered yet
    replaying: 0,       // the step a shared link asks for, until reached
    stopping: false,    // a pause's cancel not answered yet
    latest: null,       // the newest snapshot
    frame: 0,
    rate: { step: 0, time: 0, perSecond: 0 },
    mode: 'starting',
    waiting: [],        // [{ test, resolve }] of answered()
  };
  c.runner = createRunner({
    loadAttention, createEngine, worker,
    onMode: (next) => { c.mode = next; tell(c); },
    onMessage: (message) => receive(c, message),
  });

  return {
    sync(nextOptions, steps, nextSpeed) {
      c.speed = nextSpeed;
      const nextKey = JSON.stringify(nextOptions);
      if (nextKey === c.key) return;
      const first = c.key === null;
      c.key = nextKey;
      c.options = nextOptions;
      restart(c, first ? Math.min(steps, maxSteps) : 0);
      if (!first) onRest(0);
    },
    train() {
      if (c.running || !c.options) return;
      c.running = true;
      c.replaying = 0;
      c.rate = { step: c.latest?.step ?? 0, time: performance.now(), perSecond: 0 };
      schedule(c);
      tell(c);
    },
    pause: () => pause(c),
    view(settings) { c.runner.view(settings); },
    answered(test = () => true) {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ANSWER_MS);
        c.waiting.push({ test, resolve: () => { clearTimeout(timer); resolve(); } });
      });
    },
    ask: (what) => c.runner.ask(what),
    stepOnce() {
      if (c.running) pause(c);
      if (c.inflight || c.replaying) return;
      c.inflight = true;
      c.runner.advance(1);
    },
    reset() {
      restart(c, 0);
      onRest(0);
    },
    get latest() { return c.latest; },
    get status() { return status(c); },
    dispose() {
      cancelAnimationFrame(c.frame);
      c.runner.dispose();
      settle(c, null);
    },
  };
}

const status = (c) => ({
  mode: c.mode, running: c.running, replaying: c.replaying, stopping: c.stopping, step: c.latest?.step ?? 0, stepsPerSecond: c.rate.perSecond,
});
const tell = (c) => c.onStatus(status(c));

// a message of the runner: a snapshot (done: the answer to an advance or a reset), or an error
function receive(c, message) {
  if (message.type === 'error') {
    c.running = false;
    c.inflight = false;
    c.replaying = 0;
    c.stopping = false;
    c.onError(message.message);
    settle(c, null);
    tell(c);
    return;
  }
  const { snapshot, done } = message;
  if (snapshot.step === 0 && done) c.onStart(snapshot);
  measure(c, snapshot.step);
  c.latest = snapshot;
  if (done) { c.inflight = false; c.stopping = false; }
  if (c.replaying && snapshot.step >= c.replaying) c.replaying = 0;
  if (done && !c.running && !c.replaying) c.onRest(snapshot.step);
  if (snapshot.step >= c.maxSteps && c.running) pause(c);
  schedule(c);
}

// answered() promises: kept while the snapshot drawn fails their test; all go on an error (null)
function settle(c, snapshot) {
  const still = [];
  for (const wait of c.waiting.splice(0)) {
    if (snapshot === null || wait.test(snapshot)) wait.resolve();
    else still.push(wait);
  }
  c.waiting.push(...still);
}

function measure(c, step) {
  const now = performance.now();
  if (!c.running) { c.rate = { step, time: now, perSecond: c.rate.perSecond }; return; }
  const dt = now - c.rate.time;
  if (dt >= 500) c.rate = { step, time: now, perSecond: ((step - c.rate.step) * 1000) / dt };
}

// one drawing per frame, of the newest snapshot; the next advance when running
function schedule(c) {
  if (c.frame) return;
  c.frame = requestAnimationFrame(() => {
    c.frame = 0;
    if (c.latest) {
      c.onSnapshot(c.latest);
      settle(c, c.latest);
    }
    tell(c);
    if (c.running && !c.inflight) {
      c.inflight = true;
      c.runner.advance(Math.min(c.speed, c.maxSteps - (c.latest?.step ?? 0)));
    }
  });
}

function restart(c, steps) {
  c.running = false;
  c.inflight = steps > 0;
  c.replaying = steps;
  c.stopping = false;
  c.latest = null;
  c.runner.reset(c.options);
  if (steps > 0) c.runner.advance(steps);
  tell(c);
}

// stops training, or the replay of a link's steps: it rests where it stopped
function pause(c) {
  if (!c.running && !c.replaying) return;
  // a replay's advance is in flight though the reset's own snapshot (done) came first
  const asked = c.inflight || c.replaying > 0;
  c.running = false;
  c.replaying = 0;
  if (asked) {
    c.stopping = true;
    c.runner.cancel();  // the snapshot where it stopped follows, and rests
  } else if (c.latest) {
    c.onRest(c.latest.step);
    schedule(c);
  }
  tell(c);
}
