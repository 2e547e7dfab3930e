// The training widget's engine (web/widgets/training/engine.js) in the live-training
// loop (web/live/loop.js), the same in its Web Worker and on the page:
// snapshots hold the core's numbers for the step reached, slices end on time
// and add up to exactly the steps asked for, a cancel says where it stopped, a
// diverging run posts its error, and every message names its reset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/wasm/attention.mjs';
import { createEngine, MODEL } from '../../web/widgets/training/engine.js';
import { createLoop } from '../../web/live/loop.js';

const att = await createAttention();

async function direct(options, steps) {
  const trainer = await att.createTrainer({ ...MODEL, ...options });
  try {
    const r = trainer.step(steps);
    return { losses: Array.from(r.losses), evaluation: trainer.evaluate(), probe: trainer.probe() };
  } finally {
    trainer.delete();
  }
}

// runs a loop until `until(messages)`; resolves to the messages posted
function run(options, act, until, sliceMs = 4) {
  return new Promise((resolve) => {
    const messages = [];
    const engine = createEngine(att);
    const loop = createLoop(engine, {
      sliceMs,
      post(message) {
        messages.push(message);
        if (until(messages)) { loop.dispose(); resolve(messages); }
      },
    });
    loop.receive({ type: 'reset', options, id: 7 });
    act(loop);
  });
}

test('a snapshot after n steps one by one holds the core\'s numbers for n steps at once', async () => {
  const engine = createEngine(att);
  await engine.reset({ task: 'shift', seed: 2, heads: 2 });
  for (let k = 0; k < 12; k++) engine.step();
  const s = engine.snapshot();
  const want = await direct({ task: 'shift', seed: 2, heads: 2 }, 12);
  assert.equal(s.step, 12);
  assert.deepEqual(Array.from(s.losses), want.losses);
  assert.deepEqual(s.evaluation, { loss: want.evaluation.loss, accuracy: want.evaluation.accuracy });
  assert.deepEqual(s.probe.prediction, Array.from(want.probe.prediction));
  assert.equal(s.probe.weights.length, 2);
  assert.deepEqual(Array.from(s.probe.weights[1].data), Array.from(want.probe.weights[1].data));
  // W^Q W^K^T from the core equals the plain product of the parameters
  const { Wq, Wk } = s.parameters;
  const d = Wq.rows;
  for (const [i, j] of [[0, 0], [3, 17], [31, 5]]) {
    let sum = 0;
    for (let k = 0; k < d; k++) sum += Wq.data[i * d + k] * Wk.data[j * d + k];
    assert.ok(Math.abs(s.product.data[i * d + j] - sum) < 1e-4, `(${i}, ${j})`);
  }
  // the argmax of each row of each head's map
  s.probe.weights.forEach((w, h) => {
    for (let i = 0; i < w.rows; i++) {
      const row = Array.from(w.data.subarray(i * w.cols, (i + 1) * w.cols));
      assert.equal(s.probe.argmax[h][i], row.indexOf(Math.max(...row)));
    }
  });
  assert.deepEqual(s.evaluations.map((e) => e.step), [12]);
  engine.dispose();
});

test('the loop runs in slices of about sliceMs, and they add up to exactly the steps asked for', async () => {
  const messages = await run({ seed: 1 }, (loop) => loop.receive({ type: 'advance', n: 40 }), (m) => m.at(-1).snapshot?.step === 40 && m.at(-1).done, 2);
  const snapshots = messages.filter((m) => m.type === 'snapshot');
  assert.equal(snapshots[0].snapshot.step, 0, 'the reset posts step 0');
  assert.ok(messages.every((m) => m.id === 7), 'every message names the reset it belongs to');
  assert.ok(snapshots.length > 2, `${snapshots.length} snapshots: more than one slice`);
  assert.ok(snapshots.slice(0, -1).every((m) => m.done === (m.snapshot.step === 0)), 'only the reset and the last are done');
  const last = snapshots.at(-1).snapshot;
  assert.deepEqual(Array.from(last.losses), (await direct({ seed: 1 }, 40)).losses);
  // the held-out set was evaluated at each slice's step, in order
  const steps = last.evaluations.map((e) => e.step);
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
  assert.equal(steps.at(-1), 40);
});

