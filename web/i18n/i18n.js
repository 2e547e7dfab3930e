// Languages: one message catalog per language in web/i18n/<lang>.js, a plain
// object keyed by section (common, page, glossary) and message, and beside each
// widget its own section in every language (web/widgets/<id>/<lang>.js), named
// after the widget. The glossary defines the terms that messages mark [[id:text]].
// A catalog is loaded when its language is first chosen (loadLanguage), and a
// widget's section when the widget is mounted in that language (useStrings:
// runtime/mount.js), so an English page never downloads the Chinese words.
// English is every message's fallback: its catalog is always here, a widget's
// English words where they were loaded (same keys: no message falls back to
// them unless one is missing, which the tests forbid). The bundled embed.js
// carries the English catalog and every widget's English words and gives them
// at once (useCatalogs); another language's, all its widgets' words with it,
// come from a script beside it when first asked for (scripts/bundle.mjs).
// Adding a language is adding its files and one line in LANGUAGE_TABLE below.
// The language comes from ?lang=, else from the browser, else English.
import en from './en.js';
import { layout, plainText, typeset } from './typeset.js';

// each language: its tag (BCP 47), its name in itself, and its catalog's loader
const LANGUAGE_TABLE = {
  en: { tag: 'en', name: 'English', load: () => Promise.resolve(en) },
  zh: { tag: 'zh-CN', name: '中文', load: () => import('./zh.js').then((module) => module.default) },
};
export const LANGUAGES = Object.keys(LANGUAGE_TABLE);

// the catalogs loaded so far: lang -> { section -> messages }, a widget's section added when given
const catalogs = { en: { ...en } };
const loaded = (lang) => Object.hasOwn(catalogs, lang) && Object.hasOwn(catalogs[lang], 'common');

// Whether lang's catalog is here (a translator of it can be made now).
export const isLoaded = (lang) => loaded(lang);

// Resolves once lang's catalog is here (at once for one already loaded).
export async function loadLanguage(lang) {
  if (!Object.hasOwn(LANGUAGE_TABLE, lang)) throw new Error(`unknown language ${JSON.stringify(lang)}`);
  if (!loaded(lang)) {
    const catalog = await LANGUAGE_TABLE[lang].load();
    catalogs[lang] = { ...catalog, ...catalogs[lang] };  // with the widgets' sections given meanwhile
  }
  return catalogs[lang];
}

// A widget's messages in lang (its folder's <lang>.js), as its section: given
// by whoever loaded them, before a translator of that section is made.
export function useStrings(lang, section, messages) {
  if (!Object.hasOwn(LANGUAGE_TABLE, lang)) throw new Error(`unknown language ${JSON.stringify(lang)}`);
  if (Object.hasOwn(en, section)) throw new Error(`"${section}" is a section of the catalog itself, not a widget's`);
  catalogs[lang] = { ...catalogs[lang], [section]: messages };
}

// Every catalog at once, each with every widget's section, from a bundle that
// carries them ({ en: { common, page, glossary, 'kv-query': …, … }, zh: … }).
export function useCatalogs(all) {
  for (const lang of LANGUAGES) if (Object.hasOwn(all, lang)) catalogs[lang] = { ...all[lang] };
}

// lang's catalog; an Error if it was never loaded (a caller that forgot to
// await loadLanguage would otherwise show English words silently)
function catalogOf(lang) {
  if (!loaded(lang)) {
    if (!Object.hasOwn(LANGUAGE_TABLE, lang)) return undefined;
    throw new Error(`the ${lang} catalog is not loaded: await loadLanguage('${lang}') first`);
  }
  return catalogs[lang];
}

// The BCP 47 tag of a language, for lang attributes ('zh' -> 'zh-CN'), and its
// name in itself ('中文'): known before its catalog is loaded.
export const languageTag = (lang) => (Object.hasOwn(LANGUAGE_TABLE, lang) ? LANGUAGE_TABLE[lang].tag : 'en');
export const languageName = (lang) => LANGUAGE_TABLE[lang]?.name ?? lang;

const own = (table, key) => (table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined);

// A language of ours for any browser language ('zh-TW' -> 'zh'); ?lang= wins when valid.
export function detectLanguage(search = globalThis.location?.search ?? '', preferred = globalThis.navigator?.languages ?? []) {
  const asked = new URLSearchParams(search).get('lang');
  if (LANGUAGES.includes(asked)) return asked;
  for (const tag of preferred) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

// One message as it is written in the catalog (markup and placeholders
// unresolved), from section, else common; undefined when there is none.
export function message(lang, section, key) {
  const catalog = catalogOf(lang);
  return own(catalog?.[section], key) ?? own(catalog?.common, key);
}

// t = translator(lang, section): the messages of one section (a widget's name,
// 'page'), falling back to common, then to English, then to the key itself (a
// test checks that no key the code uses is missing).
//   t(key, vars)              -> a string, {name} filled from vars, formulas as
//                                Unicode super/subscripts: for attributes, <option>, files
//   t.rich(key, vars)         -> DOM nodes with <sup>/<sub>: for text in the page
//   t.svg(key, vars)          -> the same with <tspan baseline-shift>, inside SVG <text>
//   t.lang, t.section
export function translator(lang, section = 'common') {
  // loaded, with the section's own words (a widget's), or an Error now rather than keys later
  if (catalogOf(lang) && !Object.hasOwn(catalogs[lang], section)) {
    throw new Error(`the ${lang} words of "${section}" are not loaded: give them with useStrings('${lang}', '${section}', …) first`);
  }
  const template = (key) => message(lang, section, key) ?? message('en', section, key) ?? String(key);
  const t = (key, vars) => plainText(layout(template(key), vars));
  // a term's definition: from this language's glossary, else English's
  const define = (id) => {
    const text = own(catalogOf(lang)?.glossary, id) ?? own(en.glossary, id);
    return text === undefined ? null : layout(text);
  };
  t.rich = (key, vars) => typeset(layout(template(key), vars), { define, more: t('glossaryLink') });
  t.svg = (key, vars) => typeset(layout(template(key), vars), { svg: true });
  t.lang = lang;
  t.section = section;
  return t;
}

// The glossary of a loaded language: { id: "Headword: definition" }.
export const glossaryOf = (lang) => catalogOf(lang).glossary;
