// Where the attention module finds its two other modules, in the classic
// script build (attention.js; parts-import.js is the ES module's): beside it,
// as classic scripts, each defining its factory as a global. A page adds a
// <script> element (from any origin, and from file://); a classic worker calls
// importScripts. api.js loads each on first use.
//   attentionParts.encoder()   -> Promise<{ default: createAttentionEncoder }>
//   attentionParts.training()  -> Promise<{ default: createAttentionTraining }>
// attentionScriptUrl: this script's own address, read when the script ran
// (script-url.js; embed.js sets it to where its attention.js would be).
var attentionParts = (function defineAttentionParts(here) {
  'use strict';

  // A host page's markup can shadow the names of its document and window
  // (<form name="createElement">, <img name="head">, <embed id="createAttentionTraining">):
  // the document's own method and getter are called, and a factory counts only
  // as the global's own property (what the part's script defines).
  const documentOwn = function (name) {
    const found = Object.getOwnPropertyDescriptor(Document.prototype, name);
    return found.get || found.value;
  };
  const defined = function (scope, factory) {
    return Object.prototype.hasOwnProperty.call(scope, factory) && typeof scope[factory] === 'function';
  };

  function load(file, factory) {
    return new Promise(function (resolve, reject) {
      const scope = typeof self !== 'undefined' ? self : globalThis;
      // the factory, once the script defining it has run (or already had)
      const settle = function (url) {
        if (defined(scope, factory)) resolve({ default: scope[factory] });
        else reject(new Error(url + ' did not define ' + factory));
      };
      if (defined(scope, factory)) {
        settle(file);
        return;
      }
      const base = here || (scope.location && scope.location.href);
      if (!base) {
        reject(new Error('the classic script finds ' + file + ' beside itself, and it does not know where it is: ' +
                         'load attention.js with <script src>, or import attention.mjs'));
        return;
      }
      const url = new URL(file, base).href;
      if (typeof importScripts === 'function') {
        try {
          importScripts(url);
        } catch (error) {
          reject(new Error('could not load ' + url + ' (' + (error && error.message) + ')'));
          return;
        }
        settle(url);
        return;
      }
      const script = documentOwn('createElement').call(document, 'script');
      script.src = url;
      script.onload = function () {
        settle(url);
      };
      script.onerror = function () {
        reject(new Error('could not load ' + url));
      };
      documentOwn('head').call(document).appendChild(script);
    });
  }

  return {
    encoder: function () {
      return load('attention-encoder.js', 'createAttentionEncoder');
    },
    training: function () {
      return load('attention-training.js', 'createAttentionTraining');
    },
  };
})(attentionScriptUrl);
