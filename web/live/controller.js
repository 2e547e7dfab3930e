// A live-training widget's controller (training, language-model): it owns the
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
//   c.train(); c.pause(); c.stepOnce(); c.reset(); c.dispose()
//   status: { mode, running, replaying, stopping, step, stepsPerSecond }
//     stopping: paused, the snapshot where it stopped not come yet (the step shown changes once more)
import { createRunner } from './runner.js';

export const MAX_STEPS = 20000;
const ANSWER_MS = 20000;

export function createController({ loadAttention, createEngine, worker, onSnapshot, onStatus, onRest, onError, onStart = () => {}, maxSteps = MAX_STEPS }) {
  let key = null;             // the options trained now, as JSON
  let options = null;
  let speed = 1;
  let running = false;
  let inflight = false;       // an advance not answered yet
  let replaying = 0;          // the step a shared link asks for, until reached
  let stopping = false;       // a pause's cancel not answered yet
  let latest = null;          // the newest snapshot
  let frame = 0;
  let rate = { step: 0, time: 0, perSecond: 0 };
  let mode = 'starting';
  const waiting = [];         // [{ test, resolve }] of answered()

  const status = () => ({ mode, running, replaying, stopping, step: latest?.step ?? 0, stepsPerSecond: rate.perSecond });
  const tell = () => onStatus(status());

  const runner = createRunner({
    loadAttention,
    createEngine,
    worker,
    onMode: (next) => { mode = next; tell(); },
    onMessage(message) {
      if (message.type === 'error') {
        running = false;
        inflight = false;
        replaying = 0;
        stopping = false;
        onError(message.message);
        settle(null);
        tell();
        return;
      }
      const { snapshot, done } = message;
      if (snapshot.step === 0 && done) onStart(snapshot);
      measure(snapshot.step);
      latest = snapshot;
      if (done) { inflight = false; stopping = false; }
      if (replaying && snapshot.step >= replaying) replaying = 0;
      if (done && !running && !replaying) onRest(snapshot.step);
      if (snapshot.step >= maxSteps && running) pause();
      schedule();
    },
  });

  // answered() promises: kept while the snapshot drawn fails their test; all go on an error (null)
  function settle(snapshot) {
    const still = [];
    for (const wait of waiting.splice(0)) {
      if (snapshot === null || wait.test(snapshot)) wait.resolve();
      else still.push(wait);
    }
    waiting.push(...still);
  }

  function measure(step) {
    const now = performance.now();
    if (!running) { rate = { step, time: now, perSecond: rate.perSecond }; return; }
    const dt = now - rate.time;
    if (dt >= 500) rate = { step, time: now, perSecond: ((step - rate.step) * 1000) / dt };
  }

  // one drawing per frame, of the newest snapshot; the next advance when running
  function schedule() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (latest) {
        onSnapshot(latest);
        settle(latest);
      }
      tell();
      if (running && !inflight) {
        inflight = true;
        runner.advance(Math.min(speed, maxSteps - (latest?.step ?? 0)));
      }
    });
  }

  function restart(steps) {
    running = false;
    inflight = steps > 0;
    replaying = steps;
    stopping = false;
    latest = null;
    runner.reset(options);
    if (steps > 0) runner.advance(steps);
    tell();
  }

  // stops training, or the replay of a link's steps: it rests where it stopped
  function pause() {
    if (!running && !replaying) return;
    // a replay's advance is in flight though the reset's own snapshot (done) came first
    const asked = inflight || replaying > 0;
    running = false;
    replaying = 0;
    if (asked) {
      stopping = true;
      runner.cancel();  // the snapshot where it stopped follows, and rests
    }
    else if (latest) { onRest(latest.step); schedule(); }
    tell();
  }

  return {
    sync(nextOptions, steps, nextSpeed) {
      speed = nextSpeed;
      const nextKey = JSON.stringify(nextOptions);
      if (nextKey === key) return;
      const first = key === null;
      key = nextKey;
      options = nextOptions;
      restart(first ? Math.min(steps, maxSteps) : 0);
      if (!first) onRest(0);
    },
    train() {
      if (running || !options) return;
      running = true;
      replaying = 0;
      rate = { step: latest?.step ?? 0, time: performance.now(), perSecond: 0 };
      schedule();
      tell();
    },
    pause,
    view(settings) { runner.view(settings); },
    answered(test = () => true) {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ANSWER_MS);
        waiting.push({ test, resolve: () => { clearTimeout(timer); resolve(); } });
      });
    },
    parameters: () => runner.parameters(),
    stepOnce() {
      if (running) pause();
      if (inflight || replaying) return;
      inflight = true;
      runner.advance(1);
    },
    reset() {
      restart(0);
      onRest(0);
    },
    get latest() { return latest; },
    get status() { return status(); },
    dispose() {
      cancelAnimationFrame(frame);
      runner.dispose();
      settle(null);
    },
  };
}
