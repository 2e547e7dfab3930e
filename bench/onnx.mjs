// A one-node ONNX model, written as protobuf bytes by hand (so the benchmark
// needs no Python and no model file): com.microsoft MultiHeadAttention, the
// fused attention operator of ONNX Runtime, with one head.
//
//   query (1, n_q, d), key (1, n_k, d), value (1, n_k, d_v)  ->  output (1, n_q, d_v)
//   output = softmax(query key^T / sqrt(d) [+ causal mask]) value
//
// Field numbers are those of onnx.proto (ModelProto, GraphProto, NodeProto, ...).

function varint(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

// field of a varint (wire type 0) or of bytes (wire type 2: strings, messages)
const int = (field, n) => [...varint(field << 3), ...varint(n)];
const bytes = (field, data) => [...varint((field << 3) | 2), ...varint(data.length), ...data];
const string = (field, s) => bytes(field, [...new TextEncoder().encode(s)]);

// ValueInfoProto: a float tensor with named (symbolic) dimensions
function tensor(name, dims) {
  const shape = dims.flatMap((d) => bytes(1, typeof d === 'number' ? int(1, d) : string(2, d)));
  const tensorType = [...int(1, 1 /* FLOAT */), ...bytes(2, shape)];
  return [...string(1, name), ...bytes(2, bytes(1, tensorType))];
}

// unidirectional = 1: query i attends to keys 0..i (causal)
export function multiHeadAttentionModel({ causal = false } = {}) {
  const attribute = (name, value) => [...string(1, name), ...int(20, 2 /* INT */), ...int(3, value)];
  const node = [
    ...string(1, 'query'), ...string(1, 'key'), ...string(1, 'value'), ...string(2, 'output'),
    ...string(3, 'attention'), ...string(4, 'MultiHeadAttention'), ...string(7, 'com.microsoft'),
    ...bytes(5, attribute('num_heads', 1)),
    ...(causal ? bytes(5, attribute('unidirectional', 1)) : []),
  ];
  const graph = [
    ...bytes(1, node), ...string(2, 'attention'),
    ...bytes(11, tensor('query', [1, 'n_q', 'd'])), ...bytes(11, tensor('key', [1, 'n_k', 'd'])),
    ...bytes(11, tensor('value', [1, 'n_k', 'd_v'])), ...bytes(12, tensor('output', [1, 'n_q', 'd_v'])),
  ];
  const opset = (domain, version) => [...string(1, domain), ...int(2, version)];
  return new Uint8Array([
    ...int(1, 8 /* ir_version */), ...string(2, 'attention-wasm bench'),
    ...bytes(7, graph), ...bytes(8, opset('', 17)), ...bytes(8, opset('com.microsoft', 1)),
  ]);
}
