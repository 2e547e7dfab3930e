// The classic script's own address (attention.js), read while it runs, before
// its factory: where it loads its two other modules from (parts-script.js).
// Read through the platform's own document.currentScript getter, and only from
// a real <script> element's src attribute: a host page's markup can shadow the
// document's names (<img name="currentScript" src="https://elsewhere/x.png">,
// which Emscripten's own _scriptDir would take), and must not choose where
// code is loaded from. Undefined where there is no document (a worker).
var attentionScriptUrl = (function readScriptUrl() {
  'use strict';
  if (typeof Document !== 'function' || typeof document !== 'object') return undefined;
  const own = function (type, name) {
    const found = Object.getOwnPropertyDescriptor(type.prototype, name);
    return found.get.call(document);
  };
  const script = own(Document, 'currentScript');
  if (!(script instanceof HTMLScriptElement) || !script.hasAttribute('src')) return undefined;
  return new URL(script.getAttribute('src'), own(Node, 'baseURI')).href;
})();
