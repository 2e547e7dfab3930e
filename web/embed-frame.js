// embed.html: one widget alone, sized for an iframe. Its state is in the
// iframe's URL (bare keys: ?widget=kv-query&q=165); its height goes to the
// parent page on every change: { type: 'attention-wasm:height', widget, height }.
import { detectLanguage } from './i18n.js';
import { mountByName } from './mount.js';

const params = new URLSearchParams(location.search);
const root = document.getElementById('widget');
root.dataset.widget = params.get('widget') ?? '';
mountByName(root, { lang: detectLanguage(), search: location.search, embedded: true });

// the content's own height (not the viewport's), so the frame can shrink as well as grow
const content = document.querySelector('main');
function reportHeight() {
  const height = Math.ceil(content.getBoundingClientRect().height);
  if (window.parent !== window) window.parent.postMessage({ type: 'attention-wasm:height', widget: root.dataset.widget, height }, '*');
}
new ResizeObserver(reportHeight).observe(content);
