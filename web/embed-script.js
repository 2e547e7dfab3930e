// The source of embed.js, the script-tag embed: bundled into one classic
// script (scripts/bundle.mjs), so it runs from any origin and from file://.
// Each <div data-widget="name" data-state="q=165" data-lang="zh"> of the host
// page gets the widget in a shadow root, with its own styles, so neither page
// nor widget restyles the other.
import css from './style.css';
import { detectLanguage } from './i18n.js';
import { mountByName } from './mount.js';

// :root rules of the stylesheet apply to the shadow host instead
const sheet = css.replace(/:root\b/g, ':host');

function embed(host) {
  if (host.shadowRoot || !host.dataset.widget) return;
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = sheet;
  const root = document.createElement('div');
  root.dataset.widget = host.dataset.widget;
  shadow.append(style, root);
  const lang = detectLanguage(host.dataset.lang ? `?lang=${host.dataset.lang}` : '');
  mountByName(root, { lang, search: `?${host.dataset.state ?? ''}`, writeUrl: false, embedded: true });
}

function embedAll() {
  for (const host of document.querySelectorAll('div[data-widget]')) embed(host);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', embedAll);
else embedAll();
