// Mounts the widget named by root.dataset.widget, with its state from the URL
// (or from data-state) and the chosen language. Shared by the page and the embeds.
import { loadLanguage, translator } from '../i18n/i18n.js';
import { doc } from './dom.js';
import { mountWidget } from './runtime.js';
import { parseState, widgetDefaults, writeState } from './state.js';
import { WIDGETS } from '../widgets/index.js';

// options: { lang, search (the query string holding the state), prefix, writeUrl, embedded,
//            hide, after, onChange(state), onReady(), onError(message) (see runtime.js) }
// Resolves to the widget's handle (runtime.js), or null where it could not start.
export async function mountByName(root, { lang, search, prefix = '', writeUrl = true, embedded = false, hide = [], after = null,
  onChange = () => {}, onReady = () => {}, onError = () => {} }) {
  const name = root.dataset.widget;
  try {
    await loadLanguage(lang);
    // own names only: "__proto__" or "constructor" in a URL is an unknown widget too
    const load = Object.prototype.hasOwnProperty.call(WIDGETS, name) ? WIDGETS[name] : null;
    if (!load) throw new Error(translator(lang)('unknownWidget', { name }));
    const def = await load();
    // a widget may default differently per language (the language model: poems in Chinese)
    const defaults = widgetDefaults(def, lang);
    const state = parseState(search, def.controls, defaults, prefix);
    return mountWidget(root, def, {
      lang, state, embedded, hide, after, onReady, onError,
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
