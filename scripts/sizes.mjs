// The release's sizes in docs/embedding.md: each file or group of dist/, raw and
// gzipped at level 9 (as a host that compresses sends them), written between the
// two markers of the guide's Sizes section.
//   node scripts/sizes.mjs [dist]   writes a release to a temporary folder (or
//                                   measures the one given) and writes the table
// tests/node/release.test.mjs measures its own release and checks every figure
// of the guide against it (within 10%): a table gone stale fails.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { filesOf, writeDist } from './dist.mjs';

export const DOC = fileURLToPath(new URL('../docs/embedding.md', import.meta.url));
const START = '<!-- sizes: written by scripts/sizes.mjs from a release -->';
const END = '<!-- sizes: end -->';

// [label, which files]; a label may hold {files}, the group's file count
const GROUPS = [
  ['`embed.js`', (path) => path === 'embed.js'],
  ['`index.html`', (path) => path === 'index.html'],
  ['`embed.html`', (path) => path === 'embed.html'],
  ['the page\'s modules, styles and catalogs ({files} files)', (path, folder) => path.startsWith(folder) && !/^(wasm|model|data)\//.test(path.slice(folder.length))],
  ...['attention', 'attention-training', 'attention-encoder'].flatMap((name) => ['mjs', 'js'].map((ext) =>
    [`\`wasm/${name}.${ext}\``, (path, folder) => path === `${folder}wasm/${name}.${ext}`])),
  ['`model/encoder.q.bin`', (path, folder) => path === `${folder}model/encoder.q.bin`],
  ['`data/names.json`', (path, folder) => path === `${folder}data/names.json`],
  ['`data/quatrains.json`', (path, folder) => path === `${folder}data/quatrains.json`],
  ['`examples/tutorial.html`, `LICENSE`, `NOTICE`, `manifest.json`', (path) => ['examples/tutorial.html', 'LICENSE', 'NOTICE', 'manifest.json'].includes(path)],
  ['all of `dist/` ({files} files)', () => true],
];

// The rows of the table for the release in dist: [{ label, files, bytes, gzipped }].
export function measure(dist) {
  const { immutable } = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
  const files = filesOf(dist).map((path) => {
    const body = readFileSync(join(dist, path));
    return { path, bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  });
  return GROUPS.map(([label, holds]) => {
    const group = files.filter((f) => holds(f.path, immutable));
    return {
      label: label.replace('{files}', group.length),
      files: group.length,
      bytes: group.reduce((sum, f) => sum + f.bytes, 0),
      gzipped: group.reduce((sum, f) => sum + f.gzipped, 0),
    };
  });
}

const number = (n) => n.toLocaleString('en-US');

export function table(rows) {
  return ['| file | bytes | gzipped |', '|---|---|---|',
    ...rows.map((row) => `| ${row.label} | ${number(row.bytes)} | ${number(row.gzipped)} |`)].join('\n');
}

// The rows the guide shows: [{ label, bytes, gzipped }].
export function documented(text = readFileSync(DOC, 'utf8')) {
  const inside = text.slice(text.indexOf(START) + START.length, text.indexOf(END));
  return inside.split('\n').filter((line) => /^\| .* \| [\d,]+ \| [\d,]+ \|$/.test(line)).map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    const figure = (cell) => Number(cell.replace(/,/g, ''));
    return { label: cells.slice(0, -2).join(' | '), bytes: figure(cells.at(-2)), gzipped: figure(cells.at(-1)) };
  });
}

export function updated(text, rows, date) {
  const start = text.indexOf(START), end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC}: the sizes markers are missing`);
  const body = `Measured on a build of ${date}; gzipped at level 9, as a host that
compresses would send them. The model file barely compresses: it is already
entropy-coded. The files folder's files are named by their path inside it
(\`wasm/attention.mjs\` is \`immutable/<hash>/wasm/attention.mjs\`).

${table(rows)}`;
  return `${text.slice(0, start)}${START}\n${body}\n${text.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let dist = process.argv[2] && resolve(process.argv[2]);
  const scratch = dist ? null : mkdtempSync(join(tmpdir(), 'attention-wasm-sizes-'));
  try {
    if (!dist) {
      dist = join(scratch, 'dist');
      await writeDist(dist);
    }
    const date = new Date().toISOString().slice(0, 10);
    writeFileSync(DOC, updated(readFileSync(DOC, 'utf8'), measure(dist), date));
    console.log(`sizes: ${DOC} updated from ${dist}`);
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
