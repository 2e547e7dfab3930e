// A language model trained by workers (createLanguageModel({ threads }), lm.train()):
// the same losses and parameters, bit for bit, for 1, 2 and 3 threads and for
// step(); a worker that cannot load fails train() with WORKER_FAILED and leaves
// the model whole, going on at 1 thread; delete() ends the workers (the process
// exits); bad counts and overlapping calls are refused with their message.
//   node --test tests/node/lm-threads.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AttentionError } from '../../web/wasm/attention.mjs';
import { att, withModel } from './module.mjs';

// A corpus of our own: words of 3 to 9 letters from a seeded generator whose
// seed no other test uses, 240 to train on and 20 held out
function corpus() {
  let x = 0x5eed1e55;
  const next = () => (x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6a09e667) >>> 0) / 2 ** 32;
  const word = () => Array.from({ length: 3 + Math.floor(next() * 7) }, () => 'aeioubdgklmnrst'[Math.floor(next() * 15)]).join('');
  const texts = Array.from({ length: 260 }, () => word() + ' ' + word());
  return { texts: texts.slice(0, 240), heldOut: texts.slice(240) };
}
const OPTIONS = { ...corpus(), layers: 2, heads: 2, dModel: 16, context: 12, batch: 12, seed: 4 };
const STEPS = 20;
const coded = (code, pattern) => (e) => {
  assert.ok(e instanceof AttentionError, `an AttentionError, not ${e?.name}: ${e?.message}`);
  assert.equal(e.code, code, e.message);
  assert.match(e.message, pattern);
  return true;
};
// every parameter of the model as one array of bits
const bits = (lm) => Object.entries(lm.parameters()).flatMap(([name, m]) => [name, ...new Uint32Array(Float32Array.from(m.data).buffer)]);

test(`threads 1, 2 and 3: after ${STEPS} steps the same losses and parameters as step(), bit for bit`, async () => {
  const expected = await withModel(OPTIONS, (lm) => ({ losses: Array.from(lm.step(STEPS).losses), bits: bits(lm) }));
  for (const threads of [1, 2, 3]) {
    await withModel({ ...OPTIONS, threads }, async (lm) => {
      assert.equal(lm.info().threads, threads);
      assert.equal(lm.info().chunks, 8);
      const progress = [];
      const result = await lm.train(STEPS, { onProgress: (p) => progress.push(p) });
      assert.deepEqual(Array.from(result.losses), expected.losses, `losses at threads ${threads}`);
      assert.deepEqual(bits(lm), expected.bits, `parameters at threads ${threads}`);
      assert.equal(result.step, STEPS);
      assert.equal(lm.info().step, STEPS);
      assert.deepEqual(progress.map((p) => p.done), Array.from({ length: STEPS }, (_, i) => i + 1));
      assert.deepEqual(progress.map((p) => p.loss), expected.losses);
      assert.ok(result.tokens > 0);
      // and it goes on: step() after train() is step()'s next step
      assert.equal(lm.step(1).step, STEPS + 1);
    });
  }
});

test('a model that stepped before train() starts its workers from where it is', async () => {
  const expected = await withModel(OPTIONS, (lm) => Array.from(lm.step(9).losses).slice(4));
  const losses = await withModel({ ...OPTIONS, threads: 2 }, async (lm) => {
    lm.step(4);
    return Array.from((await lm.train(5)).losses);
  });
  assert.deepEqual(losses, expected);
});

test('a worker that cannot load: train() rejects with WORKER_FAILED, no step half-taken, the model goes on at threads 1', async () => {
  // the module and its training module in a folder of their own, the training module removed once loaded
  const dir = mkdtempSync(join(tmpdir(), 'attention-threads-'));
  const wasm = fileURLToPath(new URL('../../web/wasm/', import.meta.url));
  try {
    for (const file of ['attention.mjs', 'attention-training.mjs']) copyFileSync(join(wasm, file), join(dir, file));
    const own = await (await import(pathToFileURL(join(dir, 'attention.mjs')).href)).default();
    const lm = await own.createLanguageModel({ ...OPTIONS, threads: 2 });
    lm.step(2);
    unlinkSync(join(dir, 'attention-training.mjs'));
    await assert.rejects(lm.train(3), coded('WORKER_FAILED',
      /^languageModel\.train: a worker failed \(.+\); the model took 0 of the 3 steps and goes on at threads 1$/));
    assert.equal(lm.info().threads, 1);
    assert.equal(lm.info().step, 2);
    // nothing moved: its next steps are a plain model's
    const result = await lm.train(3);
    const expected = await withModel(OPTIONS, (plain) => Array.from(plain.step(5).losses).slice(2));
    assert.deepEqual(Array.from(result.losses), expected);
    lm.delete();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('delete() ends the workers: a process that trained with 3 of them exits by itself', () => {
  const module = new URL('../../web/wasm/attention.mjs', import.meta.url).href;
  const script = `const att = await (await import(${JSON.stringify(module)})).default();
    const lm = await att.createLanguageModel(${JSON.stringify({ ...OPTIONS, threads: 3 })});
    const r = await lm.train(2);
    lm.delete();
    console.log('trained', r.step);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(run.error, undefined, 'the process ended before the timeout');
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), 'trained 2');
});

test('bad counts and overlapping calls are refused with their message', async () => {
  const refused = (threads, got) => assert.rejects(att.createLanguageModel({ ...OPTIONS, threads }),
    coded('BAD_ARGUMENT', new RegExp(`^createLanguageModel: threads must be an integer from 1 to 16, got ${got}$`)));
  await refused(0, '0');
  await refused(17, '17');
  await assert.rejects(att.createLanguageModel({ ...OPTIONS, threads: 1.5 }), coded('BAD_ARGUMENT', /threads must be an integer/));
  await assert.rejects(att.createLanguageModel({ ...OPTIONS, threads: '2' }), coded('BAD_ARGUMENT', /threads must be an integer/));
  await withModel({ ...OPTIONS, threads: 2 }, async (lm) => {
    await assert.rejects(lm.train(0), coded('BAD_ARGUMENT', /^languageModel\.train: steps must be an integer from 1 to 1000000, got 0$/));
    await assert.rejects(lm.train(2, { onProgress: 3 }), coded('BAD_ARGUMENT', /^languageModel\.train: onProgress must be a function, got 3$/));
    const running = lm.train(3);
    await assert.rejects(lm.train(1), coded('BAD_ARGUMENT', /^languageModel\.train: train\(\) is running: await it first$/));
    assert.throws(() => lm.step(1), coded('BAD_ARGUMENT', /^languageModel\.step: train\(\) is running: await it first$/));
    assert.equal((await running).step, 3);
  });
  // delete() while train() runs: it rejects with DELETED
  const lm = await att.createLanguageModel({ ...OPTIONS, threads: 2 });
  const running = lm.train(50);
  lm.delete();
  await assert.rejects(running, coded('DELETED', /^languageModel\.train: this languageModel was deleted$/));
});
