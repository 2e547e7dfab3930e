// The training widget's controller: it owns the runner (worker or main thread),
// plays and pauses, and hands each new snapshot to the widget's drawing, at most
// once per animation frame. The widget's state (options, steps trained) stays
// in the URL: the controller reports the step where training rests.
//
//   c = createController({ loadAttention, onSnapshot(snapshot), onStatus(status), onRest(step), onError(message),
//                          startWorker?, startLoop?, maxSteps? })   (the runner's: see runner.js)
//   c.sync(options, steps, speed)   from render: new options retrain (to `steps` the first time: a shared link)
//   c.view(settings)                what the snapshots show besides training (the language model's generation)
//   c.train(); c.pause(); c.stepOnce(); c.reset(); c.dispose()
//   status: { mode, running, replaying, target, step, stepsPerSecond }
import { createRunner } from './runner.js';

export const MAX_STEPS = 20000;

export function createController({ loadAttention, onSnapshot, onStatus, onRest, onError, useWorker = true, startWorker, startLoop, maxSteps = MAX_STEPS }) {
  let key = null;             // the options trained now, as JSON
  let options = null;
  let speed = 1;
  let running = false;
  let inflight = false;       // an advance not answered yet
  let replaying = 0;          // the step a shared link asks for, until reached
  let latest = null;          // the newest snapshot
  let frame = 0;
  let rate = { step: 0, time: 0, perSecond: 0 };
  let mode = 'starting';

  const status = () => ({ mode, running, replaying, step: latest?.step ?? 0, stepsPerSecond: rate.perSecond });
  const tell = () => onStatus(status());

  const runner = createRunner({
    loadAttention,
    useWorker,
    startWorker,
    startLoop,
    onMode: (next) => { mode = next; tell(); },
    onMessage(message) {
      if (message.type === 'error') {
        running = false;
        inflight = false;
        replaying = 0;
        onError(message.message);
        tell();
        return;
      }
      const { snapshot, done } = message;
      measure(snapshot.step);
      latest = snapshot;
      if (done) inflight = false;
      if (replaying && snapshot.step >= replaying) replaying = 0;
      if (done && !running && !replaying) onRest(snapshot.step);
      if (snapshot.step >= maxSteps && running) pause();
      schedule();
    },
  });

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
      if (latest) onSnapshot(latest);
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
    if (asked) runner.cancel();  // the snapshot where it stopped follows, and rests
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
    },
  };
}
