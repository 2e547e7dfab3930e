// The "kv-heads" widget's engine for the live-training loop (live/loop.js),
// the same in its Web Worker and on the page: two of the core's language
// models (att.createLanguageModel) of the same size and seed, 8 query heads,
// one with 4 key/value heads and one with 1, trained side by side on the
// names, one Adam step of each per step. Every number comes from the core:
// the batch losses, the held-out losses (lm.evaluate), the parameters
// (lm.info) and each cache (att.kvCacheBytes at the model's context).
//
//   engine = createEngine(att)
//   await engine.reset({ url })   the names corpus's JSON
//   engine.step()                 one step of each model
//   engine.snapshot(full)         -> { step, models: [{ kvHeads, losses, (full) heldOut, parameters, cacheBytes, cacheNumbers }] }
//   engine.dispose()
import { CORPORA, BATCH, loadCorpus } from '../language-model/engine.js';

// the two models: the same but for their key/value heads
export const MODEL = { layers: 2, heads: 8, dModel: 32, seed: 1 };
export const HEAD_DIM = 4;   // dModel / heads
export const KV_TRAINED = [4, 1];
// the steps the button trains: a few seconds for both on a laptop
export const STEPS = 200;
// the cache is counted in float32, the numbers the core keeps
const BYTES = 4;

export function createEngine(att) {
  const e = { models: [], step: 0 };
  const dispose = () => {
    for (const m of e.models) m.lm.delete();
    e.models = [];
  };
  return {
    async reset({ url }) {
      dispose();
      const spec = CORPORA.names;
      const corpus = await loadCorpus(url);
      const made = [];
      for (const kvHeads of KV_TRAINED) {
        made.push({ kvHeads, losses: [], heldOut: null, lm: await att.createLanguageModel({
          texts: corpus.train, heldOut: corpus.heldOut.slice(0, spec.heldOut), ...MODEL, kvHeads, batch: BATCH, ...spec.options }) });
      }
      dispose();  // a reset that overtook this one may have made models meanwhile
      Object.assign(e, { models: made, step: 0 });
    },
    step() {
      for (const m of e.models) {
        const r = m.lm.step(1);
        m.losses.push(r.loss);
        e.step = r.step;
      }
    },
    snapshot(full) {
      return {
        step: e.step, full,
        models: e.models.map((m) => {
          const light = { kvHeads: m.kvHeads, losses: Float64Array.from(m.losses) };
          if (!full) return light;
          const info = m.lm.info();
          const context = info.options.context;
          const cache = { layers: MODEL.layers, kvHeads: info.kvHeads, headDim: HEAD_DIM, tokens: context };
          return {
            ...light, heldOut: m.lm.evaluate().loss, parameters: info.parameters, context,
            cacheBytes: att.kvCacheBytes({ ...cache, bytesPerNumber: BYTES }), cacheNumbers: att.kvCacheBytes({ ...cache, bytesPerNumber: 1 }),
          };
        }),
      };
    },
    dispose,
  };
}
