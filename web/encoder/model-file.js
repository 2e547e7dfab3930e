// The encoder's model file, read and loaded: from the browser's Cache Storage
// where a copy is there (https and localhost, not file://), else from the
// network, with its progress reported as it streams in; a fresh download is
// kept in the cache for the next visit. Runs in the encoder's worker
// (web/encoder/encoder-worker.js) and, where no worker can start, on the page.
//
//   loadModel(att, url, report) -> Promise<Encoder>
//     report(change): the status so far changed by change, as web/encoder/encoder.js
//     describes it: { phase: 'fetching', loaded, total, fromCache },
//     { phase: 'preparing' }, then { phase: 'ready', loaded, total, fromCache, seconds }
import { formatNumber } from '../render/format.js';

const CACHE = 'attention-wasm-model-v1';

// The most a model file may take: 32 MiB. The page's files are 8.0 MB (the
// quantized model it loads), 14.1 MB and 28.0 MB (the float16 and float32
// ones ?weights= asks for): the largest fits with room to spare, four times
// the one the page loads. A longer answer is not a model of this page (an
// endless stream, a wrong address): the reading stops there, rather than
// let the tab grow by gigabytes.
export const MODEL_MAX_BYTES = 32 * 1024 * 1024;

// A model file refused for how the page reads it (its length, a redirect):
// its message is a key of the catalogs' common section, with vars, put into
// words where it is shown (model-widgets.js); from the worker it crosses as
// { name, message, vars } (encoder-worker.js, encoder.js).
export function modelFileError(key, vars = {}) {
  const error = new Error(key);
  error.name = 'ModelFileError';
  error.vars = vars;
  return error;
}
const tooLong = () => modelFileError('modelTooLong', { limit: formatNumber(MODEL_MAX_BYTES / 1e6, { digits: 1 }) });

// A response's body as one Uint8Array, reporting (loaded, total) per chunk,
// read up to MODEL_MAX_BYTES and no further. total is Content-Length, or 0
// when the server does not say (or compresses: then the length counts other
// bytes than the stream gives).
export async function readBody(response, onChunk) {
  const length = Number(response.headers.get('Content-Length')) || 0;
  const total = response.headers.get('Content-Encoding') ? 0 : length;
  if (total > MODEL_MAX_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw tooLong();
  }
  if (!response.body) {  // an answer without a body (204): nothing to read
    onChunk(0, total);
    return new Uint8Array(0);
  }
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.length;
    if (loaded > MODEL_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLong();
    }
    chunks.push(value);
    onChunk(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.length; }
  return bytes;
}

async function openCache() {
  try {
    return globalThis.caches ? await caches.open(CACHE) : null;
  } catch {
    return null;  // no Cache Storage here (an opaque origin, storage refused): load every time
  }
}

// The bytes from the cache (fromCache: true) or from the network.
async function fetchBytes(url, cache, report) {
  const progress = (fromCache) => (loaded, total) => report({ phase: 'fetching', loaded, total, fromCache });
  const cached = cache ? await cache.match(url).catch(() => undefined) : undefined;
  if (cached) return { bytes: await readBody(cached, progress(true)), fromCache: true };
  report({ phase: 'fetching', loaded: 0, total: 0, fromCache: false });
  // A redirect is not followed: it could lead off the origin this address was
  // allowed for (encoder.js, encoder-worker.js), and the worker has no
  // Content-Security-Policy to stop it there. (An opaque answer: where it
  // leads is not even read.)
  const response = await fetch(url, { redirect: 'manual' });
  if (response.type === 'opaqueredirect') throw modelFileError('modelRedirect');
  if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  return { bytes: await readBody(response, progress(false)), fromCache: false };
}

export async function loadModel(att, url, report) {
  const start = performance.now();
  const cache = await openCache();
  let { bytes, fromCache } = await fetchBytes(url, cache, report);
  report({ phase: 'preparing' });
  await new Promise((done) => setTimeout(done, 20));  // let the page paint "preparing" first
  let encoder;
  try {
    encoder = await att.loadEncoder(bytes);
  } catch (error) {
    if (!fromCache) throw error;
    // a cached copy that no longer loads (a damaged cache): drop it, fetch again
    await cache.delete(url).catch(() => {});
    ({ bytes, fromCache } = await fetchBytes(url, null, report));
    report({ phase: 'preparing' });
    encoder = await att.loadEncoder(bytes);
  }
  if (cache && !fromCache) {
    const headers = { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length) };
    cache.put(url, new Response(bytes, { headers })).catch(() => {});  // a full disk only costs the next visit a download
  }
  report({ phase: 'ready', loaded: bytes.length, total: bytes.length, fromCache, seconds: (performance.now() - start) / 1000 });
  return encoder;
}
