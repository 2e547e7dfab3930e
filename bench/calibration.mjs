// GPTQ's calibration (bench/quantizers.mjs): sentences outside the encoder
// tests' set, and the second moment of the inputs of each dense matrix of the
// encoder over them, from a float64 forward pass of cpp/attention/encoder/encoder.cpp.

// Sentences outside the encoder tests' set, of the kinds a learner types.
export const CALIBRATION = [
  'The cat sat on the mat and looked out of the window.',
  'My brother lent me his bicycle because mine was broken.',
  'When the teacher entered the room, the children stopped talking.',
  'She told her friend that the concert had been cancelled.',
  'The engineers tested the bridge before they opened it to traffic.',
  'Rain is expected tomorrow afternoon in most of the northern region.',
  'Can you recommend a good book about the history of mathematics?',
  'The company reported higher profits than analysts had predicted.',
  'After dinner we walked along the river until the sun went down.',
  'He could not lift the suitcase because it was too heavy.',
  'The trophy did not fit into the brown suitcase because it was too big.',
  'A doctor visited the patient and gave him some medicine.',
  'The committee will meet on Thursday to discuss the new budget.',
  'I have never seen such a beautiful garden in my whole life.',
  'Please turn off the lights when you leave the office.',
  'The river flooded the village, and many families lost their homes.',
  'Learning a new language takes patience, practice and curiosity.',
  'The old man gave his granddaughter a small wooden box.',
  'Scientists discovered a new species of frog in the rainforest.',
  'Why do birds fly south for the winter?',
  'The orchestra played the symphony without a conductor.',
  'Our train was delayed by two hours because of the snow.',
  'The programmer fixed the bug that had crashed the server.',
  'Mary asked Susan whether she had finished the report.',
  'Attention lets every word look at every other word in the sentence.',
  'The price of coffee rose by 15% last year.',
  'They built a small house near the lake in 1987.',
  'Is it possible to travel faster than light?',
  'The children played football in the park while their parents watched.',
  'The museum is closed on Mondays and public holidays.',
  'Good morning! How are you feeling today?',
  'The pilot announced that the plane would land shortly.',
  'Water boils at one hundred degrees Celsius at sea level.',
  'The novel tells the story of a girl who runs away from home.',
  'Because the road was icy, the driver slowed down.',
  'The students handed in their essays before the deadline.',
  'Fresh bread, cheese and olives were served with the wine.',
  'The storm knocked down trees and power lines across the city.',
  'Nobody knew where the key had been hidden.',
  'The team celebrated their victory with a big party.',
  'Prices: 4.99, 12.50 and 1,250 dollars; call 555-0199 or write to info@shop.example.',
  'Crème brûlée, jalapeño and smörgåsbord — Ｗｉｄｅ letters, ① and ℃.',
  '日本語の文と English words mixed, plus emoji 🎉🚀 and ✓ marks.',
  // long inputs: every position up to the longest (128 pieces)
  'Once upon a time there was a small village at the edge of a great forest. The people who lived there were farmers, ' +
  'and every morning they went out to their fields while the children stayed at home with their grandparents. One winter ' +
  'the snow fell for many weeks, the roads were closed, and nobody could reach the market in the town beyond the hills. ' +
  'The villagers shared what they had: bread, potatoes, apples and the milk of a few goats. When spring finally came, ' +
  'they held a festival to thank each other, and the oldest woman in the village told stories until long after midnight.',
  'In the morning the researchers collected samples from the lake, measured the temperature of the water at several depths, ' +
  'and recorded the number of fish they caught in each net. In the afternoon they returned to the laboratory, where they ' +
  'analysed the samples under a microscope and compared the results with the data from previous years. They found that ' +
  'the water had become warmer and that some species had moved to deeper parts of the lake, while others had almost ' +
  'disappeared. Their report recommended that the region should reduce the amount of fertiliser that flows into the river.',
  Array.from({ length: 160 }, (_, i) => ['red', 'green', 'blue', 'big', 'small', 'dog', 'house', 'run', 'slowly', 'under'][(i * 3) % 10]).join(' '),
];

const layerNorm = (x, T, d, scale, bias, eps) => {
  const out = new Float64Array(T * d);
  for (let p = 0; p < T; p++) {
    let mean = 0, variance = 0;
    for (let j = 0; j < d; j++) mean += x[p * d + j] / d;
    for (let j = 0; j < d; j++) variance += (x[p * d + j] - mean) ** 2 / d;
    const inv = 1 / Math.sqrt(variance + eps);
    for (let j = 0; j < d; j++) out[p * d + j] = (x[p * d + j] - mean) * inv * scale[j] + bias[j];
  }
  return out;
};
// (T, n) x (n, m) + b
const dense = (x, T, n, W, m, b) => {
  const out = new Float64Array(T * m);
  for (let p = 0; p < T; p++) {
    const o = out.subarray(p * m, (p + 1) * m);
    if (b) o.set(b);
    for (let k = 0; k < n; k++) {
      const xv = x[p * n + k];
      if (xv === 0) continue;
      for (let c = 0; c < m; c++) o[c] += xv * W[k * m + c];
    }
  }
  return out;
};

