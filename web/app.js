// The full page: every [data-widget] element is mounted, each with its state
// under its own prefix in the URL (?kv-query.q=172&attention-map.sentence=...),
// and the page's own text follows the language switch.
import { LANGUAGES, detectLanguage, translator } from './i18n.js';
import { mountByName } from './mount.js';
import { page } from './page-strings.js';
import { flushState } from './state.js';

let lang = detectLanguage();

function translatePage() {
  const t = translator(lang, page);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('documentTitle');
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const button of document.querySelectorAll('[data-lang]')) button.setAttribute('aria-pressed', String(button.dataset.lang === lang));
}

function mountAll() {
  for (const root of document.querySelectorAll('main [data-widget]')) {
    mountByName(root, { lang, search: location.search, prefix: `${root.dataset.widget}.` });
  }
}

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener('click', () => {
    if (!LANGUAGES.includes(button.dataset.lang) || button.dataset.lang === lang) return;
    lang = button.dataset.lang;
    flushState();  // the widgets' latest states, which mountAll reads back
    const params = new URLSearchParams(location.search);
    params.set('lang', lang);
    try { history.replaceState(history.state, '', `${location.pathname}?${params}${location.hash}`); } catch { /* file: */ }
    translatePage();
    mountAll();
  });
}

translatePage();
mountAll();
