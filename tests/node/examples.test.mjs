// The examples of examples/node/ run as a reader would run them, and say what
// they promise: their output is checked here, not only their exit status.
//   node --test tests/node/examples.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
function run(name, ...args) {
  const r = spawnSync(process.execPath, [`examples/node/${name}`, ...args], { cwd: root, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, `${name} exited ${r.status}:\n${r.stderr.slice(-800)}`);
  return r.stdout;
}

test('attention.mjs: every step of the chain for its own matrices; the weights sum to 1; causal hides the future', () => {
  const out = run('attention.mjs');
  assert.match(out, /^scale: 0\.5$/m);
  assert.match(out, /^row sums of the weights: 1\.000 1\.000 1\.000$/m);
  // causal: the first query sees only the first key
  assert.match(out, /causal weights \(query i sees keys 0\.\.i\) \(3 x 3\)\n {2}1\.000 {2}0\.000 {2}0\.000\n/);
});

test('encoder.mjs: the pieces, where "it" looks in each head, and that like sentences are nearer', () => {
  const out = run('encoder.mjs');
  assert.match(out, /^pieces: ▁The ▁animal /m);
  assert.equal((out.match(/^layer 2, head \d: "it" looks most at "/gm) ?? []).length, 4);
  const [, near, far] = /similarity: guitar \/ instrument (-?[\d.]+), guitar \/ stock market (-?[\d.]+)/.exec(out);
  assert.ok(Number(near) > Number(far) + 0.1, `${near} against ${far}`);
});

test('train-reverse.mjs: 99% held-out accuracy, and the map is the anti-diagonal', () => {
  const out = run('train-reverse.mjs');
  const accuracies = [...out.matchAll(/held-out accuracy ([\d.]+)%/g)].map((m) => Number(m[1]));
  assert.ok(accuracies.at(-1) >= 99, `last ${accuracies.at(-1)}%`);
  assert.match(out, /where each output position looks: 7 6 5 4 3 2 1 0 /);
});

test('generate-name.mjs: the held-out loss beats counting letters, and it writes 8 names', () => {
  const out = run('generate-name.mjs');
  const [, loss, unigram] = /held-out loss ([\d.]+) nats per character \(counting letters alone: ([\d.]+)\)/.exec(out);
  assert.ok(Number(loss) < 0.8 * Number(unigram), `${loss} against ${unigram}`);
  const names = out.trim().split('\n').slice(1);
  assert.equal(names.length, 8);
  for (const name of names) assert.match(name, /^[A-Za-z][A-Za-z-]*( {2}\(new\))?$/);
});
