// The widgets' reference in docs/embedding.md, written from the widgets' own
// definitions: for each, its title, its state keys (type, range or choices,
// default) from its `controls` and `defaults`, and the release's files it loads
// (`assets`), in the page's order (web/index.html). It replaces the text
// between the two markers of the file.
//   node scripts/embedding-docs.mjs           writes the reference
//   node scripts/embedding-docs.mjs --check   fails (exit 1) when the file is stale
// tests/node/embedding-docs.test.mjs runs the check.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../web/i18n/en.js';
import { layout } from '../web/i18n/typeset.js';
import { DEFINITIONS } from '../web/widgets/all.js';

export const DOC = fileURLToPath(new URL('../docs/embedding.md', import.meta.url));
const START = '<!-- widgets: written by scripts/embedding-docs.mjs from the widgets\' definitions -->';
const END = '<!-- widgets: end -->';

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
  const label = control.label && (en[name]?.[control.label] ?? en.common?.[control.label]);
  if (label) return layout(label).map((run) => run.text).join('');  // the catalog's markup read by its own parser
  return control.hidden ? 'kept by the widget (a selection, a step count, a model address)' : '';
}

function defaultText(def, key) {
  const base = def.defaults[key];
  const shown = (v) => (v === '' ? '(empty)' : typeof v === 'string' ? code(v) : code(JSON.stringify(v)));
  const perLanguage = Object.entries(def.languageDefaults ?? {}).filter(([, d]) => key in d);
  return [shown(base), ...perLanguage.map(([lang, d]) => `${shown(d[key])} in ${lang}`)].join('; ');
}

// the widgets in the order of the page's sections
function pageOrder() {
  const page = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
  const order = [...page.matchAll(/data-widget="([\w-]+)"/g)].map((m) => m[1]);
  const at = (name) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.entries(DEFINITIONS).sort(([a], [b]) => at(a) - at(b));
}

export function reference() {
  const out = [START, ''];
  for (const [name, def] of pageOrder()) {
    const title = en[name].title.replace(/[_^]\{([^}]*)\}/g, '$1');
    out.push(`### \`${name}\``, '', `${title}.`, '');
    const files = ['`embed.js`', ...(def.assets ?? []).map(code)];
    out.push(`Files of the release it loads (script tag): ${files.join(', ')}${name === 'language-model' ? ' (the chosen corpus only)' : ''}.`, '');
    out.push('| key | type | values | default | what it sets |', '|---|---|---|---|---|');
    for (const control of def.controls) {
      const [type, grid] = kind(control);
      out.push(`| ${code(control.key)} | ${cell(type)} | ${cell(grid)} | ${cell(defaultText(def, control.key))} | ${cell(meaning(name, control))} |`);
    }
    out.push('');
  }
  out.push(END);
  return out.join('\n');
}

// the file with its reference written anew
export function updated(text = readFileSync(DOC, 'utf8')) {
  const from = text.indexOf(START), to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC}: the markers of the widgets' reference are missing`);
  return text.slice(0, from) + reference() + text.slice(to + END.length);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = readFileSync(DOC, 'utf8');
  const next = updated(text);
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error('docs/embedding.md is stale: run node scripts/embedding-docs.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(DOC, next);
  }
}
