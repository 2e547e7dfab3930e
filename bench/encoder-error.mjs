// How far one encoder's results stand from a reference's over a set of
// sentences: for bench/encoder.mjs (the precisions of the built files) and
// bench/quantize.mjs (the formats tried).

// reference(s, sentence): the reference's encoding of sentences[s]; encoder: an
// att.loadEncoder result. -> { weight: the largest change of any attention
// weight, embedding: of any embedding entry, rows: the rows of every map of
// every sentence, sameTop: those whose largest weight falls on the same key,
// cosine: the lowest dot product of a sentence's two (unit) embeddings }
export function encoderError(sentences, reference, encoder) {
  let weight = 0, embedding = 0, rows = 0, sameTop = 0, cosine = 1;
  for (const [s, sentence] of sentences.entries()) {
    const x = reference(s, sentence), y = encoder.encode(sentence);
    for (let l = 0; l < x.attention.length; l++)
      for (let h = 0; h < x.attention[l].length; h++) {
        const p = x.attention[l][h], q = y.attention[l][h];
        for (let i = 0; i < p.data.length; i++) weight = Math.max(weight, Math.abs(p.data[i] - q.data[i]));
        for (let i = 0; i < p.rows; i++) {
          let a = 0, b = 0;
          for (let j = 1; j < p.cols; j++) {
            if (p.data[i * p.cols + j] > p.data[i * p.cols + a]) a = j;
            if (q.data[i * q.cols + j] > q.data[i * q.cols + b]) b = j;
          }
          rows++;
          if (a === b) sameTop++;
        }
      }
    let dot = 0;
    for (let i = 0; i < x.embedding.length; i++) {
      embedding = Math.max(embedding, Math.abs(x.embedding[i] - y.embedding[i]));
      dot += x.embedding[i] * y.embedding[i];
    }
    cosine = Math.min(cosine, dot);
  }
  return { weight, embedding, rows, sameTop, cosine };
}
