// Bundles web/page/embed-script.js (every widget of web/widgets/list.js, the runtime,
// the stylesheets, the English words and the single-file WASM module) into
// web/embed.js: one classic script for <script src> embeds from any origin and
// from file://. The encoder's and the trainers' modules stay beside it
// (wasm/attention-{encoder,training}.js), and so does each other language's
// words, its catalog and every widget's words in it (embed.<lang>.js, a classic
// script too, loaded when a widget is first mounted in that language).
//   node scripts/bundle.mjs                       writes web/embed.js
//   node scripts/bundle.mjs --web DIR             DIR/embed.js, of the page in DIR (another copy's web/)
//   bundleEmbed({ outfile, filesFolder })         another copy: scripts/dist.mjs writes the
//                                                 release's, whose other files are in filesFolder
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WEB = fileURLToPath(new URL('../web/', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The language whose words embed.js carries: every message's fallback (i18n.js).
const CARRIED = 'en';
// The script of another language's words, in the files folder, and the global it defines.
const wordsFile = (lang) => `embed.${lang}.js`;
const wordsGlobal = (lang) => `attentionWasmWords_${lang.replace(/\W/g, '_')}`;

// `import { DEFINITIONS, STRINGS, STYLES } from 'every-widget'` (page/embed-script.js)
// gets every widget of web/widgets/list.js imported at once: its definition,
// its English words, and web/styles/style.css
// (its @import-ed files inlined) followed by every widget's style.css in the
// list's order, as one text; so attentionWasm.mount() needs no fetch.
async function bundledWidgets(web) {
  const { WIDGETS } = await import(pathToFileURL(web + 'widgets/list.js').href);
  const LANGUAGES = [CARRIED];
  const sheets = ['styles/style.css', ...WIDGETS.map((id) => `widgets/${id}/style.css`)];
  const styles = await build({
    stdin: { contents: sheets.map((file) => `@import "./${file}";`).join('\n'), resolveDir: web, loader: 'css' },
    bundle: true,
    write: false,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const lines = [], definitions = [], strings = Object.fromEntries(LANGUAGES.map((lang) => [lang, []]));
  WIDGETS.forEach((id, k) => {
    lines.push(`import * as w${k} from './${id}/widget.js';`);
    definitions.push(`${JSON.stringify(id)}: w${k}`);
    for (const lang of LANGUAGES) {
      lines.push(`import w${k}${lang} from './${id}/${lang}.js';`);
      strings[lang].push(`${JSON.stringify(id)}: w${k}${lang}`);
    }
  });
  const contents = [...lines,
    `export const DEFINITIONS = Object.freeze({ ${definitions.join(', ')} });`,
    `export const STRINGS = { ${LANGUAGES.map((lang) => `${lang}: { ${strings[lang].join(', ')} }`).join(', ')} };`,
    `export const STYLES = ${JSON.stringify(styles.outputFiles[0].text)};`].join('\n');
  return {
    name: 'every-widget',
    setup(b) {
      b.onResolve({ filter: /^every-widget$/ }, () => ({ path: 'every-widget', namespace: 'every-widget' }));
      b.onLoad({ filter: /.*/, namespace: 'every-widget' }, () => ({ contents, resolveDir: web + 'widgets' }));
    },
  };
}

// attention.mjs imports its two other modules on first use (cpp/facade/parts-import.js:
// import('./attention-encoder.mjs'), import('./attention-training.mjs')). In
// embed.js they stay out of the bundle: each is the classic script of the same
// name in wasm/ beside embed.js, added as a <script> element when first needed
// (cpp/facade/parts-script.js, the classic module's own loader, told where
// attention.js would be).
const partsLoader = fileURLToPath(new URL('../cpp/facade/parts-script.js', import.meta.url));
const separateParts = (web) => ({
  name: 'separate-parts',
  setup(b) {
    b.onResolve({ filter: /^\.\/attention-(encoder|training)\.mjs$/ }, (args) => ({ path: args.path, namespace: 'part' }));
    b.onLoad({ filter: /.*/, namespace: 'part' }, (args) => {
      const part = /attention-(\w+)\.mjs$/.exec(args.path)[1];
      return {
        resolveDir: web,
        contents: `import { assetUrl } from './runtime/assets.js';
import { scriptParts } from ${JSON.stringify(partsLoader)};
const parts = scriptParts(assetUrl('wasm/attention.js'));
export default (options) => parts.${part}().then((module) => module.default(options));
`,
      };
    });
  },
});

// i18n.js's loader of another language (import('./zh.js')) gets, in embed.js,
// that language's words from the script beside it: the catalog with every
// widget's words in it, which loadLanguage() keeps whole.
const otherLanguages = (web, others) => ({
  name: 'other-languages',
  setup(b) {
    b.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) => {
      const lang = /([\w-]+)\.js$/.exec(args.path)[1];
      if (resolve(args.importer) !== resolve(web, 'i18n/i18n.js') || !others.includes(lang)) return undefined;
      return { path: lang, namespace: 'words' };
    });
    b.onLoad({ filter: /.*/, namespace: 'words' }, ({ path: lang }) => ({
      resolveDir: web,
      contents: `import { assetUrl } from './runtime/assets.js';
import { loadScript } from ${JSON.stringify(partsLoader)};
const file = ${JSON.stringify(wordsFile(lang))};
export default loadScript(assetUrl(file), file, ${JSON.stringify(wordsGlobal(lang))}).then((module) => module.default());
`,
    }));
  },
});

// The languages of web/i18n/i18n.js that embed.js does not carry.
async function otherLanguagesOf(web) {
  const { LANGUAGES } = await import(pathToFileURL(web + 'i18n/i18n.js').href);
  return LANGUAGES.filter((lang) => lang !== CARRIED);
}

// embed.<lang>.js for each language embed.js does not carry, of the page in web:
// [{ path (in the files folder), text }] (scripts/dist.mjs names the folder by them too).
export async function embedWords(web = WEB) {
  const others = await otherLanguagesOf(web);
  const { loadEveryWidget } = await import(pathToFileURL(web + 'widgets/list.js').href);
  const { strings } = await loadEveryWidget(others);
  return Promise.all(others.map(async (lang) => {
    const { default: catalog } = await import(pathToFileURL(`${web}i18n/${lang}.js`).href);
    const words = JSON.stringify({ ...catalog, ...strings[lang] });
    return { path: wordsFile(lang), text: `globalThis.${wordsGlobal(lang)}=function(){return ${words}};\n` };
  }));
}

// filesFolder: where the other files are, relative to the script ('' beside it);
// web: the page's folder (another copy's, for tests/browser/new-widget.test.mjs)
export async function bundleEmbed({ web = WEB, outfile = web + 'embed.js', filesFolder = '' } = {}) {
  const others = await otherLanguagesOf(web);
  await build({
    entryPoints: [web + 'page/embed-script.js'],
    outfile,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    plugins: [await bundledWidgets(web), separateParts(web), otherLanguages(web, others)],
    // the module is one file: it never needs its own URL (assets.js finds the script's)
    define: {
      'import.meta.url': 'undefined',
      ATTENTION_WASM_VERSION: JSON.stringify(version),
      ATTENTION_WASM_FILES: JSON.stringify(filesFolder),
    },
    logLevel: 'warning',
  });
  for (const { path, text } of await embedWords(web)) writeFileSync(join(dirname(outfile), filesFolder, path), text);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--web');
  await bundleEmbed(at > 0 ? { web: `${resolve(process.argv[at + 1])}/` } : {});
}
