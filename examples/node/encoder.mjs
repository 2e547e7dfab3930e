// The pretrained encoder on a sentence: its pieces, where "it" looks in each
// head of the last layer, and the similarity of two sentences.
//   node examples/node/encoder.mjs ["your sentence"]
// Needs the model file the build writes (web/model/encoder.q.bin).
import { readFile } from 'node:fs/promises';
import createAttention from '../../web/wasm/attention.mjs';

const att = await createAttention();
const bytes = await readFile(new URL('../../web/model/encoder.q.bin', import.meta.url));
const encoder = await att.loadEncoder(bytes);
try {
  const sentence = process.argv[2] ?? 'The animal did not cross the street because it was too tired.';
  const r = encoder.encode(sentence);
  console.log('pieces:', r.pieces.join(' '));
  const word = r.words.findIndex((w) => w.toLowerCase() === 'it');
  if (word >= 0) {
    const last = r.wordAttention.length - 1;
    r.wordAttention[last].forEach((map, head) => {
      const row = map.data.subarray(word * map.cols, (word + 1) * map.cols);
      const top = att.argmaxRows({ rows: 1, cols: map.cols, data: row });
      console.log(`layer ${last + 1}, head ${head + 1}: "it" looks most at "${r.words[top.index[0]]}" (${top.value[0].toFixed(2)})`);
    });
  }
  const a = encoder.embed('A man is playing a guitar.');
  const b = encoder.embed('Someone plays an instrument.');
  const c = encoder.embed('The stock market fell today.');
  // unit vectors: the dot product is the cosine
  const cosine = (x, y) => att.dotProducts([Array.from(x)], [Array.from(y)]).data[0];
  console.log(`similarity: guitar / instrument ${cosine(a, b).toFixed(3)}, guitar / stock market ${cosine(a, c).toFixed(3)}`);
} finally {
  encoder.delete();
}
