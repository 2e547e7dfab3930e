// The pretrained encoder of the JS API, in the encoder module
// (encoder-module.js). The attention module's loadEncoder loads that module
// on first use and hands it the model file's bytes; a page that never loads
// the real model never downloads this code.
//
//   const part = await createAttentionEncoder();
//   const enc = part.loadEncoder(bytes);   // { info(), encode(text), embed(text), delete() }
//
// The encoder lives in this module's own heap: JS holds a handle, never a
// pointer, and delete() frees it (about 28 MB).
import { fail } from './error.js';
import { handleObject } from './handles.js';
import { describe, string } from './kinds.js';

// text: a sentence; it is NFKC-normalised first, as the tokenizer was trained
const sentence = (fn, handle, text) => ({ handle, text: string(fn, 'text', text).normalize('NFKC') });

export const FUNCTIONS = {
  // bytes: a Uint8Array or an ArrayBuffer holding a model file (web/model/).
  // The encoder: info() its sizes; encode(text) the pieces, the words, every
  // layer's and head's attention over pieces and over words, and the sentence
  // embedding; embed(text) the embedding alone; delete() frees its weights.
  loadEncoder: ({ call }) => function loadEncoder(bytes) {
    const fn = 'loadEncoder';
    let view = bytes;
    if (view instanceof ArrayBuffer) view = new Uint8Array(view);
    if (!(view instanceof Uint8Array)) fail(fn, 'bytes must be a Uint8Array or an ArrayBuffer of a model file, got ' + describe(bytes));
    const loaded = call(fn, 'raw_encoder_load', { bytes: view });
    const info = Object.freeze({
      vocab: loaded.vocabulary, heads: loaded.heads, maxPieces: loaded.maxPieces,
      layerWidths: Object.freeze(loaded.layerWidths), embeddingWidth: loaded.embeddingWidth,
    });
    return handleObject('encoder', loaded.handle, (fn, handle) => call(fn, 'raw_encoder_delete', { handle }), {
      info: () => info,
      encode: (fn, handle, text) => call(fn, 'raw_encoder_encode', sentence(fn, handle, text)),
      // the sentence embedding alone (Float32Array): no maps computed or copied out
      embed: (fn, handle, text) => call(fn, 'raw_encoder_embed', sentence(fn, handle, text)),
    }, '');  // its messages say "encode: …", not "encoder.encode: …"
  },
};
