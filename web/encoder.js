// The pretrained encoder of the real-model widget. Its model file (14 MB) is
// fetched once per page, only when a widget first asks for it, and its
// progress is reported as it streams in. The bytes are then kept in the
// browser's Cache Storage (where the page has one: https and localhost, not
// file://), so the next visit reads them from there instead of the network.
//
//   defaultModelUrl()           -> the model file beside the page's modules
//   modelAllowed(url)           -> whether this page may fetch a model from url (a URL)
//   loadEncoderOnce(att, url)   -> Promise<Encoder>: one load per URL per page
//   watchEncoder(url, listener) -> unsubscribe(); listener(status) now and at every change
//     status: { phase: 'waiting' | 'fetching' | 'preparing' | 'ready' | 'failed',
//               loaded, total (bytes; total 0 while unknown), fromCache, seconds, error }
// A failed load is forgotten, so the next request tries again.
const FILE = 'model/encoder.f16.bin';
const CACHE = 'attention-wasm-model-v1';

const loads = new Map();  // url -> { promise, status, listeners: Set }

// web/model/encoder.f16.bin. In the bundled embed.js there is no module URL:
// the file is looked for beside the embed.js script (a page can point
// elsewhere with the widget's model= state).
export function defaultModelUrl() {
  const here = import.meta.url;
  if (here) return new URL(`./${FILE}`, here).href;
  const script = [...document.querySelectorAll('script[src]')].find((s) => /(^|\/)embed\.js$/.test(new URL(s.src, document.baseURI).pathname));
  return new URL(FILE, script ? new URL(script.src, document.baseURI) : document.baseURI).href;
}

// The site's own pages (index.html, embed.html) read the model= state from
// their address, which anyone can write into a link, and their
// Content-Security-Policy connects only to their own origin: there a model
// must be on the page's origin, refused before any request otherwise. The
// script embed (embed.js: no module URL) takes it from the host page's
// data-state and may point to any host that sends CORS headers.
export function modelAllowed(url) {
  return !import.meta.url || url.origin === location.origin;
}

function entry(url) {
  if (!loads.has(url)) loads.set(url, { promise: null, listeners: new Set(), status: { phase: 'waiting', loaded: 0, total: 0, fromCache: false, seconds: 0, error: null } });
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

// A response's body as one Uint8Array, reporting (loaded, total) per chunk.
// total is Content-Length, or 0 when the server does not say (or compresses:
// then the length counts other bytes than the stream gives).
async function readBody(response, onChunk) {
  const length = Number(response.headers.get('Content-Length')) || 0;
  const total = response.headers.get('Content-Encoding') ? 0 : length;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onChunk(bytes.length, total);
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
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
async function fetchBytes(url, cache, item) {
  const progress = (fromCache) => (loaded, total) => report(item, { phase: 'fetching', loaded, total, fromCache });
  const cached = cache ? await cache.match(url).catch(() => undefined) : undefined;
  if (cached) return { bytes: await readBody(cached, progress(true)), fromCache: true };
  report(item, { phase: 'fetching', loaded: 0, total: 0, fromCache: false });
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  return { bytes: await readBody(response, progress(false)), fromCache: false };
}

async function load(att, url, item) {
  const start = performance.now();
  const cache = await openCache();
  let { bytes, fromCache } = await fetchBytes(url, cache, item);
  report(item, { phase: 'preparing' });
  await new Promise((done) => setTimeout(done, 20));  // let the page paint "preparing" first
  let encoder;
  try {
    encoder = await att.loadEncoder(bytes);
  } catch (error) {
    if (!fromCache) throw error;
    // a cached copy that no longer loads (a damaged cache): drop it, fetch again
    await cache.delete(url).catch(() => {});
    ({ bytes, fromCache } = await fetchBytes(url, null, item));
    report(item, { phase: 'preparing' });
    encoder = await att.loadEncoder(bytes);
  }
  if (cache && !fromCache) {
    const headers = { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length) };
    cache.put(url, new Response(bytes, { headers })).catch(() => {});  // a full disk only costs the next visit a download
  }
  report(item, { phase: 'ready', loaded: bytes.length, total: bytes.length, fromCache, seconds: (performance.now() - start) / 1000 });
  return encoder;
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
