// What each section of the page builds on: the sections that teach an idea,
// a model or a corpus it uses without explaining it, which must come before
// it on the page. tests/node/page-order.test.mjs checks web/index.html
// against this list, and that the README's widget table and the widgets'
// reference in docs/embedding.md follow the page's order. A section may still
// point ahead to where something is shown in full ("the names the
// language-model section below trains on"): a pointer, not a prerequisite.
export const BUILDS_ON = {
  'kv-query': ['concepts'],
  'learned-width': ['kv-query'],
  vectors: ['kv-query'],
  'sentence-similarity': ['vectors'],
  'score-functions': ['kv-query', 'vectors'],
  'softmax-scaling': ['score-functions'],
  'self-attention': ['vectors', 'softmax-scaling'],
  'attention-map': ['self-attention'],
  'multi-head': ['self-attention', 'attention-map'],
  // its 2 layers of 4 heads, each with its own map
  'real-model': ['attention-map', 'multi-head'],
  masking: ['softmax-scaling', 'attention-map'],
  'positional-encoding': ['self-attention', 'attention-map'],
  // learned: each output position's query is its positional encoding, and Adam trains the projections
  'cross-attention': ['self-attention', 'masking', 'positional-encoding', 'learned-width'],
  training: ['self-attention', 'learned-width'],
  // a causal decoder of multi-head blocks over learned positions, trained
  'transformer-block': ['multi-head', 'masking', 'positional-encoding', 'training'],
  'language-model': ['transformer-block', 'training'],
  // the transformer-block section's model, sampled at a temperature, one row of the causal map at a time
  generation: ['masking', 'transformer-block'],
  // the scores, the scale and softmax of self-attention, its causal mask, and attention() beside it
  flash: ['self-attention', 'softmax-scaling', 'masking'],
  // multi-head attention's heads sharing keys and values, the cache of generation, the names model trained
  'kv-heads': ['multi-head', 'generation', 'language-model'],
  // q·k of a query and a key turned by their positions, beside the sinusoidal encoding added
  rotary: ['self-attention', 'positional-encoding'],
  // language models (their held-out loss) with each way of giving positions, rotary among them, read past their context
  positions: ['positional-encoding', 'language-model', 'rotary'],
  // the causal mask and its map, the cache of generation and kv-heads' costs, the names models with rotary positions, read past their context
  windows: ['masking', 'attention-map', 'generation', 'kv-heads', 'positions'],
  conditional: ['self-attention'],
  complexity: ['self-attention', 'masking'],
  speed: ['self-attention', 'complexity'],
};
