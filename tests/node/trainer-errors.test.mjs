// Bad options and bad calls of the trainers throw an Error naming the
// function and the problem, in the JS option names; the module keeps
// working; 200 create/step/delete cycles (and failing calls) leave the heap
// and the Embind handles where they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

const BAD_OPTIONS = [
  [{ tasks: 'reverse' }, /^createTrainer: unknown option "tasks" in options \(known: task, seed, /],
  [{ task: 'sort' }, /^createTrainer: task must be 'reverse', 'shift' or 'date', got 'sort'$/],
  [{ task: 3 }, /^createTrainer: task must be a string, got 3$/],
  [{ seed: -1 }, /^createTrainer: seed must be a non-negative integer, got -1$/],
  [{ seed: 0.5 }, /^createTrainer: seed must be a non-negative integer, got 0.5$/],
  [{ length: 1.5 }, /^createTrainer: length must be an integer, got 1.5$/],
  [{ length: 0 }, /^createTrainer: length must be an integer from 2 to 256, got 0$/],
  [{ length: 1000 }, /^createTrainer: length must be an integer from 2 to 256, got 1000$/],
  [{ vocab: -3 }, /^createTrainer: vocab must be an integer from 2 to 4096, got -3$/],
  [{ dModel: 0 }, /^createTrainer: dModel must be an integer from 1 to 512, got 0$/],
  [{ dModel: '32' }, /^createTrainer: dModel must be an integer, got the string "32"$/],
  [{ heads: 3 }, /^createTrainer: dModel 32 is not divisible by heads 3$/],
  [{ heads: 0 }, /^createTrainer: heads must be an integer from 1 to 32, got 0$/],
  [{ heads: 64 }, /^createTrainer: heads must be an integer from 1 to 32, got 64$/],
  [{ batch: 0 }, /^createTrainer: batch must be an integer from 1 to 4096, got 0$/],
  [{ batch: 2.5 }, /^createTrainer: batch must be an integer, got 2.5$/],
  [{ learningRate: NaN }, /^createTrainer: learningRate must be a finite number, got NaN$/],
  [{ learningRate: Infinity }, /^createTrainer: learningRate must be a finite number, got Infinity$/],
  [{ learningRate: 0 }, /^createTrainer: learningRate must be a finite number greater than 0, got 0$/],
  [{ learningRate: -0.1 }, /^createTrainer: learningRate must be a finite number greater than 0, got -0.1$/],
  [{ causal: 'yes' }, /^createTrainer: causal must be true or false, got the string "yes"$/],
  [{ residual: 1 }, /^createTrainer: residual must be true or false, got 1$/],
  [{ dModel: 512, vocab: 4096, batch: 4096, length: 256 },
   /^createTrainer: these sizes need \d+ MB of buffers, more than the limit of 256 MB$/],
  [{ length: 256, batch: 1024, heads: 32 }, /^createTrainer: these sizes need \d+ MB of buffers/],
  [null, /^createTrainer: options must be an object, got null$/],
  ['reverse', /^createTrainer: options must be an object, got the string "reverse"$/],
];

test(`createTrainer: ${BAD_OPTIONS.length} bad options, each named`, async () => {
  for (const [options, expected] of BAD_OPTIONS)
    await assert.rejects(att.createTrainer(options), (e) => e instanceof Error && expected.test(e.message),
                   JSON.stringify(options));
  // the module and a new trainer still work
  const t = await att.createTrainer({ vocab: 4, length: 4 });
  assert.equal(t.step(2).step, 2);
  t.delete();
});

const BAD_STEPS = [
  [-1, 'got -1'], [0, 'got 0'], [1.5, 'got 1.5'], [NaN, 'got NaN'], [Infinity, 'got Infinity'],
  [2e6, 'got 2000000'], ['x', 'got the string "x"'], [null, 'got null'], [[3], 'got an array'],
];

test('trainer.step: bad step counts are named; the trainer is unchanged', async () => {
  const t = await att.createTrainer({ seed: 5 }), twin = await att.createTrainer({ seed: 5 });
  try {
    for (const [steps, got] of BAD_STEPS) {
      assert.throws(() => t.step(steps), (e) => e instanceof Error &&
                    e.message === 'trainer.step: steps must be an integer from 1 to 1000000, ' + got, String(steps));
    }
    assert.deepEqual(t.step(3), twin.step(3));
    // more work than one call may take
    const big = await att.createTrainer({ dModel: 256, length: 64, batch: 256 });
    assert.throws(() => big.step(1000000), /^AttentionError: trainer\.step: 1000000 training steps is too large: about/);
    big.delete();
  } finally {
    t.delete();
    twin.delete();
  }
});

test('a gradient check too large for one call is refused, not a page hung for minutes', async () => {
  const t = await att.createTrainer({ dModel: 256, vocab: 1000 });
  assert.throws(() => t.gradientCheck(),
                /^AttentionError: trainer\.gradientCheck: the gradient check of 708608 parameters is too large: about .* multiply-adds, more than 4294967296; check a smaller model$/);
  t.delete();
});

test('a learning rate that blows up is an error naming the step, not NaN', async () => {
  const t = await att.createTrainer({ learningRate: 1e30 });
  assert.throws(() => t.step(200), /^AttentionError: trainer\.step: training diverged at step \d+: .*try a smaller learningRate$/);
  t.delete();
});

test('every call after delete() throws an AttentionError DELETED; delete() again does nothing', async () => {
  const t = await att.createTrainer();
  t.delete();
  t.delete();
  for (const [name, args] of [['step', [1]], ['evaluate', []], ['probe', []], ['parameters', []], ['gradientCheck', []], ['info', []]]) {
    assert.throws(() => t[name](...args), (e) => e instanceof att.AttentionError && e.code === 'DELETED'
      && e.message === `trainer.${name}: this trainer was deleted`, name);
  }
  const w = await att.createWidthTrainer();
  w.delete();
  w.delete();
  for (const [name, args] of [['step', []], ['evaluate', []], ['samples', []], ['curve', [[170]]],
                              ['weights', [{ keys: [1], values: [1], queries: [1] }]], ['lossCurve', [[0.1]]]])
    assert.throws(() => w[name](...args), new RegExp(`^AttentionError: widthTrainer\\.${name}: this widthTrainer was deleted$`), name);
});

test('a trainer is disposable where the runtime defines Symbol.dispose: its [Symbol.dispose] is delete()', async (t) => {
  if (typeof Symbol.dispose !== 'symbol') return t.skip('no Symbol.dispose in this runtime');
  const trainer = await att.createTrainer();
  const before = att.debug.memoryStats().allocatedBytes;
  trainer[Symbol.dispose]();
  assert.ok(att.debug.memoryStats().allocatedBytes < before, 'the trainer\'s buffers were freed');
  assert.throws(() => trainer.step(), (e) => e.code === 'DELETED');
});

test('createWidthTrainer and its methods: bad options and calls are named', async () => {
  const cases = [
    [{ samples: 2 }, /^createWidthTrainer: samples must be an integer from 3 to 10000, got 2$/],
    [{ samples: 3.5 }, /^createWidthTrainer: samples must be an integer, got 3.5$/],
    [{ width: 0 }, /^createWidthTrainer: width must be a finite number greater than 0, got 0$/],
    [{ width: '0.1' }, /^createWidthTrainer: width must be a finite number, got the string "0.1"$/],
    [{ noise: -1 }, /^createWidthTrainer: noise must be a finite number at least 0, got -1$/],
    [{ learningRate: NaN }, /^createWidthTrainer: learningRate must be a finite number, got NaN$/],
    [{ learningRate: -1 }, /^createWidthTrainer: learningRate must be a finite number greater than 0, got -1$/],
    [{ sigma: 1 }, /^createWidthTrainer: unknown option "sigma" in options \(known: seed, samples, noise, width, learningRate\)$/],
    [{ seed: -2 }, /^createWidthTrainer: seed must be a non-negative integer, got -2$/],
  ];
  for (const [options, expected] of cases)
    await assert.rejects(att.createWidthTrainer(options), (e) => expected.test(e.message), JSON.stringify(options));
  const w = await att.createWidthTrainer();
  try {
    assert.throws(() => w.step(-1), /^AttentionError: widthTrainer\.step: steps must be an integer from 1 to 1000000, got -1$/);
    assert.throws(() => w.step('x'), /^AttentionError: widthTrainer\.step: steps must be an integer from 1 to 1000000, got the string "x"$/);
    assert.throws(() => w.curve('x'), /^AttentionError: widthTrainer\.curve: queries must be a Float32Array or an array of numbers/);
    assert.throws(() => w.curve([170, NaN]), /^AttentionError: widthTrainer\.curve: queries /);
    assert.throws(() => w.weights({ keys: [1, 2], values: [1], queries: [1] }),
                  /^AttentionError: widthTrainer\.weights: values must have as many entries as keys \(2\), got 1$/);
    assert.throws(() => w.weights({ keys: [1] }), /^AttentionError: widthTrainer\.weights: values is required$/);
    assert.throws(() => w.lossCurve([0.1, -1]), /^AttentionError: widthTrainer\.lossCurve: widths must be finite numbers greater than 0, got -1 at 1$/);
    assert.throws(() => w.lossCurve([]), /^AttentionError: widthTrainer\.lossCurve: widths must not be empty$/);
    assert.throws(() => w.lossCurve([0.1, '2']), /^AttentionError: widthTrainer\.lossCurve: widths\[1\] must be a number/);
    assert.equal(w.step(2).step, 2);  // still working
  } finally {
    w.delete();
  }
});

function measure() {
  return { allocated: att.debug.memoryStats().allocatedBytes, handles: att.debug.handles() };
}

test('the measure sees a trainer that is not deleted (positive control)', async () => {
  // the first trainer loads the training module, whose heap the measure counts from then on
  (await att.createTrainer()).delete();
  const before = measure();
  const t = await att.createTrainer();
  assert.ok(measure().allocated - before.allocated > 100000);
  t.delete();
  assert.equal(measure().allocated, before.allocated);
});

test('200 create/step/evaluate/probe/delete cycles and failing calls leak neither heap nor handles', async () => {
  const cycle = async (i) => {
    const t = await att.createTrainer({ seed: i, length: 6, batch: 8, heads: 2, task: i % 2 ? 'shift' : 'reverse' });
    t.step(1 + (i % 3));
    t.evaluate();
    t.probe();
    t.parameters();
    assert.throws(() => t.step(-1));
    t.delete();
    const w = await att.createWidthTrainer({ seed: i, samples: 20 });
    w.step(2);
    w.curve([160, 170]);
    w.weights({ keys: [160, 170], values: [55, 65], queries: [165] });
    w.lossCurve([0.1]);
    assert.throws(() => w.lossCurve([-1]));
    w.delete();
    await assert.rejects(att.createTrainer({ heads: 3 }));
    await assert.rejects(att.createWidthTrainer({ samples: 1 }));
  };
  await cycle(0);  // warm up: first-use allocations
  const before = measure();
  for (let i = 1; i <= 200; i++) await cycle(i);
  const after = measure();
  assert.equal(after.allocated, before.allocated, 'malloc-held bytes');
  assert.equal(after.handles, before.handles, 'live Embind handles');
});
