// The objects of the core that live in a module's heap between calls (an
// encoder, a trainer, a language model), as JS sees them: a frozen object of
// methods over one handle, a number the bindings' tables know it by
// (cpp/bindings/handles.hpp), never a pointer.
import { fail } from './error.js';

// methods: { name: (fn, handle, ...args) => result }, fn being prefix + name for
// messages (prefix: 'kind.' unless given); release(fn, handle) frees it. After
// delete(), every method throws an AttentionError DELETED, and delete() again
// does nothing; [Symbol.dispose] is delete() where the runtime defines the
// symbol (`using t = await att.createTrainer()`).
export function handleObject(kind, handle, release, methods, prefix = kind + '.') {
  const object = {};
  const live = (fn) => {
    if (handle === 0) fail(fn, 'this ' + kind + ' was deleted', 'DELETED');
    return handle;
  };
  for (const name of Object.keys(methods)) {
    const fn = prefix + name, method = methods[name];
    object[name] = function () {
      return method(fn, live(fn), ...arguments);
    };
  }
  object['delete'] = function () {
    if (handle === 0) return;
    const freed = handle;
    handle = 0;
    release(prefix + 'delete', freed);
  };
  if (typeof Symbol.dispose === 'symbol') object[Symbol.dispose] = object['delete'];
  return Object.freeze(object);
}
