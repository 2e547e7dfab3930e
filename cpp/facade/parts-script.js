// Where the classic attention.js finds its two other modules (parts.js;
// parts-import.js is attention.mjs's): beside it, as classic scripts, each
// defining its factory as a global. A page adds a <script> element (from any
// origin, and from file://); a classic worker calls importScripts.
//   scriptParts(here).encoder()   -> Promise<{ default: createAttentionEncoder }>
//   scriptParts(here).training()  -> Promise<{ default: createAttentionTraining }>
// here: the address attention.js is at (the default export: this script's
// own, read while it runs; embed.js gives where its attention.js would be).

// A host page's markup can shadow the names of its document and window
// (<form name="createElement">, <img name="head">, <embed id="createAttentionTraining">):
// the document's own method and getter are called, and a factory counts only
// as the global's own property (what the part's script defines).
const documentOwn = (name) => {
  const found = Object.getOwnPropertyDescriptor(Document.prototype, name);
  return found.get || found.value;
};
const defined = (scope, factory) => Object.prototype.hasOwnProperty.call(scope, factory) && typeof scope[factory] === 'function';

// the classic script file (beside here) that defines the global factory: { default: factory }
// (embed.js loads its other languages' words so too: scripts/bundle.mjs)
export function loadScript(here, file, factory) {
  return new Promise(function (resolve, reject) {
    const scope = typeof self !== 'undefined' ? self : globalThis;
    // the factory, once the script defining it has run (or already had)
    const settle = (url) => {
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
    // where the script came from, for the workers it starts itself (the training module's, parallel.js)
    scope.attentionWasmScripts = Object.assign(scope.attentionWasmScripts || {}, { [factory]: url });
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
    script.onload = () => settle(url);
    script.onerror = () => reject(new Error('could not load ' + url));
    documentOwn('head').call(document).appendChild(script);
  });
}

export function scriptParts(here) {
  return {
    encoder: () => loadScript(here, 'attention-encoder.js', 'createAttentionEncoder'),
    training: () => loadScript(here, 'attention-training.js', 'createAttentionTraining'),
  };
}

// The classic script's own address, read while it runs: where it loads its
// two other modules from. Read through the platform's own
// document.currentScript getter, and only from a real <script> element's src
// attribute: a host page's markup can shadow the document's names (<img
// name="currentScript" src="https://elsewhere/x.png">, which Emscripten's own
// _scriptDir would take), and must not choose where code is loaded from.
// Undefined where there is no document (a worker).
function ownScriptUrl() {
  if (typeof Document !== 'function' || typeof document !== 'object') return undefined;
  const own = (type, name) => Object.getOwnPropertyDescriptor(type.prototype, name).get.call(document);
  const script = own(Document, 'currentScript');
  if (!(script instanceof HTMLScriptElement) || !script.hasAttribute('src')) return undefined;
  return new URL(script.getAttribute('src'), own(Node, 'baseURI')).href;
}

export default scriptParts(ownScriptUrl());
