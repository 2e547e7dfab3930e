// The only importer of the WebAssembly module. Widgets receive the loaded
// module in their compute(att, state) and keep every number they show to what
// it returns; nothing else loads or calls the module.
import createAttention from './wasm/attention.mjs';

let attention;  // Promise<AttentionModule>, created on first use

// The module, instantiated once per page however many widgets ask.
export function loadAttention() {
  attention ??= createAttention();
  return attention;
}
