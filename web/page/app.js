// The full page: one section per widget of the list (widgets/list.js), in its
// order, before the glossary; each widget is mounted with its state
// under its own prefix in the URL (?kv-query.q=172&attention-map.sentence=...),
// and the page's own text follows the language switch, which offers every
// language that has a catalog; the table of contents names every section by
// its widget's title; the glossary, the last section, lists every term.
import { LANGUAGES, detectLanguage, languageName, languageTag, loadLanguage, translator, useStrings } from '../i18n/i18n.js';
import { mountByName } from '../runtime/mount.js';
import { flushState } from '../runtime/state.js';
import { whenNear } from '../render/dom.js';
import { WIDGETS, widgets } from '../widgets/list.js';
import { createToc } from './toc.js';
import { fillGlossary } from './glossary.js';

let lang = detectLanguage();

// How near a section must come before its files load: a screen above or below the viewport.
const NEAR = '100% 0px';

// <section class="section" id="kv-query"><div data-widget="kv-query" data-mount="waiting">…
// for every widget, before the glossary; each holds its placeholder until it mounts
function buildSections(main) {
  const glossary = main.querySelector('#glossary');
  return WIDGETS.map((id) => {
    const section = document.createElement('section');
    section.className = 'section';
    section.id = id;
    const root = document.createElement('div');
    root.dataset.widget = id;
    root.dataset.mount = 'waiting';
    section.append(root);
    main.insertBefore(section, glossary);
    return root;
  });
}

// A section not mounted yet: its widget's title (from its words, which are
// small; its definition and styles load when it comes near) over a loading
// line, a screen high (styles/page.css), so that the sections below it do not
// seem near merely because it is still empty.
function placeholder(root) {
  root.dataset.mount = 'waiting';
  root.classList.add('widget');
  const heading = document.createElement('h2');
  heading.className = 'widget-title';
  heading.append(translator(lang, root.dataset.widget).rich('title'));
  const body = document.createElement('div');
  body.className = 'widget-body';
  const loading = document.createElement('p');
  loading.className = 'widget-loading';
  loading.textContent = translator(lang)('loading');
  body.append(loading);
  root.replaceChildren(heading, body);
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

const roots = buildSections(document.querySelector('main'));
const toc = createToc(document.querySelector('nav.toc'));

// root -> { lang, done, handle (null while mounting, or where it failed) } of the sections mounted or mounting
const mounts = new Map();

// Mounts root's widget in the page's language, with its state from the
// address. A mount made again (another language) replaces the former one once
// it has filled root, so the section keeps its height meanwhile; one that
// comes up after a newer language switch is made again.
function mount(root) {
  const former = mounts.get(root);
  const mine = { lang, done: false, handle: null };
  mounts.set(root, mine);
  // a placeholder keeps its height until the widget has drawn (or failed)
  if (root.dataset.mount) root.dataset.mount = 'mounting';
  const drawn = () => { if (mounts.get(root) === mine) delete root.dataset.mount; };
  return mountByName(root, widgets, { lang, search: location.search, prefix: `${root.dataset.widget}.`, onReady: drawn, onError: drawn }).then((handle) => {
    former?.handle?.unmount();
    mine.handle = handle;
    mine.done = true;
    if (mounts.get(root) !== mine) handle?.unmount();
    else if (mine.lang !== lang) return mount(root);
  });
}

// Every section titled in the page's language: a mounted one mounted again
// in it, the others' placeholders renamed; the contents read the titles once
// every section shows them (a widget mounted again keeps its former title until then).
async function showSections() {
  const mine = lang;
  const strings = await Promise.all(WIDGETS.map((id) => widgets.strings(id, mine)));
  if (mine !== lang) return;  // a newer switch titles them
  WIDGETS.forEach((id, k) => useStrings(mine, id, strings[k]));
  const again = [];
  for (const root of roots) {
    if (!mounts.has(root)) placeholder(root);
    else if (mounts.get(root).done) again.push(mount(root));
  }
  await Promise.all(again);
  toc.refresh();
}

// a switch whose catalog arrives after a newer one is dropped
let switching = 0;
async function switchTo(next) {
  if (!LANGUAGES.includes(next) || next === lang) return;
  const mine = ++switching;
  await loadLanguage(next);
  if (mine !== switching) return;
  lang = next;
  flushState();  // the widgets' latest states, which their mounts read back
  const params = new URLSearchParams(location.search);
  params.set('lang', lang);
  try { history.replaceState(history.state, '', `${location.pathname}?${params}${location.hash}`); } catch { /* file: */ }
  translatePage();
  await showSections();
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
  return showSections();
}).then(() => {
  toc.land();
  // a section's definition, words and styles load when it first comes near the screen
  for (const root of roots) whenNear(root, () => { if (!mounts.has(root)) mount(root); }, new AbortController().signal, NEAR);
});
