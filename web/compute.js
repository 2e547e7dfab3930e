// The only caller of the WebAssembly module: widgets ask this file for numbers,
// never compute them. Each function returns plain arrays ready for rendering.
import createAttention from './wasm/attention.mjs';

let attention;  // Promise<AttentionModule>, created on first use

// The module, instantiated once per page however many widgets ask.
export function loadAttention() {
  attention ??= createAttention();
  return attention;
}

// Throws if a number the page would show is NaN or infinite.
function finite(name, values) {
  for (const x of values) {
    if (!Number.isFinite(x)) throw new Error(`the core returned a non-finite ${name} (${x})`);
  }
  return Array.from(values);
}

// One query against scalar keys and values (Nadaraya-Watson; see kernelRegression).
// options: { keys, values, query, score, sigma } or { keys, values, weights }.
// Returns { scores (n) or null with hand-picked weights, weights (n),
//           contributions (n) = weight_i * value_i, estimate = sum of the contributions }.
export async function kernelLookup(options) {
  const att = await loadAttention();
  const result = att.kernelRegression(options);
  return {
    scores: result.scores ? finite('score', result.scores.data) : null,
    weights: finite('weight', result.weights.data),
    contributions: finite('contribution', result.contributions.data),
    estimate: finite('estimate', [result.estimate])[0],
  };
}
