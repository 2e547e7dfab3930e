// The script-tag embed's JavaScript API, globalThis.attentionWasm (web/page/embed.d.ts
// types it):
//   attentionWasm.version
//   attentionWasm.mount(element, { widget, state, lang, theme, hide }) -> handle
//     handle: { widget, element, getState(), setState(partial), unmount() }
// Each widget lives in a shadow root of its element, with its own styles, so
// neither the host page nor the widget restyles the other. The element hears
// bubbling CustomEvents: attention-wasm:ready { widget } once its first numbers
// are drawn, attention-wasm:statechange { widget, state } after each change the
// reader makes, attention-wasm:error { widget, message }.
// Bad arguments throw an Error that names the problem; nothing is mounted then.
// A widget in a language other than English is drawn once that language's
// words have come (embed.<lang>.js beside embed.js); its handle works at once.
//
// mountFromAttributes(element) does the same for <div data-widget="name"
// data-state="q=165&score=dot" data-lang="zh" data-theme="dark" data-hide="title intro">,
// where, as in a URL, a bad state value falls back to the widget's default and
// a bad widget name is a visible message (and an error event).
import { LANGUAGES, detectLanguage, isLoaded, loadLanguage, translator } from '../i18n/i18n.js';
import { mountWidget } from '../runtime/runtime.js';
import { doc } from '../render/dom.js';
import { checkState, parseState, publicState, shown, widgetDefaults } from '../runtime/state.js';

export const THEMES = ['auto', 'light', 'dark'];
export const HIDEABLE = ['title', 'intro', 'quiz', 'export', 'embed'];

const mounts = new Map();  // element -> handle
const attached = new WeakSet();  // mounted elements seen in the document (watch: removed from it later, unmounted)
const shadows = new WeakSet();  // the shadow roots this script made (an element keeps its shadow root)

const list = (values) => values.map((v) => JSON.stringify(v)).join(', ');
const fail = (message) => { throw new Error(`attentionWasm.mount: ${message}`); };

function emit(element, type, detail) {
  element.dispatchEvent(new CustomEvent(`attention-wasm:${type}`, { bubbles: true, detail }));
}

// Whether x is an element of this page's document: a real one, by the
// platform's own brand check (Element.prototype's localName getter throws on
// anything else: { nodeType: 1 }, a Proxy of an element), whatever its
// prototype says, and not one of another document (a frame's), whose shadow
// root could not adopt this page's stylesheet.
// (This module is also evaluated in the workers embed.js starts: no DOM there.)
const getter = (type, name) => (typeof type === 'function' ? Object.getOwnPropertyDescriptor(type.prototype, name).get : null);
const localNameOf = getter(globalThis.Element, 'localName'), ownerDocumentOf = getter(globalThis.Node, 'ownerDocument');
function isPageElement(x) {
  try {
    localNameOf.call(x);
  } catch {
    return false;
  }
  return ownerDocumentOf.call(x) === document;
}

// An option as given: an own property of options, never one inherited (from
// an Object.prototype a page's script extended), read once.
const option = (options, key) => (Object.hasOwn(options, key) ? options[key] : undefined);

// The options checked against the widgets (id -> definition), or an Error naming the first bad one.
function checkOptions(element, options, definitions) {
  if (!isPageElement(element)) fail('the first argument must be an element of the page');
  if (mounts.has(element)) fail(`this element already holds the widget "${mounts.get(element).widget}": unmount it first`);
  if (element.shadowRoot && !shadows.has(element.shadowRoot)) fail('this element already has a shadow root of another script');
  if (options === null || typeof options !== 'object') fail('the options must be an object: { widget, state, lang, theme, hide }');
  const widget = option(options, 'widget'), state = option(options, 'state') ?? {}, lang = option(options, 'lang');
  const theme = option(options, 'theme') ?? 'auto', hide = option(options, 'hide') ?? [];
  const def = typeof widget === 'string' && Object.hasOwn(definitions, widget) ? definitions[widget] : null;
  if (!def) fail(`unknown widget ${shown(widget)}; the widgets are ${list(Object.keys(definitions))}`);
  if (lang !== undefined && !LANGUAGES.includes(lang)) fail(`unknown language ${shown(lang)}; the languages are ${list(LANGUAGES)}`);
  if (!THEMES.includes(theme)) fail(`unknown theme ${shown(theme)}; the themes are ${list(THEMES)}`);
  const parts = Array.isArray(hide) ? Array.from(hide) : null;
  if (!parts || !parts.every((part) => HIDEABLE.includes(part))) fail(`hide must be an array of ${list(HIDEABLE)}, got ${shown(hide)}`);
  let given;
  try {
    given = checkState(state, def.controls, widget);
  } catch (error) {
    fail(error.message);
  }
  return { def, given, lang: lang ?? detectLanguage(''), theme, hide: parts };
}

// The stylesheet of a shadow root: one constructed sheet shared by every widget
// of the page where the browser has them (a host's Content-Security-Policy then
// needs no 'unsafe-inline' for styles), else a <style> element.
let constructed = null;
function styles(shadow, sheet) {
  if (typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype && 'adoptedStyleSheets' in shadow) {
    if (!constructed) {
      constructed = new CSSStyleSheet();
      constructed.replaceSync(sheet);
    }
    shadow.adoptedStyleSheets = [constructed];
    return [];
  }
  const style = doc.createElement('style');
  style.textContent = sheet;
  return [style];
}

