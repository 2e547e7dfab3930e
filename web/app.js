// Entry point: finds every element with data-widget="name" and mounts that widget.
// A page (or an embed) is markup plus this script; each widget stands alone.
import { readState, writeState } from './state.js';

// name -> loader of the widget module (loaded only if the page uses it)
const WIDGETS = {
  'kv-query': () => import('./widgets/kv-query.js'),
};

async function mountWidget(root) {
  const name = root.dataset.widget;
  try {
    const load = WIDGETS[name];
    if (!load) throw new Error(`unknown widget "${name}"`);
    const widget = await load();
    const state = readState(widget.controls, widget.defaults);
    widget.mount(root, { state, onChange: (next) => writeState(next, widget.controls) });
  } catch (error) {
    const message = document.createElement('p');
    message.className = 'widget-error';
    message.setAttribute('role', 'alert');
    message.textContent = `This widget could not start: ${error.message}`;
    root.replaceChildren(message);
  }
}

for (const root of document.querySelectorAll('[data-widget]')) mountWidget(root);
