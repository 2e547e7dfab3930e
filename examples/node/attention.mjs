// Attention for your own matrices: three queries over four keys and values,
// every step of the chain printed, then the same with the causal mask.
//   node examples/node/attention.mjs
import createAttention from '../../web/wasm/attention.mjs';

const att = await createAttention();
const rows = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), (x) => x.toFixed(3)).join('  '));
const show = (name, m) => console.log(`${name} (${m.rows} x ${m.cols})\n  ${rows(m).join('\n  ')}`);

// nested rows work as matrices; so does { rows, cols, data: Float32Array }
const query = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]];
const key = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 1, 1]];
const value = [[1, 0], [0, 1], [1, 1], [2, 2]];

const r = att.attention({ query, key, value });            // score 'dot', scaled by 1/sqrt(4)
console.log(`scale: ${r.scale}`);
show('scores Q K^T', r.scores);
show('weights softmax(scaled)', r.weights);
show('output weights V', r.output);
console.log('row sums of the weights:', Array.from(att.rowSums(r.weights), (x) => x.toFixed(3)).join(' '));

const causal = att.attention({ query, key: key.slice(0, 3), value: value.slice(0, 3), causal: true });
show('causal weights (query i sees keys 0..i)', causal.weights);
