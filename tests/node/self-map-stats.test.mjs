// selfMapStats: what separate W^Q and W^K buy, against a reference written
// here from the definitions (asymmetry |S − Sᵀ| / (2|S|), the mean weight on
// the diagonal, the rows whose largest weight is their own key), on the
// core's own maps; with W^K = W^Q the map is symmetric and every row of these
// sentences favours its own word; bad maps are errors that say why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { att } from './module.mjs';

function reference(S, A) {
  const n = S.rows;
  let differences = 0, entries = 0, diagonal = 0, rows = 0;
  for (let i = 0; i < n; i++) {
    let top = 0;
    for (let j = 0; j < n; j++) {
      differences += (S.data[i * n + j] - S.data[j * n + i]) ** 2;
      entries += S.data[i * n + j] ** 2;
      if (A.data[i * n + j] > A.data[i * n + top]) top = j;
    }
    diagonal += A.data[i * n + i];
    if (top === i) rows++;
  }
  return { asymmetry: entries > 0 ? Math.sqrt(differences) / (2 * Math.sqrt(entries)) : 0, diagonalShare: diagonal / n, rowsOnDiagonal: rows };
}

// the self-attention widget's sentence, its maps untied and tied (W^K = W^Q)
function maps(tokens, seed) {
  const X = att.embedTokens({ tokens, d: 8, seed });
  const untied = att.selfAttention({ input: X, dK: 4, seed });
  const P = untied.projections;
  const tied = att.selfAttention({ input: X, projections: { Wq: P.Wq, Wk: P.Wq, Wv: P.Wv } });
  return { untied, tied };
}

test('selfMapStats equals the reference on the core\'s maps, tied and untied', () => {
  for (let seed = 0; seed < 6; seed++) {
    const { untied, tied } = maps(['the', 'animal', 'did', 'not', 'cross', 'the', 'street'], seed);
    for (const r of [untied, tied]) {
      const got = att.selfMapStats({ scores: r.scores, weights: r.weights });
      const want = reference(r.scores, r.weights);
      assert.ok(Math.abs(got.asymmetry - want.asymmetry) < 1e-6, `seed ${seed}: asymmetry`);
      assert.ok(Math.abs(got.diagonalShare - want.diagonalShare) < 1e-6, `seed ${seed}: diagonal share`);
      assert.equal(got.rowsOnDiagonal, want.rowsOnDiagonal, `seed ${seed}: rows on the diagonal`);
    }
  }
});

test('W^K = W^Q: a symmetric map whose rows favour their own word; separate projections: neither', () => {
  const { untied, tied } = maps(['thinking', 'machines', 'think', 'too'], 1);
  const u = att.selfMapStats({ scores: untied.scores, weights: untied.weights });
  const t = att.selfMapStats({ scores: tied.scores, weights: tied.weights });
  assert.equal(t.asymmetry, 0);
  assert.ok(u.asymmetry > 0.3, `untied asymmetry ${u.asymmetry}`);
  assert.equal(t.rowsOnDiagonal, 4);
  assert.ok(u.rowsOnDiagonal < 4 && t.diagonalShare > 2 * u.diagonalShare, `${u.diagonalShare} -> ${t.diagonalShare}`);
});

test('selfMapStats: maps that are not square, not of one size, or not finite are errors', () => {
  assert.throws(() => att.selfMapStats({ scores: [[1, 2, 3]], weights: [[1, 2, 3]] }), /one square map each/);
  assert.throws(() => att.selfMapStats({ scores: [[1, 2], [3, 4]], weights: [[1]] }), /of one size/);
  assert.throws(() => att.selfMapStats({ scores: [[1, NaN], [3, 4]], weights: [[1, 0], [0, 1]] }), /scores/);
  assert.throws(() => att.selfMapStats({ scores: [[1]] }), /weights/);
});
