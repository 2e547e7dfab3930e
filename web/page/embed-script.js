// The source of embed.js, the script-tag embed: bundled into one classic
// script (scripts/bundle.mjs), so it runs from any origin, under any name, and
// from file://. Where it is, read while it runs (assets.js), is where it finds
// its other files; data-base on its <script> names another folder.
//
// On a page it defines globalThis.attentionWasm (embed-api.js) and mounts every
// <div data-widget="name" data-state="q=165" data-lang="zh">, those added later
// too; included twice, the second copy does nothing. In a worker it started
// (workers.js: a blob: URL importing this same script) it serves that worker.

// every widget of widgets/list.js at once, made by scripts/bundle.mjs: its
// definition (DEFINITIONS: id -> definition), its English words (STRINGS: 'en'
// -> id -> messages), and the page's stylesheet followed by every widget's
// (STYLES: one text). Another language's words come when first asked for (i18n.js).
import { DEFINITIONS, STRINGS, STYLES } from 'every-widget';
import en from '../i18n/en.js';
import { useCatalogs } from '../i18n/i18n.js';
import { assetFolder } from '../runtime/assets.js';
import { doc } from '../render/dom.js';
import { createApi } from './embed-api.js';

/* global ATTENTION_WASM_VERSION */
// a worker's own module, run only in that worker (bundled, it starts when imported)
const SERVE = {
  training: () => import('../widgets/training/worker.js'),
  lm: () => import('../widgets/language-model/worker.js'),
  encoder: () => import('../encoder/encoder-worker.js'),
  flash: () => import('../widgets/flash/worker.js'),
  positions: () => import('../widgets/positions/worker.js'),
  windows: () => import('../widgets/windows/worker.js'),
  'kv-heads': () => import('../widgets/kv-heads/worker.js'),
};

if (typeof document === 'undefined') {
  const kind = self.attentionWasmWorker;
  if (Object.hasOwn(SERVE, kind)) SERVE[kind]();
} else if (!Object.hasOwn(globalThis, 'attentionWasm')) {
  // (an own property only: a host element with id="attentionWasm" is a named
  // property of the window, below its own ones, and must not stop the embed)
  assetFolder();  // read while this script runs: document.currentScript is gone later
  // English is in this one script, with every widget's words
  useCatalogs({ en: { ...en, ...STRINGS.en } });
  // :root rules of the stylesheet apply to the shadow host instead
  const { api, watch } = createApi({ version: ATTENTION_WASM_VERSION, sheet: STYLES.replace(/:root\b/g, ':host'), definitions: DEFINITIONS });
  Object.defineProperty(globalThis, 'attentionWasm', { value: api, enumerable: true });
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', watch, { once: true });
  else watch();
}
