// Writes a new widget that works: a minimal module (a softmax with a
// temperature slider, computed by the core, drawn as bars, exported as CSV and
// JSON), its sections in every catalog, its styles, its browser test, and its
// place in the registries, the page, the README's table and the embedding
// guide. CONTRIBUTING.md says what each file is for.
//   npm run new-widget NAME            (NAME: lowercase words joined by hyphens)
//   node scripts/new-widget.mjs NAME [--root DIR]   (DIR: another copy of the project, for its test)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));

// 'word-order' -> 'wordOrder' (its import name in widgets/all.js)
const camel = (name) => name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

function fail(message) {
  console.error(`new-widget: ${message}`);
  process.exit(1);
}

// Inserts text before the first match of pattern in file (a string edit: the
// files stay as their authors wrote them).
function insertBefore(root, file, pattern, text) {
  const path = join(root, file);
  const source = readFileSync(path, 'utf8');
  const at = source.search(pattern);
  if (at < 0) fail(`${file}: no place found for the new widget (${pattern})`);
  writeFileSync(path, source.slice(0, at) + text + source.slice(at));
}

function lastIndexOfPattern(source, pattern) {
  let last = -1;
  for (const m of source.matchAll(new RegExp(pattern, 'g'))) last = m.index + m[0].length;
  return last;
}

// Inserts text after the last match of pattern in file.
function insertAfterLast(root, file, pattern, text) {
  const path = join(root, file);
  const source = readFileSync(path, 'utf8');
  const at = lastIndexOfPattern(source, pattern);
  if (at < 0) fail(`${file}: no place found for the new widget (${pattern})`);
  writeFileSync(path, source.slice(0, at) + text + source.slice(at));
}

function widgetModule(name) {
  return `// Widget "${name}": a softmax with a temperature, as \`npm run new-widget\` wrote
// it. Make it yours: the numbers in compute() (from the core: att is the
// attention module), the DOM in build() and render(), the words in the
// catalogs' "${name}" sections, the styles in styles/${name}.css.
import { element } from '../runtime/dom.js';
import { hbar } from '../render/bars.js';
import { formatNumber } from '../render/format.js';

export const name = '${name}';

// the release's files it loads beside embed.js, besides the core (docs/embedding.md)
export const assets = [];

export const defaults = { temperature: 1 };

export const controls = [
  { key: 'temperature', type: 'range', label: 'temperature', min: 0.1, max: 5, step: 0.1 },
];

const SCORES = [2, 1, 0.5, -1];

export function compute(att, state) {
  const weights = att.softmax([SCORES], { temperature: state.temperature });  // (1, 4), from the core
  return { scores: SCORES, weights: Array.from(weights.data) };
}

export function build(body) {
  const list = element('ol', '${name}-weights');
  body.append(list);
  return { list };
}

export function render(view, data, state, ctx) {
  view.list.replaceChildren(...data.weights.map((weight, i) => {
    const text = ctx.t('weight', { score: formatNumber(data.scores[i], { digits: 1 }), weight: formatNumber(weight, { digits: 3 }) });
    const item = element('li', '${name}-weight', text);
    item.dataset.weight = String(weight);
    item.append(hbar({ value: weight, label: text }));
    return item;
  }));
}

export function exports(data, state, t) {
  return {
    csv: () => ({ header: [t('score'), t('weightColumn')], rows: data.scores.map((score, i) => [score, data.weights[i]]) }),
    json: () => ({ scores: data.scores, weights: data.weights }),
  };
}
`;
}

function catalogSection(name, lang) {
  const text = lang === 'zh'
    ? { title: '带温度的 softmax', intro: '把温度调高，权重变得更平均；调低，最大的分数拿走几乎全部权重。', temperature: '温度',
        weight: '分数 {score} → 权重 {weight}', score: '分数', weightColumn: '权重' }
    : { title: 'Softmax with a temperature', intro: 'Raise the temperature and the weights even out; lower it and the largest score takes almost all the weight.',
        temperature: 'Temperature', weight: 'score {score} → weight {weight}', score: 'score', weightColumn: 'weight' };
  const quoted = (value) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = Object.entries(text).map(([key, value]) => `    ${key}: ${quoted(value)},`);
  return `  '${name}': {\n${lines.join('\n')}\n  },\n`;
}

function stylesheet(name) {
  return `/* Widget "${name}" (widgets/${name}.js): its own prefixed classes only. */
.${name}-weights { margin: 0.5rem 0 0; padding-left: 1.5rem; }
.${name}-weight { margin: 0.3rem 0; font-variant-numeric: tabular-nums; }
.${name}-weight .hbar { display: block; width: min(100%, 24rem); height: 0.7rem; margin-top: 0.15rem; }
`;
}

