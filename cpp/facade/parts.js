// The attention module's two other modules, each loaded on first use:
// attention-encoder (the pretrained encoder, encoder.js) and
// attention-training (the trainers and the language model, training.js).
// A page that never uses them never downloads them. Where they are found is
// the flavour's loader (parts-import.js for attention.mjs, parts-script.js for
// the classic attention.js): { encoder(), training() } -> Promise<{ default: factory }>.
// A failed load is an AttentionError LOAD_FAILED of the function that asked;
// the next call tries again.
import { fail } from './error.js';
import { describe } from './kinds.js';

// The functions that load a part: { name: (core) => the function }, as attention.js's;
// core.part(fn, name) resolves to the part's facade.
export const FUNCTIONS = {
  // The pretrained encoder (a model file from web/model/). Resolves to an
  // object whose encode(text) returns the pieces, the words, every layer's and
  // head's attention over pieces and over words, and the sentence embedding;
  // embed(text) the embedding alone; delete() frees its weights (about 28 MB).
  // Bytes that are not bytes are refused before the module is loaded.
  loadEncoder: ({ part }) => function loadEncoder(bytes) {
    return new Promise(function (resolve) {
      if (!(bytes instanceof ArrayBuffer || bytes instanceof Uint8Array)) {
        fail('loadEncoder', 'bytes must be a Uint8Array or an ArrayBuffer of a model file, got ' + describe(bytes));
      }
      resolve(part('loadEncoder', 'encoder').then((encoders) => encoders.loadEncoder(bytes)));
    });
  },
  // An attention model learning a sequence task, the Nadaraya-Watson model
  // learning its width, and a small transformer trained on texts, character
  // by character. Each resolves to an object whose methods answer at once and
  // whose delete() frees it.
  createTrainer: training('createTrainer'),
  createWidthTrainer: training('createWidthTrainer'),
  createLanguageModel: training('createLanguageModel'),
  // the repeats corpus (texts written twice), made where the language model lives
  repeatsCorpus: training('repeatsCorpus'),
  // the reader's own text as a corpus for the language model
  ownCorpus: ({ part }) => function ownCorpus(text, options) {
    return part('ownCorpus', 'training').then((module) => module.ownCorpus(text, options));
  },
};

// name(options) of the training module
function training(name) {
  return ({ part }) => ({
    [name](options) {
      return part(name, 'training').then((module) => module[name](options));
    },
  })[name];
}

// part(fn, name): the facade of the part called name, loaded once by loader
// (its factory called with no options); loaded: the facades loaded so far
export function partLoader(loader) {
  const parts = {};   // name -> Promise<the part's facade>
  const loaded = [];
  function part(fn, name) {
    if (!parts[name]) {
      parts[name] = loader[name]()
        .then((module) => module.default())
        .then((facade) => {
          loaded.push(facade);
          return facade;
        }, (error) => {
          delete parts[name];
          fail(fn, 'could not load the ' + name + ' module (' + (error && error.message ? error.message : String(error)) + ')', 'LOAD_FAILED');
        });
    }
    return parts[name];
  }
  return { part, loaded };
}

// att.debug, for leak checks: memoryStats() the memory of this module and of
// the parts it has loaded, summed ({ heapBytes: the size of their WASM
// memories, allocatedBytes: the bytes their mallocs hold now }); handles()
// their live Embind handles
export function debugOfAll(own, loaded) {
  const debugs = () => [own, ...loaded.map((facade) => facade.debug)];
  return Object.freeze({
    memoryStats: function memoryStats() {
      const sum = { heapBytes: 0, allocatedBytes: 0 };
      for (const debug of debugs()) {
        const stats = debug.memoryStats();
        sum.heapBytes += stats.heapBytes;
        sum.allocatedBytes += stats.allocatedBytes;
      }
      return sum;
    },
    handles: function handles() {
      let count = 0;
      for (const debug of debugs()) count += debug.handles();
      return count;
    },
  });
}
