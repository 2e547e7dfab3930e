// The lean path of attention({ ..., intermediates: false }) for the dot score
// without an explicit mask: the inputs go straight into the heap and the
// kernel is called with numbers alone (raw_attention_output_lean,
// cpp/bindings/lean.cpp), no Embind value. Returns undefined when the core
// rejects the input, for the general path to say why.
// A small call reuses one buffer of up to LEAN_KEPT bytes per module (a malloc
// and a free were a tenth of an n = 16 call); a larger one has its own, freed after it.
import { INT32_MAX, lengthOf } from './kinds.js';

const LEAN_KEPT = 64 * 1024;
const kept = new WeakMap();  // Module -> the address of its kept buffer

// o: attention()'s checked options; { output } or undefined
export function attentionOutputLean(Module, o) {
  const q = o.query, k = o.key, v = o.value, size = q.rows * v.cols;
  const qn = lengthOf(q.data), kn = lengthOf(k.data), vn = lengthOf(v.data), total = qn + kn + vn + size;
  // a length changed by a getter since the check: the general path says so
  if (qn !== q.rows * q.cols || kn !== k.rows * k.cols || vn !== v.rows * v.cols) return undefined;
  if (total > INT32_MAX / 4) return undefined;
  const small = 4 * total <= LEAN_KEPT;
  if (small && !kept.has(Module)) kept.set(Module, Module['_malloc'](LEAN_KEPT));
  const base = small ? kept.get(Module) : Module['_malloc'](4 * total);
  if (!base) return undefined;
  try {
    const qAt = base >> 2, kAt = qAt + qn, vAt = kAt + kn, outAt = vAt + vn;
    const heap = Module['HEAPF32'];  // read after malloc, which may have grown the memory
    heap.set(q.data, qAt);
    heap.set(k.data, kAt);
    heap.set(v.data, vAt);
    // (the kernel may grow the memory too: the view of the output is read after it)
    const status = Module['_raw_attention_output_lean'](
      qAt << 2, kAt << 2, vAt << 2, outAt << 2, q.rows, k.rows, v.rows, q.cols, k.cols, v.cols,
      o.scale === undefined ? NaN : o.scale, o.causal ? 1 : 0, o.validLength === undefined ? -1 : o.validLength);
    if (status !== 0) return undefined;
    return { output: { rows: q.rows, cols: v.cols, data: Module['HEAPF32'].slice(outAt, outAt + size) } };
  } finally {
    if (!small) Module['_free'](base);
  }
}
