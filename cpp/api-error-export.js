// attention.mjs's named export of AttentionError (api-error.js), after the
// factory (--extern-post-js, the ES module build only):
//   import createAttention, { AttentionError } from 'attention-wasm';
export { AttentionError };
