// embed.html: one widget alone, sized for an iframe. Its state is in the
// iframe's URL (bare keys: ?widget=kv-query&q=165), with lang, theme ('light',
// 'dark'; else the reader's setting), hide (parts to leave out, comma-separated:
// title, intro, quiz, export, embed) and id (any text, echoed in the messages).
// It posts to the parent page, with that id:
//   { type: 'attention-wasm:height', id, widget, height } on every change of its height
//   { type: 'attention-wasm:ready', id, widget } once its first numbers are drawn
//   { type: 'attention-wasm:statechange', id, widget, state } after each change the reader makes
//   { type: 'attention-wasm:error', id, widget, message }
import { detectLanguage } from '../i18n/i18n.js';
import { mountByName } from '../runtime/mount.js';
import { widgets } from '../widgets/list.js';

const params = new URLSearchParams(location.search);
const id = params.get('id') ?? '';
const widget = params.get('widget') ?? '';
const theme = params.get('theme');
if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
const hide = (params.get('hide') ?? '').split(/[\s,]+/).filter(Boolean);

const post = (type, fields = {}) => {
  if (window.parent !== window) window.parent.postMessage({ type: `attention-wasm:${type}`, id, widget, ...fields }, '*');
};

const root = document.getElementById('widget');
root.dataset.widget = widget;
mountByName(root, widgets, {
  lang: detectLanguage(), search: location.search, embedded: true, hide,
  onReady: () => post('ready'),
  onError: (message) => post('error', { message }),
  onChange: (state) => post('statechange', { state }),
});

// the content's own height (not the viewport's), so the frame can shrink as well as grow
const content = document.querySelector('main');
new ResizeObserver(() => post('height', { height: Math.ceil(content.getBoundingClientRect().height) })).observe(content);
