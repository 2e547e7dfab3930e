// Where the page's files are: beside its modules (web/, or dist/'s
// content-addressed folder), or, in the bundled embed.js (no module URL), from
// the script the host page loaded, whatever its name (embed-0.2.0.js, a hashed
// name), or from the folder its data-base attribute names. The script's address is read once, while the
// script runs (document.currentScript): no other script of the page can steer
// it. In a worker started by embed.js the starter passes that folder
// (self.attentionWasmBase, see workers.js).
//
//   assetUrl('model/encoder.q.bin') -> an absolute URL
//   embedScriptUrl()                -> the address of the running embed.js, or null

/* global ATTENTION_WASM_FILES */
// The release's embed.js finds its other files in the release's
// content-addressed folder (immutable/<hash>/, see scripts/dist.mjs), which its
// bundle is told of; web/embed.js finds them beside itself.
const FILES = typeof ATTENTION_WASM_FILES === 'string' ? ATTENTION_WASM_FILES : '';

function scriptFolder() {
  const script = typeof document === 'object' ? document.currentScript : null;
  if (script?.src) {
    const base = script.dataset.base;
    const root = base === undefined ? new URL('.', script.src) : new URL(base.endsWith('/') ? base : `${base}/`, document.baseURI);
    return { script: script.src, folder: new URL(FILES, root).href };
  }
  const given = typeof self === 'object' ? self.attentionWasmBase : undefined;
  return given ? { script: self.attentionWasmScript ?? null, folder: given } : { script: null, folder: null };
}

const here = import.meta.url ? null : scriptFolder();

export function assetUrl(path) {
  if (import.meta.url) return new URL(`../${path}`, import.meta.url).href;  // (this file is in runtime/)
  return new URL(path, here.folder ?? document.baseURI).href;
}

export const embedScriptUrl = () => here?.script ?? null;
export const assetFolder = () => (import.meta.url ? new URL('../', import.meta.url).href : here.folder);
