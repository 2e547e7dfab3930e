// The "sentence-similarity" widget's words in English: its section of the catalog (zh.js: the same keys).
export default {
  title: 'How similar are two sentences?',
  intro: 'A small trained English sentence encoder (Universal Sentence Encoder Lite, whose attention heads the section “A real trained model” opens up later) turns a whole sentence into one vector of 512 numbers, of length 1. Sentences that mean the same thing point the same way: their similarity is the dot product of the two vectors (their cosine, from −1 to 1), computed by the core as q·k, the score attention uses. Edit the sentences.',
  labelA: 'Sentence A',
  labelB: 'Sentence B',
  labelC: 'Sentence C',
  pair: '{a} · {b}',
  empty: 'type sentence {name}',
  bar: 'similarity of {a} and {b}: {v}',
  csvA: 'sentence',
  csvB: 'other sentence',
  csvCosine: 'similarity (cosine)',
};
