// The full page: one section per widget of the list (widgets/list.js), in its
// order, before the glossary; each widget is mounted with its state
// under its own prefix in the URL (?kv-query.q=172&attention-map.sentence=...),
// and the page's own text follows the language switch, which offers every
// language that has a catalog; the table of contents names every section by
// its widget's title; the glossary, the last section, lists every term.
import { LANGUAGES, detectLanguage, languageName, languageTag, loadLanguage, translator } from '../i18n/i18n.js';
import { mountByName } from '../runtime/mount.js';
import { flushState } from '../runtime/state.js';
import { WIDGETS, widgets } from '../widgets/list.js';
import { createToc } from './toc.js';
import { fillGlossary } from './glossary.js';

let lang = detectLanguage();

// <section class="section" id="kv-query"><div data-widget="kv-query"><p class="widget-loading">…
// for every widget, before the glossary (its placeholder's words come with translatePage)
function buildSections(main) {
  const glossary = main.querySelector('#glossary');
  for (const id of WIDGETS) {
    const section = document.createElement('section');
    section.className = 'section';
    section.id = id;
    const root = document.createElement('div');
    root.dataset.widget = id;
    const loading = document.createElement('p');
    loading.className = 'widget-loading';
    loading.dataset.i18n = 'loading';
    root.append(loading);
    section.append(root);
    main.insertBefore(section, glossary);
  }
}

function translatePage() {
  const t = translator(lang, 'page');
  document.documentElement.lang = languageTag(lang);
  document.title = t('documentTitle');
  for (const node of document.querySelectorAll('[data-i18n]')) node.replaceChildren(t.rich(node.dataset.i18n));
  for (const button of document.querySelectorAll('[data-lang]')) button.setAttribute('aria-pressed', String(button.dataset.lang === lang));
  for (const group of document.querySelectorAll('.language')) group.setAttribute('aria-label', translator(lang)('language'));
  for (const list of document.querySelectorAll('.glossary-list')) fillGlossary(list, lang);
}

buildSections(document.querySelector('main'));
const toc = createToc(document.querySelector('nav.toc'));

// The mounted widgets (their handles, or null where one failed to start)
let mounted = [];
let generation = 0;

// Resolves once every widget shows its title (its numbers may come later).
// Widgets already mounted (in the former language) are unmounted first; one
// that comes up after a newer switch is unmounted at once. A lazy widget
// (one that trains) watches for the screen only once the widgets above it have
// drawn or failed: before that they are one line high, and it would seem near.
// Those above that themselves wait for the screen (a model widget) are not waited for.
function mountAll() {
  const mine = ++generation;
  for (const handle of mounted.splice(0)) handle?.unmount();
  let above = Promise.resolve();
  const mounts = [...document.querySelectorAll('main [data-widget]')].map((root) => {
    let settle;
    const drawn = new Promise((resolve) => { settle = resolve; });
    const mount = mountByName(root, widgets, { lang, search: location.search, prefix: `${root.dataset.widget}.`, after: above,
      onReady: settle, onError: settle }).then((handle) => {
      if (!handle || handle.awaitsScreen) settle();  // a widget that waits for the screen holds back no one below
      if (mine === generation) mounted.push(handle);
      else handle?.unmount();
    });
    above = Promise.all([above, drawn]);
    return mount;
  });
  return Promise.all(mounts).then(() => toc.refresh());
}

// a switch whose catalog arrives after a newer one is dropped
let switching = 0;
async function switchTo(next) {
  if (!LANGUAGES.includes(next) || next === lang) return;
  const mine = ++switching;
  await loadLanguage(next);
  if (mine !== switching) return;
  lang = next;
  flushState();  // the widgets' latest states, which mountAll reads back
  const params = new URLSearchParams(location.search);
  params.set('lang', lang);
  try { history.replaceState(history.state, '', `${location.pathname}?${params}${location.hash}`); } catch { /* file: */ }
  translatePage();
  mountAll();
}

// one button per language, each named in its own language (the group's label
// follows the page's language: translatePage)
function languageButtons(group) {
  group.replaceChildren(...LANGUAGES.map((code) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.lang = code;
    button.lang = languageTag(code);
    button.textContent = languageName(code);
    button.addEventListener('click', () => switchTo(code));
    return button;
  }));
}

for (const group of document.querySelectorAll('.language')) languageButtons(group);
loadLanguage(lang).then(() => {
  translatePage();
  return mountAll();
}).then(() => toc.land());
