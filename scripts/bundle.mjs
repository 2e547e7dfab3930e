// Bundles web/embed-script.js (the widgets, the runtime, the stylesheet and the
// single-file WASM module) into web/embed.js: one classic script for
// <script src> embeds from any origin and from file://.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../web/', import.meta.url));
await build({
  entryPoints: [web + 'embed-script.js'],
  outfile: web + 'embed.js',
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  loader: { '.css': 'text' },
  // the module is one file: it never needs its own URL
  define: { 'import.meta.url': 'undefined' },
  logLevel: 'warning',
});
