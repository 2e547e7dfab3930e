// The training module, attention-training.mjs and .js: the trainers
// (trainer.js) and the language model (language-model.js), which the
// attention module's createTrainer, createWidthTrainer, createLanguageModel,
// repeatsCorpus and ownCorpus load on first use; a page that trains nothing
// never downloads it.
import createCore from 'linked:attention-training';  // Emscripten's factory (module.js)
import { coreCaller, debugOf } from './core.js';
import { AttentionError } from './error.js';
import { FUNCTIONS as LANGUAGE_MODEL } from './language-model.js';
import { functionsOf, moduleFactory } from './module.js';
import { serveSteps } from './parallel.js';
import { FUNCTIONS as TRAINERS } from './trainer.js';

export { AttentionError };

export default moduleFactory(createCore, (core) => ({
  ...functionsOf(core, TRAINERS, LANGUAGE_MODEL),
  debug: debugOf(core.Module),
}));

// in a worker that a language model's train() started (parallel.js): serve its steps
serveSteps(createCore, coreCaller);
