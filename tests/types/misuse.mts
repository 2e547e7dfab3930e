// Must NOT compile: the types reject a wrong score name and a missing key.
import createAttention from '../../web/wasm/attention.mjs';

const att = await createAttention();
att.attention({ query: [[1]], key: [[1]], value: [[1]], score: 'cosine' });
att.attention({ query: [[1]], value: [[1]] });
await att.createTrainer({ task: 'sort' });
await att.createWidthTrainer({ width: '0.1' });
await att.createLanguageModel({ texts: ['a'] });
