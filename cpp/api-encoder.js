// The facade of the encoder module, attention-encoder.mjs (appended inside its
// factory with --post-js, after api-checks.js). The attention module's
// loadEncoder imports this module on first use and hands it the model file's
// bytes; a page that never loads the real model never downloads this code.
//
//   const part = await createAttentionEncoder();
//   const enc = part.loadEncoder(bytes);   // { info, encode(text), embed(text), delete() }
//
// The encoder lives in this module's own heap: JS holds a handle, never a
// pointer, and delete() frees it (about 28 MB).

(function defineAttentionEncoder(Module, checks) {
  'use strict';

  const fail = checks.fail, describe = checks.describe, kinds = checks.kinds;
  // the core's words -> the JS API's
  const call = checks.coreCaller(Module, [[/^the text is empty$/, 'text is empty: type a sentence']]);

  // bytes: a Uint8Array or an ArrayBuffer holding a model file (web/model/).
  // The encoder: its info; encode(text) the pieces, the words, every layer's
  // and head's attention over pieces and over words, and the sentence
  // embedding; embed(text) the embedding alone; delete() frees its weights.
  function loadEncoder(bytes) {
    const fn = 'loadEncoder';
    let view = bytes;
    if (view instanceof ArrayBuffer) view = new Uint8Array(view);
    if (!(view instanceof Uint8Array)) fail(fn, 'bytes must be a Uint8Array or an ArrayBuffer of a model file, got ' + describe(bytes));
    const info = call(fn, 'raw_encoder_load', { bytes: view });
    let handle = info.handle;
    delete info.handle;
    // text: a sentence; it is NFKC-normalised first, as the tokenizer was trained
    const sentence = (fn, text) => {
      if (handle === 0) fail(fn, 'this encoder was deleted');
      return { handle, text: kinds.string(fn, 'text', text).normalize('NFKC') };
    };
    return Object.freeze({
      info: Object.freeze(info),
      encode(text) {
        return call('encode', 'raw_encoder_encode', sentence('encode', text));
      },
      // the sentence embedding alone (Float32Array): no maps computed or copied out
      embed(text) {
        return call('embed', 'raw_encoder_embed', sentence('embed', text));
      },
      delete() {
        if (handle !== 0) call('delete', 'raw_encoder_delete', { handle });
        handle = 0;
      },
    });
  }

  checks.publish(Object.assign({ loadEncoder }, checks.memoryOf(Module)));
})(Module, attentionChecks);
