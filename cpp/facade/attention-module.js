// The attention module, attention.mjs and the classic attention.js: the core
// the page's widgets use, its facade, and the two other modules loaded on
// first use (parts.js).
//   import createAttention, { AttentionError } from 'attention-wasm';
//   const att = await createAttention();   // the frozen facade: the documented functions and nothing else
import createCore from 'linked:attention';     // Emscripten's factory (module.js)
import loader from 'flavour:parts';             // parts-import.js (.mjs) or parts-script.js (.js)
import { FUNCTIONS as ATTENTION } from './attention.js';
import { debugOf } from './core.js';
import { AttentionError } from './error.js';
import { FUNCTIONS as FIGURES } from './figures.js';
import { functionsOf, moduleFactory } from './module.js';
import { FUNCTIONS as PARTS, debugOfAll, partLoader } from './parts.js';

export { AttentionError };

export default moduleFactory(createCore, (core) => ({
  ...functionsOf(core, ATTENTION, FIGURES, PARTS),
  debug: debugOfAll(debugOf(core.Module), core.loaded),
  // the error class every function throws (error.js), for instanceof
  AttentionError,
}), () => partLoader(loader));
