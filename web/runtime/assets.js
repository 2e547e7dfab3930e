// Where the page's files are: beside its modules (web/, or dist/'s
// content-addressed folder), or, in the bundled embed.js (no module URL), from
// the script the host page loaded, whatever its name (embed-0.2.0.js, a hashed
// name), or from the folder its data-base attribute names. The script's address
// is read once, while the script runs, through the platform's own
// document.currentScript getter (doc, dom.js): only a real <script> element
// counts, never a host element named "currentScript", and its src and
// data-base attributes are read as attributes, resolved against the
// document's base URL. No other markup or script of the page can steer it.
// In a worker started by embed.js the starter passes that folder
// (self.attentionWasmBase, see workers.js); a page never reads it.
//
//   assetUrl('model/encoder.q.bin') -> an absolute URL
//   embedScriptUrl()                -> the address of the running embed.js, or null
import { doc } from '../render/dom.js';

/* global ATTENTION_WASM_FILES */
// The release's embed.js finds its other files in the release's
// content-addressed folder (immutable/<hash>/, see scripts/dist.mjs), which its
// bundle is told of; web/embed.js finds them beside itself.
const FILES = typeof ATTENTION_WASM_FILES === 'string' ? ATTENTION_WASM_FILES : '';

// The running embed.js's <script> element, or null (a module script, code
// run from a string): an HTML <script> with a src, as the platform names it.
function runningScript() {
  const script = doc.currentScript;
  return script instanceof HTMLScriptElement && script.hasAttribute('src') ? script : null;
}

function scriptFolder() {
  if (typeof document === 'object') {
    const script = runningScript();
    if (!script) return { script: null, folder: null };  // the files beside the page
    const src = new URL(script.getAttribute('src'), doc.baseURI).href;
    const base = script.getAttribute('data-base');
    const root = base === null ? new URL('.', src) : new URL(base.endsWith('/') ? base : `${base}/`, doc.baseURI);
    return { script: src, folder: new URL(FILES, root).href };
  }
  const given = self.attentionWasmBase;  // a worker's own global, set by its starter
  return typeof given === 'string' ? { script: self.attentionWasmScript ?? null, folder: given } : { script: null, folder: null };
}

const here = import.meta.url ? null : scriptFolder();

export function assetUrl(path) {
  if (import.meta.url) return new URL(`../${path}`, import.meta.url).href;  // (this file is in runtime/)
  return new URL(path, here.folder ?? doc.baseURI).href;
}

export const embedScriptUrl = () => here?.script ?? null;
export const assetFolder = () => (import.meta.url ? new URL('../', import.meta.url).href : here.folder);
