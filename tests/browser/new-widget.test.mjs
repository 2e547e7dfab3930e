// `npm run new-widget NAME` writes one folder and one line: run on a copy of
// the project (the page, its modules, the README, the guide and the tests it
// runs), it adds web/widgets/NAME/ and the widget's browser test, one line to
// web/widgets/list.js, and writes the README's table and the guide's reference
// anew; nothing else changes. The widget it writes then passes its own test,
// the catalog and page-order tests, every widget's checks and axe's; it is the
// page's last section, and embed.js (bundled anew) mounts it.
//   node --test tests/browser/new-widget.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import createAttention from '../../web/wasm/attention.mjs';
import { assertClean, eventually, openPage, startBrowser } from './harness.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const NAME = 'softmax-temperature';
const FOLDER = `web/widgets/${NAME}`;
const COPIED = ['README.md', 'docs/embedding.md', 'scripts/serve.mjs', 'scripts/embedding-docs.mjs', 'tests/server.mjs',
  'tests/browser/harness.mjs', 'tests/browser/every-widget.test.mjs', 'tests/browser/a11y.test.mjs',
  'tests/node/catalogs.test.mjs', 'tests/node/page-order.test.mjs'];

// (without NODE_TEST_CONTEXT: a node --test run inside this one would report
// to this runner instead of printing)
function node(args, cwd) {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 300000 });
}

// every file below folder (links not followed): path -> its text
function tree(folder) {
  const out = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat || name === 'model' || name === 'data') continue;
      if (stat.isDirectory()) walk(path);
      else out.set(relative(folder, path), readFileSync(path, 'latin1'));
    }
  };
  walk(folder);
  return out;
}

// inside the project, so that the copy finds its node_modules (playwright-core, axe-core)
let root, made, before_, after_;
before(() => {
  root = mkdtempSync(join(repo, '.scratch-new-widget-'));
  cpSync(join(repo, 'web'), join(root, 'web'), { recursive: true, filter: (path) => !/\/web\/(model|data)(\/|$)/.test(path) });
  for (const folder of ['model', 'data']) symlinkSync(join(repo, 'web', folder), join(root, 'web', folder));  // 8 MB, read only
  for (const file of COPIED) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    cpSync(join(repo, file), join(root, file));
  }
  before_ = tree(root);
  made = node([join(repo, 'scripts/new-widget.mjs'), NAME, '--root', root], repo);
  after_ = tree(root);
});
after(() => rmSync(root, { recursive: true, force: true }));

test('npm run new-widget writes one folder and one line (and the docs generated from the list), and refuses to write it twice', () => {
  assert.equal(made.status, 0, made.stderr);
  const written = [`${FOLDER}/widget.js`, `${FOLDER}/en.js`, `${FOLDER}/zh.js`, `${FOLDER}/style.css`, `tests/browser/${NAME}.test.mjs`];
  assert.match(made.stdout, new RegExp(`wrote ${written.join(', ').replace(/\./g, '\\.')}\\n`));
  const added = [...after_.keys()].filter((path) => !before_.has(path)).sort();
  const changed = [...before_.keys()].filter((path) => after_.get(path) !== before_.get(path)).sort();
  assert.deepEqual(added, [...written].sort(), 'the files written: the widget\'s folder and its test');
  assert.deepEqual(changed, ['README.md', 'docs/embedding.md', 'web/widgets/list.js'], 'the files changed: the list, and the two written from it');
  // the list: one line more, the widget's, last
  const lines = (text) => text.split('\n');
  const [was, now] = [lines(before_.get('web/widgets/list.js')), lines(after_.get('web/widgets/list.js'))];
  const at = now.indexOf(`  '${NAME}',`);
  assert.ok(at > 0 && now[at + 1] === ']);', 'its line ends the list');
  assert.deepEqual(now.toSpliced(at, 1), was, 'nothing else changed in the list');
  // the docs, from the list: its row in the README's table, its reference in the guide
  assert.match(after_.get('README.md'), new RegExp(`^\\| \\[\`${NAME}\`\\]\\(docs/embedding\\.md#${NAME}\\) \\| sees a softmax even out`, 'm'));
  assert.match(after_.get('docs/embedding.md'), new RegExp(`^### \`${NAME}\`\\n\\nSoftmax with a temperature\\.\\n[^]*?\\| \`temperature\` \\| number, 0\\.1 to 5 \\| steps of 0\\.1 \\| \`1\` \\| Temperature \\|`, 'm'));
  // a second run, and a name the catalogs or the folder already hold, refuse
  const again = node([join(repo, 'scripts/new-widget.mjs'), NAME, '--root', root], repo);
  assert.notEqual(again.status, 0);
  assert.match(again.stderr, /web\/widgets\/softmax-temperature already exists/);
  for (const [name, reason] of [['common', /names a section of the catalogs/], ['names-model', /names-model\.js exists/], ['Bad_Name', /lowercase words/]]) {
    const refused = node([join(repo, 'scripts/new-widget.mjs'), name, '--root', root], repo);
    assert.notEqual(refused.status, 0, name);
    assert.match(refused.stderr, reason);
  }
  assert.deepEqual(tree(root), after_, 'the refusals wrote nothing');
});