// The widget's frame inside element's shadow root: its stylesheet and the widget's root.
function frame(element, sheet, widget, theme) {
  let shadow = element.shadowRoot;
  if (!shadow) {
    try {
      shadow = element.attachShadow({ mode: 'open' });
    } catch {
      fail(`a <${element.localName}> cannot hold a widget: use a <div>`);
    }
    shadows.add(shadow);
  }
  const root = doc.createElement('div');
  root.dataset.widget = widget;
  if (theme !== 'auto') root.dataset.theme = theme;
  shadow.replaceChildren(...styles(shadow, sheet), root);
  return { shadow, root };
}

// Mounts every <div data-widget> of the page, now and later
// (mountFromAttributes). A widget lives until unmount() or until its element,
// once in the document, leaves it: an element mounted before it is attached
// (a single-page app's view being built) is not "removed". Seen in the
// document: connected when a change is observed, or inside a node added
// since the last one (attached and removed again between two observations).
function watch(mountFromAttributes) {
  const scan = (node) => {
    if (node.nodeType !== 1) return;
    if (node.matches('div[data-widget]')) mountFromAttributes(node);
    for (const host of node.querySelectorAll('div[data-widget]')) mountFromAttributes(host);
    for (const element of mounts.keys()) if (node.contains(element)) attached.add(element);
  };
  scan(doc.documentElement);
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(scan);
    for (const [element, handle] of mounts) {
      if (element.isConnected) attached.add(element);
      else if (attached.has(element)) handle.unmount();
    }
  }).observe(doc.documentElement, { childList: true, subtree: true });
}

// Why a widget could not start (reason: t -> the text), as a visible message
// in place of it (in parent: its shadow root, or its root there) in lang once
// that language's words are here (else in English), and an error event.
function showFailure(element, parent, widget, lang, reason) {
  const say = (language) => {
    const t = translator(language);
    const message = doc.createElement('p');
    message.setAttribute('role', 'alert');
    message.textContent = t('startError', { message: reason(t) });
    parent.replaceChildren(message);
    emit(element, 'error', { widget, message: message.textContent });
  };
  if (isLoaded(lang)) say(lang);
  else loadLanguage(lang).then(() => say(lang), () => say('en'));
}

// definitions: every widget, id -> definition, in the page's order (embed.js
// bundles them: embed-script.js); sheet: the stylesheet of a shadow root
export function createApi({ version, sheet, definitions }) {
  function mount(element, options = {}) {
    const { def, given, lang, theme, hide } = checkOptions(element, options, definitions);
    const widget = def.name;
    const { shadow, root } = frame(element, sheet, widget, theme);
    // the state until the widget is drawn (its language's words on the way), then the widget's
    let state = { ...widgetDefaults(def, lang), ...given };
    let inner = null, mounted = true;
    const start = () => {
      if (!mounted) return;
      inner = mountWidget(root, def, {
        lang, state, embedded: true, hide,
        onChange: (next) => emit(element, 'statechange', { widget, state: next }),
        onReady: () => emit(element, 'ready', { widget }),
        onError: (message) => emit(element, 'error', { widget, message }),
      });
    };
    if (isLoaded(lang)) start();
    else {
      root.setAttribute('aria-busy', 'true');
      loadLanguage(lang).then(start, (error) => {
        if (mounted) showFailure(element, root, widget, 'en', () => error.message);
      });
    }
    const handle = Object.freeze({
      widget,
      element,
      getState: () => publicState(inner ? inner.state : state, def.controls),
      setState(partial) {
        if (!mounted) throw new Error(`attentionWasm: the widget "${widget}" was unmounted`);
        const checked = checkState(partial, def.controls, widget);
        if (inner) inner.setState(checked);
        else state = { ...state, ...checked };
      },
      unmount() {
        if (!mounted) return;
        mounted = false;
        mounts.delete(element);
        inner?.unmount();
        shadow.replaceChildren();
      },
    });
    mounts.set(element, handle);
    if (element.isConnected) attached.add(element);
    return handle;
  }

  // <div data-widget …>: mounted, or a visible message saying why not
  function mountFromAttributes(element) {
    if (mounts.has(element)) return;
    // attributes, not element.dataset (which falls back on Object.prototype where an attribute is missing)
    const [widget, state, lang, theme, hide] = ['widget', 'state', 'lang', 'theme', 'hide'].map((name) => element.getAttribute(`data-${name}`) ?? '');
    const def = Object.hasOwn(definitions, widget) ? definitions[widget] : null;
    const language = LANGUAGES.includes(lang) ? lang : detectLanguage('');
    const failed = (reason) => {
      const shadow = element.shadowRoot ?? (() => { const s = element.attachShadow({ mode: 'open' }); shadows.add(s); return s; })();
      showFailure(element, shadow, widget, language, reason);
    };
    if (!def) {
      failed((t) => t('unknownWidget', { name: widget }));
      return;
    }
    try {
      // as in a URL: what is not valid falls back to the default
      const parsed = parseState(`?${state}`, def.controls, {}, '');
      mount(element, {
        widget, state: parsed, lang: language,
        theme: THEMES.includes(theme) ? theme : 'auto',
        hide: hide.split(/[\s,]+/).filter((part) => HIDEABLE.includes(part)),
      });
    } catch (error) {
      failed(() => error.message);
    }
  }

  return { api: Object.freeze({ version, mount }), watch: () => watch(mountFromAttributes) };
}
