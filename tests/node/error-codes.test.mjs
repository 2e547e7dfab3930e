// Every function of the three modules throws one class, AttentionError (the
// module's named export and att.AttentionError), with a code from a
// documented set (docs/api.md, Errors): one failure of each kind here.
//   node --test tests/node/error-codes.test.mjs
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import createAttention, { AttentionError } from '../../web/wasm/attention.mjs';
import { att } from './module.mjs';

const coded = (code, pattern) => (e) => {
  assert.ok(e instanceof AttentionError, `an AttentionError, not ${e?.name}`);
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'AttentionError');
  assert.equal(e.code, code, e.message);
  assert.match(e.message, pattern);
  return true;
};

test('one class: the named export, att.AttentionError and the class of every module are the same', async () => {
  assert.equal(att.AttentionError, AttentionError);
  assert.equal((await createAttention()).AttentionError, AttentionError);
  assert.equal(String(new AttentionError('f: x', 'BAD_ARGUMENT')), 'AttentionError: f: x');
  // thrown by the training module (loaded on first use): the same class
  await assert.rejects(att.createTrainer({ dModel: 32, heads: 3 }), coded('BAD_ARGUMENT', /^createTrainer: dModel 32 is not divisible by heads 3$/));
});

test('BAD_ARGUMENT: a refused argument, with its message as before', () => {
  assert.throws(() => att.softmax([]), coded('BAD_ARGUMENT', /^softmax: /));
  assert.throws(() => att.attention({ query: [[1, 2]], key: [[1, 2, 3]], value: [[1]] }), coded('BAD_ARGUMENT', /^attention: key has 3 columns but query has 2/));
});

test('DELETED, DIVERGED: a handle after delete(); a learning rate that blows up', async () => {
  const t = await att.createTrainer({ learningRate: 1e30 });
  assert.throws(() => t.step(200), coded('DIVERGED', /^trainer\.step: training diverged at step \d+/));
  t.delete();
  assert.throws(() => t.evaluate(), coded('DELETED', /^trainer\.evaluate: this trainer was deleted$/));
});

test('DIVERGED on the step whose update broke the model, and on every later read of it', async () => {
  // one Adam step of 1e15 leaves every parameter finite, near 1e15: the next forward overflows
  const t = await att.createTrainer({ task: 'shift', learningRate: 1e15, seed: 255, length: 5, vocab: 2, heads: 3, dModel: 9, batch: 4, causal: true });
  try {
    const at1 = (fn) => coded('DIVERGED', new RegExp(`^trainer\\.${fn}: training diverged at step 1: .* try a smaller learningRate$`));
    assert.throws(() => t.step(1), at1('step'));
    assert.throws(() => t.evaluate(), at1('evaluate'));
    assert.throws(() => t.probe(), at1('probe'));
    assert.throws(() => t.step(1), at1('step'));
  } finally {
    t.delete();
  }
  const lm = await att.createLanguageModel({ texts: ['abcab', 'bcabc', 'cabca', 'ab', 'abcabcabc'], heldOut: ['abca'],
    layers: 1, heads: 2, dModel: 8, context: 8, batch: 4, learningRate: 1e15, warmup: 0, clip: 0 });
  try {
    const at1 = (fn) => coded('DIVERGED', new RegExp(`^languageModel\\.${fn}: training diverged at step 1: `));
    assert.throws(() => lm.step(1), at1('step'));
    assert.throws(() => lm.evaluate(), at1('evaluate'));
    assert.throws(() => lm.next('ab'), at1('next'));
    assert.throws(() => lm.attention('abc'), at1('attention'));
    assert.throws(() => lm.generate({ prompt: 'a' }), at1('generate'));
    assert.throws(() => lm.beginGeneration({ prompt: 'a' }), at1('beginGeneration'));
    assert.throws(() => lm.headRoles(), at1('headRoles'));
  } finally {
    lm.delete();
  }
});

test('OUT_OF_MEMORY: a model whose buffers pass the limit', async () => {
  await assert.rejects(att.createTrainer({ dModel: 512, vocab: 4096, batch: 4096, length: 256 }),
    coded('OUT_OF_MEMORY', /^createTrainer: these sizes need \d+ MB of buffers, more than the limit of 256 MB$/));
});

test('BAD_MODEL_FILE: bytes that are not a model file (the encoder module\'s error, the same class)', async () => {
  await assert.rejects(att.loadEncoder(new Uint8Array(64)), coded('BAD_MODEL_FILE', /^loadEncoder: model file: /));
});

test('LOAD_FAILED: the module alone, without the training module beside it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attention-alone-'));
  try {
    copyFileSync(new URL('../../web/wasm/attention.mjs', import.meta.url), join(dir, 'attention.mjs'));
    const alone = await (await import(pathToFileURL(join(dir, 'attention.mjs')).href)).default();
    await assert.rejects(alone.createTrainer(), coded('LOAD_FAILED', /^createTrainer: could not load the training module/));
    assert.equal(alone.AttentionError, AttentionError, 'a second copy of the module finds the same class');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the documented codes are the ones thrown (docs/api.md lists each)', () => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  for (const code of ['BAD_ARGUMENT', 'DELETED', 'DIVERGED', 'BAD_MODEL_FILE', 'LOAD_FAILED', 'OUT_OF_MEMORY', 'WORKER_FAILED'])
    assert.match(doc, new RegExp(`\\| \`${code}\` \\|`), code);
});

test('no message text decides a code: a user\'s text that reads like another failure is still BAD_ARGUMENT', async () => {
  // the core says what kind of failure it raised; the words of the message, here partly the caller's, are not read
  const task = 'these sizes need 9 MB of buffers, more than the limit of 256 MB';
  await assert.rejects(att.createTrainer({ task }),
    coded('BAD_ARGUMENT', /^createTrainer: task must be 'reverse', 'shift' or 'date', got 'these sizes need 9 MB of buffers/));
  await assert.rejects(att.createTrainer({ task: 'training diverged at step 1' }), coded('BAD_ARGUMENT', /^createTrainer: task must be /));
});

test('no message text decides a name: the argument the core names is said as the JS option, the caller\'s words as they are', async () => {
  await assert.rejects(att.createTrainer({ task: 'learning_rate' }),
    coded('BAD_ARGUMENT', /^createTrainer: task must be 'reverse', 'shift' or 'date', got 'learning_rate'$/));
  await assert.rejects(att.createTrainer({ learningRate: -1 }),
    coded('BAD_ARGUMENT', /^createTrainer: learningRate must be a finite number greater than 0, got -1$/));
  const lm = await att.createLanguageModel({ texts: ['abcab', 'bcabc'], heldOut: [], layers: 1, heads: 1, dModel: 4, context: 8 });
  try {
    assert.throws(() => lm.setParameters({ d_model: [[1]] }),
      coded('BAD_ARGUMENT', /^languageModel\.setParameters: no tensor "d_model" in this model \(parameters\(\) names them\)$/));
    assert.throws(() => lm.evaluate(), coded('BAD_ARGUMENT', /^languageModel\.evaluate: evaluate needs held-out texts: heldOut is empty$/));
  } finally {
    lm.delete();
  }
});
