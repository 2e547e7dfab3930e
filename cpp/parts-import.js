// Where the attention module finds its two other modules, in the ES module
// build (attention.mjs; parts-script.js is the classic script's): beside it,
// by dynamic import, which Node, browsers, module workers and bundlers all
// resolve against this module's own address. api.js loads each on first use.
//   attentionParts.encoder()   -> Promise<{ default: createAttentionEncoder }>
//   attentionParts.training()  -> Promise<{ default: createAttentionTraining }>
var attentionParts = {
  encoder: function () {
    return import('./attention-encoder.mjs');
  },
  training: function () {
    return import('./attention-training.mjs');
  },
};