test('a cancel stops the loop and posts the step where it stopped', async () => {
  let stopped = false;
  const messages = await run({ seed: 1 }, (loop) => {
    loop.receive({ type: 'advance', n: 100000 });
    setTimeout(() => { stopped = true; loop.receive({ type: 'cancel' }); }, 30);
  }, (m) => stopped && m.at(-1).done);
  const last = messages.at(-1).snapshot;
  assert.ok(last.step > 0 && last.step < 100000, `stopped at ${last.step}`);
  assert.equal(last.losses.length, last.step);
});

test('a huge learning rate: the loop posts finite numbers, or the core\'s message if training diverges', async () => {
  const messages = await run({ seed: 1, learningRate: 1e6 }, (loop) => loop.receive({ type: 'advance', n: 200 }), (m) => m.at(-1).type === 'error'
    || (m.at(-1).done && m.at(-1).snapshot.step === 200));
  const last = messages.at(-1);
  if (last.type === 'error') {
    assert.match(last.message, /\S/);
  } else {
    assert.ok(Number.isFinite(last.snapshot.evaluation.loss), 'finite numbers if it never diverged');
  }
  for (const m of messages.filter((x) => x.type === 'snapshot')) assert.ok(m.snapshot.losses.every(Number.isFinite));
});

test('a message the protocol does not name is an error naming it', () => {
  const loop = createLoop(createEngine(att), { sliceMs: 4, post: () => {} });
  assert.throws(() => loop.receive({ type: 'step' }), /live training: no message "step"/);
  assert.throws(() => loop.receive(null), /live training: no message undefined/);
  loop.dispose();
});

test('a newer reset overtakes an older one: only the newer one\'s snapshot comes, with its id', async () => {
  const messages = [];
  const loop = createLoop(createEngine(att), { sliceMs: 4, post: (m) => messages.push(m) });
  loop.receive({ type: 'reset', options: { seed: 1 }, id: 1 });
  loop.receive({ type: 'reset', options: { seed: 2 }, id: 2 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(messages.map((m) => [m.type, m.id, m.snapshot.step]), [['snapshot', 2, 0]]);
  const trainer = await att.createTrainer({ ...MODEL, seed: 2 });
  assert.deepEqual(Array.from(messages[0].snapshot.probe.weights[0].data), Array.from(trainer.probe().weights[0].data), 'seed 2\'s model');
  trainer.delete();
  loop.dispose();
});

test('a question is answered once, by the engine method it names; one the engine lacks or the protocol does not name, with an error', async () => {
  const messages = [];
  const engine = createEngine(att);
  engine.parameters = () => ({ step: engine.stepCount });  // an engine that answers 'parameters'
  const loop = createLoop(engine, { sliceMs: 4, post: (m) => messages.push(m) });
  loop.receive({ type: 'ask', ask: 1, what: 'parameters' });  // no model yet
  loop.receive({ type: 'reset', options: MODEL, id: 1 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  loop.receive({ type: 'advance', n: 3 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  loop.receive({ type: 'ask', ask: 2, what: 'parameters' });
  loop.receive({ type: 'ask', ask: 3, what: 'gradientCheck' });  // the training engine has none
  loop.receive({ type: 'ask', ask: 4, what: 'dispose' });         // a method, but no question
  const answers = messages.filter((m) => m.type === 'answer');
  assert.deepEqual(answers.map((m) => m.ask), [1, 2, 3, 4]);
  assert.equal(answers[0].value, null);
  assert.deepEqual(answers[1].value, { step: 3 });
  assert.equal(answers[2].error, 'live training: the engine answers no "gradientCheck"');
  assert.equal(answers[3].error, 'live training: the engine answers no "dispose"');
  loop.dispose();
});
