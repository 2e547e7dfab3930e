// Bundles web/page/embed-script.js (the widgets, the runtime, the stylesheet and the
// single-file WASM module) into web/embed.js: one classic script for
// <script src> embeds from any origin and from file://. The encoder's and the
// trainers' modules stay beside it (wasm/attention-{encoder,training}.js).
//   node scripts/bundle.mjs                       writes web/embed.js
//   bundleEmbed({ outfile, filesFolder })         another copy: scripts/dist.mjs writes the
//                                                 release's, whose other files are in filesFolder
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../web/', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// web/styles/style.css with its @import-ed files (web/styles/) inlined, in order: one text
const styles = await build({
  entryPoints: [web + 'styles/style.css'],
  bundle: true,
  write: false,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const css = styles.outputFiles[0].text;

// `import css from '../styles/style.css'` gets that text
const inlineStyles = {
  name: 'inline-styles',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/styles\/style\.css$/ }, () => ({ path: 'style.css', namespace: 'styles' }));
    b.onLoad({ filter: /.*/, namespace: 'styles' }, () => ({ contents: css, loader: 'text' }));
  },
};

// attention.mjs imports its two other modules on first use (cpp/facade/parts-import.js:
// import('./attention-encoder.mjs'), import('./attention-training.mjs')). In
// embed.js they stay out of the bundle: each is the classic script of the same
// name in wasm/ beside embed.js, added as a <script> element when first needed
// (cpp/facade/parts-script.js, the classic module's own loader, told where
// attention.js would be).
const partsLoader = fileURLToPath(new URL('../cpp/facade/parts-script.js', import.meta.url));
const separateParts = {
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
};

// filesFolder: where the other files are, relative to the script ('' beside it)
export async function bundleEmbed({ outfile = web + 'embed.js', filesFolder = '' } = {}) {
  await build({
    entryPoints: [web + 'page/embed-script.js'],
    outfile,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    plugins: [inlineStyles, separateParts],
    // the module is one file: it never needs its own URL (assets.js finds the script's)
    define: {
      'import.meta.url': 'undefined',
      ATTENTION_WASM_VERSION: JSON.stringify(version),
      ATTENTION_WASM_FILES: JSON.stringify(filesFolder),
    },
    logLevel: 'warning',
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleEmbed();
