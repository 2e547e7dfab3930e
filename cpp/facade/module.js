// What makes each module's factory: the Emscripten factory linked by CMake
// (build-wasm/linked/<module>.mjs, imported as 'linked:<module>' and resolved
// by scripts/modules.mjs, which bundles each *-module.js of this folder with
// it), whose Module the facade wraps. createX() resolves to the facade,
// frozen, never to the Module itself: its heap views, malloc and unchecked
// raw_* bindings would bypass every check.
import { coreCaller } from './core.js';

// createCore(options) -> Promise<Module>; facadeOf(core) -> the facade's own
// properties, core being { Module, call } (core.js's caller) and what more
// adds to it
export function moduleFactory(createCore, facadeOf, more = () => ({})) {
  return function create(options) {
    return createCore(options).then((Module) => {
      const core = { Module, call: coreCaller(Module), ...more(Module) };
      return Object.freeze(facadeOf(core));
    });
  };
}

// tables: { name: (core) => the function } each (attention.js, figures.js, …): their functions for core
export function functionsOf(core, ...tables) {
  const functions = {};
  for (const table of tables) for (const name of Object.keys(table)) functions[name] = table[name](core);
  return functions;
}
