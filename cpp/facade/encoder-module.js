// The encoder module, attention-encoder.mjs and .js: the pretrained encoder
// (encoder.js), which the attention module's loadEncoder loads on first use.
import createCore from 'linked:attention-encoder';  // Emscripten's factory (module.js)
import { debugOf } from './core.js';
import { FUNCTIONS } from './encoder.js';
import { AttentionError } from './error.js';
import { functionsOf, moduleFactory } from './module.js';

export { AttentionError };

export default moduleFactory(createCore, (core) => ({ ...functionsOf(core, FUNCTIONS), debug: debugOf(core.Module) }));
