// The pretrained encoder's Web Worker: its own instance of the attention
// module reads the model file and loads the encoder (hundreds of milliseconds
// of work, a few seconds on a slow phone) and encodes sentences, so the page
// never waits on them. web/encoder/encoder.js drives it.
//   in:  { type: 'load', url, origin } once, then { type: 'encode' | 'embed', id, text }
//        (origin: where the page lets the model be, for a worker started from a blob: URL)
//   out: { type: 'status', change } while loading, then { type: 'loaded', info } or
//        { type: 'failed', name, message, vars } (the model file: the Error's) or { type: 'unavailable', message } (the
//        module: the page then loads the encoder itself); { type: 'result', id, value } or
//        { type: 'error', id, message } for each call
import createAttention from '../wasm/attention.mjs';
import { loadModel } from './model-file.js';

let encoder = null;

// The page's Content-Security-Policy is a <meta> tag, which a module worker
// does not inherit: the worker keeps to an origin itself, before any request.
// A module worker of the site's pages (index.html, embed.html) keeps to the
// origin its script came from, its own (the page's too: a module worker's
// script is on the page's origin), whatever the page says. A worker started
// from a blob: URL (the bundled embed.js, whose code has no URL of its own)
// inherits the page's policy and follows the origin the page passes: the
// script embed's own rule (encoder.js: modelOrigin), '*' for any host.
function allowedOrigin(pageOrigin) {
  const here = import.meta.url;
  if (here && !here.startsWith('blob:')) return new URL(here).origin;
  return typeof pageOrigin === 'string' ? pageOrigin : self.location.origin;
}

// null when the worker may fetch url, else why not
function refusal(url, pageOrigin) {
  const origin = allowedOrigin(pageOrigin);
  let at;
  try {
    at = new URL(url).origin;
  } catch {
    return `the encoder's worker cannot read the model address “${url}”`;
  }
  if (origin === '*' || (at === origin && at !== 'null')) return null;
  return `the encoder's worker loads a model only from its own origin, ${origin}`;
}

// what an answer moves rather than copies: the buffers of its typed arrays
function buffersOf(value, out = []) {
  if (ArrayBuffer.isView(value)) out.push(value.buffer);
  else if (Array.isArray(value)) value.forEach((v) => buffersOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => buffersOf(v, out));
  return out;
}

async function load(url, pageOrigin) {
  const refused = refusal(url, pageOrigin);
  if (refused) {
    self.postMessage({ type: 'failed', message: refused });
    return;
  }
  let att;
  try {
    att = await createAttention();
  } catch (error) {
    // no module here (a host refusing WebAssembly in workers): the page loads the encoder itself
    self.postMessage({ type: 'unavailable', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  try {
    encoder = await loadModel(att, url, (change) => self.postMessage({ type: 'status', change }));
    self.postMessage({ type: 'loaded', info: encoder.info() });
  } catch (error) {
    // (a ModelFileError's message is a catalog key, with its vars)
    const { name, message, vars } = error instanceof Error ? error : { message: String(error) };
    self.postMessage({ type: 'failed', name, message, vars });
  }
}

self.addEventListener('message', ({ data }) => {
  if (data.type === 'load') {
    load(data.url, data.origin);
    return;
  }
  try {
    const value = data.type === 'embed' ? encoder.embed(data.text) : encoder.encode(data.text);
    self.postMessage({ type: 'result', id: data.id, value }, [...new Set(buffersOf(value))]);
  } catch (error) {
    self.postMessage({ type: 'error', id: data.id, message: error instanceof Error ? error.message : String(error) });
  }
});
