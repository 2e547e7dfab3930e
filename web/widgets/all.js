// Every widget's definition by name, imported at once: for the script-tag
// embed (embed.js bundles them all, and its API checks a widget's state keys
// before mounting it). The page loads them one by one (index.js); a test
// checks that both list the same widgets.

import * as kvQuery from './kv-query.js';
import * as learnedWidth from './learned-width.js';
import * as vectors from './vectors.js';
import * as scoreFunctions from './score-functions.js';
import * as softmaxScaling from './softmax-scaling.js';
import * as attentionMap from './attention-map.js';
import * as selfAttention from './self-attention.js';
import * as masking from './masking.js';
import * as multiHead from './multi-head.js';
import * as realModel from './real-model.js';
import * as sentenceSimilarity from './sentence-similarity.js';
import * as positionalEncoding from './positional-encoding.js';
import * as crossAttention from './cross-attention.js';
import * as conditional from './conditional.js';
import * as complexity from './complexity.js';
import * as speed from './speed.js';
import * as concepts from './concepts.js';
import * as transformerBlock from './transformer-block.js';
import * as training from './training.js';
import * as languageModel from './language-model.js';
import * as generation from './generation.js';

export const DEFINITIONS = Object.freeze({
  'kv-query': kvQuery,
  'learned-width': learnedWidth,
  'vectors': vectors,
  'score-functions': scoreFunctions,
  'softmax-scaling': softmaxScaling,
  'attention-map': attentionMap,
  'self-attention': selfAttention,
  'masking': masking,
  'multi-head': multiHead,
  'real-model': realModel,
  'sentence-similarity': sentenceSimilarity,
  'positional-encoding': positionalEncoding,
  'cross-attention': crossAttention,
  'conditional': conditional,
  'complexity': complexity,
  'speed': speed,
  'concepts': concepts,
  'transformer-block': transformerBlock,
  'training': training,
  'language-model': languageModel,
  'generation': generation,
});
