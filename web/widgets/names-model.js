// A small language model trained on the names corpus, for the sections that
// look inside one (transformer-block, generation): the core's language model
// (att.createLanguageModel), trained a few steps at a time between tasks so
// that the page never freezes. Seeded: the same size gives the same model, so
// a link shows the same numbers.
//
//   const keeper = modelKeeper();
//   const lm = await keeper.model(att, layers);   trained once per module and size, whichever keeper
//                                                 asks first, and kept: a language switch (which mounts
//                                                 the sections again) or a size chosen again does not
//                                                 train it again (1 to 4 layers: at most four models,
//                                                 under 1 MB each with their optimiser's state)
//   keeper.dispose();                             let go; a training that no keeper waits for any more
//                                                 stops, and its model is deleted
import { assetUrl } from '../runtime/assets.js';
import { nextTask } from '../runtime/timing.js';
import { CORPORA, loadCorpus } from './language-model/engine.js';

export const NAMES_MODEL = { heads: 4, dModel: 32, seed: 1, batch: 32, steps: 300 };
// steps between two yields to the page (about 10 to 25 ms at 1 to 4 layers)
const SLICE = 5;

async function trained(att, layers, stopped) {
  const spec = CORPORA.names;
  const corpus = await loadCorpus(assetUrl(spec.file));
  const { heads, dModel, seed, batch, steps } = NAMES_MODEL;
  const lm = await att.createLanguageModel({ texts: corpus.train, heldOut: [], layers, heads, dModel, seed, batch, ...spec.options });
  for (let done = 0; done < steps; done += SLICE) {
    if (stopped()) break;
    lm.step(Math.min(SLICE, steps - done));
    await nextTask();
  }
  if (stopped()) {
    lm.delete();
    throw new Error('the model was discarded while it trained');
  }
  return lm;
}

// The models trained here, shared by every keeper of the same module and
// size (the transformer-block and generation sections read one model):
// [{ att, layers, promise, stop, trained, users }].
const shared = [];

export function modelKeeper() {
  let held = null;
  const release = () => {
    const entry = held;
    held = null;
    if (!entry || --entry.users > 0 || entry.trained) return;
    // still training, and nobody waits for it
    if (shared.includes(entry)) shared.splice(shared.indexOf(entry), 1);
    entry.stop = true;
    entry.promise.then((lm) => lm.delete(), () => {});
  };
  return {
    model(att, layers) {
      if (held?.att !== att || held.layers !== layers) {
        release();
        let entry = shared.find((e) => e.att === att && e.layers === layers);
        if (!entry) {
          entry = { att, layers, stop: false, trained: false, users: 0 };
          entry.promise = trained(att, layers, () => entry.stop);
          entry.promise.then(() => { entry.trained = !entry.stop; }, () => {
            // a training that failed is not shared: the next keeper tries again
            if (shared.includes(entry)) shared.splice(shared.indexOf(entry), 1);
          });
          shared.push(entry);
        }
        entry.users++;
        held = entry;
      }
      return held.promise;
    },
    dispose: release,
  };
}
