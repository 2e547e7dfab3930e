// The page's WebAssembly module, loaded once per page. Widgets receive it in
// their compute(att, state) (and ctx.module() for work a button starts) and
// keep every number they show to what it returns. The workers load their own
// copy (live/worker.js, encoder-worker.js); nothing else imports the module.
import createAttention from '../wasm/attention.mjs';

let attention;  // Promise<AttentionModule>, created on first use

// The module, instantiated once per page however many widgets ask.
export function loadAttention() {
  attention ??= createAttention();
  return attention;
}
