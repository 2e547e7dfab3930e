// Every widget, in the order of the page's sections: one line each. A widget's
// id names its folder, web/widgets/<id>/, which holds the whole widget:
// widget.js (its definition: web/runtime/runtime.js says what one is), en.js
// and zh.js (its words, one file per language of web/i18n/), style.css (its
// styles, classes prefixed by its name), and the modules it alone is made of.
// Everything reads this list: the page builds one section per widget in this
// order (page/app.js), the page and the iframe load a widget through `widgets`
// below (runtime/mount.js), embed.js bundles every one (scripts/bundle.mjs),
// and the widgets' reference and the README's table (scripts/embedding-docs.mjs)
// and the tests go through it. `npm run new-widget <id>` writes a folder and a
// line here; move the line to where the widget belongs in the page's order
// (web/widgets/prerequisites.js: what each section builds on).
export const WIDGETS = Object.freeze([
  'concepts',
  'kv-query',
  'learned-width',
  'vectors',
  'sentence-similarity',
  'score-functions',
  'softmax-scaling',
  'self-attention',
  'attention-map',
  'multi-head',
  'real-model',
  'masking',
  'positional-encoding',
  'cross-attention',
  'training',
  'transformer-block',
  'language-model',
  'generation',
  'flash',
  'kv-heads',
  'rotary',
  'positions',
  'windows',
  'conditional',
  'complexity',
  'speed',
]);

// Where a widget's parts are, found from its id and loaded when a page uses
// it. runtime/mount.js is handed this: it imports no widget itself, and asks
// only for a name of `names` (an id from a URL never reaches an import).
export const widgets = Object.freeze({
  names: WIDGETS,
  definition: (id) => import(`./${id}/widget.js`),
  strings: (id, lang) => import(`./${id}/${lang}.js`).then((module) => module.default),
  stylesheet: (id) => new URL(`./${id}/style.css`, import.meta.url).href,
});

// Every widget at once, for the scripts and the tests (Node):
// { definitions: { id: definition }, strings: { lang: { id: messages } } } in langs.
export async function loadEveryWidget(langs) {
  const definitions = {}, strings = Object.fromEntries(langs.map((lang) => [lang, {}]));
  await Promise.all(WIDGETS.map(async (id) => {
    definitions[id] = await widgets.definition(id);
    for (const lang of langs) strings[lang][id] = await widgets.strings(id, lang);
  }));
  // in the list's order, whatever order the imports finished in
  const ordered = (table) => Object.fromEntries(WIDGETS.map((id) => [id, table[id]]));
  return { definitions: ordered(definitions), strings: Object.fromEntries(langs.map((lang) => [lang, ordered(strings[lang])])) };
}
