// Languages: one message catalog per language in web/i18n/, each a plain object
// keyed by section (meta, common, page, glossary, then one section per widget)
// and message. The glossary defines the terms that messages mark [[id:text]].
// Adding a language is adding its file and one line in CATALOGS below.
// The language comes from ?lang=, else from the browser, else English.
import en from './en.js';
import zh from './zh.js';
import { layout, plainText, typeset } from './typeset.js';

export const CATALOGS = { en, zh };
export const LANGUAGES = Object.keys(CATALOGS);

const own = (table, key) => (table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined);

// The BCP 47 tag of a language, for lang attributes ('zh' -> 'zh-CN').
export const languageTag = (lang) => own(CATALOGS, lang)?.meta.tag ?? 'en';

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
  const catalog = own(CATALOGS, lang);
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
  const template = (key) => message(lang, section, key) ?? message('en', section, key) ?? String(key);
  const t = (key, vars) => plainText(layout(template(key), vars));
  // a term's definition: from this language's glossary, else English's
  const define = (id) => {
    const text = own(CATALOGS[lang]?.glossary, id) ?? own(en.glossary, id);
    return text === undefined ? null : layout(text);
  };
  t.rich = (key, vars) => typeset(layout(template(key), vars), { define, more: t('glossaryLink') });
  t.svg = (key, vars) => typeset(layout(template(key), vars), { svg: true });
  t.lang = lang;
  t.section = section;
  return t;
}
