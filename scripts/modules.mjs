// Bundles each module's facade (cpp/facade/<part>-module.js and what it
// imports) with the Emscripten factory CMake linked for it
// (<linked>/<module>.mjs, imported as 'linked:<module>') into the two files a
// user loads, minified:
//   web/wasm/<module>.mjs   an ES module: export default createX, export { AttentionError }
//   web/wasm/<module>.js    a classic script defining the globals createX and AttentionError
// for the modules attention, attention-encoder and attention-training.
//   node scripts/modules.mjs <linked folder> <web/wasm folder> [module ...]   (CMake runs it after each link)
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const top = fileURLToPath(new URL('..', import.meta.url));
const facade = top + 'cpp/facade/';

export const MODULES = {
  attention: { entry: 'attention-module.js', factory: 'createAttention' },
  'attention-encoder': { entry: 'encoder-module.js', factory: 'createAttentionEncoder' },
  'attention-training': { entry: 'training-module.js', factory: 'createAttentionTraining' },
};

// 'linked:<module>': the factory CMake linked; 'flavour:parts': where the
// attention module finds its two others, by import() or by <script> (parts.js)
const resolver = (linked, flavour) => ({
  name: 'attention-modules',
  setup(b) {
    b.onResolve({ filter: /^linked:/ }, (args) => ({ path: resolve(linked, args.path.slice('linked:'.length) + '.mjs') }));
    b.onResolve({ filter: /^flavour:parts$/ }, () => ({ path: facade + (flavour === 'esm' ? 'parts-import.js' : 'parts-script.js') }));
  },
});

export async function bundleModule(linked, out, name) {
  const { entry, factory } = MODULES[name];
  const common = { entryPoints: [facade + entry], bundle: true, minify: true, target: 'es2020', legalComments: 'none', logLevel: 'warning' };
  await build({
    ...common,
    outfile: resolve(out, name + '.mjs'),
    format: 'esm',
    plugins: [resolver(linked, 'esm')],
    // the two other modules stay beside this one (parts-import.js)
    external: ['./attention-encoder.mjs', './attention-training.mjs'],
  });
  // The classic script: the entry's exports in one global, then its two
  // exports as the two globals (var: as a classic script's own declarations).
  // Emscripten's import.meta.url is its own address, which a single file never needs.
  await build({
    ...common,
    outfile: resolve(out, name + '.js'),
    format: 'iife',
    globalName: factory,
    footer: { js: `var AttentionError=${factory}.AttentionError;${factory}=${factory}.default;` },
    define: { 'import.meta.url': 'undefined' },
    plugins: [resolver(linked, 'iife')],
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [linked, out, ...names] = process.argv.slice(2);
  if (!out) throw new Error('usage: node scripts/modules.mjs <linked folder> <web/wasm folder> [module ...]');
  for (const name of names.length ? names : Object.keys(MODULES)) await bundleModule(linked, out, name);
}
