// The pretrained encoder of the real-model and sentence-similarity widgets.
// Its model file (8 MB) is read once per page, only when a widget first asks
// for it, with its progress reported (web/encoder/model-file.js: the network or the
// browser's Cache Storage). Reading, loading and encoding run in a Web Worker
// (web/encoder/encoder-worker.js) with its own module, so the page never freezes for
// them; where no worker can start (the script embed, a strict host), on the
// page with the page's module.
//
//   defaultModelUrl(weights)    -> the model file beside the page's modules: the quantized one
//                                  (encoder.q.bin), or weights 'f16' / 'f32' (the page's ?weights=)
//   weightsAsked()              -> the page address's weights= value, or null
//   modelAllowed(url)           -> whether this page may fetch a model from url (a URL)
//   modelOrigin()               -> the origin it may fetch from: the page's, or '*' (the script embed)
//   loadEncoderOnce(att, url)   -> Promise<{ info, encode(text), embed(text) }>: one load per URL per
//                                  page; encode and embed answer promises of what Encoder's do
//   watchEncoder(url, listener) -> unsubscribe(); listener(status) now and at every change
//   closeEncoders()             -> every worker stopped and every load forgotten (the last model
//                                  widget of the page was unmounted); a later request loads again
//     status: { phase: 'waiting' | 'fetching' | 'preparing' | 'ready' | 'failed',
//               loaded, total (bytes; total 0 while unknown), fromCache, seconds, error, file (its name),
//               where: 'worker' | 'page' (where it loads, once that is known) }
// A failed load is forgotten, so the next request tries again.
import { loadModel, modelFileError } from './model-file.js';
import { assetUrl } from '../runtime/assets.js';
import { startWorker } from '../runtime/workers.js';

export const MODEL_FILES = { q: 'model/encoder.q.bin', f16: 'model/encoder.f16.bin', f32: 'model/encoder.f32.bin' };

const loads = new Map();  // url -> { promise, status, listeners: Set }

export function weightsAsked() {
  return typeof location === 'object' ? new URLSearchParams(location.search).get('weights') : null;
}

// web/model/encoder.q.bin (or .f16/.f32). In the bundled embed.js there is no
// module URL: the file is looked for beside the embed.js script (a page can
// point elsewhere with the widget's model= state).
export function defaultModelUrl(weights = 'q') {
  const file = Object.hasOwn(MODEL_FILES, weights) ? MODEL_FILES[weights] : null;
  if (!file) throw new Error(`defaultModelUrl: weights must be q, f16 or f32, got ${JSON.stringify(weights)}`);
  return assetUrl(file);
}

// The site's own pages (index.html, embed.html) read the model= state from
// their address, which anyone can write into a link, and their
// Content-Security-Policy connects only to their own origin: there a model
// must be on the page's origin, refused before any request otherwise. The
// script embed (embed.js: no module URL) takes it from the host page's
// data-state and may point to any host that sends CORS headers.
export function modelOrigin() {
  return import.meta.url ? location.origin : '*';
}
export function modelAllowed(url) {
  const origin = modelOrigin();
  return origin === '*' || url.origin === origin;
}

// the file's name in an address, decoded where its escapes allow
function fileName(url) {
  const name = new URL(url).pathname.split('/').pop();
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function entry(url) {
  const file = fileName(url);
  if (!loads.has(url)) loads.set(url, { promise: null, listeners: new Set(), status: { phase: 'waiting', loaded: 0, total: 0, fromCache: false, seconds: 0, error: null, file } });
  return loads.get(url);
}

function report(item, change) {
  item.status = { ...item.status, ...change };
  for (const listener of item.listeners) listener(item.status);
}

export function watchEncoder(url, listener) {
  const item = entry(url);
  item.listeners.add(listener);
  listener(item.status);
  return () => item.listeners.delete(listener);
}

// ---- on the page: the encoder itself, its calls made promises ----

async function loadHere(att, url, item) {
  report(item, { where: 'page' });
  const encoder = await loadModel(att, url, (change) => report(item, change));
  item.close = () => encoder.delete();
  return {
    info: encoder.info(),
    encode: async (text) => encoder.encode(text),
    embed: async (text) => encoder.embed(text),
  };
}

// ---- in a worker ----

class NoWorker extends Error {}


// Resolves to the encoder in a new worker; rejects with NoWorker where the
// worker cannot start or its module cannot load (then the page loads it).
function loadInWorker(url, item) {
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = startWorker('encoder');
    } catch (error) {
      reject(new NoWorker(String(error)));
      return;
    }
    report(item, { where: 'worker' });
    const waiting = new Map();  // id -> { resolve, reject }
    let next = 1;
    let loaded = false;
    item.close = () => {
      worker.terminate();
      for (const call of waiting.values()) call.reject(new Error('the encoder was closed'));
      waiting.clear();
    };
    const ask = (type, text) => new Promise((done, failed) => {
      const id = next++;
      waiting.set(id, { resolve: done, reject: failed });
      worker.postMessage({ type, id, text });
    });
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'status') {
        report(item, data.change);
      } else if (data.type === 'loaded') {
        loaded = true;
        resolve({ info: Object.freeze(data.info), encode: (text) => ask('encode', text), embed: (text) => ask('embed', text) });
      } else if (data.type === 'failed') {
        worker.terminate();
        reject(data.name === 'ModelFileError' ? modelFileError(data.message, data.vars) : new Error(data.message));
      } else if (data.type === 'unavailable') {
        worker.terminate();
        reject(new NoWorker(data.message));
      } else {
        const call = waiting.get(data.id);
        waiting.delete(data.id);
        if (data.type === 'result') call?.resolve(data.value);
        else call?.reject(new Error(data.message));
      }
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      if (!loaded) { reject(new NoWorker(event.message)); return; }
      // a worker that died later (out of memory): its calls fail; the next load starts afresh
      loads.delete(url);
      for (const call of waiting.values()) call.reject(new Error(event.message || 'the encoder stopped'));
      waiting.clear();
    });
    // the page's rule, for a worker that cannot keep to its own origin (one started from a blob: URL)
    worker.postMessage({ type: 'load', url, origin: modelOrigin() });
  });
}

async function load(att, url, item) {
  try {
    return await loadInWorker(url, item);
  } catch (error) {
    if (!(error instanceof NoWorker)) throw error;
    return loadHere(att, url, item);
  }
}

export function closeEncoders() {
  for (const item of loads.values()) item.close?.();
  loads.clear();
}

export function loadEncoderOnce(att, url) {
  const item = entry(url);
  item.promise ??= load(att, url, item).then(
    (encoder) => { item.listeners.clear(); return encoder; },
    (error) => {
      item.promise = null;  // the next request starts afresh
      report(item, { phase: 'failed', error });
      throw error;
    });
  return item.promise;
}
