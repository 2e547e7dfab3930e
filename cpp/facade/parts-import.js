// Where attention.mjs finds its two other modules (parts.js): beside it, by
// dynamic import, which Node, browsers, module workers and bundlers all
// resolve against the module's own address. (Left out of the bundle:
// scripts/modules.mjs keeps both imports as they are.)
//   encoder()   -> Promise<{ default: createAttentionEncoder }>
//   training()  -> Promise<{ default: createAttentionTraining }>
export default {
  encoder: () => import('./attention-encoder.mjs'),
  training: () => import('./attention-training.mjs'),
};
