// Every widget by name (the value of data-widget), loaded only when used.
export const WIDGETS = {
  'kv-query': () => import('./kv-query.js'),
  'attention-map': () => import('./attention-map.js'),
};

export const WIDGET_NAMES = Object.keys(WIDGETS);
