// What a trained language model's heads do and the yardsticks of its loss,
// through the public API: att.repeatsCorpus, att.ownCorpus, lm.headRoles,
// lm.halves and lm.baselines (the models trained on the repeats to induction:
// induction.test.mjs, a file of its own so that the two run side by side).
// - the repeats corpus: seeded, each text a string of distinct characters written twice;
// - the roles and the halves on a small model, against its own maps;
// - the n-gram ladder equals a plain count model written here, on a small corpus
//   and on the names; on the names, the model passes the best n-gram within
//   3,000 steps (the widget's options);
// - the reader's own text: split or refused with a message; a public-domain
//   text passes its bigram.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { att, withModel } from './module.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const namesFile = `${root}web/data/names.json`;

test('repeatsCorpus: seeded strings of distinct characters, each written twice', async () => {
  const a = await att.repeatsCorpus({ train: 300, heldOut: 20, seed: 4 });
  assert.equal(a.train.length, 300);
  assert.equal(a.heldOut.length, 20);
  const lengths = new Set();
  for (const text of [...a.train, ...a.heldOut]) {
    const chars = [...text], h = chars.length / 2;
    assert.ok(Number.isInteger(h), text);
    const once = chars.slice(0, h);
    assert.equal(chars.slice(h).join(''), once.join(''), text);
    assert.equal(new Set(once).size, h, `${text}: distinct characters`);
    assert.ok(once.every((c) => /[a-z]/.test(c)), text);
    lengths.add(h);
  }
  assert.deepEqual([...lengths].sort((x, y) => x - y), [4, 5, 6, 7, 8, 9, 10], 'every length 4..10 drawn');
  assert.deepEqual(await att.repeatsCorpus({ train: 300, heldOut: 20, seed: 4 }), a, 'the same seed, the same texts');
  assert.notDeepEqual((await att.repeatsCorpus({ train: 300, heldOut: 20, seed: 5 })).train, a.train);
  const own = await att.repeatsCorpus({ train: 5, heldOut: 0, minLength: 3, maxLength: 3, alphabet: '春夏秋冬' });
  for (const text of own.train) assert.match(text, /^([春夏秋冬]{3})\1$/u);
  await assert.rejects(att.repeatsCorpus({ maxLength: 30 }), /repeatsCorpus: maxLength 30 is more than the alphabet's 26 characters/);
  await assert.rejects(att.repeatsCorpus({ alphabet: 'abca' }), /alphabet must hold distinct characters/);
  await assert.rejects(att.repeatsCorpus({ minLength: 6, maxLength: 5 }), /maxLength/);
  await assert.rejects(att.repeatsCorpus({ train: 0 }), /train/);
  await assert.rejects(att.repeatsCorpus({ lenght: 3 }), /unknown option "lenght"/);
});

test('headRoles and halves: shapes, nulls where no query has a role, texts given, errors', async () => {
  await withModel({ texts: ['abcabc', 'xyzxyz', 'abab', 'ab,'], heldOut: ['bcab'], layers: 2, heads: 2, dModel: 8, context: 16 }, (lm) => {
    const roles = lm.headRoles();
    assert.equal(roles.texts, 1);
    assert.equal(roles.queries, 4);
    assert.equal(roles.heads.length, 2);
    for (const layer of roles.heads) {
      assert.equal(layer.length, 2);
      for (const h of layer) {
        for (const role of ['previous', 'self', 'first', 'induction']) assert.ok(h[role] >= 0 && h[role] <= 1, `${role} ${h[role]}`);
        assert.equal(h.line, null, 'no punctuation: no second line');
        assert.ok(['previous', 'self', 'first', 'induction'].includes(h.best));
        assert.equal(h.score, h[h.best]);
      }
    }
    // the roles of a text are the maps' (attention() gives the same weights)
    const maps = lm.attention('abca').weights;
    const given = lm.headRoles(['abca']).heads[0][0];
    const w = (i, j) => maps[0][0].data[i * maps[0][0].cols + j];
    assert.ok(Math.abs(given.previous - (w(2, 1) + w(3, 2) + w(4, 3)) / 3) < 1e-6);
    assert.ok(Math.abs(given.self - (w(1, 1) + w(2, 2) + w(3, 3) + w(4, 4)) / 4) < 1e-6);
    assert.ok(Math.abs(given.induction - w(4, 2)) < 1e-6, 'the a at 4 looks after the a at 1');
    // two lines: "ab," and "ab," (p = 3)
    const line = lm.headRoles(['ab,ab,']).heads[1][1];
    const m = lm.attention('ab,ab,').weights[1][1], at = (i, j) => m.data[i * m.cols + j];
    assert.ok(Math.abs(line.line - (at(4, 1) + at(5, 2) + at(6, 3)) / 3) < 1e-6, `line ${line.line}`);
    const halves = lm.halves(['abab']);
    assert.equal(halves.first.tokens, 2);
    assert.equal(halves.second.tokens, 2);
    assert.throws(() => lm.headRoles('abc'), /languageModel.headRoles: texts must be an array of strings/);
    assert.throws(() => lm.halves(['abcabcabcabcabcabcab']), /languageModel.halves: .*context/);
  });
});

// ---- the n-gram ladder against a count model written here ----------------------

// Held-out loss per character of add-k n-gram models (orders 1-4) over tokens:
// each text is ⏎ + its characters + ⏎ (a character outside the vocabulary is �),
// the context of a target the N - 1 tokens before it, ⏎ before the start; k is
// picked on the last tenth of the training texts, counted on the rest.
function ngramLadder(train, heldOut, vocabulary) {
  const known = new Set(vocabulary.tokens);
  const V = vocabulary.tokens.length;
  const tokens = (text) => ['⏎', ...[...text].map((c) => (known.has(c) ? c : '\ufffd')), '⏎'];
  const key = (seq, i, n) => { const c = []; for (let j = i - n + 1; j < i; j++) c.push(j >= 0 ? seq[j] : '⏎'); return c.join('\u0001'); };
  const count = (texts, n) => {
    const joint = new Map(), context = new Map();
    for (const t of texts) {
      const seq = tokens(t);
      for (let i = 1; i < seq.length; i++) {
        const c = key(seq, i, n);
        joint.set(c + '\u0002' + seq[i], (joint.get(c + '\u0002' + seq[i]) ?? 0) + 1);
        context.set(c, (context.get(c) ?? 0) + 1);
      }
    }
    return { joint, context };
  };
  const loss = (counts, texts, n, k) => {
    let sum = 0, targets = 0;
    for (const t of texts) {
      const seq = tokens(t);
      for (let i = 1; i < seq.length; i++, targets++) {
        const c = key(seq, i, n);
        sum -= Math.log(((counts.joint.get(c + '\u0002' + seq[i]) ?? 0) + k) / ((counts.context.get(c) ?? 0) + k * V));
      }
    }
    return { loss: sum / targets, targets };
  };
  const tune = Math.max(1, Math.floor(train.length / 10));
  const rest = train.length > 1 ? train.slice(0, train.length - tune) : train, slice = train.slice(train.length - tune);
  const ks = [1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001];
  return [1, 2, 3, 4].map((n) => {
    const tuning = count(rest, n);
    let k = ks[0], low = loss(tuning, slice, n, k).loss;
    for (const candidate of ks) {
      const l = loss(tuning, slice, n, candidate).loss;
      if (l < low) { low = l; k = candidate; }
    }
    return { order: n, k, ...loss(count(train, n), heldOut, n, k) };
  });
}

function assertLadder(lm, train, heldOut) {
  const b = lm.baselines();
  const expected = ngramLadder(train, heldOut, lm.vocabulary());
  assert.equal(b.ladder.length, 4);
  assert.equal(b.tokens, expected[0].targets);
  assert.equal(b.tokens, lm.evaluate().tokens, 'the held-out targets of evaluate()');
  b.ladder.forEach((rung, i) => {
    assert.equal(rung.order, i + 1);
    assert.equal(rung.k, expected[i].k, `order ${i + 1}: k`);
    assert.ok(Math.abs(rung.loss - expected[i].loss) < 1e-9, `order ${i + 1}: ${rung.loss} against ${expected[i].loss}`);
  });
  assert.deepEqual(lm.baselines(), b, 'computed once, the same every call');
  return b;
}

test('baselines: each rung equals a plain count model (a small corpus with an unknown character)', async () => {
  const train = ['abcab', 'bcabc', 'cabca', 'ab', 'abcabcabc', 'cba', 'acb', 'bbca', 'aab', 'cc', 'abca'];
  const heldOut = ['abca', 'cab', 'bxa'];
  await withModel({ texts: train, heldOut, layers: 1, heads: 1, dModel: 8, context: 12 }, (lm) => {
    const b = assertLadder(lm, train, heldOut);
    assert.ok(b.ladder[0].loss > 0);
  });
  await withModel({ texts: ['ab'], heldOut: [], layers: 1, heads: 1, dModel: 8, context: 4 }, (lm) => {
    assert.throws(() => lm.baselines(), /languageModel.baselines: baselines needs held-out texts: heldOut is empty/);
  });
});

test('baselines on the names: the plain count model\'s losses; the model passes the best n-gram within 3,000 steps',
  { skip: !existsSync(namesFile) && 'web/data/names.json is not built' }, async () => {
    const corpus = JSON.parse(readFileSync(namesFile, 'utf8'));
    const heldOut = corpus.heldOut.slice(0, 200);
    // the widget's names model (web/widgets/language-model/engine.js)
    await withModel({ texts: corpus.train, heldOut, context: 16, learningRate: 0.01, warmup: 20, batch: 32, seed: 1 }, (lm) => {
      const b = assertLadder(lm, corpus.train, heldOut);
      const best = Math.min(...b.ladder.map((r) => r.loss));
      console.log(`names: ${b.ladder.map((r) => `${r.order}-gram ${r.loss.toFixed(3)} (k ${r.k})`).join(', ')}`);
      assert.ok(b.ladder[1].loss < b.ladder[0].loss, 'a bigram beats the unigram');
      let loss = lm.evaluate().loss;
      while (lm.info().step < 3000 && loss >= best) {
        for (let i = 0; i < 10; i++) lm.step(25);
        loss = lm.evaluate().loss;
      }
      console.log(`names: the model's held-out loss ${loss.toFixed(3)} at step ${lm.info().step}, the best n-gram ${best.toFixed(3)}`);
      assert.ok(loss < best, `after ${lm.info().step} steps the model's ${loss} against the best n-gram's ${best}`);
    });
  });

// ---- the reader's own text -----------------------------------------------------

test('ownCorpus: a pasted public-domain text (the Declaration of Independence) trains below its bigram baseline', async () => {
  const text = readFileSync(new URL('./fixtures/declaration.txt', import.meta.url), 'utf8');
  const corpus = await att.ownCorpus(text, { context: 32 });
  const all = [...corpus.train, ...corpus.heldOut];
  assert.ok(all.every((t) => [...t].length <= 31 && t.length > 0), 'lines in windows of at most 31');
  assert.equal(all[0], 'In Congress, July 4, 1776.', 'a short line as it is');
  assert.equal(corpus.heldOut.length, Math.floor(all.length / 10), 'every tenth held out');
  // every character kept but those of the 2 pieces that repeat an earlier one: the tails "." and "s." of long lines
  assert.equal(corpus.repeats, 2);
  assert.equal(all.join('').replace(/\s/g, '').length, text.replace(/\s/g, '').length - 3, 'every character kept, but the repeats');
  assert.equal(new Set(all).size, all.length, 'each text once');
  await withModel({ texts: corpus.train, heldOut: corpus.heldOut, context: 32, minCount: 3, learningRate: 0.01, warmup: 20, seed: 1 }, (lm) => {
    const bigram = lm.baselines().ladder[1].loss;
    let best = Infinity, at = 0;
    // 8 KB of text: it passes the bigram early (step 50 here) and then learns the text by heart
    while (lm.info().step < 300 && best >= bigram) {
      lm.step(25);
      const loss = lm.evaluate().loss;
      if (loss < best) best = loss, at = lm.info().step;
    }
    console.log(`the Declaration: ${corpus.train.length} training texts, ${corpus.heldOut.length} held out; ` +
                `${lm.baselines().ladder.map((r) => `${r.order}-gram ${r.loss.toFixed(3)}`).join(', ')}; the model ${best.toFixed(3)} at step ${at}`);
    assert.ok(best < bigram, `the model's best held-out loss ${best} against the bigram's ${bigram}`);
  });
});

test('ownCorpus: a text whose lines repeat keeps each line once, counts the rest, and holds out no training line', async () => {
  const text = readFileSync(new URL('./fixtures/declaration.txt', import.meta.url), 'utf8');
  const once = await att.ownCorpus(text, { context: 32 });
  const chorus = 'La la la, sing it again';  // one window, in no line of the text
  const thrice = await att.ownCorpus(`${text}\n${chorus}\n${text}\n${chorus}\n${text}`, { context: 32 });
  // each piece kept once, in its first place: the text's, then the chorus; every later copy a repeat
  const kept = [...once.train, ...once.heldOut];
  const all = (corpus) => corpus.train.length + corpus.heldOut.length;
  assert.equal(all(thrice), kept.length + 1);
  assert.equal(thrice.repeats, 3 * (kept.length + once.repeats) + 2 - all(thrice));
  const train = new Set(thrice.train);
  assert.deepEqual(thrice.heldOut.filter((t) => train.has(t)), []);
  assert.equal(new Set([...thrice.train, ...thrice.heldOut]).size, thrice.train.length + thrice.heldOut.length, 'each text once');
  // a text long only by repeating itself is refused, saying so
  await assert.rejects(att.ownCorpus('a line sung over and over\n'.repeat(100)),
    /ownCorpus: the text repeats itself: once its 99 repeated lines are dropped, it has 20 characters besides spaces and line breaks; at least 2000 are needed/);
});

test('ownCorpus: an empty, binary, short, too varied or too large text is refused with a message saying why', async () => {
  const refused = (text, pattern) => assert.rejects(att.ownCorpus(text), pattern);
  await refused('  \n\n\t ', /ownCorpus: the text is empty/);
  await refused('PK\u0003\u0004\u0000\u0000\u0008' + 'x'.repeat(3000), /ownCorpus: this is a binary file, not text: it holds NUL bytes/);
  await refused('\u0001\u0002\u0003'.repeat(400) + 'x'.repeat(3000), /ownCorpus: this looks like a binary file, not text: 1200 of its 4200 characters/);
  await refused('a short note.\n'.repeat(100), /ownCorpus: the text has 1100 characters besides spaces and line breaks; at least 2000 are needed/);
  let wide = '';
  // each character 5 times, the lines broken in another place each time (a line repeated would be dropped)
  for (let k = 0; k < 5; k++) for (let cp = 0x4e00; cp < 0x4e00 + 4500; cp++) wide += String.fromCodePoint(cp) + ((cp + 3 * k) % 20 === 0 ? '\n' : '');
  await refused(wide, /ownCorpus: the text has 4\d{3} distinct characters seen 3 times or more; the model's vocabulary takes at most 4000/);
  await refused('x'.repeat(2000001), /ownCorpus: the text has 2000001 bytes; at most 2000000 are read/);
  await assert.rejects(att.ownCorpus(42), /ownCorpus: text must be a string/);
  await assert.rejects(att.ownCorpus('x'.repeat(3000), { context: 1 }), /ownCorpus: context must be an integer from 2 to 128/);
});
