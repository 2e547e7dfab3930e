// A small language model trained on the names corpus, for the sections that
// look inside one (transformer-block, generation): the core's language model
// (att.createLanguageModel), trained a few steps at a time between tasks so
// that the page never freezes. Seeded: the same size gives the same model, so
// a link shows the same numbers.
//
//   const keeper = modelKeeper();
//   const lm = await keeper.model(att, layers);   trained, kept until the size changes; one model
//                                                 per module and size, whichever keeper asked first
//   keeper.dispose();                             let go: the last keeper's dispose deletes the model
//                                                 (and stops a training in progress)
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
// [{ att, layers, promise, stop, users }]. The last keeper to let one go deletes it.
const shared = [];

export function modelKeeper() {
  let held = null;
  const release = () => {
    const entry = held;
    held = null;
    if (!entry || --entry.users > 0) return;
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
          entry = { att, layers, stop: false, users: 0 };
          entry.promise = trained(att, layers, () => entry.stop);
          // a training that failed is not shared: the next keeper tries again
          entry.promise.catch(() => { if (shared.includes(entry)) shared.splice(shared.indexOf(entry), 1); });
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
