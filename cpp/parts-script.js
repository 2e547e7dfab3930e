// Where the attention module finds its two other modules, in the classic
// script build (attention.js; parts-import.js is the ES module's): beside it,
// as classic scripts, each defining its factory as a global. A page adds a
// <script> element (from any origin, and from file://); a classic worker calls
// importScripts. api.js loads each on first use.
//   attentionParts.encoder()   -> Promise<{ default: createAttentionEncoder }>
//   attentionParts.training()  -> Promise<{ default: createAttentionTraining }>
// _scriptDir: this script's own address, read by the factory's wrapper when
// the script ran (document.currentScript).
var attentionParts = (function defineAttentionParts(here) {
  'use strict';

  function load(file, factory) {
    return new Promise(function (resolve, reject) {
      const scope = typeof self !== 'undefined' ? self : globalThis;
      // the factory, once the script defining it has run (or already had)
      const settle = function (url) {
        if (typeof scope[factory] === 'function') resolve({ default: scope[factory] });
        else reject(new Error(url + ' did not define ' + factory));
      };
      if (typeof scope[factory] === 'function') {
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
      const script = document.createElement('script');
      script.src = url;
      script.onload = function () {
        settle(url);
      };
      script.onerror = function () {
        reject(new Error('could not load ' + url));
      };
      document.head.appendChild(script);
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
})(_scriptDir);
