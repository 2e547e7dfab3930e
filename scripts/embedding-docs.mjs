// The widgets' reference in docs/embedding.md and the README's widget table,
// written from the list of widgets (web/widgets/list.js, the page's order) and
// their own definitions: for each, in the reference, its title, its state keys
// (type, range or choices, default) from its `controls` and `defaults`, and the
// release's files it loads (`assets`); in the table, its `summary`. Each
// replaces the text between its two markers in its file.
//   node scripts/embedding-docs.mjs           writes both
//   node scripts/embedding-docs.mjs --check   fails (exit 1) when either is stale
// tests/node/release.test.mjs and docs.test.mjs check them.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../web/i18n/en.js';
import { layout } from '../web/i18n/typeset.js';
import { loadEveryWidget } from '../web/widgets/list.js';

export const DOC = fileURLToPath(new URL('../docs/embedding.md', import.meta.url));
export const README = fileURLToPath(new URL('../README.md', import.meta.url));
const START = '<!-- widgets: written by scripts/embedding-docs.mjs from the widgets\' definitions -->';
const END = '<!-- widgets: end -->';
const TABLE_START = '<!-- widget table: written by scripts/embedding-docs.mjs from the widgets\' definitions -->';
const TABLE_END = '<!-- widget table: end -->';

// every widget, in the page's order: { id: definition }, and the English words of each
const { definitions: DEFINITIONS, strings: { en: WORDS } } = await loadEveryWidget(['en']);

const code = (value) => `\`${value}\``;
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function kind(control) {
  switch (control.type) {
    case 'range':
      return [`number, ${control.min} to ${control.max}`, control.step === 1 ? 'whole numbers' : `steps of ${control.step}`];
    case 'choice':
    case 'select':
      return [`one of ${control.options.map((o) => code(o.value)).join(', ')}`, ''];
    case 'toggle':
      return ['boolean (`1`/`0` in a URL)', ''];
    case 'text':
      return [`text, at most ${control.maxLength ?? 2000} characters`, ''];
    default:
      return [control.type, ''];
  }
}

// what the key is for: its label in the widget's catalog section, else a word on why it has none
function meaning(name, control) {
  const label = control.label && (WORDS[name]?.[control.label] ?? en.common?.[control.label]);
  if (label) return layout(label).map((run) => run.text).join('');  // the catalog's markup read by its own parser
  return control.hidden ? 'kept by the widget (a selection, a step count, a model address)' : '';
}

function defaultText(name, def, key) {
  const from = def.defaultsFrom?.[key];
  if (from) return WORDS[name][from];  // decided by the reader's computer: how, in words
  const base = def.defaults[key];
  const shown = (v) => (v === '' ? '(empty)' : typeof v === 'string' ? code(v) : code(JSON.stringify(v)));
  const perLanguage = Object.entries(def.languageDefaults ?? {}).filter(([, d]) => key in d);
  return [shown(base), ...perLanguage.map(([lang, d]) => `${shown(d[key])} in ${lang}`)].join('; ');
}

export function reference() {
  const out = [START, ''];
  for (const [name, def] of Object.entries(DEFINITIONS)) {
    const title = WORDS[name].title.replace(/[_^]\{([^}]*)\}/g, '$1');
    out.push(`### \`${name}\``, '', `${title}.`, '');
    const files = ['`embed.js`', ...(def.assets ?? []).map(code)];
    out.push(`Files of the release it loads (script tag): ${files.join(', ')}${name === 'language-model' ? ' (the chosen corpus only)' : ''}.`, '');
    out.push('| key | type | values | default | what it sets |', '|---|---|---|---|---|');
    for (const control of def.controls) {
      const [type, grid] = kind(control);
      out.push(`| ${code(control.key)} | ${cell(type)} | ${cell(grid)} | ${cell(defaultText(name, def, control.key))} | ${cell(meaning(name, control))} |`);
    }
    out.push('');
  }
  out.push(END);
  return out.join('\n');
}

// the README's table: one row per widget, linked to its reference
export function widgetTable() {
  return [TABLE_START, '', '| widget | what the reader does |', '|---|---|',
    ...Object.entries(DEFINITIONS).map(([name, def]) => `| [${code(name)}](docs/embedding.md#${name}) | ${cell(def.summary)} |`), '', TABLE_END].join('\n');
}

// text with what stands between start and end (the markers included) written anew
function between(text, start, end, written, file) {
  const from = text.indexOf(start), to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: the markers of the widgets' text are missing`);
  return text.slice(0, from) + written + text.slice(to + end.length);
}

// the guide with its reference written anew; the README with its table
export const updated = (text = readFileSync(DOC, 'utf8')) => between(text, START, END, reference(), DOC);
export const updatedReadme = (text = readFileSync(README, 'utf8')) => between(text, TABLE_START, TABLE_END, widgetTable(), README);

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let stale = false;
  for (const [file, update] of [[DOC, updated], [README, updatedReadme]]) {
    const text = readFileSync(file, 'utf8');
    const next = update(text);
    if (next === text) continue;
    if (process.argv.includes('--check')) {
      console.error(`${file} is stale: run node scripts/embedding-docs.mjs`);
      stale = true;
    } else {
      writeFileSync(file, next);
    }
  }
  if (stale) process.exit(1);
}
