// The names model of the transformer-block and generation sections
// (web/widgets/names-model.js): one model per module and size, trained once
// whichever section asks first; deleted when the last section lets it go; a
// section that changes size lets the other keep its model.
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

test('two sections share one trained model; the last to let go deletes it', async () => {
  const names = readFileSync(new URL('../../web/data/names.json', import.meta.url), 'utf8');
  const fetched = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url) => { fetched.push(String(url)); return new Response(names, { headers: { 'content-type': 'application/json' } }); };
  try {
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
    assert.equal(a.deleted, false, 'still read by the generation section');
    assert.equal(await generation.model(att, 2), a, 'kept, not trained again');
    generation.dispose();
    await null;
    assert.equal(a.deleted, true, 'let go by both: deleted');
    assert.equal(c.deleted, false);
    block.dispose();
    await null;
    assert.equal(c.deleted, true);
    // another module trains its own
    const other = countingModule();
    const keeper = modelKeeper();
    const d = await keeper.model(other, 2);
    assert.equal(other.made.length, 1);
    assert.notEqual(d, a);
    keeper.dispose();
    assert.ok(fetched.length >= 1 && fetched.every((url) => url.endsWith('data/names.json')));
  } finally {
    globalThis.fetch = realFetch;
  }
});
