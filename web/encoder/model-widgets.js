// What the widgets of the pretrained encoder (real-model, sentence-similarity)
// share: the model's address from the state, one gate that opens when the
// first of them comes into view (the 8 MB file loads then, once per page:
// web/encoder/encoder.js), the loader's view, and encodings cached by model and text.
// Their messages are in the common section of the catalogs.
import { doc, whenNear } from '../render/dom.js';
import { MODEL_FILES, closeEncoders, defaultModelUrl, loadEncoderOnce, modelAllowed, watchEncoder, weightsAsked } from './encoder.js';
import { modelLoader, showModelStatus } from '../render/loader.js';
import { inputError } from '../runtime/text.js';

// the state key of the model's address (empty: beside the page), for a host that keeps it elsewhere
export const modelControl = { key: 'model', type: 'text', maxLength: 2000, hidden: true };

// The model's address: state.model, or else the file beside the page, the
// quantized one unless the page's address asks for ?weights=f16 or f32.
export function modelUrl(model, t) {
  if (!model) {
    const weights = weightsAsked() ?? 'q';
    if (!Object.hasOwn(MODEL_FILES, weights)) throw inputError(t('badWeights', { value: weights }));
    return defaultModelUrl(weights);
  }
  let url;
  try {
    url = new URL(model, doc.baseURI);
    // a % that starts no escape (model=%, %E0%A4%A): the browser keeps it, but it names no file
    decodeURIComponent(url.pathname);
  } catch {
    throw inputError(t('badUrl', { url: model }));
  }
  if (!modelAllowed(url)) throw inputError(t('foreignUrl', { url: url.href, origin: location.origin }));
  return url.href;
}

// ---- the gate: opened when a model widget first comes into view ----

let openModel;
const opened = new Promise((resolve) => { openModel = resolve; });

// The encoder at state.model, once the gate is open: { url, encoder }.
export async function encoderFor(att, state, t) {
  const url = modelUrl(state.model, t);
  await opened;
  try {
    return { url, encoder: await loadEncoderOnce(att, url) };
  } catch (error) {
    const message = error.name === 'ModelFileError' ? t(error.message, error.vars) : error.message;
    throw inputError(t('modelFailed', { url, message }) + (url.startsWith('file:') ? t('fileHint') : ''));
  }
}

// encodings by model and text, for both widgets: choosing a head or a row does
// not encode again, nor does typing in one box re-encode the others. The 8
// used last are kept (a Map keeps insertion order: a hit moves to the end), as
// promises (the encoder answers from its worker); a failed one is dropped.
//   kind: 'encode' (the maps and the embedding) or 'embed' (the embedding alone)
const encodings = new Map();
export function encodeCached(encoder, url, text, kind = 'encode') {
  const key = `${kind}\n${url}\n${text}`;
  let result = encodings.get(key);
  if (!result) {
    result = encoder[kind](text);
    result.catch(() => { if (encodings.get(key) === result) encodings.delete(key); });
  }
  encodings.delete(key);
  encodings.set(key, result);
  if (encodings.size > 8) encodings.delete(encodings.keys().next().value);
  return result;
}

// The model widgets mounted on the page: when the last is unmounted (ctx.signal),
// the encoders' workers stop and their encodings are forgotten.
let mounted = 0;

// The loader of a model widget, first in body: it follows the encoder's status,
// and opens the gate once body is (nearly) on screen, never before.
export function mountModelLoader(body, ctx) {
  const { t } = ctx;
  const view = modelLoader(t, () => ctx.setState({}));
  body.append(view.element);
  let unwatch = null;
  try {
    unwatch = watchEncoder(modelUrl(ctx.state.model, t), (s) => showModelStatus(view, s, t));
  } catch {
    showModelStatus(view, { phase: 'failed', loaded: 0, total: 0 }, t);  // a bad address: compute says why
  }
  whenNear(body, openModel, ctx.signal, '300px 0px');
  mounted += 1;
  ctx.signal.addEventListener('abort', () => {
    unwatch?.();
    mounted -= 1;
    if (mounted === 0) {
      closeEncoders();
      encodings.clear();
    }
  }, { once: true });
  return view;
}
