// Writes a new widget that works: its folder, web/widgets/NAME/ (a minimal
// definition, a softmax with a temperature slider computed by the core, drawn
// as bars, exported as CSV and JSON; its words in every language; its styles),
// its line at the end of the list of widgets (web/widgets/list.js), and its
// browser test; then writes the widgets' reference in docs/embedding.md and
// the README's table anew from the list (scripts/embedding-docs.mjs). The page,
// the iframe, embed.js and the tests find it through the list. CONTRIBUTING.md
// says what each file is for.
//   npm run new-widget NAME            (NAME: lowercase words joined by hyphens)
//   node scripts/new-widget.mjs NAME [--root DIR]   (DIR: another copy of the project, for its test)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const LIST = 'web/widgets/list.js';
// the catalog's own sections (web/i18n/<lang>.js): a widget's words are a section named after it
const RESERVED = ['common', 'page', 'glossary'];

function fail(message) {
  console.error(`new-widget: ${message}`);
  process.exit(1);
}

// The list with name as the last line of WIDGETS (its array: one quoted id a line, then "]);")
function listed(source, name) {
  const start = source.indexOf('export const WIDGETS = Object.freeze([');
  const end = source.indexOf('\n]);', start);
  if (start < 0 || end < 0) fail(`${LIST}: the array WIDGETS is not where it was`);
  if (source.slice(start, end).includes(`'${name}',`)) fail(`${LIST} already lists ${name}`);
  return `${source.slice(0, end)}\n  '${name}',${source.slice(end)}`;
}

function widgetModule(name) {
  return `// Widget "${name}": a softmax with a temperature, as \`npm run new-widget\` wrote
// it. Make it yours: the numbers in compute() (from the core: att is the
// attention module), the DOM in build() and render(), the words in en.js and
// zh.js beside this file, the styles in style.css.
import { element } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber } from '../../render/format.js';

export const name = '${name}';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'sees a softmax even out as its temperature rises (written by npm run new-widget: say what the reader does here)';

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

// its words in lang: en.js or zh.js of its folder
function strings(name, lang) {
  const text = lang === 'zh'
    ? { title: '带温度的 softmax', intro: '把温度调高，权重变得更平均；调低，最大的分数拿走几乎全部权重。', temperature: '温度',
        weight: '分数 {score} → 权重 {weight}', score: '分数', weightColumn: '权重' }
    : { title: 'Softmax with a temperature', intro: 'Raise the temperature and the weights even out; lower it and the largest score takes almost all the weight.',
        temperature: 'Temperature', weight: 'score {score} → weight {weight}', score: 'score', weightColumn: 'weight' };
  const quoted = (value) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = Object.entries(text).map(([key, value]) => `  ${key}: ${quoted(value)},`);
  const about = lang === 'zh' ? 'in Simplified Chinese: the same keys and placeholders as en.js' : 'in English: zh.js has the same keys and placeholders';
  return `// The "${name}" widget's words ${about}.\nexport default {\n${lines.join('\n')}\n};\n`;
}

function stylesheet(name) {
  return `/* Widget "${name}" (widget.js): its own prefixed classes only. */
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
  if (RESERVED.includes(name)) fail(`"${name}" names a section of the catalogs (${RESERVED.join(', ')}): choose another name`);
  const folder = `web/widgets/${name}`;
  if (existsSync(join(root, folder))) fail(`${folder} already exists`);
  // (a folder beside a module of the same name, widgets/list.js and widgets/list/, would read as one thing)
  if (existsSync(join(root, `${folder}.js`))) fail(`${folder}.js exists: choose another name`);
  const list = listed(readFileSync(join(root, LIST), 'utf8'), name);

  const files = {
    [`${folder}/widget.js`]: widgetModule(name),
    [`${folder}/en.js`]: strings(name, 'en'),
    [`${folder}/zh.js`]: strings(name, 'zh'),
    [`${folder}/style.css`]: stylesheet(name),
    [`tests/browser/${name}.test.mjs`]: browserTest(name),
  };
  mkdirSync(join(root, folder));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
  writeFileSync(join(root, LIST), list);
  // the README's table and the widgets' reference, from the list (where this copy has the script)
  const docs = existsSync(join(root, 'scripts/embedding-docs.mjs'));
  if (docs && spawnSync(process.execPath, [join(root, 'scripts/embedding-docs.mjs')], { stdio: 'inherit' }).status !== 0) fail('scripts/embedding-docs.mjs failed');
  return { folder, written: Object.keys(files), listed: LIST, docs };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? resolve(args.splice(at, 2)[1]) : REPO;
  const { written, listed: list, docs } = newWidget(args[0], root);
  console.log(`new-widget: wrote ${written.join(', ')}\nnew-widget: added one line to ${list}`);
  if (docs) console.log('new-widget: wrote README.md\'s widget table and docs/embedding.md\'s reference anew');
  console.log(`new-widget: try it: npm start, then ?#${args[0]}; test it: node --test tests/browser/${args[0]}.test.mjs`);
}
