// The pretrained encoder's Web Worker: its own instance of the attention
// module reads the model file and loads the encoder (hundreds of milliseconds
// of work, a few seconds on a slow phone) and encodes sentences, so the page
// never waits on them. web/encoder.js drives it.
//   in:  { type: 'load', url } once, then { type: 'encode' | 'embed', id, text }
//   out: { type: 'status', change } while loading, then { type: 'loaded', info } or
//        { type: 'failed', message } (the model file) or { type: 'unavailable', message } (the
//        module: the page then loads the encoder itself); { type: 'result', id, value } or
//        { type: 'error', id, message } for each call
import createAttention from './wasm/attention.mjs';
import { loadModel } from './model-file.js';

let encoder = null;

// what an answer moves rather than copies: the buffers of its typed arrays
function buffersOf(value, out = []) {
  if (ArrayBuffer.isView(value)) out.push(value.buffer);
  else if (Array.isArray(value)) value.forEach((v) => buffersOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => buffersOf(v, out));
  return out;
}

async function load(url) {
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
    self.postMessage({ type: 'loaded', info: encoder.info });
  } catch (error) {
    self.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

self.addEventListener('message', ({ data }) => {
  if (data.type === 'load') {
    load(data.url);
    return;
  }
  try {
    const value = data.type === 'embed' ? encoder.embed(data.text) : encoder.encode(data.text);
    self.postMessage({ type: 'result', id: data.id, value }, [...new Set(buffersOf(value))]);
  } catch (error) {
    self.postMessage({ type: 'error', id: data.id, message: error instanceof Error ? error.message : String(error) });
  }
});
