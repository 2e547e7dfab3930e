// Where the page's files are: beside its modules (web/ or dist/), or, in the
// bundled embed.js (no module URL), beside the script the host page loaded,
// whatever its name (embed-0.2.0.js, a hashed name), or in the folder its
// data-base attribute names. The script's address is read once, while the
// script runs (document.currentScript): no other script of the page can steer
// it. In a worker started by embed.js the starter passes that folder
// (self.attentionWasmBase, see workers.js).
//
//   assetUrl('model/encoder.q.bin') -> an absolute URL
//   embedScriptUrl()                -> the address of the running embed.js, or null

function scriptFolder() {
  const script = typeof document === 'object' ? document.currentScript : null;
  if (script?.src) {
    const base = script.dataset.base;
    if (base === undefined) return { script: script.src, folder: new URL('.', script.src).href };
    return { script: script.src, folder: new URL(base.endsWith('/') ? base : `${base}/`, document.baseURI).href };
  }
  const given = typeof self === 'object' ? self.attentionWasmBase : undefined;
  return given ? { script: self.attentionWasmScript ?? null, folder: given } : { script: null, folder: null };
}

const here = import.meta.url ? null : scriptFolder();

export function assetUrl(path) {
  if (import.meta.url) return new URL(`./${path}`, import.meta.url).href;
  return new URL(path, here.folder ?? document.baseURI).href;
}

export const embedScriptUrl = () => here?.script ?? null;
export const assetFolder = () => (import.meta.url ? new URL('./', import.meta.url).href : here.folder);
