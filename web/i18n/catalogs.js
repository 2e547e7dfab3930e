// Every language's catalog (common, page, glossary), imported at once, for the
// tests that compare them (and scripts/bundle.mjs reads each language's file
// for embed.<lang>.js). The page loads a language's catalog only when it is
// chosen (i18n.js, loadLanguage), and embed.js carries English alone.
import en from './en.js';
import zh from './zh.js';

export const CATALOGS = { en, zh };
