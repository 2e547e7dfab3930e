// Every language's catalog (common, page, glossary), imported at once: for the
// bundled embed.js (which adds every widget's words and gives them to i18n.js
// with useCatalogs) and for the tests that compare them. The page loads a
// language's catalog only when it is chosen (i18n.js, loadLanguage).
import en from './en.js';
import zh from './zh.js';

export const CATALOGS = { en, zh };
