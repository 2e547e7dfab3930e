// Every widget by name (the value of data-widget), loaded only when used.
export const WIDGETS = {
  'kv-query': () => import('./kv-query.js'),
  'learned-width': () => import('./learned-width.js'),
  'vectors': () => import('./vectors.js'),
  'score-functions': () => import('./score-functions.js'),
  'softmax-scaling': () => import('./softmax-scaling.js'),
  'attention-map': () => import('./attention-map.js'),
  'self-attention': () => import('./self-attention.js'),
  'masking': () => import('./masking.js'),
  'multi-head': () => import('./multi-head.js'),
  'real-model': () => import('./real-model.js'),
  'sentence-similarity': () => import('./sentence-similarity.js'),
  'positional-encoding': () => import('./positional-encoding.js'),
  'cross-attention': () => import('./cross-attention.js'),
  'conditional': () => import('./conditional.js'),
  'complexity': () => import('./complexity.js'),
  'speed': () => import('./speed.js'),
  'concepts': () => import('./concepts.js'),
  'transformer-block': () => import('./transformer-block.js'),
  'training': () => import('./training.js'),
  'language-model': () => import('./language-model.js'),
  'generation': () => import('./generation.js'),
};

export const WIDGET_NAMES = Object.keys(WIDGETS);
