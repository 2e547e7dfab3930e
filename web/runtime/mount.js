// Mounts the widget named by root.dataset.widget, with its state from the URL
// (or from data-state) and the chosen language, its words and its styles.
// Shared by the page and the iframe embed, which hand it the widgets it may
// mount (widgets/list.js: `widgets`); nothing here imports a widget.
import { loadLanguage, translator, useStrings } from '../i18n/i18n.js';
import { doc } from '../render/dom.js';
import { mountWidget } from './runtime.js';
import { parseState, widgetDefaults, writeState } from './state.js';

// href -> a promise that settles once that stylesheet has loaded (or failed: the
// widget then works unstyled rather than not at all)
const sheets = new Map();
function stylesheet(href) {
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((settle) => {
      const link = doc.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.addEventListener('load', settle, { once: true });
      link.addEventListener('error', settle, { once: true });
      doc.head.append(link);
    }));
  }
  return sheets.get(href);
}

// widgets: { names, definition(id), strings(id, lang), stylesheet(id) } (widgets/list.js)
// options: { lang, search (the query string holding the state), prefix, writeUrl, embedded,
//            hide, onChange(state), onReady(), onError(message) (see runtime.js) }
// Resolves to the widget's handle (runtime.js), or null where it could not start.
export async function mountByName(root, widgets, { lang, search, prefix = '', writeUrl = true, embedded = false, hide = [],
  onChange = () => {}, onReady = () => {}, onError = () => {} }) {
  const name = root.dataset.widget;
  try {
    // a name of the list only: "__proto__" or "../x" in a URL is an unknown widget too
    const known = widgets.names.includes(name);
    // its definition, its words and its styles, fetched together (its first view drawn styled)
    const [, def, strings] = await Promise.all([loadLanguage(lang),
      ...(known ? [widgets.definition(name), widgets.strings(name, lang), stylesheet(widgets.stylesheet(name))] : [])]);
    if (!known) throw new Error(translator(lang)('unknownWidget', { name }));
    useStrings(lang, name, strings);
    // a widget may default differently per language (the language model: poems in Chinese)
    const defaults = widgetDefaults(def, lang);
    const state = parseState(search, def.controls, defaults, prefix);
    return mountWidget(root, def, {
      lang, state, embedded, hide, onReady, onError,
      onChange: (next) => {
        if (writeUrl) writeState(next, def.controls, prefix);
        onChange(next);
      },
    });
  } catch (error) {
    const message = doc.createElement('p');
    message.className = 'widget-error';
    message.setAttribute('role', 'alert');
    let t;
    try {
      t = translator(lang);
    } catch {
      t = translator('en');  // the language's own words did not load
    }
    message.textContent = t('startError', { message: error.message });
    root.replaceChildren(message);
    onError(message.textContent);
    return null;
  }
}