test('the widget written passes the catalog and page-order tests, its own test, every widget\'s checks and axe (in the copy)', () => {
  for (const file of ['tests/node/catalogs.test.mjs', 'tests/node/page-order.test.mjs']) {
    const run = node(['--test', file], root);
    assert.equal(run.status, 0, `${file} in the copy:\n${run.stdout.slice(-1500)}`);
  }
  const own = node(['--test', `tests/browser/${NAME}.test.mjs`], root);
  assert.equal(own.status, 0, `the new widget's own test:\n${own.stdout.slice(-1500)}`);
  assert.match(own.stdout, /# pass 1\b/);
  // what every widget owes (alone in both languages, its exports), and axe over its embed in light and dark
  for (const [file, pattern] of [['every-widget', `^${NAME}: renders alone`], ['a11y', `^embed ${NAME}, `]]) {
    const run = node(['--test', '--test-name-pattern', pattern, `tests/browser/${file}.test.mjs`], root);
    assert.equal(run.status, 0, `${file} for ${NAME} in the copy:\n${run.stdout.slice(-1500)}`);
    assert.match(run.stdout, /# pass 1\b/, `${file}: its one test ran`);
  }
});

test('the widget written is the page\'s last section, before the glossary, and embed.js bundled anew mounts it', async (t) => {
  const bundled = node([join(repo, 'scripts/bundle.mjs'), '--web', join(root, 'web')], repo);
  assert.equal(bundled.status, 0, bundled.stderr);
  const [browser, att] = await Promise.all([startBrowser({ root: join(root, 'web') }), createAttention()]);
  t.after(() => browser.close());
  const expected = (temperature) => Array.from(att.softmax([[2, 1, 0.5, -1]], { temperature }).data);
  const shown = (widget) => widget.locator('[data-weight]').evaluateAll((items) => items.map((li) => Number(li.dataset.weight)));

  // the page, in Chinese: its section after speed, its title, the core's weights at the URL's temperature
  const { page, log } = await openPage(browser, `?lang=zh&${NAME}.temperature=0.5#${NAME}`);
  const widget = page.locator(`main section#${NAME} [data-widget="${NAME}"]`);
  await widget.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 20000 });
  const ids = await page.locator('main > section').evaluateAll((all) => all.map((s) => s.id));
  assert.deepEqual(ids.slice(-3), ['speed', NAME, 'glossary']);
  assert.equal(await widget.locator('.widget-title').textContent(), '带温度的 softmax');
  assert.deepEqual(await shown(widget), expected(0.5));
  // the contents name each section by its title once every section above has mounted (toc.refresh)
  const link = page.locator(`nav.toc a[href="#${NAME}"]`);
  await eventually(async () => (await link.textContent()) === '带温度的 softmax', { timeout: 20000, message: 'the contents\' link titled in Chinese' });
  assertClean(log, browser.origin);
  await page.close();

  // the script embed on an article: by its attributes, and by attentionWasm.mount() with a state checked at once
  const article = new URL('articles/new-widget.html', browser.url).href;
  const embed = await browser.context.newPage();
  await embed.route(article, (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>An article</title>
    <script src="../embed.js"></script><div data-widget="${NAME}" data-state="temperature=2" data-lang="en"></div><div id="api"></div>` }));
  await embed.goto(article);
  const byAttributes = embed.locator(`div[data-widget="${NAME}"] [data-widget="${NAME}"]`);  // inside its open shadow root
  await byAttributes.and(embed.locator('[data-ready="true"]')).waitFor({ timeout: 20000 });
  assert.deepEqual(await shown(byAttributes), expected(2));
  const state = await embed.evaluate((name) => {
    const handle = attentionWasm.mount(document.getElementById('api'), { widget: name, state: { temperature: 3 }, lang: 'zh' });
    let refused = '';
    try {
      attentionWasm.mount(document.createElement('div'), { widget: name, state: { temperature: 'hot' } });
    } catch (error) {
      refused = error.message;
    }
    return { state: handle.getState(), refused };
  }, NAME);
  assert.deepEqual(state.state, { temperature: 3 });
  assert.match(state.refused, /temperature/);
  const byApi = embed.locator(`#api [data-widget="${NAME}"]`);
  await byApi.and(embed.locator('[data-ready="true"]')).waitFor({ timeout: 20000 });
  assert.deepEqual(await shown(byApi), expected(3));
  assert.equal(await byApi.locator('.widget-title').textContent(), '带温度的 softmax');
  await embed.close();
});
