// Where the page's files are: beside its modules (web/), or, in the bundled
// embed.js (no module URL), beside the embed.js script the host page loaded.
//
//   assetUrl('model/encoder.q.bin') -> an absolute URL
export function assetUrl(path) {
  const here = import.meta.url;
  if (here) return new URL(`./${path}`, here).href;
  const script = [...document.querySelectorAll('script[src]')].find((s) => /(^|\/)embed\.js$/.test(new URL(s.src, document.baseURI).pathname));
  return new URL(path, script ? new URL(script.src, document.baseURI) : document.baseURI).href;
}