function browserTest(name) {
  return `// Browser test of the "${name}" widget: its weights are the core's softmax
// of its scores at the temperature in its state, and they follow the slider.
//   node --test tests/browser/${name}.test.mjs
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import createAttention from '../../web/wasm/attention.mjs';
import { assertClean, eventually, openPage, startBrowser } from './harness.mjs';

const W = '[data-widget="${name}"]';
let browser, att;
before(async () => { [browser, att] = await Promise.all([startBrowser(), createAttention()]); });
after(async () => { await browser?.close(); });

const shown = (page) => page.locator(\`\${W} [data-weight]\`).evaluateAll((items) => items.map((li) => Number(li.dataset.weight)));
const expected = (temperature) => Array.from(att.softmax([[2, 1, 0.5, -1]], { temperature }).data);

test('${name}: the core\\'s weights at the state\\'s temperature, and again after the slider moves', async () => {
  const { page, log } = await openPage(browser, 'embed.html?widget=${name}&temperature=2');
  await page.locator(\`\${W}[data-ready="true"]\`).waitFor();
  assert.deepEqual(await shown(page), expected(2));
  await page.locator(\`\${W} input[type="range"]\`).fill('0.5');
  await eventually(async () => JSON.stringify(await shown(page)) === JSON.stringify(expected(0.5)), { message: 'the weights at 0.5' });
  assertClean(log, browser.origin);
  await page.close();
});
`;
}

export function newWidget(name, root = REPO) {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name ?? '')) fail(`give the widget a name of lowercase words joined by hyphens, got ${JSON.stringify(name)}`);
  const module = `web/widgets/${name}.js`;
  if (existsSync(join(root, module))) fail(`${module} already exists`);
  const index = readFileSync(join(root, 'web/widgets/index.js'), 'utf8');
  if (index.includes(`'${name}':`)) fail(`web/widgets/index.js already lists ${name}`);

  const written = [module, `web/styles/${name}.css`, `tests/browser/${name}.test.mjs`];
  writeFileSync(join(root, module), widgetModule(name));
  writeFileSync(join(root, `web/styles/${name}.css`), stylesheet(name));
  writeFileSync(join(root, `tests/browser/${name}.test.mjs`), browserTest(name));

  insertBefore(root, 'web/widgets/index.js', /\n};\n/, `\n  '${name}': () => import('./${name}.js'),`);
  insertAfterLast(root, 'web/widgets/all.js', "import \\* as \\w+ from '\\./[\\w-]+\\.js';", `\nimport * as ${camel(name)} from './${name}.js';`);
  insertBefore(root, 'web/widgets/all.js', /\n}\);\n/, `\n  '${name}': ${camel(name)},`);
  insertAfterLast(root, 'web/index.html', '<section class="section" id="[\\w-]+"><div data-widget="[\\w-]+"><p class="widget-loading">Loading…</p></div></section>',
    `\n    <section class="section" id="${name}"><div data-widget="${name}"><p class="widget-loading">Loading…</p></div></section>`);
  for (const lang of ['en', 'zh']) insertBefore(root, `web/i18n/${lang}.js`, /^};\s*$/m, catalogSection(name, lang));
  insertAfterLast(root, 'web/styles/style.css', '@import url\\("[\\w-]+\\.css"\\);', `\n@import url("${name}.css");`);
  insertAfterLast(root, 'README.md', '\\n\\| \\[`[\\w-]+`\\]\\(docs/embedding\\.md#[\\w-]+\\) \\|[^\\n]*\\|',
    `\n| [\`${name}\`](docs/embedding.md#${name}) | sees a softmax even out as its temperature rises (written by npm run new-widget: say what it does) |`);
  const edited = ['web/widgets/index.js', 'web/widgets/all.js', 'web/index.html', 'web/i18n/en.js', 'web/i18n/zh.js', 'web/styles/style.css', 'README.md'];
  if (resolve(root) === resolve(REPO)) {
    const docs = spawnSync(process.execPath, [join(REPO, 'scripts/embedding-docs.mjs')], { stdio: 'inherit' });
    if (docs.status !== 0) fail('scripts/embedding-docs.mjs failed');
    edited.push('docs/embedding.md');
  }
  return { written, edited };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? resolve(args.splice(at, 2)[1]) : REPO;
  const { written, edited } = newWidget(args[0], root);
  console.log(`new-widget: wrote ${written.join(', ')}\nnew-widget: added it to ${edited.join(', ')}`);
  console.log(`new-widget: try it: npm start, then ?#${args[0]}; test it: node --test tests/browser/${args[0]}.test.mjs`);
}
