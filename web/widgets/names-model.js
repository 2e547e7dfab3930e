// A small language model trained on the names corpus, for the sections that
// look inside one (transformer-block, generation): the core's language model
// (att.createLanguageModel), trained a few steps at a time between tasks so
// that the page never freezes. Seeded: the same size gives the same model, so
// a link shows the same numbers.
//
//   const keeper = modelKeeper();
//   const lm = await keeper.model(att, layers);   trained, kept until the size changes
//   keeper.dispose();                             its model deleted (and a training in progress stopped)
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

export function modelKeeper() {
  let kept = null;  // { layers, promise, stop }
  const drop = () => {
    if (!kept) return;
    const { promise } = kept;
    kept.stop = true;
    promise.then((lm) => lm.delete(), () => {});
    kept = null;
  };
  return {
    model(att, layers) {
      if (kept?.layers !== layers) {
        drop();
        const entry = { layers, stop: false };
        entry.promise = trained(att, layers, () => entry.stop);
        kept = entry;
      }
      return kept.promise;
    },
    dispose: drop,
  };
}
