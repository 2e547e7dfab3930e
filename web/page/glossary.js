// The page's glossary: the last section, one entry per term of the catalog's
// glossary (web/i18n/<lang>.js), in the alphabetical order of the reader's
// language, each with an anchor (#glossary-<id>) that every popover of the
// term links to. A definition is written "Headword: what it means" ("词元：…"
// in Chinese): the headword, before the first colon, is the entry's name.
//
//   glossaryEntries(lang)       -> [{ id, term, definition }] (term and definition: typeset runs), sorted
//   fillGlossary(list, lang)    the <dl> filled anew (a language switch calls it again)
import { glossaryOf, languageTag } from '../i18n/i18n.js';
import { layout, typeset } from '../i18n/typeset.js';

// the anchor of a term's entry
export const glossaryAnchor = (id) => `glossary-${id}`;

// "Headword: definition" -> [headword, definition], or null without a colon
export function splitDefinition(text) {
  const colon = /[:：]\s*/.exec(text);
  return colon ? [text.slice(0, colon.index), text.slice(colon.index + colon[0].length)] : null;
}

export function glossaryEntries(lang) {
  const collator = new Intl.Collator(languageTag(lang));
  return Object.entries(glossaryOf(lang)).map(([id, text]) => {
    const [term, definition] = splitDefinition(text) ?? [id, text];
    return { id, term: layout(term), definition: layout(definition), key: term };
  }).sort((a, b) => collator.compare(a.key, b.key)).map(({ key, ...entry }) => entry);
}

export function fillGlossary(list, lang) {
  const doc = list.ownerDocument;
  list.replaceChildren(...glossaryEntries(lang).flatMap(({ id, term, definition }) => {
    const dt = doc.createElement('dt');
    dt.id = glossaryAnchor(id);
    dt.dataset.term = id;
    const name = doc.createElement('dfn');
    name.append(typeset(term, { doc }));
    dt.append(name);
    const dd = doc.createElement('dd');
    dd.append(typeset(definition, { doc }));
    return [dt, dd];
  }));
}
