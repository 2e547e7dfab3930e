// Bundles web/embed-script.js (the widgets, the runtime, the stylesheet and the
// single-file WASM module) into web/embed.js: one classic script for
// <script src> embeds from any origin and from file://.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../web/', import.meta.url));

// web/style.css with its @import-ed files (web/styles/) inlined, in order: one text
const styles = await build({
  entryPoints: [web + 'style.css'],
  bundle: true,
  write: false,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const css = styles.outputFiles[0].text;

// `import css from './style.css'` gets that text
const inlineStyles = {
  name: 'inline-styles',
  setup(b) {
    b.onResolve({ filter: /^\.\/style\.css$/ }, () => ({ path: 'style.css', namespace: 'styles' }));
    b.onLoad({ filter: /.*/, namespace: 'styles' }, () => ({ contents: css, loader: 'text' }));
  },
};

await build({
  entryPoints: [web + 'embed-script.js'],
  outfile: web + 'embed.js',
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  plugins: [inlineStyles],
  // the module is one file: it never needs its own URL
  define: { 'import.meta.url': 'undefined' },
  logLevel: 'warning',
});
