// The names model of the transformer-block and generation sections
// (web/widgets/names-model.js): one model per module and size, trained once
// whichever section asks first, and kept when the sections let it go (a
// language switch mounts them again; a size chosen again is not trained
// again); a training that every section lets go stops and its model is deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { modelKeeper, NAMES_MODEL } from '../../web/widgets/names-model.js';

// a module whose language models count their steps and deletions
function countingModule() {
  const made = [];
  return {
    made,
    async createLanguageModel(options) {
      const lm = { options, steps: 0, deleted: false, step(n) { this.steps += n; }, delete() { this.deleted = true; } };
      made.push(lm);
      return lm;
    },
  };
}

// the names corpus served to loadCorpus's fetch while run() runs
async function withNames(run) {
  const names = readFileSync(new URL('../../web/data/names.json', import.meta.url), 'utf8');
  const fetched = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url) => { fetched.push(String(url)); return new Response(names, { headers: { 'content-type': 'application/json' } }); };
  try {
    await run();
    // (read once per thread: loadCorpus keeps it)
    assert.ok(fetched.every((url) => url.endsWith('data/names.json')), fetched.join(' '));
  } finally {
    globalThis.fetch = realFetch;
  }
}

test('two sections share one trained model; let go, it is kept for the next section that asks', () => withNames(async () => {
  const att = countingModule();
  const block = modelKeeper(), generation = modelKeeper();
  const [a, b] = await Promise.all([block.model(att, 2), generation.model(att, 2)]);
  assert.equal(a, b, 'the same model');
  assert.equal(att.made.length, 1, 'trained once');
  assert.equal(a.steps, NAMES_MODEL.steps);
  assert.equal(a.options.layers, 2);
  // another size for one section: a second model; the first stays for the other
  const c = await block.model(att, 3);
  assert.notEqual(c, a);
  assert.equal(att.made.length, 2);
  assert.equal(await generation.model(att, 2), a, 'kept, not trained again');
  // both let go (a language switch unmounts them), then mounted again: the same models, no training
  generation.dispose();
  block.dispose();
  await null;
  assert.equal(a.deleted || c.deleted, false, 'trained models are kept');
  const again = modelKeeper();
  assert.equal(await again.model(att, 3), c);
  assert.equal(await again.model(att, 2), a, 'a size chosen again');
  assert.equal(att.made.length, 2, 'nothing trained again');
  assert.equal(a.steps + c.steps, 2 * NAMES_MODEL.steps);
  again.dispose();
  // another module trains its own
  const other = countingModule();
  const keeper = modelKeeper();
  const d = await keeper.model(other, 2);
  assert.equal(other.made.length, 1);
  assert.notEqual(d, a);
  keeper.dispose();
}));

test('a training that every section lets go stops, its model is deleted, and the next section trains anew', () => withNames(async () => {
  const att = countingModule();
  const keeper = modelKeeper();
  const first = keeper.model(att, 4);
  await new Promise((done) => setTimeout(done, 0));  // a slice or two trained
  keeper.dispose();
  await assert.rejects(first, /discarded while it trained/);
  const [stopped] = att.made;
  assert.ok(stopped.deleted, 'deleted');
  assert.ok(stopped.steps < NAMES_MODEL.steps, `stopped at ${stopped.steps} steps`);
  const next = modelKeeper();
  const lm = await next.model(att, 4);
  assert.notEqual(lm, stopped);
  assert.equal(lm.steps, NAMES_MODEL.steps);
  next.dispose();
}));
