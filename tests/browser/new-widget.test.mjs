// `npm run new-widget NAME` writes a widget that works: run on a copy of the
// project (the page, its modules, the README and the test harness), the
// widget it writes is registered, has its sections in every catalog, and its
// own browser test and the catalog test pass there.
//   node --test tests/browser/new-widget.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const NAME = 'softmax-temperature';

// (without NODE_TEST_CONTEXT: a node --test run inside this one would report
// to this runner instead of printing)
function node(args, cwd) {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 180000 });
}

test('npm run new-widget writes a widget that is registered everywhere and passes its own test', () => {
  // inside the project, so that the copy finds its node_modules (playwright-core)
  const root = mkdtempSync(join(repo, '.scratch-new-widget-'));
  try {
    cpSync(join(repo, 'web'), join(root, 'web'), { recursive: true, filter: (path) => !/\/web\/(model|data)(\/|$)/.test(path) });
    for (const file of ['README.md', 'scripts/serve.mjs', 'tests/server.mjs', 'tests/browser/harness.mjs', 'tests/node/catalogs.test.mjs']) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      cpSync(join(repo, file), join(root, file));
    }
    const made = node([join(repo, 'scripts/new-widget.mjs'), NAME, '--root', root], repo);
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, new RegExp(`wrote web/widgets/${NAME}\\.js, web/styles/${NAME}\\.css, tests/browser/${NAME}\\.test\\.mjs`));

    const read = (file) => readFileSync(join(root, file), 'utf8');
    assert.match(read('web/widgets/index.js'), new RegExp(`'${NAME}': \\(\\) => import\\('\\./${NAME}\\.js'\\)`));
    assert.match(read('web/widgets/all.js'), new RegExp(`'${NAME}': softmaxTemperature,`));
    assert.match(read('web/index.html'), new RegExp(`<section class="section" id="${NAME}"><div data-widget="${NAME}">`));
    assert.match(read('web/styles/style.css'), new RegExp(`@import url\\("${NAME}\\.css"\\);`));
    assert.match(read('README.md'), new RegExp(`^\\| \\[\`${NAME}\`\\]\\(docs/embedding\\.md#${NAME}\\) \\|`, 'm'));
    // a second run refuses to write it twice
    assert.notEqual(node([join(repo, 'scripts/new-widget.mjs'), NAME, '--root', root], repo).status, 0);

    const catalogs = node(['--test', 'tests/node/catalogs.test.mjs'], root);
    assert.equal(catalogs.status, 0, `the catalog test in the copy:\n${catalogs.stdout.slice(-1500)}`);
    const own = node(['--test', `tests/browser/${NAME}.test.mjs`], root);
    assert.equal(own.status, 0, `the new widget's own test:\n${own.stdout.slice(-1500)}`);
    assert.match(own.stdout, /# pass 1\b/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