// The float64 forward pass of cpp/attention/encoder/encoder.cpp on ids, calling
// seen(name, rows, n) with the input rows (T, n) of each dense matrix.
export function forwardInputs(model, ids, seen) {
  const t = model.tensors, T = ids.length, d0 = t.embeddings.cols, half = d0 / 2;
  let x = new Float64Array(T * d0);
  for (let p = 0; p < T; p++)
    for (let j = 0; j < half; j++) {
      const angle = p * t.timing.data[j];
      x[p * d0 + j] = 2 * t.embeddings.data[ids[p] * d0 + j] + Math.sin(angle);
      x[p * d0 + half + j] = 2 * t.embeddings.data[ids[p] * d0 + half + j] + Math.cos(angle);
    }
  let d = d0;
  for (let l = 0; t[`layer${l}.qkv.W`]; l++) {
    const L = (n) => t[`layer${l}.${n}`];
    const dOut = L('out.W').cols, dff = L('ffn1.W').cols, heads = model.heads, dh = d / heads;
    let residual = x;
    if (L('residual.W')) { seen(`layer${l}.residual.W`, x, d); residual = dense(x, T, d, L('residual.W').data, dOut, L('residual.b').data); }
    const h = layerNorm(x, T, d, L('norm1.scale').data, L('norm1.bias').data, model.normEps);
    seen(`layer${l}.qkv.W`, h, d);
    const qkv = dense(h, T, d, L('qkv.W').data, 3 * d, L('qkv.b').data);
    const o = new Float64Array(T * d);
    const row = new Float64Array(T);
    for (let hh = 0; hh < heads; hh++)
      for (let i = 0; i < T; i++) {
        let max = -Infinity;
        for (let j = 0; j < T; j++) {
          let s = 0;
          for (let c = 0; c < dh; c++) s += qkv[i * 3 * d + hh * dh + c] * qkv[j * 3 * d + d + hh * dh + c];
          row[j] = s / Math.sqrt(dh);
          max = Math.max(max, row[j]);
        }
        let total = 0;
        for (let j = 0; j < T; j++) total += (row[j] = Math.exp(row[j] - max));
        for (let j = 0; j < T; j++)
          for (let c = 0; c < dh; c++) o[i * d + hh * dh + c] += (row[j] / total) * qkv[j * 3 * d + 2 * d + hh * dh + c];
      }
    seen(`layer${l}.out.W`, o, d);
    const a = dense(o, T, d, L('out.W').data, dOut, L('out.b').data);
    for (let i = 0; i < a.length; i++) a[i] += residual[i];
    const g = layerNorm(a, T, dOut, L('norm2.scale').data, L('norm2.bias').data, model.normEps);
    seen(`layer${l}.ffn1.W`, g, dOut);
    const f = dense(g, T, dOut, L('ffn1.W').data, dff, L('ffn1.b').data);
    for (let i = 0; i < f.length; i++) f[i] = Math.max(0, f[i]);
    seen(`layer${l}.ffn2.W`, f, dff);
    const y = dense(f, T, dff, L('ffn2.W').data, dOut, L('ffn2.b').data);
    for (let i = 0; i < a.length; i++) a[i] += y[i];
    x = a;
    d = dOut;
  }
  const mean = new Float64Array(d);
  for (let p = 0; p < T; p++) for (let j = 0; j < d; j++) mean[j] += x[p * d + j] / T;
  seen('pool.W', mean, d);
  return x;
}

// the trace of an accumulated second moment { n, H }
function traceOf(a) {
  let s = 0;
  for (let i = 0; i < a.n; i++) s += a.H[i * a.n + i];
  return s;
}

// Per dense matrix, the second moment of its inputs over the sentences' pieces
// (idsList: the pieces of each calibration sentence): H = sum x xᵀ / count.
export function calibrate(model, idsList) {
  const acc = {};
  for (const ids of idsList)
    forwardInputs(model, ids, (name, rows, n) => {
      const a = (acc[name] ??= { n, H: new Float64Array(n * n), count: 0 });
      const T = rows.length / n;
      for (let p = 0; p < T; p++) {
        const x = rows.subarray(p * n, (p + 1) * n);
        for (let i = 0; i < n; i++) {
          const xi = x[i];
          if (xi === 0) continue;
          const Hi = a.H.subarray(i * n, (i + 1) * n);
          for (let j = 0; j < n; j++) Hi[j] += xi * x[j];
        }
      }
      a.count += T;
    });
  for (const a of Object.values(acc)) for (let i = 0; i < a.H.length; i++) a.H[i] /= a.count;
  // the embedding table has no input: a row's error reaches the outputs through
  // layer 0's residual projection and, after the layer norm, its QKV matrix.
  // Its "second moment" is that of those maps: M Mᵀ with M = [W_res, diag(γ/σ) W_qkv].
  const t = model.tensors, d = t.embeddings.cols;
  const sigma = Math.sqrt(traceOf(acc['layer0.residual.W'] ?? acc['layer0.qkv.W']) / d);
  const H = new Float64Array(d * d);
  const maps = [];
  if (t['layer0.residual.W']) maps.push({ W: t['layer0.residual.W'], g: () => 1 });
  maps.push({ W: t['layer0.qkv.W'], g: (i) => t['layer0.norm1.scale'].data[i] / sigma });
  for (const { W, g } of maps)
    for (let i = 0; i < d; i++)
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let c = 0; c < W.cols; c++) s += W.data[i * W.cols + c] * W.data[j * W.cols + c];
        s *= g(i) * g(j);
        H[i * d + j] += s;
        if (i !== j) H[j * d + i] += s;
      }
  acc.embeddings = { n: d, H, count: 1 };
  return acc;
}
