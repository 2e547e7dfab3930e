// Every ```js block of the README and of docs/api.md runs as it is, from the
// project's root (where web/model/ and web/data/ are): a block that imports
// 'attention-wasm' gets the built module; a block that does not create `att`
// gets one created before it. A block that throws, or whose process fails,
// fails its test.
//   node --test tests/node/docs.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const moduleUrl = new URL('../../web/wasm/attention.mjs', import.meta.url).href;

// The ```js blocks of a Markdown file, indented ones (in a list) included:
// [{ line, code }], code without the block's indent.
export function jsBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```js\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== '```') end++;
    assert.ok(end < lines.length, `the block at line ${i + 1} is not closed`);
    blocks.push({ line: i + 1, code: lines.slice(start, end).map((l) => l.slice(indent)).join('\n') });
    i = end;
  }
  return blocks;
}

function program(code) {
  const body = code.replace(/from 'attention-wasm'/g, `from '${moduleUrl}'`);
  return /\bconst att\b/.test(code) ? body
    : `import createAttention from '${moduleUrl}';\nconst att = await createAttention();\n${body}`;
}

for (const file of ['README.md', 'docs/api.md']) {
  const blocks = jsBlocks(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
  test(`${file} has js blocks to run`, () => assert.ok(blocks.length >= (file === 'README.md' ? 1 : 5), `${blocks.length} blocks`));
  for (const { line, code } of blocks) {
    test(`${file}:${line}: the block runs`, () => {
      const run = spawnSync(process.execPath, ['--input-type=module', '-'], { cwd: root, input: program(code), encoding: 'utf8', timeout: 120000 });
      assert.equal(run.status, 0, `${file}:${line} exited ${run.status}:\n${run.stderr.slice(-800)}`);
    });
  }
}

test('jsBlocks finds indented blocks and leaves other languages out', () => {
  const md = 'a\n```js\nx();\n```\n```sh\nls\n```\n1. item\n\n   ```js\n   y();\n   ```\n';
  assert.deepEqual(jsBlocks(md), [{ line: 2, code: 'x();' }, { line: 10, code: 'y();' }]);
});

test('the README\'s widget table lists every widget of the page, each once, linked to its reference', async () => {
  const { WIDGETS } = await import('../../web/widgets/list.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const rows = [...readme.matchAll(/^\| \[`([\w-]+)`\]\(docs\/embedding\.md#([\w-]+)\) \| .+ \|$/gm)];
  assert.deepEqual(rows.map((m) => m[1]).sort(), [...WIDGETS].sort());
  for (const [, name, anchor] of rows) assert.equal(anchor, name);
  const guide = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  for (const [, name] of rows) assert.match(guide, new RegExp(`^### \`${name}\`$`, 'm'), `docs/embedding.md has a section for ${name}`);
});
